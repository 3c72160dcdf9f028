/**
 * What the command line needs to know of each experiment before running one — id, aliases, title, options —
 * without loading any experiment's code (so `pnpm bench --help` and usage errors answer at once). Each
 * experiment module spreads its entry into its Experiment; EXPERIMENTS (index.ts) lists them in this order.
 */
import type { Experiment } from "./experiment.js";

/** An experiment without its runner. */
export type ExperimentInfo = Omit<Experiment, "run">;

/** Every experiment's command-line facts, by id. */
export const EXPERIMENT_INFO = {
  exp1: { id: "exp1", paperOnly: true, aliases: ["forgetting"], options: [], title: "Exp. 1 — forgetting curve and consolidation" },
  exp2: { id: "exp2", paperOnly: true, aliases: ["scoring"], options: [], title: "Exp. 2 — Eq. 1 weight ablation" },
  exp3: { id: "exp3", paperOnly: true, aliases: ["retrieval"], options: ["embedder", "model", "dtype"], title: "Exp. 3 — salience-aware retrieval on the scenario" },
  exp4: { id: "exp4", paperOnly: true, aliases: ["journals", "templates"], options: ["embedder", "model", "dtype"], title: "Exp. 4 — dual-template generation" },
  exp5: { id: "exp5", aliases: ["locomo"], title: "Exp. 5 — LoCoMo evidence retrieval" },
  exp6: { id: "exp6", aliases: ["epirec"], title: "Exp. 6 — EpiRec v1.0 episodic recall" },
  exp7: { id: "exp7", aliases: ["estimators"], title: "Exp. 7 — which emotion estimator makes salience earn its keep" },
  exp8: { id: "exp8", aliases: ["longmemeval"], title: "Exp. 8 — LongMemEval retrieval (official protocol and Persode's)", options: ["embedder", "model", "dtype", "seed", "samples", "data"], inAll: false },
} as const satisfies Record<string, ExperimentInfo>;

/** The experiments in registry order (the order of EXPERIMENTS). */
export const EXPERIMENT_LIST: readonly ExperimentInfo[] = Object.values(EXPERIMENT_INFO);

/** Find an experiment's facts by id or alias (`locomo` = exp5, `epirec` = exp6). */
export function findExperimentInfo(name: string): ExperimentInfo | undefined {
  return EXPERIMENT_LIST.find((e) => e.id === name || e.aliases.includes(name));
}
