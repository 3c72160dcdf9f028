/**
 * Blocks of independent work spread over the CPU's cores: the main thread and a few worker threads claim
 * blocks from one shared counter until none is left, and the main thread waits (Atomics.wait) until every
 * block is done. A block's result depends only on its inputs, never on which thread computed it or when,
 * so the output is the same bits with one thread or many (test/thread-pool.test.ts).
 *
 * The workers run a kernel's own source text (`kernel.toString()`), so a kernel must be self-contained: no
 * imports, no module state, everything it reads in its job (typed arrays over SharedArrayBuffer, numbers).
 * Threads: `PERSODE_THREADS` (total, main included; 1 = no workers), else every available core, at most 8.
 * If a worker fails or stalls, the main thread computes the blocks it left and the pool is not used again.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { checkInterrupt } from "../interrupt.js";
import { resampleBlock } from "./resample-kernel.js";
import { signFlipBlock } from "./sign-flip-kernel.js";
import { drawIndicesBlock } from "./draw-kernel.js";
import { estimateBlock } from "./estimate-kernel.js";
import { groupCountsBlock } from "./mt-counts-kernel.js";

/** The kernels the workers know, by name: `(job, b0, b1) => void` over blocks [b0, b1) of a job. */
const KERNELS = { resampleBlock, signFlipBlock, drawIndicesBlock, estimateBlock, groupCountsBlock } as const;

/** A kernel's name. */
export type KernelName = keyof typeof KERNELS;

/** Milliseconds without any block finishing (or, for the rank worker, any group) after which the main thread stops waiting for a worker. */
export const STALL_MS = 20_000;

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const KERNELS = { ${Object.entries(KERNELS)
  .map(([name, fn]) => `${name}: (${fn.toString()})`)
  .join(",\n")} };
parentPort.on("message", ({ kernel, job, ctl, status, blocks, blockSize, size }) => {
  try {
    const run = KERNELS[kernel];
    for (;;) {
      const u = Atomics.add(ctl, 0, 1);
      if (u >= blocks) break;
      run(job, u * blockSize, Math.min(size, (u + 1) * blockSize));
      Atomics.store(status, u, 1);
      Atomics.add(ctl, 1, 1);
      Atomics.notify(ctl, 1);
    }
  } catch (e) {
    Atomics.store(ctl, 2, 1);
    Atomics.notify(ctl, 1);
    parentPort.postMessage(String(e && e.stack || e));
  }
});
`;

let workers: Worker[] | undefined;
let broken = false;

/** How many threads the pool uses in all, the main thread included. */
export function poolThreads(): number {
  const env = process.env.PERSODE_THREADS;
  if (env !== undefined && env !== "") {
    const t = Number(env);
    if (!Number.isInteger(t) || t < 1 || t > 64) {
      throw new RangeError(`PERSODE_THREADS must be an integer from 1 to 64 (threads in all, 1 = no worker threads), got "${env}"`);
    }
    return t;
  }
  return Math.min(8, Math.max(1, availableParallelism()));
}

/**
 * Start the pool's worker threads now (they would start with the first job), so they are up, their kernels compiled,
 * before the first job is posted: the command line calls it when the run will certainly compute statistics.
 */
export function preparePool(): void {
  if (!broken && poolThreads() >= 2) pool();
}

function pool(): Worker[] {
  if (workers) return workers;
  const ws: Worker[] = [];
  for (let t = 1; t < poolThreads(); t++) {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on("error", () => (broken = true));
    w.on("message", (m) => {
      broken = true;
      process.stderr.write(`warning: a statistics worker thread failed; continuing on the main thread (same results):\n${m}\n`);
    });
    // after the listeners (adding a 'message' listener refs the worker again): the pool never keeps the process alive
    w.unref();
    ws.push(w);
  }
  return (workers = ws);
}

/**
 * Blocks handed to the workers and not yet joined: `finish()` (idempotent) completes them on the main thread if need be
 * and waits, reporting `progress` (items done so far) between the blocks it computes.
 */
export interface PendingBlocks {
  finish(progress?: (done: number) => void): void;
}

/**
 * Hand the blocks of `kernel` over [0, size) to the worker threads and return at once, so the main thread goes on
 * with other work meanwhile; `finish()` then claims what no worker has started, and waits for the rest. Without
 * worker threads the blocks are all computed by `finish()`.
 */
export function startBlocks<J>(kernel: KernelName, job: J, size: number, blockSize: number): PendingBlocks {
  const { blocks, block } = blocksOf(kernel, job, size, blockSize);
  const shared = broken || blocks < 1 || poolThreads() < 2 ? undefined : post(kernel, job, blocks, blockSize, size);
  let done = false;
  return {
    finish: (progress) => {
      if (done) return;
      done = true;
      if (shared) join(shared, blocks, block, progress && (() => progress(Atomics.load(shared.ctl, 1) * blockSize)));
      else runInline(blocks, block, progress && ((u) => progress(u * blockSize)));
    },
  };
}

/** A typed array over `bytes` bytes of new shared memory, which the pool's workers read and write without a copy. */
export function sharedArray<T>(make: new (buffer: SharedArrayBuffer) => T, bytes: number): T {
  return new make(new SharedArrayBuffer(bytes));
}

/** `kernel` bound to `job`: how many blocks of `blockSize` cover [0, size), and block u's computation. */
function blocksOf<J>(kernel: KernelName, job: J, size: number, blockSize: number): { blocks: number; block: (u: number) => void } {
  const run = KERNELS[kernel] as (job: J, b0: number, b1: number) => void;
  return { blocks: Math.ceil(size / blockSize), block: (u) => run(job, u * blockSize, Math.min(size, (u + 1) * blockSize)) };
}

/** Every block on the main thread, in order, checking for a stop signal (and reporting `progress`) before each. */
function runInline(blocks: number, block: (u: number) => void, progress?: (u: number) => void): void {
  for (let u = 0; u < blocks; u++) {
    checkInterrupt();
    progress?.(u);
    block(u);
  }
}

/** Post a job to every worker: ctl = [next block to claim, blocks done, a worker failed]; status: per block, 1 once done. */
function post<J>(kernel: KernelName, job: J, blocks: number, blockSize: number, size: number): { ctl: Int32Array; status: Int32Array } {
  const ctl = sharedArray(Int32Array, 3 * 4);
  const status = sharedArray(Int32Array, blocks * 4);
  for (const w of pool()) w.postMessage({ kernel, job, ctl, status, blocks, blockSize, size });
  return { ctl, status };
}

/** Claim and compute blocks on the main thread until none is left, then wait for the workers' (see runBlocks). */
function join(
  { ctl, status }: { ctl: Int32Array; status: Int32Array },
  blocks: number,
  block: (u: number) => void,
  progress?: () => void,
): void {
  try {
    for (;;) {
      const u = Atomics.add(ctl, 0, 1);
      if (u >= blocks) break;
      checkInterrupt();
      progress?.();
      block(u);
      Atomics.store(status, u, 1);
      Atomics.add(ctl, 1, 1);
    }
    let last = performance.now();
    for (let done = Atomics.load(ctl, 1); done < blocks && Atomics.load(ctl, 2) === 0; done = Atomics.load(ctl, 1)) {
      if (Atomics.wait(ctl, 1, done, 1000) === "timed-out") {
        checkInterrupt();
        if (Atomics.load(ctl, 1) === done && performance.now() - last > STALL_MS) break;
      } else last = performance.now();
    }
    if (Atomics.load(ctl, 1) < blocks) {
      // a worker failed or stalled: finish its blocks here (the same bits) and use no worker again
      broken = true;
      for (let u = 0; u < blocks; u++) if (Atomics.load(status, u) === 0) block(u);
    }
  } finally {
    // no worker claims a block of this job after an interrupt
    Atomics.store(ctl, 0, blocks);
  }
}

/**
 * Run `kernel` over [0, size) in blocks of `blockSize`, on the main thread and, when `parallel` and more than one
 * thread is configured, on the worker threads too. Returns when every block is done. The main thread checks for a
 * stop signal and reports `progress` (items done so far) between its blocks.
 */
export function runBlocks<J>(
  kernel: KernelName,
  job: J,
  size: number,
  blockSize: number,
  parallel: boolean,
  progress?: (done: number) => void,
): void {
  const { blocks, block } = blocksOf(kernel, job, size, blockSize);
  if (!parallel || broken || blocks < 2 || poolThreads() < 2) return runInline(blocks, block, (u) => progress?.(u * blockSize));
  const shared = post(kernel, job, blocks, blockSize, size);
  join(shared, blocks, block, () => progress?.(Atomics.load(shared.ctl, 1) * blockSize));
}
