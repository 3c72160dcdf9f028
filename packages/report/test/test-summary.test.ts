// scripts/test-summary.mjs, the closing line of `pnpm test`: run on hand-made vitest JSON reports in a
// throw-away workspace, it must count a test file that failed outside its tests (its tests reported as
// skipped, e.g. a beforeAll that found no data) as a failure, never as "0 failed".
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers.js";

const SCRIPT = join(REPO_ROOT, "scripts", "test-summary.mjs");

function workspace(reports: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), "persode-summary-"));
  for (const [pkg, report] of Object.entries(reports)) {
    mkdirSync(join(root, "packages", pkg), { recursive: true });
    if (report !== undefined) writeFileSync(join(root, "packages", pkg, ".vitest-results.json"), JSON.stringify(report));
  }
  return root;
}

function summary(cwd: string): { code: number | null; last: string; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd, encoding: "utf8" });
  return { code: r.status, last: r.stdout.trimEnd().split("\n").at(-1)!, out: r.stdout };
}

const ok = {
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 0,
  testResults: [{ name: "/a.test.ts", status: "passed", assertionResults: [{ status: "passed" }] }],
};

describe("scripts/test-summary.mjs", () => {
  it("sums passing packages and exits 0", () => {
    const r = summary(workspace({ a: ok, b: ok }));
    expect(r.last).toBe("Tests: 6 passed, 0 failed");
    expect(r.code).toBe(0);
  });

  it("counts a file whose beforeAll failed (its tests skipped) as failed, naming the file", () => {
    const hookFailed = {
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 2,
      testResults: [
        ...ok.testResults,
        { name: "/parity.test.ts", status: "failed", assertionResults: [{ status: "skipped" }, { status: "skipped" }] },
      ],
    };
    const r = summary(workspace({ a: hookFailed }));
    expect(r.last).toBe("Tests: 3 passed, 1 failed, 2 skipped");
    expect(r.out).toContain("a: /parity.test.ts");
    expect(r.code).toBe(1);
  });

  it("counts a file that failed to import (no tests at all) as failed", () => {
    const importFailed = {
      numPassedTests: 0,
      numFailedTests: 0,
      testResults: [{ name: "/x.test.ts", status: "failed", assertionResults: [] }],
    };
    expect(summary(workspace({ a: ok, b: importFailed })).last).toBe("Tests: 3 passed, 1 failed");
  });

  it("counts failing tests once, not again as a broken file", () => {
    const failing = {
      numPassedTests: 1,
      numFailedTests: 2,
      testResults: [
        { name: "/y.test.ts", status: "failed", assertionResults: [{ status: "passed" }, { status: "failed" }, { status: "failed" }] },
      ],
    };
    expect(summary(workspace({ a: failing })).last).toBe("Tests: 1 passed, 2 failed");
  });

  it("counts a package without a report as failed", () => {
    const r = summary(workspace({ a: ok, b: undefined }));
    expect(r.out).toContain("no test report from: b");
    expect(r.last).toBe("Tests: 3 passed, 1 failed");
  });
});
