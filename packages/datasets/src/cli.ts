#!/usr/bin/env node
/**
 * `persode-data` — fetch (or check offline) every pinned dataset and report where each came from and how long
 * resolving and parsing took. Usage: node dist/cli.js [fetch|check]   (check = offline, never downloads).
 */
import { corpusCounts } from "./corpus.js";
import { parseEpiRec } from "./epirec.js";
import { DatasetError } from "./errors.js";
import { parseJsonBytes } from "./json.js";
import { parseLocomo } from "./locomo.js";
import { parseLocomoAudit } from "./locomo-audit.js";
import { EMOBANK, EPIREC, LOCOMO, LOCOMO_AUDIT, LONGMEMEVAL_DATASETS } from "./pinned.js";
import { loadLongMemEval } from "./longmemeval.js";
import { EMOBANK_SPLITS, parseEmoBank } from "./emobank.js";
import { resolveDataset, type ResolveOptions } from "./resolve.js";
import { synthCommand } from "./longmemeval-synth-cli.js";

const USAGE =
  "usage: node dist/cli.js [fetch|check [longmemeval]|longmemeval-synth]\n  fetch  resolve every pinned dataset (downloading if needed) and cache them\n  check  the same, offline: never downloads\n" +
  "  fetch longmemeval / check longmemeval  the same for LongMemEval_S and oracle (not needed by pnpm bench all)\n" +
  "  longmemeval-synth --out FILE [--seed N] [--questions N] [--sessions N] [--turns N] [--words N]\n         write a seeded synthetic LongMemEval-format file";

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0] ?? "fetch";
  if (cmd === "-h" || cmd === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (cmd === "longmemeval-synth") return synthCommand(argv.slice(1), USAGE);
  if (cmd !== "fetch" && cmd !== "check") {
    process.stderr.write(`unknown command "${cmd}"\n${USAGE}\n`);
    return 2;
  }
  const opts: ResolveOptions = cmd === "check" ? { offline: true } : {};
  if (argv[1] === "longmemeval") return longmemevalFiles(opts);
  if (argv[1] !== undefined) {
    process.stderr.write(`unknown dataset group "${argv[1]}"\n${USAGE}\n`);
    return 2;
  }
  const ms = (a: number, b: number) => `${(b - a).toFixed(1)} ms`;
  const t0 = performance.now();

  const a0 = performance.now();
  const lf = await resolveDataset(LOCOMO, opts);
  const a1 = performance.now();
  const locomo = parseLocomo(parseJsonBytes(lf.bytes, lf.path), lf.sha256, lf.path);
  const a2 = performance.now();
  const turns = locomo.conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  const qa = locomo.conversations.reduce((n, c) => n + c.qa.length, 0);
  process.stdout.write(
    `${LOCOMO.fileName}: ${lf.source} ${lf.path}\n  sha256 ${lf.sha256} (verified)\n` +
      `  resolve ${ms(a0, a1)}, parse ${ms(a1, a2)}: ${locomo.conversations.length} conversations, ${turns} turns, ${qa} QA\n`,
  );

  const b0 = performance.now();
  const ef = await resolveDataset(EPIREC, opts);
  const b1 = performance.now();
  const epirec = parseEpiRec(parseJsonBytes(ef.bytes, ef.path), ef.sha256, ef.path);
  const b2 = performance.now();
  const c = corpusCounts(epirec);
  process.stdout.write(
    `${EPIREC.fileName}: ${ef.source} ${ef.path}\n  sha256 ${ef.sha256} (verified)\n` +
      `  resolve ${ms(b0, b1)}, parse ${ms(b1, b2)}: ${c.personas} personas, ${c.episodes} episodes, ${c.probes} probes\n`,
  );
  const d0 = performance.now();
  const af = await resolveDataset(LOCOMO_AUDIT, opts);
  const d1 = performance.now();
  const audit = parseLocomoAudit(parseJsonBytes(af.bytes, af.path), locomo, af.sha256, af.path);
  const d2 = performance.now();
  const asSet = (xs: readonly string[]) => [...new Set(xs)].sort().join("\u0000");
  const changed = audit.entries.filter((e) => asSet(e.correctEvidence) !== asSet(e.citedEvidence)).length;
  process.stdout.write(
    `${LOCOMO_AUDIT.fileName}: ${af.source} ${af.path}\n  sha256 ${af.sha256} (verified)\n` +
      `  resolve ${ms(d0, d1)}, parse and check against LoCoMo ${ms(d1, d2)}: ${audit.entries.length} audited questions, ${changed} with changed evidence\n`,
  );

  const e0 = performance.now();
  const bf = await resolveDataset(EMOBANK, opts);
  const e1 = performance.now();
  const emobank = parseEmoBank(bf.bytes, bf.sha256, bf.path);
  const e2 = performance.now();
  const bySplit = EMOBANK_SPLITS.map((sp) => `${emobank.sentences.filter((x) => x.split === sp).length} ${sp}`).join(", ");
  process.stdout.write(
    `${EMOBANK.fileName}: ${bf.source} ${bf.path}\n  sha256 ${bf.sha256} (verified)\n` +
      `  resolve ${ms(e0, e1)}, parse ${ms(e1, e2)}: ${emobank.sentences.length} sentences (${bySplit})\n`,
  );
  process.stdout.write(`total ${ms(t0, performance.now())}\n`);
  return 0;
}

/** `fetch longmemeval` / `check longmemeval`: resolve, verify and parse LongMemEval_S and oracle. */
async function longmemevalFiles(opts: ResolveOptions): Promise<number> {
  for (const ds of LONGMEMEVAL_DATASETS) {
    const t0 = performance.now();
    const d = await loadLongMemEval({ ...opts, pinned: ds });
    const turns = d.questions.reduce((n, q) => n + q.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
    process.stdout.write(
      `${ds.fileName}: ${d.provenance.source}\n  sha256 ${d.sha256} (verified)\n  ${(performance.now() - t0).toFixed(1)} ms: ${d.questions.length} questions, ${turns} turns; quirks ${JSON.stringify(d.quirks)}\n`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof DatasetError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
