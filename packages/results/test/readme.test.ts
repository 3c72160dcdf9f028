// The sample in this package's README runs as written against the repository's committed results.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const REPO_ROOT = join(PACKAGE, "..", "..");

it("the README sample lists Exp. 5's strategies with their recorded slugs", () => {
  const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
  const sample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(sample, "README.md has a ```ts sample").toBeDefined();
  // the sample is plain JavaScript apart from the package name, which resolves to the built package here
  const dist = pathToFileURL(join(PACKAGE, "dist", "index.js")).href;
  const dir = mkdtempSync(join(tmpdir(), "persode-results-readme-"));
  try {
    const script = join(dir, "sample.mjs");
    writeFileSync(script, sample!.replace('"@persode/results"', JSON.stringify(dist)));
    const run = spawnSync(process.execPath, [script], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const rows = run.stdout.trim().split("\n").map((l) => l.split("\t"));
    expect(rows.slice(0, 5).map((r) => r[0])).toEqual(["recency-only", "similarity-only", "salience-only", "fused (Persode)", "gated (Persode)"]);
    expect(rows.find((r) => r[0] === "fused (Persode)")![1]).toBe("fused_persode");
    for (const r of rows) expect(Number(r[2])).toBeGreaterThanOrEqual(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
