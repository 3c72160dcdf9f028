#!/usr/bin/env node
// The run `pnpm bench …` does its work in (a worker thread started by scripts/bench.mjs, whose main
// thread keeps watch over signals): the compiled benchmarks CLI. An experiment run (all, exp1–6) stages its files; this script
// then renders figures, manifest, report and — for the repository's own results/ — the README's front
// tables and docs/results.md into the staging folder, and the CLI publishes results, README and
// docs/results.md together. Benchmarks never
// import the report package: this script joins them.
import { resolve } from "node:path";

const { main } = await import("../packages/benchmarks/dist/cli.js");
process.exitCode = await main(process.argv.slice(2), {
  async renderReport(dir) {
    const { renderAll } = await import("../packages/report/dist/index.js");
    await renderAll({ resultsDir: dir, publishedDir: dir });
  },
  async afterRun(staged) {
    const { renderAll } = await import("../packages/report/dist/index.js");
    const t0 = performance.now();
    const readmePath = resolve("README.md");
    const resultsDocPath = resolve("docs", "results.md");
    const ownResults = staged.out === resolve("results");
    await renderAll({
      resultsDir: staged.dir,
      publishedDir: staged.out,
      // figures whose spec did not change are taken from here instead of being rendered again (.cache/ is not committed)
      figureCache: resolve(".cache", "figures"),
      ...(ownResults
        ? { readmePath, readmeOut: staged.stageFileFor(readmePath), resultsDocPath, resultsDocOut: staged.stageFileFor(resultsDocPath) }
        : {}),
    });
    process.stdout.write(`report rendered in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${resolve(staged.out, "report.html")}\n`);
  },
});
