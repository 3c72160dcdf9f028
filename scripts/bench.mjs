#!/usr/bin/env node
// `pnpm bench …`: runs the benchmarks CLI; `all` then renders figures, manifest, report and README
// tables from the written results. Benchmarks never import the report package: this script joins them.
import { resolve } from "node:path";
import { main } from "../packages/benchmarks/dist/cli.js";

const argv = process.argv.slice(2);
const code = await main(argv);
if (code === 0 && argv[0] === "all" && !argv.includes("--help") && !argv.includes("-h")) {
  const outIdx = argv.indexOf("--out");
  const resultsDir = resolve(outIdx >= 0 ? argv[outIdx + 1] : "results");
  const isDefaultOut = resultsDir === resolve("results");
  const { renderAll } = await import("../packages/report/dist/index.js");
  const t0 = performance.now();
  const summary = await renderAll({ resultsDir, ...(isDefaultOut ? { readmePath: resolve("README.md") } : {}) });
  process.stdout.write(`report rendered in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${summary?.reportPath ?? resolve(resultsDir, "report.html")}\n`);
}
process.exitCode = code;
