#!/usr/bin/env node
// Sums the vitest JSON reports of every package into one closing line: "Tests: N passed, N failed".
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
for (const pkg of readdirSync("packages").sort()) {
  const file = join("packages", pkg, ".vitest-results.json");
  if (!existsSync(file)) {
    missing.push(pkg);
    continue;
  }
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTests ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`${pkg.padEnd(12)} ${r.numPassedTests} passed, ${r.numFailedTests} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""}`);
}
if (missing.length) {
  console.log(`no test report from: ${missing.join(", ")} (its test run did not finish)`);
  failed += missing.length;
}
console.log(`Tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
process.exitCode = failed > 0 ? 1 : 0;
