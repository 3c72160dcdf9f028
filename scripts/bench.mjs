#!/usr/bin/env node
// `pnpm bench …`: runs the compiled benchmarks CLI (rebuilding first only if sources changed). An
// experiment run (all, exp1–6) writes into a staging copy of its results folder; this script then
// renders figures, manifest, report and — for the repository's own results/ — the README tables
// into the staging copy, and the CLI publishes results and README together. Benchmarks never
// import the report package: this script joins them.
import { resolve } from "node:path";
import { ensureBuilt } from "./ensure-built.mjs";

if (!ensureBuilt()) {
  process.stderr.write("error: the build failed; fix the errors above and run the command again\n");
  process.exit(1);
}
const { main } = await import("../packages/benchmarks/dist/cli.js");
process.exitCode = await main(process.argv.slice(2), {
  async afterRun(staged) {
    const { renderAll } = await import("../packages/report/dist/index.js");
    const t0 = performance.now();
    const readmePath = resolve("README.md");
    const ownResults = staged.out === resolve("results");
    await renderAll({
      resultsDir: staged.dir,
      publishedDir: staged.out,
      ...(ownResults ? { readmePath, readmeOut: staged.stageFileFor(readmePath) } : {}),
    });
    process.stdout.write(`report rendered in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${resolve(staged.out, "report.html")}\n`);
  },
});
