// "Does it hold with stronger embedders?" (issue 21): built from the committed extended and Exp. 7 files
// reduced to the hashing and MiniLM runs, with a second model embedder's run added (a copy of MiniLM's filed
// under another key, then edited), so the expected values are known; the section is absent with one model, states every value with
// its CI from the files, and its cost statement's guard fails when fusion stops costing recall.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCostClaims, costStatements } from "../src/honesty.js";
import { renderReadmeSection } from "../src/markdown.js";
import { buildReportModel } from "../src/model.js";
import { readResults, reproducibilityOf } from "@persode/results";
import { editJson, REPO_ROOT, tempWorkspace } from "./helpers.js";

const OPTS = { figuresHref: "results/figures", reportHref: "results/report.html" };
const FILES = ["exp5_locomo_extended.json", "exp6_epirec_extended.json", "exp7_estimators.json"];
const SECOND = "e5-small-v2";

/** The committed files with only the hashing and MiniLM runs, and with `second` a copy of the MiniLM run under the key "e5-small-v2". */
function workspace(second: boolean, edit?: (file: string, data: any) => void): { results: string } {
  const ws = tempWorkspace();
  for (const f of FILES) {
    copyFileSync(join(REPO_ROOT, "results", f), join(ws.results, f));
    editJson(join(ws.results, f), (d) => {
      for (const k of Object.keys(d.runs)) if (k !== "hashing" && k !== "all-MiniLM-L6-v2") delete d.runs[k];
      d.meta.embedders = Object.keys(d.runs);
      if (second) {
        d.runs[SECOND] = structuredClone(d.runs["all-MiniLM-L6-v2"]);
        d.meta.embedders.push(SECOND);
        edit?.(f, d);
      }
      // the file's class follows its runs (the reader refuses a record that contradicts them)
      d.meta.reproducibility = reproducibilityOf(d);
    });
  }
  return ws;
}

function model(results: string) {
  return buildReportModel(readResults(results));
}

describe("the stronger-embedders section", () => {
  it("is absent while the files hold one model embedder's runs", () => {
    expect(model(workspace(false).results).sections.map((s) => s.experiment)).not.toContain("embedders");
  });

  it("states each strategy × embedder value with its CI, fusion's and the gate's paired differences, and the Exp. 7 refits", () => {
    const ws = workspace(true, (f, d) => {
      if (f === "exp5_locomo_extended.json") d.runs[SECOND].strategies["similarity-only"]["evidence_recall@5"] = 0.5555;
    });
    const m = model(ws.results);
    expect(m.sections.map((s) => s.experiment).at(-1)).toBe("embedders");
    const md = renderReadmeSection(m.sections, m.manifest, OPTS);
    const sec = md.slice(md.indexOf("### Does it hold with stronger embedders?"));
    const rows = sec.split("\n").filter((l) => l.startsWith("| similarity-only |"));
    // LoCoMo (MiniLM, e5 edited), then EpiRec: values from the files, with their CIs
    expect(rows[0]).toMatch(/^\| similarity-only \| 0\.\d{4} \[0\.\d{4}, 0\.\d{4}\] \| 0\.5555 \[0\.\d{4}, 0\.\d{4}\] \|$/);
    expect(rows[1]).toMatch(/^\| similarity-only \| 0\.843 \[0\.\d{3}, 0\.\d{3}\] \| 0\.843 \[/);
    expect(sec).toMatch(/\| e5-small-v2 \| LoCoMo evidence recall@5: fused -0\.\d{4} \[-0\.\d{4}, -0\.\d{4}\] \(Holm: yes\), gated /);
    // Exp. 7 refits, model-derived values (so read, not hard-coded): the e5 run is a copy of MiniLM's
    const refit = (who: string, est: string) => new RegExp(`\\| ${who} \\| ${est} \\| (0\\.\\d{4}) \\[`).exec(sec)?.[1];
    expect(refit("all-MiniLM-L6-v2", "emobank")).toMatch(/^0\.\d{4}$/);
    expect(refit("e5-small-v2", "prototype")).toBe(refit("all-MiniLM-L6-v2", "prototype"));
    expect(refit("e5-small-v2", "prototype")).toMatch(/^0\.\d{4}$/);
    const cost = costStatements(m.sections, m.manifest, OPTS).find((c) => c.cost === "embedders-fusion-cost")!;
    expect(cost.section).toBe("Does it hold with stronger embedders?");
    expect(cost.text).toMatch(
      /^Cost\. Always-on fusion ranks below similarity-only with every neural embedder, on both benchmarks — LoCoMo evidence recall@5 \(all-MiniLM-L6-v2\): fused − similarity-only -0\.0535 /,
    );
    expect(checkCostClaims(m.sections, m.manifest)).toEqual([]);
    expect(sec).toContain(
      "**The gate.** With every neural embedder and on both benchmarks the gated strategy's paired difference to similarity-only is not significant after Holm",
    );
    expect(sec).toContain("none of their fused or gated columns ranks significantly above similarity-only after Holm with any embedder");
  });

  it("the gate sentence follows the files' Holm decisions", () => {
    const ws = workspace(true, (f, d) => {
      if (f === "exp6_epirec_extended.json") d.runs[SECOND].strategies["gated (Persode)"].vs_similarity["recall@3"].significant = true;
    });
    const m = model(ws.results);
    const md = renderReadmeSection(m.sections, m.manifest, OPTS);
    expect(md).toContain(
      "The gated strategy's paired difference to similarity-only is significant after Holm for EpiRec recall@3 (e5-small-v2) (table " +
        "above): there the gate does not hold parity.",
    );
  });

  it("the cost statement's guard fails when fusion no longer ranks below similarity-only for one embedder", () => {
    const ws = workspace(true, (f, d) => {
      if (f === "exp6_epirec_extended.json") d.runs[SECOND].strategies["fused (Persode)"]["recall@3"] = 0.9;
    });
    const m = model(ws.results);
    const problems = checkCostClaims(m.sections, m.manifest);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /stronger embedders: always-on fusion below similarity-only .* no longer holds as stated — embedders\.exp6\.e5-small-v2\.fused_persode\.recall@3 = 0\.900 is not below embedders\.exp6\.e5-small-v2\.similarity-only\.recall@3/,
    );
  });
});
