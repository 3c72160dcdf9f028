import type { ExperimentRunner } from "@persode/results/experiments";
import type { RunnableExperiment, ExperimentRunnerModule } from "./experiment.js";
import { EXPERIMENT_LIST } from "./catalog.js";

/**
 * The runner module of each `pnpm bench` target declared in @persode/results (the compiler refuses a declared target
 * without one), imported when that experiment runs: a run loads only its own experiments' code.
 */
const RUNNERS: { readonly [R in ExperimentRunner]: () => Promise<ExperimentRunnerModule> } = {
  exp1: async () => (await import("./scenario-experiments.js")).exp1,
  exp2: async () => (await import("./scenario-experiments.js")).exp2,
  exp3: async () => (await import("./scenario-experiments.js")).exp3,
  exp4: async () => (await import("./exp4-journals.js")).exp4,
  exp5: async () => (await import("./exp5.js")).exp5,
  exp6: async () => (await import("./exp6.js")).exp6,
  exp7: async () => (await import("./exp7.js")).exp7,
  exp8: async () => (await import("./exp8.js")).exp8,
};

/** The runner module of a declared experiment (its facts are the catalog's: the runner spreads RUNNER_FACTS). */
function loadRunner(id: ExperimentRunner): Promise<ExperimentRunnerModule> {
  return RUNNERS[id]();
}

/**
 * The paper's six experiments (docs/spec.md §7), then Exp. 7 (the emotion-estimator study) and Exp. 8 (LongMemEval, not in `all`),
 * in declaration order: one per declared runner target, titled by its declaration, its runner loaded when it runs.
 */
export const EXPERIMENTS: readonly RunnableExperiment[] = EXPERIMENT_LIST.map((e) => ({
  ...e,
  run: async (ctx) => (await loadRunner(e.id)).run(ctx),
}));

/** Find an experiment by id or alias (`locomo` = exp5, `epirec` = exp6). */
export function findExperiment(name: string): RunnableExperiment | undefined {
  return EXPERIMENTS.find((e) => e.id === name || e.aliases.includes(name));
}
