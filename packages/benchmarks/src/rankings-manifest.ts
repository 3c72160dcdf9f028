/**
 * The manifest of the LoCoMo rankings folder, `exp5_locomo_rankings/rankings.json`: per run key, how deep its
 * files rank (`depth`: turns per line, or "full"), the embedder, the data, the question count and, per file, its
 * strategy, lines, turns per line, bytes and sha256 — so a reader of the folder knows what each file holds
 * without guessing (docs/results-format.md). Runs of other embedders are kept, as the results files keep them.
 */
import type { EmbedderRecord } from "@persode/results";
import type { RankingsDepth } from "./defaults.js";
import { mergeRuns } from "./result-records.js";

/** The manifest's file name inside the rankings folder. */
export const RANKINGS_MANIFEST = "rankings.json";

/** What the manifest says of every file it lists (its first key, so it reads first). */
const RANKINGS_MANIFEST_ABOUT =
  "Exp. 5's LoCoMo rankings, one file per run and strategy (<run>_<slug>.jsonl): one JSON line per included question, " +
  "sample_id, qa_index, category, gold and ranked_dia_ids (best first), plus near_ties on a neural model's run. " +
  'ranked_dia_ids holds the first `depth` turns of the strategy\'s full ranking ("full": every turn of the conversation). ' +
  "Every metric in results/exp5_*.json is computed on the full rankings, in memory; a measure computed from these files " +
  "that reads deeper than `depth` (MRR, session-level measures) is the truncated ranking's, e.g. MRR@100. " +
  "pnpm bench exp5 --rankings-depth full writes every turn.";

/** One rankings file as the manifest records it. */
export interface RankingsFileRecord {
  file: string;
  strategy: string;
  slug: string;
  lines: number;
  turns_per_line: { min: number; max: number };
  bytes: number;
  sha256: string;
}

/** One run's entry: its embedder, data, depth, questions, the conversations' sizes and its files. */
export interface RankingsManifestRun {
  embedder: EmbedderRecord;
  data_sha256: string;
  generated_by: string;
  depth: RankingsDepth;
  questions: number;
  turns_per_conversation: { min: number; max: number };
  files: RankingsFileRecord[];
}

/** The manifest document. */
export interface RankingsManifest {
  about: string;
  runs: Record<string, RankingsManifestRun>;
}

/**
 * The manifest after this run: `previous` (the folder's manifest, if any) keeps the runs of other keys that ranked
 * the same data and whose files are all still in the folder (`present`); this run's entry replaces its own key's.
 * Run keys are ordered hashing first, then alphabetically, as in the results files.
 */
export function rankingsManifest(
  previous: Record<string, unknown> | undefined,
  runKey: string,
  run: RankingsManifestRun,
  present: (file: string) => boolean,
): RankingsManifest {
  const before = (previous?.runs ?? {}) as Record<string, Partial<RankingsManifestRun> | undefined>;
  const kept = Object.fromEntries(
    Object.entries(before).filter(
      ([k, r]) =>
        k !== runKey &&
        r?.data_sha256 === run.data_sha256 &&
        Array.isArray(r.files) &&
        r.files.every((f) => typeof f?.file === "string" && present(f.file)),
    ),
  );
  return { about: RANKINGS_MANIFEST_ABOUT, runs: mergeRuns({ runs: kept }, runKey, run) as Record<string, RankingsManifestRun> };
}
