// The command line's experiment facts (catalog.ts, loaded without any runner) are the experiments' own:
// same order, same id, aliases, title and options as the registry the runs use.
import { describe, expect, it } from "vitest";
import { EXPERIMENT_LIST, findExperimentInfo } from "../src/experiments/catalog.js";
import { EXPERIMENTS, findExperiment, loadRunner } from "../src/experiments/index.js";

describe("experiment catalog", () => {
  it("lists the registry's experiments in order, each with the facts its runner carries", async () => {
    expect(EXPERIMENT_LIST.map((e) => e.id)).toEqual(EXPERIMENTS.map((e) => e.id));
    for (const [i, e] of EXPERIMENTS.entries()) {
      const { run: _run, ...facts } = e;
      expect(facts).toEqual(EXPERIMENT_LIST[i]);
      // the runner module itself, loaded as a run loads it, carries the same facts
      const { run: _own, ...own } = await loadRunner(e.id);
      expect({ ...own, id: e.id, title: e.title }).toEqual(EXPERIMENT_LIST[i]);
    }
  });

  it("finds by id and alias like the registry", () => {
    for (const name of ["exp5", "locomo", "epirec", "templates", "nope"])
      expect(findExperimentInfo(name)?.id).toBe(findExperiment(name)?.id);
  });
});
