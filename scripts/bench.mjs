#!/usr/bin/env node
// `pnpm bench …`: runs the compiled benchmarks CLI (rebuilding first only if sources changed); `all`
// then renders figures, manifest, report and README tables from the written results. Benchmarks
// never import the report package: this script joins them.
import { resolve } from "node:path";
import { ensureBuilt } from "./ensure-built.mjs";

if (!ensureBuilt()) {
  process.stderr.write("error: the build failed; fix the errors above and run the command again\n");
  process.exit(1);
}
const { main, reportFolder } = await import("../packages/benchmarks/dist/cli.js");
const argv = process.argv.slice(2);
const code = await main(argv);
// Only reached after a successful run, so the arguments parse; the folder is --out in any spelling.
const resultsDir = code === 0 ? reportFolder(argv) : undefined;
if (resultsDir !== undefined) {
  const { renderAll } = await import("../packages/report/dist/index.js");
  const t0 = performance.now();
  const isDefaultOut = resultsDir === resolve("results");
  const summary = await renderAll({ resultsDir, ...(isDefaultOut ? { readmePath: resolve("README.md") } : {}) });
  process.stdout.write(`report rendered in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${summary.reportPath}\n`);
}
process.exitCode = code;
