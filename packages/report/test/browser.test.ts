import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderAll } from "../src/render-all.js";
import { inspectReport } from "./browser.js";
import { REPO_ROOT, tempWorkspace } from "./helpers.js";

describe("report.html in headless Chromium", () => {
  it("opens from file:// with no console errors, no network, and every figure visible", async () => {
    const ws = tempWorkspace();
    await renderAll({ resultsDir: ws.results });
    const shot = join(REPO_ROOT, "artifacts", "report-fixtures.png");
    const seen = await inspectReport(join(ws.results, "report.html"), shot);
    expect(seen.consoleErrors).toEqual([]);
    expect(seen.requests).toEqual([]);
    expect(seen.figures).toHaveLength(10);
    for (const f of seen.figures) {
      expect(f.width, f.id).toBeGreaterThan(100);
      expect(f.height, f.id).toBeGreaterThan(100);
    }
    expect(seen.costTexts).toHaveLength(5);
    expect(seen.overflowing, "nothing scrolls sideways at 1 400 px").toEqual([]);
    expect(existsSync(shot) && statSync(shot).size > 10_000).toBe(true);
  }, 120_000);
});
