import { describe, expect, it } from "vitest";
import { checkCostClaims, checkHtmlHonesty, checkReadmeHonesty, costStatements } from "../src/honesty.js";
import { BEGIN_MARKER, checkReadme, END_MARKER, extractSection, renderReadmeSection, spliceReadme } from "../src/markdown.js";
import { buildReportModel } from "../src/model.js";
import { readResults } from "@persode/results";
import { editJson, FIXTURE_RESULTS, tempWorkspace } from "./helpers.js";
import { join } from "node:path";

const opts = { figuresHref: "results/figures", reportHref: "results/report.html" };
const model = buildReportModel(readResults(FIXTURE_RESULTS));
const section = renderReadmeSection(model.sections, model.manifest, opts);
const lead = "# Persode-TS\n\nText the lead owns.\n\n## Results\n\n";
const tail = "\n## Licence\n\nMore lead text.\n";
const readme = spliceReadme(`${lead}${BEGIN_MARKER}\nstale\n${END_MARKER}${tail}`, section);

describe("README results section", () => {
  it("replaces only the text between the markers", () => {
    expect(readme.startsWith(lead + BEGIN_MARKER + "\n")).toBe(true);
    expect(readme.endsWith(END_MARKER + tail)).toBe(true);
    expect(extractSection(readme)).toBe(section);
    expect(spliceReadme(readme, section)).toBe(readme);
  });

  it("creates a README with a Results heading and the markers when there is none", () => {
    const created = spliceReadme(undefined, section);
    expect(created.startsWith(`## Results\n\n${BEGIN_MARKER}\n`)).toBe(true);
    expect(extractSection(created)).toBe(section);
  });

  it("refuses malformed markers with a message saying how to fix them", () => {
    expect(() => spliceReadme(`${BEGIN_MARKER}\n`, section)).toThrow(/only one of the markers/);
    expect(() => spliceReadme(`${END_MARKER}\n${BEGIN_MARKER}\n`, section)).toThrow(/before/);
  });

  it("has the generated tables: Exp. 3, Exp. 5 and Exp. 6 per embedder, with CIs", () => {
    expect(section).toContain("| fused (Persode) | 0.40 | 0.60 | 0.00 | 0.89 | 0.80 | 0.89 |");
    expect(section).toMatch(/\| similarity-only \| 0\.1525 \[0\.\d{4}, 0\.\d{4}\] \| 0\.2126 \[/);
    expect(section).toContain("*Exp. 5 — LoCoMo, all-MiniLM-L6-v2 embedder*");
    expect(section).toMatch(/\| gated \(Persode\) \| 0\.550 \[0\.\d{3}, 0\.\d{3}\] \|/);
    expect(section).toContain("![");
  });

  it("agrees with the manifest it was generated from", () => {
    expect(checkReadme(readme, model.sections, model.manifest, opts)).toEqual([]);
    expect(checkReadmeHonesty(readme, model.sections, model.manifest, opts)).toEqual([]);
  });

  it("names the manifest entry when a README number is edited by hand", () => {
    const edited = readme.replace(
      "| fused (Persode) | 0.40 | 0.60 | 0.00 | 0.89 | 0.80 | 0.89 |",
      "| fused (Persode) | 0.40 | 0.60 | 0.00 | 0.89 | 0.90 | 0.89 |",
    );
    expect(edited).not.toBe(readme);
    const problems = checkReadme(edited, model.sections, model.manifest, opts);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("exp3.plain.fused_persode.recall@3 = 0.80");
    expect(problems[0]).toMatch(/README\.md line \d+ does not match results\/manifest\.json/);
  });

  it("fails naming the cost when a cost sentence is removed", () => {
    for (const st of costStatements(model.sections, model.manifest, opts)) {
      const without = readme.replace(st.markdown + "\n", "");
      expect(without).not.toBe(readme);
      const problems = checkReadmeHonesty(without, model.sections, model.manifest, opts);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`[${st.cost}]`);
      expect(problems[0]).toContain("no longer states");
      expect(checkReadme(without, model.sections, model.manifest, opts).length).toBeGreaterThan(0);
    }
  });

  it("fails when a cost sentence is moved away from its experiment's gains", () => {
    const st = costStatements(model.sections, model.manifest, opts).find((s) => s.cost === "exp3-plain-loss")!;
    const moved = readme.replace(st.markdown + "\n", "").replace(END_MARKER, `${st.markdown}\n${END_MARKER}`);
    const problems = checkReadmeHonesty(moved, model.sections, model.manifest, opts);
    expect(problems.join("\n")).toContain('instead of next to its gains in "Exp. 3');
  });
});

describe("honesty guards", () => {
  it("states all five costs with their numbers", () => {
    const costs = costStatements(model.sections, model.manifest, opts);
    expect(costs.map((c) => c.cost).sort()).toEqual([
      "exp3-plain-loss",
      "exp3-vague-costs",
      "exp5-ungated-gap",
      "exp6-every-stratum",
      "gate-provenance",
    ]);
    const text = (id: string) => costs.find((c) => c.cost === id)!.text;
    expect(text("exp3-plain-loss")).toContain("0.80 of the targets against 1.00 for similarity-only");
    expect(text("exp3-vague-costs")).toContain("0.00 of the neutral recent targets (similarity-only 0.33)");
    expect(text("exp3-vague-costs")).toContain("intrusion 0.89 against 0.67");
    expect(text("exp5-ungated-gap")).toContain("hashing 0.1347 against 0.1525");
    expect(text("exp6-every-stratum")).toContain(
      "factual 0.827 against 0.857, reflective explicit 0.435 against 0.488, reflective implicit 0.292 against 0.310",
    );
    expect(text("gate-provenance")).toContain("added after the first LoCoMo run showed the recall cost of ungated fusion");
    expect(text("gate-provenance")).toContain("fusion iff analyzer E >= 0.6 on the query");
    expect(checkCostClaims(model.sections, model.manifest)).toEqual([]);
  });

  it("fails when the results stop supporting a stated cost", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp6_epirec.json"), (d) => {
      d.runs.hashing.strategies["fused (Persode)"].reflective_implicit.r3 = 0.31;
    });
    const m2 = buildReportModel(readResults(ws.results));
    const problems = checkCostClaims(m2.sections, m2.manifest);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(
      "exp6.hashing.fused_persode.reflective_implicit.r3 = 0.310 is not below exp6.hashing.similarity-only.reflective_implicit.r3 = 0.310",
    );
  });

  it("fails when the gate's provenance is missing from the results", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp5_locomo.json"), (d) => {
      d.protocol.gate_provenance = "";
    });
    const m2 = buildReportModel(readResults(ws.results));
    expect(checkCostClaims(m2.sections, m2.manifest).join("\n")).toContain("provenance of the gate");
  });

  it("checks the HTML report's text for every cost", () => {
    const costs = costStatements(model.sections, model.manifest, opts);
    const html = `<p>${costs.map((c) => c.text.replace(/&/g, "&amp;").replace(/>/g, "&gt;")).join("</p><p>")}</p>`;
    expect(checkHtmlHonesty(html, model.sections, model.manifest, opts)).toEqual([]);
    const missing = checkHtmlHonesty(html.replace(costs[0]!.text, ""), model.sections, model.manifest, opts);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain(`[${costs[0]!.cost}]`);
  });
});
