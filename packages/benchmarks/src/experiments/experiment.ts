import type { Embedder } from "@persode/core";
import type { ExperimentRunner } from "@persode/results";
import type { EpisodicCorpus, LocomoDataset, LongMemEvalDataset, LongMemEvalProvenance } from "@persode/datasets";
import type { RankingsDepth } from "../defaults.js";

/** What every experiment gets from the runner: where to write, which embedder, seeds, data. */
export interface ExperimentContext {
  /** Output folder. */
  out: string;
  /** The run key results are filed under: "hashing" or the model's name (e.g. "all-MiniLM-L6-v2"); `embedder().name` is the family. */
  runKey: string;
  /** The embedder, built lazily on first use and shared by all experiments of a run. */
  embedder(): Promise<Embedder>;
  /** Seed and resample count of the harness's bootstrap CIs. */
  seed: number;
  samples: number;
  /** Turns per line of the LoCoMo rankings files (`--rankings-depth N|full`, default 100); no metric depends on it. */
  rankingsDepth: RankingsDepth;
  /** The pinned datasets, loaded lazily and once. */
  locomo(): Promise<LocomoDataset>;
  epirec(): Promise<EpisodicCorpus>;
  /** LongMemEval: `--data FILE` when given, else the pinned LongMemEval_S (Exp. 8). */
  longmemeval(): Promise<LongMemEvalDataset & { provenance: LongMemEvalProvenance }>;
  /** The target as typed, recorded in `meta.generated_by`. */
  target: string;
  /**
   * Whether this run enters the paper-format files (Exp. 1–6's own): true for hashing, the paper's
   * all-MiniLM-L6-v2 and any plugin embedder; false for the other declared models (bge-small-en-v1.5,
   * e5-small-v2), whose runs go only to the extended, audited and Exp. 7 files (issue 21).
   */
  paperFormat: boolean;
}

/** What an experiment reports back for the summary table and timings. */
export interface ExperimentReport {
  /** Files written, relative to `out`. */
  files: string[];
  /** Human-readable headline rows: [label, value]. */
  summary: [string, string][];
  /** Work counters for throughput (e.g. questions, ranked memories). */
  counters?: Record<string, number>;
}

/**
 * One experiment of the evaluation as `pnpm bench` runs it: its runner module registered against a declared
 * `pnpm bench` target (`EXPERIMENT_DECLARATIONS` in @persode/results), with the id and title of that declaration.
 */
export interface RunnableExperiment extends ExperimentRunnerModule {
  id: ExperimentRunner;
  title: string;
}

/** What a runner module provides; its id and title come from its declaration (experiments/index.ts registers it). */
export interface ExperimentRunnerModule {
  aliases: readonly string[];
  /**
   * The `pnpm bench` options the experiment reads besides --out and --plugin (e.g. "embedder",
   * "seed"); any other option on a run of this experiment alone is a usage error. Omitted: all.
   */
  options?: readonly ("embedder" | "model" | "dtype" | "seed" | "samples" | "data" | "rankings-depth")[];
  /** Part of `pnpm bench all`; default true (Exp. 8 is not: its data is not in the mirror). */
  inAll?: boolean;
  /** Writes only paper-format files, so a run that does not enter them (`paperFormat` false) skips it. */
  paperOnly?: boolean;
  /**
   * The helper threads its run uses: the rank worker (./rank-worker.ts) and the statistics pool (./stats/thread-pool.ts).
   * A run that will certainly compute (no result cache to replay from) starts them before loading the runner's code.
   */
  threads?: readonly ("rank" | "statistics")[];
  run(ctx: ExperimentContext): Promise<ExperimentReport>;
}
