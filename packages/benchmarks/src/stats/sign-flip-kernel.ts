/**
 * The sign-flip test's inner loop over one block of sign vectors (./randomization.ts documents the method):
 * per test, T_b = Σd − 2·Σ_{flipped} d_i with the flipped sum read 8 items at a time from per-byte subset-sum
 * tables, and a count of |T_b| ≥ |T_obs| (within the tie tolerance). The loop runs as WebAssembly
 * (./sign-flip-wasm.ts). Self-contained, because ./thread-pool.ts runs its source text on worker threads too.
 * Each block writes its own counts (so a block computed twice, by a stalled worker and by the main thread, is still
 * counted once) and the integers are summed after: any split is exact.
 */
import { type SharedMemory, type WasmGlobals } from "./estimate-kernel.js";

/** Several tests over one set of sign vectors. Every array is in one shared memory, at the byte offsets given. */
export interface SignFlipJob {
  memory: SharedMemory;
  /** The loop's WebAssembly module (./sign-flip-wasm.ts). */
  wasm: Uint8Array;
  /** Uint8: row-major B × bytesPerSample sign bits (SignFlips.bytes). */
  bytes: number;
  bytesPerSample: number;
  /** How many tests. */
  tests: number;
  /** Int32: test t's active bytes are offsets[start[t] … start[t + 1] − 1], its tables table[k·256 …] (float64) for those k. */
  start: number;
  offsets: number;
  table: number;
  /** Float64 per test: Σ d_i, and |Σ d_i| − tolerance·Σ|d_i|. */
  total: number;
  threshold: number;
  /** Sign vectors per block: block u covers u·blockSize …; there are `blocks`. */
  blockSize: number;
  blocks: number;
  /** Int32 output, per test t and block u, at t·blocks + u: the block's resamples at least as extreme as observed. */
  count: number;
}

/** Count, for sign vectors s0 … s1 − 1, the resamples at least as extreme as observed, per test of `job`. */
export function signFlipBlock(job: SignFlipJob, s0: number, s1: number): void {
  // one instance per job and thread (each thread has its own copy of the job object), under a symbol, which
  // postMessage does not copy
  const key = Symbol.for("persode.sign-flip");
  const j = job as SignFlipJob & { [key]?: (...args: number[]) => void };
  const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
  const run = (j[key] ??= new wasm.Instance(new wasm.Module(job.wasm), { env: { memory: job.memory } }).exports.signFlip as (
    ...args: number[]
  ) => void);
  const u = Math.floor(s0 / job.blockSize);
  run(
    job.bytes,
    job.bytesPerSample,
    job.tests,
    job.start,
    job.offsets,
    job.table,
    job.total,
    job.threshold,
    s0,
    s1,
    job.count,
    job.blocks,
    u,
  );
}
