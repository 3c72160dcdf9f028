import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATASETS, LONGMEMEVAL_DATASETS, PINNED_DATASETS, datasetsTable, findDataset, sourceLabel } from "../src/index.js";

describe("dataset declarations", () => {
  it("declare every pinned file once, ids and env vars unique, the bench-all group equal to PINNED_DATASETS", () => {
    const sources = DATASETS.flatMap((d) => d.sources);
    expect(sources).toEqual([...PINNED_DATASETS, ...LONGMEMEVAL_DATASETS]);
    expect(DATASETS.filter((d) => d.group === "all").flatMap((d) => d.sources)).toEqual([...PINNED_DATASETS]);
    expect(new Set(DATASETS.map((d) => d.id)).size).toBe(DATASETS.length);
    expect(new Set(sources.map((s) => s.envPathVar)).size).toBe(sources.length);
    for (const d of DATASETS) {
      expect(d.citation.length, d.id).toBeGreaterThan(20);
      expect(d.experiments.length, d.id).toBeGreaterThan(0);
      expect(d.questionSets.length, d.id).toBeGreaterThan(0);
      for (const s of d.sources) expect(s.license, d.id).toBe(d.license);
    }
    expect(findDataset("longmemeval-s")?.experiments).toEqual(["exp8"]);
  });

  it("name each source by its pinned commit or hub revision", () => {
    expect(sourceLabel(findDataset("locomo")!.sources[0]!)).toBe("`snap-research/LoCoMo@3eb6f2c` `data/locomo10.json`");
    expect(sourceLabel(findDataset("longmemeval-s")!.sources[0]!)).toBe(
      "hub `xiaowu0162/longmemeval-cleaned@98d7416` `longmemeval_s_cleaned.json`",
    );
  });

  it("the provenance table in packages/datasets/README.md is the one the registry derives", () => {
    const readme = readFileSync(join(__dirname, "../README.md"), "utf8");
    const block = /<!-- datasets:begin[^\n]*-->\n([\s\S]*?)\n<!-- datasets:end -->/.exec(readme);
    expect(block, "README.md has no datasets:begin/end block").not.toBeNull();
    expect(block![1]).toBe(datasetsTable());
  });
});
