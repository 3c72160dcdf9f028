#!/usr/bin/env node
// Sums the vitest JSON reports of every package into one closing line: "Tests: N passed, N failed".
// A test file that fails outside its tests (an import error, a failing beforeAll such as missing
// data) runs none of them: vitest counts those tests as skipped, so each such file counts as failed.
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

if (process.argv.includes("--clean")) {
  for (const pkg of readdirSync("packages")) rmSync(join("packages", pkg, ".vitest-results.json"), { force: true });
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const brokenFiles = [];
for (const pkg of readdirSync("packages").sort()) {
  const file = join("packages", pkg, ".vitest-results.json");
  if (!existsSync(file)) {
    missing.push(pkg);
    continue;
  }
  const r = JSON.parse(readFileSync(file, "utf8"));
  const broken = (r.testResults ?? []).filter(
    (t) => t.status === "failed" && !(t.assertionResults ?? []).some((a) => a.status === "failed"),
  );
  for (const t of broken) brokenFiles.push(`${pkg}: ${t.name}`);
  const pkgFailed = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTests ?? 0) + broken.length;
  const pkgSkipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  passed += r.numPassedTests ?? 0;
  failed += pkgFailed;
  skipped += pkgSkipped;
  console.log(`${pkg.padEnd(12)} ${r.numPassedTests ?? 0} passed, ${pkgFailed} failed${pkgSkipped ? `, ${pkgSkipped} skipped` : ""}`);
}
if (brokenFiles.length) {
  console.log(
    `test files that failed outside a test (import error or failing hook, e.g. missing data; see the log above):\n  ${brokenFiles.join("\n  ")}`,
  );
}
if (missing.length) {
  console.log(`no test report from: ${missing.join(", ")} (its test run did not finish)`);
  failed += missing.length;
}
console.log(`Tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
process.exitCode = failed > 0 ? 1 : 0;
