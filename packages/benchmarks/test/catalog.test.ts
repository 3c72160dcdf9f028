// The command line's experiment facts (catalog.ts, loaded without any runner) are the experiments' own:
// same order, same id, aliases, title and options as the registry the runs use.
import { describe, expect, it } from "vitest";
import { EXPERIMENT_LIST, findExperimentInfo } from "../src/experiments/catalog.js";
import { EXPERIMENTS, findExperiment } from "../src/experiments/index.js";
import type { ExperimentRunnerModule } from "../src/experiments/experiment.js";
import { exp1, exp2, exp3 } from "../src/experiments/scenario-experiments.js";
import { exp4 } from "../src/experiments/exp4-journals.js";
import { exp5 } from "../src/experiments/exp5.js";
import { exp6 } from "../src/experiments/exp6.js";
import { exp7 } from "../src/experiments/exp7.js";
import { exp8 } from "../src/experiments/exp8.js";

/** Each runner module as its file exports it (EXPERIMENTS imports them only when an experiment runs). */
const MODULES: Record<string, ExperimentRunnerModule> = { exp1, exp2, exp3, exp4, exp5, exp6, exp7, exp8 };

describe("experiment catalog", () => {
  it("lists the registry's experiments in order, each with the facts its runner carries", () => {
    expect(EXPERIMENT_LIST.map((e) => e.id)).toEqual(EXPERIMENTS.map((e) => e.id));
    expect(Object.keys(MODULES)).toEqual(EXPERIMENTS.map((e) => e.id));
    EXPERIMENTS.forEach((e, i) => {
      const { run: _run, ...facts } = e;
      expect(facts).toEqual(EXPERIMENT_LIST[i]);
      // the runner module itself carries the same facts
      const { run: _own, ...own } = MODULES[e.id]!;
      expect({ ...own, id: e.id, title: e.title }).toEqual(EXPERIMENT_LIST[i]);
    });
  });

  it("finds by id and alias like the registry", () => {
    for (const name of ["exp5", "locomo", "epirec", "templates", "nope"])
      expect(findExperimentInfo(name)?.id).toBe(findExperiment(name)?.id);
  });
});
