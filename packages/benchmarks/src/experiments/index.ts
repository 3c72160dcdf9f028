import type { Experiment } from "./experiment.js";
import { exp1, exp2, exp3 } from "./scenario-experiments.js";
import { exp4 } from "./exp4-journals.js";
import { exp5 } from "./exp5.js";
import { exp6 } from "./exp6.js";

/** The paper's six experiments, in order (docs/spec.md §7). */
export const EXPERIMENTS: readonly Experiment[] = [exp1, exp2, exp3, exp4, exp5, exp6];

/** Find an experiment by id or alias (`locomo` = exp5, `epirec` = exp6). */
export function findExperiment(name: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.id === name || e.aliases.includes(name));
}
