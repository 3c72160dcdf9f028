/** The harness's bootstrap defaults, in a module of their own so the command line reads them without loading the runners. */

/** The default seed of the harness's own bootstrap CIs (the EpiRec evaluator's seed). */
export const DEFAULT_SEED = 20260713;

/** Resamples of the harness's own bootstrap CIs. */
export const DEFAULT_SAMPLES = 2000;
