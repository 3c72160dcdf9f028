import { EXPERIMENT_DECLARATIONS, experimentDeclaration, type ExperimentRunner } from "@persode/results";
import type { RunnableExperiment, ExperimentRunnerModule } from "./experiment.js";
import { exp1, exp2, exp3 } from "./scenario-experiments.js";
import { exp4 } from "./exp4-journals.js";
import { exp5 } from "./exp5.js";
import { exp6 } from "./exp6.js";
import { exp7 } from "./exp7.js";
import { exp8 } from "./exp8.js";

/** The runner of each `pnpm bench` target declared in @persode/results (the compiler refuses a declared target without one). */
const RUNNERS: { readonly [R in ExperimentRunner]: ExperimentRunnerModule } = { exp1, exp2, exp3, exp4, exp5, exp6, exp7, exp8 };

/**
 * The paper's six experiments (docs/spec.md §7), then Exp. 7 (the emotion-estimator study) and Exp. 8 (LongMemEval, not in `all`),
 * in declaration order: one per declared runner target, titled by its declaration.
 */
export const EXPERIMENTS: readonly RunnableExperiment[] = [...new Set(EXPERIMENT_DECLARATIONS.map((d) => d.runner))].map((id) => ({
  ...RUNNERS[id],
  id,
  title: experimentDeclaration(id).title,
}));

/** Find an experiment by id or alias (`locomo` = exp5, `epirec` = exp6). */
export function findExperiment(name: string): RunnableExperiment | undefined {
  return EXPERIMENTS.find((e) => e.id === name || e.aliases.includes(name));
}
