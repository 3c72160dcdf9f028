import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAll } from "../src/render-all.js";
import { EXPERIMENTS, RESULT_FILES } from "../src/results.js";
import { inspectReport } from "./browser.js";
import { REPO_ROOT } from "./helpers.js";

// Guards on what the repository publishes: results/, results/manifest.json, results/report.html and README.md.
const results = join(REPO_ROOT, "results");
const readme = join(REPO_ROOT, "README.md");

describe("committed results, manifest, report and README", () => {
  it("has every experiment's results file", () => {
    const missing = EXPERIMENTS.filter((e) => !existsSync(join(results, RESULT_FILES[e]))).map((e) => RESULT_FILES[e]);
    expect(missing, `missing from results/: ${missing.join(", ")} — run \`pnpm bench all\``).toEqual([]);
  });

  it("agree with each other: manifest = recomputation, README = manifest, costs stated, files up to date", async () => {
    const r = await checkAll({ resultsDir: results, readmePath: readme });
    expect(r.problems.join("\n\n")).toBe("");
  }, 120_000);

  it("results/report.html opens in Chromium with no console errors and every figure visible", async () => {
    const report = join(results, "report.html");
    expect(existsSync(report), "results/report.html is missing — run `pnpm report`").toBe(true);
    const seen = await inspectReport(report, join(REPO_ROOT, "artifacts", "report.png"));
    expect(seen.consoleErrors).toEqual([]);
    expect(seen.requests).toEqual([]);
    expect(seen.figures.length).toBeGreaterThanOrEqual(10);
    for (const f of seen.figures) expect(f.width * f.height, f.id).toBeGreaterThan(10_000);
    expect(seen.costTexts.length).toBe(6);
    expect(seen.overflowing, "nothing scrolls sideways at 1 400 px").toEqual([]);
  }, 120_000);
});
