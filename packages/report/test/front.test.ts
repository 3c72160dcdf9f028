// The README's front layout (between the results-front markers): the paper's Exp. 1–6 as the paper lays
// them out, then the findings beyond the paper, each one sentence with its number and CI and a link to
// the heading of docs/results.md that states it in full. Checked line by line like the full layout.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "@persode/results";
import { headingAnchor } from "../src/findings.js";
import { checkReadmeHonesty, costStatements } from "../src/honesty.js";
import {
  BEGIN_MARKER,
  checkReadme,
  END_MARKER,
  FRONT_BEGIN_MARKER,
  FRONT_END_MARKER,
  frontSections,
  renderDocument,
  renderReadmeSection,
  spliceReadme,
} from "../src/markdown.js";
import { buildReportModel } from "../src/model.js";
import { FIXTURE_RESULTS, REPO_ROOT } from "./helpers.js";

const opts = { figuresHref: "results/figures", reportHref: "results/report.html", resultsDocHref: "docs/results.md" };
const committed = buildReportModel(readResults(join(REPO_ROOT, "results")));
const skeleton = `# P\n\n## Results\n\n${FRONT_BEGIN_MARKER}\n${FRONT_END_MARKER}\n\n## More\n`;
const front = renderDocument(skeleton, committed.sections, committed.manifest, opts);
const full = renderReadmeSection(committed.sections, committed.manifest, {
  figuresHref: "../results/figures",
  reportHref: "../results/report.html",
});

describe("the README's front layout", () => {
  it("shows Exp. 1–6 only, and of Exp. 5 and 6 only the table laid out as the paper lays it out", () => {
    const headings = front.split("\n").filter((l) => l.startsWith("### "));
    expect(headings.slice(0, 6).map((h) => h.slice(4, 10))).toEqual(["Exp. 1", "Exp. 2", "Exp. 3", "Exp. 4", "Exp. 5", "Exp. 6"]);
    expect(headings.at(-1)).toBe("### What we found beyond the paper");
    expect(front).toContain("*Exp. 5 — LoCoMo as the paper lays it out*");
    expect(front).toContain("*Exp. 6 — EpiRec as the paper lays it out*");
    expect(front).not.toContain("*Exp. 5 — LoCoMo, hashing embedder*");
    expect(front).not.toContain("### Exp. 7");
    // the full layout keeps the per-embedder tables the front leaves out
    expect(full).toContain("*Exp. 5 — LoCoMo, hashing embedder*");
    expect(frontSections(committed.sections).map((s) => s.experiment)).toEqual(["exp1", "exp2", "exp3", "exp4", "exp5", "exp6"]);
  });

  it("lists five to eight findings, each with a CI and a link to a heading of the full results", () => {
    const findings = front.split("\n").filter((l) => l.startsWith("- ") && l.includes("](docs/results.md#"));
    expect(findings.length).toBeGreaterThanOrEqual(5);
    expect(findings.length).toBeLessThanOrEqual(8);
    const anchors = new Set(
      full
        .split("\n")
        .filter((l) => l.startsWith("### "))
        .map((l) => headingAnchor(l.slice(4))),
    );
    for (const f of findings) {
      expect(f, f).toMatch(/-?\d\.\d+ \[-?\d\.\d+, -?\d\.\d+\]/);
      const anchor = /\]\(docs\/results\.md#([^)]+)\)\.$/.exec(f)?.[1];
      expect(anchors.has(anchor!), `${anchor} is a heading of docs/results.md`).toBe(true);
    }
  });

  it("agrees with the manifest and names the entry of a finding's number edited by hand", () => {
    expect(checkReadme(front, committed.sections, committed.manifest, opts)).toEqual([]);
    const line = front.split("\n").find((l) => l.startsWith("- BM25"))!;
    const edited = front.replace(line, line.replace("0.0881", "0.0981"));
    expect(edited).not.toBe(front);
    const problems = checkReadme(edited, committed.sections, committed.manifest, opts);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("beyond.exp5.all-MiniLM-L6-v2.bm25.vs.evidence_recall@5 = 0.0881");
  });

  it("must state the costs of the experiments it shows (Exp. 3, 5, 6), next to their gains", () => {
    expect(checkReadmeHonesty(front, committed.sections, committed.manifest, opts)).toEqual([]);
    const shown = costStatements(frontSections(committed.sections), committed.manifest, opts);
    expect(shown.map((c) => c.cost).sort()).toEqual([
      "exp3-plain-loss",
      "exp3-vague-costs",
      "exp5-ungated-gap",
      "exp6-every-stratum",
      "gate-provenance",
    ]);
    const st = shown.find((c) => c.cost === "exp5-ungated-gap")!;
    const problems = checkReadmeHonesty(front.replace(st.markdown + "\n", ""), committed.sections, committed.manifest, opts);
    expect(problems.join("\n")).toContain("[exp5-ungated-gap]");
  });

  it("leaves out findings whose values the results do not hold (the fixture has no extended files)", () => {
    const fixture = buildReportModel(readResults(FIXTURE_RESULTS));
    const text = renderDocument(skeleton, fixture.sections, fixture.manifest, opts);
    expect(text).toContain("### Exp. 6");
    expect(text).not.toContain("What we found beyond the paper");
  });

  it("refuses a document with both kinds of markers", () => {
    expect(() => spliceReadme(`${BEGIN_MARKER}\n${END_MARKER}\n${FRONT_BEGIN_MARKER}\n${FRONT_END_MARKER}\n`, "x\n")).toThrow(
      /keep one pair/,
    );
  });
});
