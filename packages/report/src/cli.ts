#!/usr/bin/env node
/**
 * `pnpm report [--results DIR] [--readme FILE | --no-readme] [--results-doc FILE | --no-results-doc] [--check]`:
 * re-render figures, manifest, report, the README's front tables and the full results document
 * (docs/results.md) from existing results (never recomputes an experiment); with --check, verify
 * instead of writing and exit 1 naming whatever drifted. The repository's README.md and
 * docs/results.md are rendered (or checked) only from the repository's results/ folder: with
 * --results naming another folder, they are left alone unless --readme / --results-doc ask for them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkAll, renderAll } from "./render-all.js";

const USAGE = "usage: pnpm report [--results DIR] [--readme FILE | --no-readme] [--results-doc FILE | --no-results-doc] [--check]";

interface Args {
  results: string;
  readme: string | undefined;
  resultsDoc: string | undefined;
  check: boolean;
}

/** The repository's results folder and README, the only pair rendered together by default. */
const DEFAULT_RESULTS = "results";
const DEFAULT_README = "README.md";
/** The repository's full results document, rendered with the README. */
const DEFAULT_RESULTS_DOC = "docs/results.md";

function parseArgs(argv: readonly string[], cwd = process.cwd()): Args {
  const args: Args = { results: DEFAULT_RESULTS, readme: DEFAULT_README, resultsDoc: DEFAULT_RESULTS_DOC, check: false };
  let readmeGiven = false;
  let resultsDocGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === "--results") args.results = value();
    else if (a === "--readme") {
      args.readme = value();
      readmeGiven = true;
    } else if (a === "--no-readme") {
      args.readme = undefined;
      readmeGiven = true;
    } else if (a === "--results-doc") {
      args.resultsDoc = value();
      resultsDocGiven = true;
    } else if (a === "--no-results-doc") {
      args.resultsDoc = undefined;
      resultsDocGiven = true;
    } else if (a === "--check") args.check = true;
    else if (a === "--help" || a === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${JSON.stringify(a)}\n${USAGE}`);
  }
  // Another folder's numbers never go into the repository's README unless --readme asks for it.
  const ownResults = resolve(cwd, args.results) === resolve(cwd, DEFAULT_RESULTS);
  if (!readmeGiven && !ownResults) args.readme = undefined;
  if (!resultsDocGiven && !ownResults) args.resultsDoc = undefined;
  return args;
}

/** The generated documents the arguments name, as render options. */
function docs(args: Args): { readmePath?: string; resultsDocPath?: string } {
  return { ...(args.readme ? { readmePath: args.readme } : {}), ...(args.resultsDoc ? { resultsDocPath: args.resultsDoc } : {}) };
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  if (!existsSync(args.results)) {
    console.error(`results directory ${args.results} does not exist — run \`pnpm bench all\` first, or pass --results DIR`);
    return 1;
  }
  if (args.check) {
    const r = await checkAll({ resultsDir: args.results, ...docs(args) });
    if (r.ok) {
      console.log(`report check: ${[args.results, args.readme, args.resultsDoc].filter(Boolean).join(", ")} agree with the results`);
      return 0;
    }
    console.error(`report check failed (${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}):`);
    for (const p of r.problems) console.error(`- ${p}`);
    return 1;
  }
  const s = await renderAll({ resultsDir: args.results, ...docs(args) });
  const figures = s.files.filter((f) => f.endsWith(".svg")).length;
  console.log(
    `report: ${s.experiments.join(", ")} → ${figures} figures, ${s.manifestPath}, ${s.reportPath}` +
      (s.readmePath ? `, ${s.readmePath} ${s.readmeChanged ? "updated" : "unchanged"}` : "") +
      (s.resultsDocPath ? `, ${s.resultsDocPath} ${s.resultsDocChanged ? "updated" : "unchanged"}` : "") +
      ` (figures ${s.timings.figuresMs} ms, total ${s.timings.totalMs} ms)`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`report failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
