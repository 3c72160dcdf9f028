import { DATASETS, findDataset } from "@persode/datasets";
import { EXPERIMENT_DECLARATIONS, EXPERIMENTS as DECLARED, RESULT_FILES, benchTarget, envelopeProblems } from "@persode/results";
import { describe, expect, it } from "vitest";
import { EXPERIMENTS, findExperiment } from "../src/index.js";

// An experiment is declared once, in @persode/results (issue 27); benchmarks registers a runner per declared
// target and the dataset registry says which targets read each dataset: these must agree.
describe("experiment declarations", () => {
  it("every declared runner target has exactly one runner, titled and ordered by the declarations", () => {
    const targets = [...new Set(EXPERIMENT_DECLARATIONS.map((d) => d.runner))];
    expect(EXPERIMENTS.map((e) => e.id)).toEqual(targets);
    for (const e of EXPERIMENTS) expect(e.title).toBe(EXPERIMENT_DECLARATIONS.find((d) => d.id === e.id)!.title);
    expect(findExperiment("locomo")?.id).toBe("exp5");
  });

  it("file names, document kinds and bench targets derive from the declarations", () => {
    expect(DECLARED).toEqual(EXPERIMENT_DECLARATIONS.map((d) => d.id));
    for (const d of EXPERIMENT_DECLARATIONS) {
      expect(RESULT_FILES[d.id]).toBe(d.file);
      expect(benchTarget(d.id)).toBe(d.runner);
      // the envelope check is the declaration's: a document without one of its blocks is refused, by name
      for (const b of d.envelope.blocks) expect(envelopeProblems(d.id, { meta: {} })).toContain(`${b}: missing`);
    }
    expect(benchTarget("exp5-audit")).toBe("exp5");
  });

  it("every dataset an experiment declares is in the registry, and each dataset lists exactly the targets whose experiments read it", () => {
    for (const d of EXPERIMENT_DECLARATIONS) for (const id of d.datasets) expect(findDataset(id), `${d.id} reads ${id}`).toBeDefined();
    for (const ds of DATASETS) {
      const readers = [
        ...new Set(EXPERIMENT_DECLARATIONS.filter((d) => (d.datasets as readonly string[]).includes(ds.id)).map((d) => d.runner)),
      ];
      expect([...ds.experiments].sort(), ds.id).toEqual(readers.sort());
    }
    expect(DATASETS.filter((d) => d.experiments.includes("exp8")).map((d) => d.id)).toEqual(["longmemeval-s", "longmemeval-oracle"]);
  });
});
