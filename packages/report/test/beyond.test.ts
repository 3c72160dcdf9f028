import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildFigureSpecs } from "../src/figures/index.js";
import { renderReadmeSection } from "../src/markdown.js";
import { buildReportModel } from "../src/model.js";
import { readResults } from "@persode/results";
import { significanceMark } from "../src/sections/beyond.js";
import { editJson, REPO_ROOT, tempWorkspace } from "./helpers.js";

const OPTS = { figuresHref: "results/figures", reportHref: "results/report.html" };

/** The fixture results plus the committed extended files (written by `pnpm bench all`). */
function workspace(): { results: string } {
  const ws = tempWorkspace();
  for (const f of ["exp5_locomo_extended.json", "exp6_epirec_extended.json"])
    copyFileSync(join(REPO_ROOT, "results", f), join(ws.results, f));
  return ws;
}

function readme(results: string): string {
  const model = buildReportModel(readResults(results));
  return renderReadmeSection(model.sections, model.manifest, OPTS);
}

describe("the Beyond the paper section", () => {
  it("is absent without extended files and follows Exp. 6 when they exist", () => {
    const plain = tempWorkspace();
    expect(buildReportModel(readResults(plain.results)).sections.map((s) => s.experiment)).not.toContain("beyond");
    const ws = workspace();
    const model = buildReportModel(readResults(ws.results));
    // last, unless the extended files hold stronger embedders' runs: then "Does it hold with stronger embedders?" follows it
    expect(
      model.sections
        .map((s) => s.experiment)
        .filter((e) => e !== "embedders")
        .at(-1),
    ).toBe("beyond");
    expect(model.manifest.sources).toEqual(expect.arrayContaining(["exp5_locomo_extended.json", "exp6_epirec_extended.json"]));
  });

  it("marks Holm-significant differences by direction, states tiny p-values as < 0.0001 and the baseline row", () => {
    const ws = workspace();
    const text = readme(ws.results);
    const row = (s: string) =>
      text
        .split("\n")
        .find((l) => l.startsWith(`| ${s} |`) && l.includes("[") && text.indexOf(l) > text.indexOf("Beyond the paper — LoCoMo"))!;
    expect(row("bm25")).toMatch(/\] ▲ \|/);
    expect(row("recency-only")).toMatch(/\] ▼ \|/);
    expect(row("gated (Persode)")).not.toMatch(/[▲▼]/);
    expect(row("bm25")).toContain("< 0.0001");
    expect(row("similarity-only")).toMatch(/\| — \(baseline\) \|/);
    expect(text).toContain("**The gate on a strong baseline.**");
  });

  it("follows the file: clearing a significance flag removes the mark and recolours the figure", () => {
    const ws = workspace();
    editJson(join(ws.results, "exp5_locomo_extended.json"), (d) => {
      d.runs.hashing.strategies.bm25.vs_similarity["evidence_recall@5"].significant = false;
    });
    const text = readme(ws.results);
    const bm25 = text.split("\n").find((l) => l.startsWith("| bm25 |") && l.includes("0.4414"))!;
    expect(bm25).not.toMatch(/[▲▼]/);
    const fig = buildFigureSpecs(readResults(ws.results)).find((f) => f.id === "beyond_paired")!;
    const rows = (fig.spec.data as { values: Array<{ panel: string; strategy: string; verdict: string }> }).values;
    expect(rows.find((r) => r.strategy === "bm25" && r.panel.startsWith("LoCoMo"))!.verdict).toBe("not significant");
    expect(rows.find((r) => r.strategy === "bm25" && r.panel.startsWith("EpiRec"))!.verdict).toBe("significantly better (Holm)");
    expect(rows.find((r) => r.strategy === "recency-only" && r.panel.startsWith("LoCoMo"))!.verdict).toBe("significantly worse (Holm)");
    expect(rows.some((r) => r.strategy === "similarity-only")).toBe(false);
  });

  it("names the file and the rerun command when the baseline is missing", () => {
    const ws = workspace();
    editJson(join(ws.results, "exp6_epirec_extended.json"), (d) => {
      delete d.runs.hashing.strategies["similarity-only"];
    });
    expect(() => buildReportModel(readResults(ws.results))).toThrow(/exp6_epirec_extended\.json.*similarity-only.*pnpm bench exp6/);
  });

  it("significanceMark", () => {
    expect([significanceMark(true, 0.1), significanceMark(true, -0.1), significanceMark(false, 0.1)]).toEqual([" ▲", " ▼", ""]);
  });
});
