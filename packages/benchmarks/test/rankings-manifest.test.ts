import { describe, expect, it } from "vitest";
import { rankingsManifest, type RankingsManifestRun } from "../src/rankings-manifest.js";

function run(key: string, depth: number | "full", data = "d1"): RankingsManifestRun {
  return {
    embedder: { name: key, id: `${key}-id`, dim: 3 },
    data_sha256: data,
    generated_by: "pnpm bench exp5",
    depth,
    questions: 2,
    turns_per_conversation: { min: 5, max: 9 },
    files: [{ file: `${key}_a.jsonl`, strategy: "a", slug: "a", lines: 2, turns_per_line: { min: 5, max: 9 }, bytes: 10, sha256: "00" }],
  };
}

describe("rankingsManifest", () => {
  const everything = () => true;

  it("is the about text and this run, keyed by its run key", () => {
    const m = rankingsManifest(undefined, "hashing", run("hashing", 100), everything);
    expect(Object.keys(m)).toEqual(["about", "runs"]);
    expect(m.about).toMatch(/ranked_dia_ids holds the first `depth` turns of the strategy's full ranking/);
    expect(m.about).toContain("e.g. MRR@100");
    expect(m.about).toContain("--rankings-depth full");
    expect(m.runs).toEqual({ hashing: run("hashing", 100) });
  });

  it("keeps other runs of the same data whose files are all present, hashing first, then alphabetically", () => {
    const before = rankingsManifest(undefined, "zeta", run("zeta", "full"), everything);
    const both = rankingsManifest(before as unknown as Record<string, unknown>, "alpha", run("alpha", 100), everything);
    const all = rankingsManifest(both as unknown as Record<string, unknown>, "hashing", run("hashing", 7), everything);
    expect(Object.keys(all.runs)).toEqual(["hashing", "alpha", "zeta"]);
    expect(all.runs.zeta!.depth).toBe("full");
    expect(all.runs.alpha!.depth).toBe(100);
    expect(all.runs.hashing!.depth).toBe(7);
  });

  it("replaces its own key's entry, and drops runs of other data or with a file gone", () => {
    const prev = {
      about: "old",
      runs: { hashing: run("hashing", "full"), other: run("other", 100, "d0"), gone: run("gone", 100), broken: { files: "x" } },
    };
    const m = rankingsManifest(prev, "hashing", run("hashing", 100), (f) => !f.startsWith("gone_"));
    expect(m.about).not.toBe("old");
    expect(m.about).toBe(rankingsManifest(undefined, "x", run("x", 1), everything).about);
    expect(m.runs).toEqual({ hashing: run("hashing", 100) });
  });
});
