/**
 * The one list of result file names: every file `pnpm bench` writes and the report reads is named
 * here, so the writer and the reader cannot disagree (docs/results.md).
 */

/** The experiments with a paper-format results file, in the order the report presents them (Exp. 8's is written only by `pnpm bench exp8`, never by `all`). */
export const EXPERIMENTS = ["exp1", "exp2", "exp3", "exp4", "exp5", "exp5-audit", "exp5-protocols", "exp6", "exp7", "exp8"] as const;
/** One experiment key. */
export type Experiment = (typeof EXPERIMENTS)[number];

/** The run key of the hashing embedder: its Exp. 3 and 4 files keep the reference's names. */
export const HASHING_RUN = "hashing";

/** The paper-format results file of each experiment (docs/spec.md §7). */
export const RESULT_FILES: Readonly<Record<Experiment, string>> = {
  exp1: "exp1_forgetting_curve.json",
  exp2: "exp2_memory_scoring.json",
  exp3: "exp3_retrieval.json",
  exp4: "exp4_journals.json",
  exp5: "exp5_locomo.json",
  "exp5-audit": "exp5_locomo_audited.json",
  "exp5-protocols": "exp5_locomo_protocols.json",
  exp6: "exp6_epirec.json",
  exp7: "exp7_estimators.json",
  exp8: "exp8_longmemeval.json",
};

/** The experiments whose files hold one run per embedder in a single file. */
export type ExtendedExperiment = "exp5" | "exp6";

/**
 * The "beyond the paper" file each benchmark writes beside its paper-format file: every strategy of
 * the extended set with paired tests against similarity-only.
 */
export const EXTENDED_FILES: Readonly<Record<ExtendedExperiment, string>> = {
  exp5: "exp5_locomo_extended.json",
  exp6: "exp6_epirec_extended.json",
};

/** Exp. 7's per-item scores: the paired inputs of every comparison it states. */
export const EXP7_PER_ITEM_FILE = "exp7_per_item_scores.json";

/** Exp. 7's fitted EmoBank regressor for one embedder run. */
export function emobankModelFile(runKey: string): string {
  return `exp7_emobank_model_${runKey}.json`;
}

/** The experiments written once per embedder, each run to its own file. */
export type PerRunExperiment = "exp3" | "exp4";

const STEMS: Readonly<Record<PerRunExperiment, string>> = { exp3: "exp3_retrieval", exp4: "exp4_journals" };

/** The file of one embedder's Exp. 3 or 4 run: hashing keeps the reference's name, a model's run adds `_<run key>`. */
export function perRunFile(experiment: PerRunExperiment, runKey: string, ext = ".json"): string {
  const stem = STEMS[experiment];
  return runKey === HASHING_RUN ? `${stem}${ext}` : `${stem}_${runKey}${ext}`;
}

/** The run key of a model's Exp. 3 or 4 results file name, or undefined when `file` is not one. */
export function perRunKeyOf(experiment: PerRunExperiment, file: string): string | undefined {
  const stem = `${STEMS[experiment]}_`;
  return file.startsWith(stem) && file.endsWith(".json") && file.length > stem.length + 5 ? file.slice(stem.length, -5) : undefined;
}

/** The rankings folder of a benchmark, e.g. `exp5_locomo_rankings`. */
export function rankingsDir(experiment: ExtendedExperiment): string {
  return RESULT_FILES[experiment].replace(/\.json$/, "_rankings");
}

/** One strategy's rankings file (without extension) inside a rankings folder: `<run key>_<slug>`. */
export function rankingsStem(runKey: string, slug: string): string {
  return `${runKey}_${slug}`;
}

/** The files `pnpm bench corpus` writes for a corpus slug: the Exp. 6 layout under the corpus's name. */
export function corpusFiles(slug: string): { results: string; extended: string; rankings: string } {
  return { results: `corpus_${slug}.json`, extended: `corpus_${slug}_extended.json`, rankings: `corpus_${slug}_rankings` };
}

/** The `pnpm bench` target that writes an experiment's results file (Exp. 5 writes every LoCoMo file). */
export function benchTarget(e: Experiment): string {
  return e === "exp5-audit" || e === "exp5-protocols" ? "exp5" : e;
}
