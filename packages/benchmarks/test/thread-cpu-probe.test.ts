// The thread-CPU probe (src/thread-cpu-probe.ts) through timeProcess: a process whose worker threads burn a known
// amount of CPU must have that CPU outside the helper threads' share, whether the worker ended before the process
// or was still running at its exit. Linux only (/proc); elsewhere timeProcess reports no split.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { timeProcess } from "../src/perf-phases.js";

const dir = mkdtempSync(join(tmpdir(), "persode-probe-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// each worker spins until its own thread has run `seconds` of CPU (its schedstat), however loaded the machine is
const SPIN = `
const { readFileSync } = require("node:fs");
const own = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e9;
const start = own();
let x = 0;
while (own() - start < require("node:worker_threads").workerData) for (let i = 0; i < 1e5; i++) x += Math.sqrt(i);
`;

describe.skipIf(!existsSync("/proc/self/task"))("the thread-CPU probe", () => {
  it("counts worker threads as JavaScript, ended or still running at exit, not as helper threads", () => {
    const script = join(dir, "workers.cjs");
    writeFileSync(
      script,
      `const { Worker } = require("node:worker_threads");
const SPIN = ${JSON.stringify(SPIN)};
// a worker that ends after 0.4 CPU-s, then one still running when the process exits, 0.3 CPU-s in
new Worker(SPIN, { eval: true, workerData: 0.4 }).on("exit", () => {
  const tail = "require('node:worker_threads').parentPort.postMessage('spun'); setInterval(() => {}, 1000);";
  new Worker(SPIN + tail, { eval: true, workerData: 0.3 }).on("message", () => process.exit(0));
});
`,
    );
    const r = timeProcess([process.execPath, script], process.env, dir);
    expect(r.cpu).toBeDefined();
    expect(r.helperCpu).toBeDefined();
    const helpers = r.helperCpu!;
    expect(helpers).toBeGreaterThanOrEqual(0);
    // 0.7 CPU-s spun in worker threads: all of it outside the helpers' share of the process's CPU
    expect(r.cpu! - helpers).toBeGreaterThanOrEqual(0.7);
    // the probe's report file is read and removed
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`persode-thread-cpu-${process.pid}-`))).toEqual([]);
  });

  it("gives no split for a command that is not this Node", () => {
    const r = timeProcess("true", process.env, dir);
    expect(r.helperCpu).toBeUndefined();
  });
});
