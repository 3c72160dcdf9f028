/**
 * The command line of `pnpm bench`: its usage text, its options, and every check that needs no run — so `--help` and
 * usage errors are answered by this module alone (scripts/bench.mjs asks it before starting the supervised run), without
 * loading the workspace's packages, datasets, experiments or evaluators.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DECLARED_MODELS } from "@persode/datasets/models";
import { offlineFromEnv, parseEnvFlag } from "@persode/util";
import { EXPERIMENT_LIST, findExperimentInfo } from "./experiments/catalog.js";
import {
  MAX_SAMPLES,
  MAX_SEED,
  UsageError,
  callerCwd,
  embedderChoices,
  embedderOption,
  intOption,
  rankingsDepthOption,
} from "./options.js";
import { DEFAULT_RANKINGS_DEPTH, DEFAULT_SAMPLES, DEFAULT_SEED, type RankingsDepth } from "./defaults.js";
import { resultsFolder } from "./staging.js";

const USAGE = `Usage: pnpm bench <target> [options]

Targets:
  all                 every experiment, Exp. 1–7, with hashing and every declared model (then the report is rendered; Exp. 8 runs on its own)
${EXPERIMENT_LIST.map((e) => `  ${[e.id, ...e.aliases.slice(0, 1)].join(" | ").padEnd(20)}${e.title}`).join("\n")}
  epirec-eval         evaluate an external EpiRec rankings JSONL with the official rules
  locomo-eval         score an external LoCoMo rankings JSONL under every protocol of the ladder, paired with the built-in strategies
  longmemeval-eval    score an external LongMemEval rankings JSONL under LongMemEval's official protocol
  corpus              every strategy on your own journal corpus (two CSV files)

Options:
  --embedder NAME     ${embedderChoices().join(" | ")} (default: hashing; for all: hashing, then ${DECLARED_MODELS.filter(
    (m) => m.paper || m.inBenchAll,
  )
    .map((m) => m.name)
    .join(", ")});
                      a declared model is provisioned and verified like \`pnpm model fetch NAME\`
  --model ID --dtype D   model id / weight dtype of a neural embedder (default Xenova/all-MiniLM-L6-v2, fp32)
  --out DIR           results folder (default results/)
  --seed N            bootstrap seed (default ${DEFAULT_SEED})
  --samples N         bootstrap resamples (default ${DEFAULT_SAMPLES}, at most ${MAX_SAMPLES})
  --rankings-depth D  exp5 and all: turns per line of the LoCoMo rankings files, a positive integer or full
                      (every turn; default ${DEFAULT_RANKINGS_DEPTH}); metrics always read the full rankings
  --plugin FILE       load a module first (e.g. one that calls registerStrategy); repeatable (a run with one is never cached)
  --no-cache          recompute every experiment (default: an experiment run whose code, options, data, embeddings and
                      read files are unchanged is replayed from the result cache, checked by sha256; PERSODE_RESULT_CACHE=0 too)
  -h, --help          this text

exp8:         [--data FILE]  any LongMemEval-format file (default: the pinned LongMemEval_S)
epirec-eval:  --rankings FILE --output FILE [--data FILE]
locomo-eval:  --rankings FILE --output FILE [--allow-missing] [--seed N] [--samples N] [--report DIR [--name NAME]] [--embedder NAME [--model ID --dtype D]]
              one JSON object per line: sample_id, qa_index, ranked_dia_ids (optional latency_ms)
longmemeval-eval: --rankings FILE --output FILE [--data FILE] [--allow-missing] [--seed N] [--samples N] [--report DIR [--name NAME]]
              one JSON object per line: question_id, ranked_ids (turn ids <session_id>_<n> or session ids; optional latency_ms)
corpus:       --episodes FILE --probes FILE [--now ISO] [--name NAME] [--embedder …] [--out DIR]`;

/** The command-line options of `pnpm bench`, as node:util parseArgs declares them. */
const OPTIONS = {
  embedder: { type: "string" },
  out: { type: "string" },
  seed: { type: "string" },
  samples: { type: "string" },
  rankings: { type: "string" },
  output: { type: "string" },
  data: { type: "string" },
  episodes: { type: "string" },
  probes: { type: "string" },
  now: { type: "string" },
  name: { type: "string" },
  plugin: { type: "string", multiple: true },
  model: { type: "string" },
  dtype: { type: "string" },
  "allow-missing": { type: "boolean" },
  report: { type: "string" },
  "rankings-depth": { type: "string" },
  "no-cache": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Options an experiment target reads when its catalog entry lists none of its own (exp6, exp7); each other target lists its own below. */
const EXPERIMENT_OPTIONS = ["embedder", "model", "dtype", "out", "seed", "samples", "plugin", "no-cache"] as const;

/** The options each non-experiment target reads, and `all` (the experiments' options and Exp. 5's --rankings-depth). */
const TARGET_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  "epirec-eval": ["rankings", "output", "data", "plugin"],
  all: [...EXPERIMENT_OPTIONS, "rankings-depth"],
  "locomo-eval": ["rankings", "output", "allow-missing", "seed", "samples", "report", "name", "embedder", "model", "dtype"],
  "longmemeval-eval": ["rankings", "output", "data", "allow-missing", "seed", "samples", "report", "name"],
  corpus: ["episodes", "probes", "now", "name", "embedder", "model", "dtype", "out", "seed", "samples", "plugin"],
};

/**
 * Parse `pnpm bench` arguments (throws on an unknown option or a missing value). A value that looks
 * like a negative number (`--seed -3`) is taken as the option's value, so it reaches the option's own
 * check instead of parseArgs' "ambiguous argument" error.
 */
function parseBenchArgs(argv: readonly string[]) {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith("--") ? a.slice(2) : undefined;
    const next = argv[i + 1];
    if (
      name !== undefined &&
      (OPTIONS as Record<string, { type: string }>)[name]?.type === "string" &&
      next !== undefined &&
      /^-[\d.]/.test(next)
    ) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  return parseArgs({ args, allowPositionals: true, options: OPTIONS });
}

function unknownTarget(target: string): string {
  return `unknown target "${target}"; known: all, ${EXPERIMENT_LIST.map((e) => [e.id, ...e.aliases].join("/")).join(", ")}, epirec-eval, locomo-eval, longmemeval-eval, corpus`;
}

/** An option the target does not read is a usage error, never silently ignored. */
function rejectUnusedOptions(target: string, values: Record<string, unknown>): void {
  const own = findExperimentInfo(target)?.options;
  const allowed: readonly string[] = TARGET_OPTIONS[target] ?? (own ? ["out", "plugin", "no-cache", ...own] : EXPERIMENT_OPTIONS);
  const unused = Object.keys(values).filter((k) => k !== "help" && values[k] !== undefined && !allowed.includes(k));
  if (unused.length > 0) {
    throw new UsageError(
      `${target} does not use ${unused.map((k) => `--${k}`).join(", ")}; it accepts ${allowed.map((k) => `--${k}`).join(", ")}`,
    );
  }
}

/** The parsed option values of `pnpm bench`. */
export type BenchValues = ReturnType<typeof parseBenchArgs>["values"];

/** A command line that passed every check made before plugins are loaded. */
export interface CheckedCommandLine {
  target: string;
  /** An experiment target (all, exp1–8), which writes a results folder. */
  experimentTarget: boolean;
  /** The results folder of an experiment target. */
  out: string | undefined;
  seed: number;
  samples: number;
  /** Turns per line of the LoCoMo rankings files (exp5, all). */
  rankingsDepth: RankingsDepth;
}

/**
 * The checks of a parsed command line that come before any plugin is loaded, in the order the CLI makes them: one
 * target, the environment's flags, a known target, only options the target reads, the results folder, seed and
 * samples. Throws a UsageError naming what is wrong.
 */
export function checkCommandLine(values: BenchValues, positionals: readonly string[]): CheckedCommandLine {
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? "no target given" : `one target expected, got ${positionals.join(" ")}`);
  // The environment's flags are read one way by every command (pnpm model refuses the same values), and up front.
  try {
    offlineFromEnv(process.env);
    parseEnvFlag("PERSODE_PROGRESS", process.env.PERSODE_PROGRESS);
    parseEnvFlag("PERSODE_RESULT_CACHE", process.env.PERSODE_RESULT_CACHE);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const target = positionals[0]!;
  const experimentTarget = target !== "epirec-eval" && target !== "locomo-eval" && target !== "longmemeval-eval" && target !== "corpus";
  if (experimentTarget && target !== "all" && findExperimentInfo(target) === undefined) throw new UsageError(unknownTarget(target));
  rejectUnusedOptions(target, values);
  // Options are checked before any work: a plugin is loaded only for a run that can go ahead.
  const out = experimentTarget ? resultsFolder(values.out, resolve("results"), callerCwd()) : undefined;
  const seed = intOption(values.seed, "seed", DEFAULT_SEED, 0, MAX_SEED);
  const samples = intOption(values.samples, "samples", DEFAULT_SAMPLES, 1, MAX_SAMPLES);
  const rankingsDepth = rankingsDepthOption(values["rankings-depth"], DEFAULT_RANKINGS_DEPTH);
  return { target, experimentTarget, out, seed, samples, rankingsDepth };
}

/**
 * The parsed command line, or, when it cannot be parsed or asks for `--help`, the exit code after printing what the
 * CLI prints for it (the error and the usage: 2; the usage: 0).
 */
export function parseOrAnswer(argv: readonly string[]): ReturnType<typeof parseBenchArgs> | number {
  let parsed;
  try {
    parsed = parseBenchArgs(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  return parsed;
}

/** Print a command-line error as the CLI does: the message, then where to find the usage; the exit code is 2. */
export function reportUsageError(e: UsageError): number {
  process.stderr.write(`error: ${e.message}\n`);
  process.stderr.write(`\nRun "pnpm bench --help" for usage.\n`);
  return 2;
}

/**
 * Answer the command line without running anything when it asks for the usage or is a usage error: prints what the
 * CLI would print and returns its exit code (0 for --help, 2 for an error); undefined when the run should go ahead.
 * Besides checkCommandLine it checks an experiment target's --embedder when no --plugin is given (a plugin may register
 * embedders); every later check is the run's own.
 */
export function answerUsage(argv: readonly string[]): number | undefined {
  const parsed = parseOrAnswer(argv);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  try {
    const { experimentTarget } = checkCommandLine(values, positionals);
    if (experimentTarget && values.plugin === undefined && values.embedder !== undefined) embedderOption(values.embedder);
  } catch (e) {
    if (e instanceof UsageError) return reportUsageError(e);
    throw e;
  }
  return undefined;
}
