#!/usr/bin/env node
/**
 * `pnpm --filter @persode/datasets data` — fetch (or check offline) every declared dataset (src/declarations.ts) and report where each
 * file came from and how long resolving and parsing took; or write a synthetic LongMemEval-format file.
 * Usage: node dist/cli.js [fetch|check] [longmemeval]   (check = offline, never downloads).
 */
import { DATASETS } from "./declarations.js";
import { DatasetError } from "./errors.js";
import { synthCommand } from "./longmemeval-synth-cli.js";
import { resolveDataset, type ResolveOptions } from "./resolve.js";

const GROUPS = [...new Set(DATASETS.map((d) => d.group).filter((g) => g !== "all"))];

const USAGE =
  `usage: node dist/cli.js [fetch|check] [${GROUPS.join("|")}] | longmemeval-synth …\n` +
  "  fetch  resolve every dataset pnpm bench all needs (downloading if needed), verify and cache them\n" +
  "  check  the same, offline: never downloads\n" +
  `  fetch ${GROUPS.join("|")} / check ${GROUPS.join("|")}  the same for that group of optional datasets (${DATASETS.filter(
    (d) => d.group !== "all",
  )
    .map((d) => d.id)
    .join(", ")})\n` +
  "  longmemeval-synth --out FILE [--seed N] [--questions N] [--sessions N] [--turns N] [--words N]\n" +
  "         write a seeded synthetic LongMemEval-format file";

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
  const group = argv[1] ?? "all";
  if (group !== "all" && !GROUPS.includes(group as (typeof GROUPS)[number])) {
    process.stderr.write(`unknown dataset group "${group}"\n${USAGE}\n`);
    return 2;
  }
  const opts: ResolveOptions = cmd === "check" ? { offline: true } : {};
  const ms = (a: number, b: number) => `${(b - a).toFixed(1)} ms`;
  const t0 = performance.now();
  for (const d of DATASETS.filter((x) => x.group === group)) {
    const a0 = performance.now();
    for (const s of d.sources) {
      const f = await resolveDataset(s, opts);
      process.stdout.write(`${s.fileName}: ${f.source} ${f.path}\n  sha256 ${f.sha256} (verified)\n`);
    }
    const a1 = performance.now();
    const counts = await d.summarize(opts);
    process.stdout.write(`  ${d.title}: resolve ${ms(a0, a1)}, load and parse ${ms(a1, performance.now())}: ${counts}\n`);
  }
  process.stdout.write(`total ${ms(t0, performance.now())}\n`);
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
