// The results checker (docs/reproducibility.md) on small hand-made trees: exact files byte for byte,
// model-derived values within tolerance, rankings equal except inside recorded near-ties, renders only
// where a model-derived source moved; every refusal names the file, the path, both values and the rule.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { axisScale, checkResults, type FileTree } from "../src/check.js";
import { geometryTolerance, reproducibilityOf, toleranceFor } from "../src/reproducibility.js";

function tree(files: Record<string, string>): FileTree {
  return { files: Object.keys(files), read: (f) => Buffer.from(files[f]!, "utf8") };
}

const json = (x: unknown) => JSON.stringify(x, null, 2) + "\n";

const MODEL = { name: "minilm", model: "Xenova/all-MiniLM-L6-v2", id: "minilm:x", dim: 384 };
const HASHING = { name: "hashing", id: "hashing-md5-256", dim: 256 };

function exp6(recallModel: number, recallHashing = 0.5, extra: Record<string, unknown> = {}) {
  const doc = {
    benchmark: { name: "EpiRec" },
    runs: {
      hashing: { embedder: HASHING, strategies: { "similarity-only": { "recall@3": recallHashing, p_holm: 0.2, wins: 10 } } },
      "all-MiniLM-L6-v2": { embedder: MODEL, strategies: { "similarity-only": { "recall@3": recallModel, p_holm: 0.2, wins: 10 } } },
    },
    ...extra,
  };
  return { ...doc, meta: { seed: 1, reproducibility: reproducibilityOf(doc) } };
}

const line = (ids: string[], ties?: number[]) => JSON.stringify({ probe_id: "q1", ranked_episode_ids: ids, ...(ties ? { near_ties: ties } : {}) });

function committed(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    "exp6_epirec.json": json(exp6(0.8433)),
    "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl": [line(["a", "b", "c", "d"], [1]), line(["a", "b", "c", "d"])].join("\n") + "\n",
    "exp6_epirec_rankings/hashing_similarity-only.jsonl": line(["a", "b", "c", "d"]) + "\n",
    "figures/exp6.svg": '<svg><rect height="84.33"/><text>0.8433</text></svg>\n',
    "figures/exp6.png": "PNG-1",
    "README.md": "recall 0.8433 of 504 probes\n",
    ...overrides,
  };
}

function check(fresh: Record<string, string>, base = committed()) {
  return checkResults(tree(base), tree(fresh));
}

const byFile = (r: ReturnType<typeof check>, f: string) => r.files.find((x) => x.file === f)!;

describe("classes", () => {
  it("derives each document's class from its embedder records", () => {
    expect(reproducibilityOf({ runs: { hashing: { embedder: HASHING } } })).toEqual({ class: "exact" });
    expect(reproducibilityOf({ embedder: MODEL })).toEqual({ class: "model" });
    expect(reproducibilityOf(exp6(0.5))).toEqual({ class: "mixed", model_runs: ["all-MiniLM-L6-v2"] });
  });

  it("picks the tolerance of a value by its field", () => {
    expect(toleranceFor("weights", 0.1, 0.2).kind).toBe("fitted parameter");
    expect(toleranceFor("p_holm", 0.1, 0.2).kind).toBe("p-value");
    expect(toleranceFor("wins", 3, 4).kind).toBe("count");
    expect(toleranceFor("wins", 3.5, 4).kind).toBe("metric");
    expect(toleranceFor("recall@3", 1, 0).kind).toBe("metric");
  });
});

describe("results:check", () => {
  it("accepts a byte-identical folder", () => {
    const r = check(committed());
    expect(r.ok).toBe(true);
    expect(r.files.every((f) => f.status === "identical")).toBe(true);
  });

  it("accepts a model-derived value within tolerance and reports the largest deviation", () => {
    const r = check(committed({ "exp6_epirec.json": json(exp6(0.8433 + 1e-7)) }));
    expect(r.ok).toBe(true);
    const f = byFile(r, "exp6_epirec.json");
    expect(f.status).toBe("within");
    expect(f.changed).toBe(1);
    expect(f.largest?.path).toBe('runs["all-MiniLM-L6-v2"].strategies["similarity-only"]["recall@3"]');
    expect(f.largest?.delta).toBeCloseTo(1e-7, 12);
  });

  it("refuses a model-derived value past its tolerance, naming path, both values and the tolerance", () => {
    const r = check(committed({ "exp6_epirec.json": json(exp6(0.8533)) }));
    expect(r.ok).toBe(false);
    const p = byFile(r, "exp6_epirec.json").problems.join("\n");
    expect(p).toContain('runs["all-MiniLM-L6-v2"].strategies["similarity-only"]["recall@3"]: committed 0.8433, now 0.8533');
    expect(p).toContain("metric tolerance 0.00200");
  });

  it("refuses any change to an exact value, however small", () => {
    const r = check(committed({ "exp6_epirec.json": json(exp6(0.8433, 0.5 + 1e-15)) }));
    expect(r.ok).toBe(false);
    expect(byFile(r, "exp6_epirec.json").problems.join("\n")).toContain("runs.hashing.strategies");
  });

  it("refuses added, removed and reordered keys in a model run", () => {
    const added = exp6(0.8433);
    (added.runs["all-MiniLM-L6-v2"].strategies["similarity-only"] as Record<string, number>).mrr = 0.5;
    expect(byFile(check(committed({ "exp6_epirec.json": json(added) })), "exp6_epirec.json").problems.join("\n")).toContain('key "mrr" added');
    const reordered = exp6(0.8433);
    reordered.runs["all-MiniLM-L6-v2"].strategies["similarity-only"] = { wins: 10, p_holm: 0.2, "recall@3": 0.8433 };
    expect(byFile(check(committed({ "exp6_epirec.json": json(reordered) })), "exp6_epirec.json").problems.join("\n")).toContain("keys reordered");
  });

  it("refuses a changed string or boolean in a model run", () => {
    const doc = exp6(0.8433);
    doc.runs["all-MiniLM-L6-v2"].embedder = { ...MODEL, id: "minilm:other" };
    expect(check(committed({ "exp6_epirec.json": json(doc) })).ok).toBe(false);
  });

  it("accepts a reordering inside a recorded near-tie of a model run's ranking", () => {
    const rankings = [line(["a", "c", "b", "d"], [1]), line(["a", "b", "c", "d"])].join("\n") + "\n";
    const r = check(committed({ "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl": rankings }));
    expect(r.ok).toBe(true);
    expect(byFile(r, "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl").status).toBe("within");
  });

  it("accepts a near-tie recorded only on the regenerated side (a gap that crossed the threshold)", () => {
    const rankings = [line(["a", "b", "c", "d"], [1]), line(["b", "a", "c", "d"], [0])].join("\n") + "\n";
    expect(check(committed({ "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl": rankings })).ok).toBe(true);
  });

  it("refuses two non-tied memories swapped, naming the line and positions", () => {
    const rankings = [line(["a", "b", "d", "c"], [1]), line(["a", "b", "c", "d"])].join("\n") + "\n";
    const r = check(committed({ "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl": rankings }));
    expect(r.ok).toBe(false);
    expect(byFile(r, "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl").problems.join("\n")).toContain("line 1: ranked_episode_ids[1..2] committed [\"b\",\"c\"], now [\"b\",\"d\"], not a recorded near-tie");
  });

  it("refuses any reordering in an exact run's ranking", () => {
    const r = check(committed({ "exp6_epirec_rankings/hashing_similarity-only.jsonl": line(["b", "a", "c", "d"], [0]) + "\n" }));
    expect(r.ok).toBe(false);
    expect(byFile(r, "exp6_epirec_rankings/hashing_similarity-only.jsonl").class).toBe("exact");
  });

  it("refuses a render that differs when every source reproduced byte for byte", () => {
    const r = check(committed({ "figures/exp6.svg": '<svg><rect height="84.34"/><text>0.8434</text></svg>\n' }));
    expect(r.ok).toBe(false);
    expect(byFile(r, "figures/exp6.svg").problems[0]).toContain("every results file it is rendered from reproduced byte for byte");
  });

  it("accepts renders whose numbers moved by one printed unit after a model-derived source moved", () => {
    const r = check(
      committed({
        "exp6_epirec.json": json(exp6(0.84335)),
        "figures/exp6.svg": '<svg><rect height="84.34"/><text>0.8434</text></svg>\n',
        "figures/exp6.png": "PNG-2",
        "README.md": "recall 0.8434 of 504 probes\n",
      }),
      committed({ "exp6_epirec.json": json(exp6(0.84334)) }),
    );
    expect(r.files.filter((f) => f.status !== "identical").map((f) => [f.file, f.status])).toEqual([
      ["README.md", "within"],
      ["exp6_epirec.json", "within"],
      ["figures/exp6.png", "within"],
      ["figures/exp6.svg", "within"],
    ]);
    expect(r.ok).toBe(true);
  });

  it("refuses a render whose words changed or whose number moved past the metric tolerance plus its printed unit", () => {
    const base = committed({ "exp6_epirec.json": json(exp6(0.84334)) });
    const moved = { "exp6_epirec.json": json(exp6(0.84335)) };
    expect(check(committed({ ...moved, "README.md": "recall 0.8434 of 504 questions\n" }), base).ok).toBe(false);
    // a printed value follows its source, which the metric rule lets move by 0.002: 0.0003 is accepted, 0.0033 is not
    expect(byFile(check(committed({ ...moved, "README.md": "recall 0.8436 of 504 probes\n" }), base), "README.md").status).toBe("within");
    const r = check(committed({ ...moved, "README.md": "recall 0.8466 of 504 probes\n" }), base);
    expect(byFile(r, "README.md").problems.join("\n")).toContain("0.8433 → 0.8466");
  });

  it("holds a figure's geometry to 1 px and the values its labels print to the metric tolerance", () => {
    const svg = (x: string, label: string) => `<svg><line aria-label="rho_lo: ${label}" transform="translate(${x},12.5)"/><text>${label}</text></svg>\n`;
    const base = committed({ "exp6_epirec.json": json(exp6(0.84334)), "figures/exp6.svg": svg("174.135", "0.1872") });
    const moved = { "exp6_epirec.json": json(exp6(0.84335)) };
    // a mark 0.07 px away and its label 0.0003 lower: what a near-tie flip on another CPU did to exp7_quality_gain.svg
    const near = check(committed({ ...moved, "figures/exp6.svg": svg("174.065", "0.1869") }), base);
    expect(byFile(near, "figures/exp6.svg").status).toBe("within");
    const far = check(committed({ ...moved, "figures/exp6.svg": svg("176.135", "0.1872") }), base);
    expect(byFile(far, "figures/exp6.svg").problems.join("\n")).toContain("174.135 → 176.135");
    expect(byFile(far, "figures/exp6.svg").problems.join("\n")).toContain("render geometry (px)");
    // the label inside the tag is a printed value, not geometry: 0.1872 → 0.1972 is refused though it is under 1
    const label = check(committed({ ...moved, "figures/exp6.svg": svg("174.135", "0.1972").replace("<text>0.1972", "<text>0.1872") }), base);
    expect(byFile(label, "figures/exp6.svg").problems.join("\n")).toContain("0.1872 → 0.1972");
  });

  it("lets a figure's geometry move as far as its axis scale carries the metric tolerance, at least 1 px", () => {
    // a y axis of 0.01 per 107 px (10 700 px per unit, as exp5_audited_paired.svg): a 0.002 move is 21.4 px
    const axis = (ticks: [number, string][]) =>
      `<g class="mark-text role-axis-label" pointer-events="none">${ticks.map(([y, t]) => `<text transform="translate(-7,${y})">${t}</text>`).join("")}</g>`;
    const steep = axis([
      [214, "\u22120.01"],
      [107, "0.00"],
      [0, "0.01"],
    ]);
    expect(axisScale(steep)).toBeCloseTo(10_700, 6);
    expect(axisScale(axis([[0, "0%"], [50, "10%"]]))).toBeCloseTo(500, 6); // a percent label is its fraction
    expect(axisScale(axis([[0, "low"], [50, "high"]]))).toBe(0); // no numeric axis
    expect(geometryTolerance(10_700)).toBeCloseTo(21.4, 9);
    expect(geometryTolerance(100)).toBe(1);
    const svg = (y: string) => `<svg>${steep}<rect y="${y}" height="3"/></svg>\n`;
    const base = committed({ "exp6_epirec.json": json(exp6(0.84334)), "figures/exp6.svg": svg("100.5") });
    const moved = { "exp6_epirec.json": json(exp6(0.84335)) };
    expect(byFile(check(committed({ ...moved, "figures/exp6.svg": svg("112.5") }), base), "figures/exp6.svg").status).toBe("within");
    const far = check(committed({ ...moved, "figures/exp6.svg": svg("125.5") }), base);
    expect(byFile(far, "figures/exp6.svg").problems.join("\n")).toContain("100.5 → 125.5");
    // the same 12 px move on a figure without a steep axis is refused (1 px)
    const flat = (y: string) => `<svg><rect y="${y}" height="3"/></svg>\n`;
    const flatBase = committed({ "exp6_epirec.json": json(exp6(0.84334)), "figures/exp6.svg": flat("100.5") });
    expect(byFile(check(committed({ ...moved, "figures/exp6.svg": flat("112.5") }), flatBase), "figures/exp6.svg").status).toBe("failed");
  });

  it("reads an axis scale from every committed figure with value axes", () => {
    const dir = join(import.meta.dirname, "..", "..", "..", "results", "figures");
    const scales = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith(".svg"))
        .map((f) => [f, axisScale(readFileSync(join(dir, f), "utf8"))]),
    );
    // exp7_quality_gain's y axis: 0.1 per 43.3 px
    expect(scales["exp7_quality_gain.svg"]).toBeCloseTo(433.3, 0);
    // the paired differences' axis is the steepest: a 0.002 move is far beyond 1 px there
    expect(geometryTolerance(scales["exp5_audited_paired.svg"]!)).toBeGreaterThan(5);
    for (const [f, s] of Object.entries(scales)) if (f !== "exp4_personalization.svg") expect(s, f).toBeGreaterThan(0);
  });

  it("refuses a PNG that changed while its SVG did not", () => {
    const base = committed({ "exp6_epirec.json": json(exp6(0.84334)) });
    const r = check(committed({ "exp6_epirec.json": json(exp6(0.84335)), "figures/exp6.png": "PNG-2" }), base);
    expect(byFile(r, "figures/exp6.png").status).toBe("failed");
  });

  it("refuses added and removed files, and ignores what the caller says is ignored", () => {
    const fresh = committed({ "extra.json": "{}\n" });
    delete fresh["figures/exp6.png"];
    const r = check(fresh);
    expect(byFile(r, "extra.json").status).toBe("added");
    expect(byFile(r, "figures/exp6.png").status).toBe("removed");
    expect(checkResults(tree(committed()), tree(committed({ "timings.json": "{}" })), (f) => f === "timings.json").ok).toBe(true);
  });

  it("reads the class from the committed side: a document recorded exact stays exact", () => {
    const doc = exp6(0.8433);
    const exactBase = committed({ "exp6_epirec.json": json({ ...doc, meta: { seed: 1, reproducibility: { class: "exact" } } }) });
    const fresh = committed({ "exp6_epirec.json": json({ ...exp6(0.8433 + 1e-7), meta: { seed: 1, reproducibility: { class: "exact" } } }) });
    expect(checkResults(tree(exactBase), tree(fresh)).ok).toBe(false);
  });
});
