/** The harness's bootstrap defaults, in a module of their own so the command line reads them without loading the runners. */

/** The default seed of the harness's own bootstrap CIs (the EpiRec evaluator's seed). */
export const DEFAULT_SEED = 20260713;

/** Resamples of the harness's own bootstrap CIs. */
export const DEFAULT_SAMPLES = 2000;

/**
 * Turns per line of the LoCoMo rankings files (`exp5_locomo_rankings/`): a number, or "full" for every turn
 * of the conversation (`--rankings-depth N|full`).
 */
export type RankingsDepth = number | "full";

/**
 * Default depth of the LoCoMo rankings files: the top 100 turns of each question (TREC/BEIR-style run depth),
 * deeper than every @k the harness reports (@5, @10); the metrics themselves are always computed on the full ranking.
 */
export const DEFAULT_RANKINGS_DEPTH = 100;
