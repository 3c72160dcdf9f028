// Exp. 7 in the report: built from the committed exp7_estimators.json next to the fixture results;
// the oracle is labelled an upper bound everywhere it appears, the cost of fusion is stated and
// guarded, and the answer follows the results' answer block.
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCostClaims, costStatements } from "../src/honesty.js";
import { renderReadmeSection } from "../src/markdown.js";
import { buildReportModel } from "../src/model.js";
import { buildFigureSpecs } from "../src/figures/index.js";
import { readResults } from "@persode/results";
import { editJson, REPO_ROOT, tempWorkspace } from "./helpers.js";

const opts = { figuresHref: "results/figures", reportHref: "results/report.html" };

function workspace(): { results: string } {
  const ws = tempWorkspace();
  copyFileSync(join(REPO_ROOT, "results", "exp7_estimators.json"), join(ws.results, "exp7_estimators.json"));
  return ws;
}

describe("Exp. 7 section", () => {
  const ws = workspace();
  const embedders = Object.keys(
    (JSON.parse(readFileSync(join(ws.results, "exp7_estimators.json"), "utf8")) as { runs: object }).runs,
  ).length;
  const model = buildReportModel(readResults(ws.results));
  const md = renderReadmeSection(model.sections, model.manifest, opts);
  const exp7 = md.slice(md.indexOf("### Exp. 7"));

  it("labels every oracle row an upper bound and states what it reads", () => {
    const rows = exp7.split("\n").filter((l) => l.startsWith("| oracle"));
    expect(embedders).toBeGreaterThan(0);
    expect(rows.length).toBe(5 * embedders); // per embedder: quality table + fused and gated rows of the two difference tables
    for (const r of rows) expect(r).toMatch(/^\| oracle \(upper bound\)/);
    expect(exp7).toContain("**Oracle.** The oracle is an upper bound, not a method: EpiRec's authored labels");
  });

  it("states the cost of fusion next to the answer, and the guard holds on the committed results", () => {
    const cost = costStatements(model.sections, model.manifest, opts).find((c) => c.cost === "exp7-fusion-cost")!;
    expect(cost.section).toBe("Exp. 7 — which emotion estimator makes salience earn its keep");
    expect(cost.text).toMatch(
      /^Cost\. Always-on fusion scores below similarity-only on reflective probes \(recall@3\) with every real estimator — hashing: lexicon 0\.\d{3}, vader/,
    );
    expect(cost.text).toContain("even the oracle (an upper bound) pays");
    expect(checkCostClaims(model.sections, model.manifest)).toEqual([]);
    expect(exp7.indexOf("**Answer.**")).toBeLessThan(exp7.indexOf("**Cost.**"));
  });

  it("fails the guard when a real estimator's fusion stops costing reflective recall", () => {
    const ws2 = workspace();
    editJson(join(ws2.results, "exp7_estimators.json"), (d) => {
      d.runs.hashing.retrieval["vader/fused"].reflective.r3 = 0.5;
    });
    const m2 = buildReportModel(readResults(ws2.results));
    const problems = checkCostClaims(m2.sections, m2.manifest);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("exp7.hashing.vader/fused.reflective.r3 = 0.500 is not below exp7.hashing.similarity-only.reflective.r3");
  });

  it("words the answer from the Holm-adjusted tests, and a Holm-significant win when the results record one", () => {
    expect(exp7).toMatch(
      /on EpiRec no real estimator·strategy beats similarity-only on any stratum after Holm correction \(\d+ comparisons\); \d+ of the \d+ are significantly below it/,
    );
    const ws3 = workspace();
    editJson(join(ws3.results, "exp7_estimators.json"), (d) => {
      d.runs.hashing.answer.holm.significant_wins = [
        { column: "afinn/gated", stratum: "reflective_explicit·high", diff: 0.069, ci95: [0.01, 0.15], p_holm: 0.0123 },
      ];
    });
    const m3 = buildReportModel(readResults(ws3.results));
    const text = renderReadmeSection(m3.sections, m3.manifest, opts);
    expect(text).toMatch(
      /on EpiRec 1 of \d+ comparisons beat similarity-only after Holm correction: afinn\/gated on reflective explicit · high 0\.069 \[0\.010, 0\.150\], p \(Holm\) 0\.0123/,
    );
  });

  it("marks exactly the Holm-significant differences ▲/▼ and says what the marks mean", () => {
    expect(exp7).toContain("**Significance.**");
    expect(exp7).toContain("▲/▼: significantly above/below similarity-only after Holm at α = 0.05");
    const row = (text: string, start: string) => text.split("\n").find((l) => l.startsWith(start))!;
    const doc = JSON.parse(readFileSync(join(ws.results, "exp7_estimators.json"), "utf8"));
    const cell = doc.runs.hashing.retrieval["vader/fused"].overall.paired_vs_similarity;
    const cellText = row(exp7, "| vader · fused |").split(" | ")[1]!;
    expect(cellText.endsWith(" ▼")).toBe(cell.significant && cell.diff < 0);
    expect(cellText.endsWith(" ▲")).toBe(false);
    // Flip one insignificant cell to significant (and a gain): it gets ▲, and only it changes.
    const ws4 = workspace();
    editJson(join(ws4.results, "exp7_estimators.json"), (d) => {
      const p = d.runs.hashing.retrieval["afinn/gated"].overall.paired_vs_similarity;
      expect(p.significant).toBe(false);
      p.significant = true;
    });
    const m4 = buildReportModel(readResults(ws4.results));
    const md4 = renderReadmeSection(m4.sections, m4.manifest, opts);
    const exp7b = md4.slice(md4.indexOf("### Exp. 7"));
    const before = row(exp7, "| afinn · gated |");
    const after = row(exp7b, "| afinn · gated |");
    expect(before.split(" | ")[1]).not.toContain("▲");
    expect(after.split(" | ")[1]).toBe(`${before.split(" | ")[1]} ▲`);
    expect(after.split(" | ").slice(2)).toEqual(before.split(" | ").slice(2));
  });

  it("draws the quality-against-gain figure with one point per estimator and strategy", () => {
    const fig = buildFigureSpecs(readResults(ws.results)).find((f) => f.id === "exp7_quality_gain")!;
    const points = (fig.spec.data as { values: { estimator: string; strategy: string }[] }).values;
    expect(points.length).toBe(12 * embedders); // six estimators × fused and gated, per embedder
    expect(points.filter((p) => p.estimator === "oracle (upper bound)").map((p) => p.strategy)).toEqual(
      Array.from({ length: embedders }, () => ["fused", "gated"]).flat(),
    );
    expect(fig.caption).toContain("an upper bound, not a method");
  });
});
