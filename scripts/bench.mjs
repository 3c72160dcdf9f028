#!/usr/bin/env node
// `pnpm bench …`: rebuilds first only if sources changed, then runs scripts/bench-run.mjs on a worker
// thread of this process and keeps watch over it from this thread (runSupervised,
// packages/benchmarks/src/supervise.ts): SIGINT, SIGTERM and SIGHUP received here, or the death of this
// script's parent (pnpm), stop the run within a fraction of a second, even in the middle of long loops;
// nothing is published then. Exits with the run's code.
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./ensure-built.mjs";

if (!ensureBuilt()) {
  process.stderr.write("error: the build failed; fix the errors above and run the command again\n");
  process.exit(1);
}
const argv = process.argv.slice(2);
// --help and usage errors are answered here, by the command-line module alone (packages/benchmarks/src/usage.ts):
// no workspace package graph is loaded and no run is started for them.
const { answerUsage } = await import("../packages/benchmarks/dist/usage.js");
const answered = answerUsage(argv);
if (answered !== undefined) {
  process.exitCode = answered;
} else {
  const { runSupervised } = await import("../packages/benchmarks/dist/supervise.js");
  process.exitCode = await runSupervised(fileURLToPath(new URL("./bench-run.mjs", import.meta.url)), argv);
}
