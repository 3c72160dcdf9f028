/**
 * What the command line needs to know of each experiment before running one — aliases, options, whether it is
 * part of `all` — without loading any runner (so `pnpm bench --help` and usage errors answer at once). The id and
 * title come from the experiment's declaration in @persode/results; each runner module spreads its facts
 * (`...RUNNER_FACTS.exp5`), and EXPERIMENTS (index.ts) lists them in declaration order.
 */
import { EXPERIMENT_DECLARATIONS, experimentDeclaration, type ExperimentRunner } from "@persode/results/experiments";
import type { RunnableExperiment, ExperimentRunnerModule } from "./experiment.js";

/** An experiment without its runner. */
export type ExperimentInfo = Omit<RunnableExperiment, "run">;

/** A runner module's command-line facts: everything but `run`. */
type RunnerFacts = Omit<ExperimentRunnerModule, "run">;

/** Every declared `pnpm bench` target's command-line facts (the compiler refuses a declared target without an entry). */
export const RUNNER_FACTS = {
  exp1: { paperOnly: true, aliases: ["forgetting"], options: [] },
  exp2: { paperOnly: true, aliases: ["scoring"], options: [] },
  exp3: { paperOnly: true, aliases: ["retrieval"], options: ["embedder", "model", "dtype"] },
  exp4: { paperOnly: true, aliases: ["journals", "templates"], options: ["embedder", "model", "dtype"] },
  exp5: {
    aliases: ["locomo"],
    options: ["embedder", "model", "dtype", "seed", "samples", "rankings-depth"],
    threads: ["rank", "statistics"],
  },
  exp6: { aliases: ["epirec"], threads: ["statistics"] },
  exp7: { aliases: ["estimators"], threads: ["statistics"] },
  exp8: { aliases: ["longmemeval"], options: ["embedder", "model", "dtype", "seed", "samples", "data"], inAll: false },
} as const satisfies { readonly [R in ExperimentRunner]: RunnerFacts };

/** The experiments in declaration order (the order of EXPERIMENTS and of `pnpm bench all`), each with its declared id and title. */
export const EXPERIMENT_LIST: readonly ExperimentInfo[] = [...new Set(EXPERIMENT_DECLARATIONS.map((d) => d.runner))].map((id) => ({
  ...RUNNER_FACTS[id],
  id,
  title: experimentDeclaration(id).title,
}));

/** Find an experiment's facts by id or alias (`locomo` = exp5, `epirec` = exp6). */
export function findExperimentInfo(name: string): ExperimentInfo | undefined {
  return EXPERIMENT_LIST.find((e) => e.id === name || e.aliases.includes(name));
}
