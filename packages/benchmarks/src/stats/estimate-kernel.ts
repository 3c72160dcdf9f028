/**
 * The inner loop of stats/bootstrap.ts `resampleIntervals` over one block of resamples: every column's resample
 * sums estimated from the resample's draw counts, each as an earlier column's sum (or base·n) plus Σ count·delta
 * over the items where the two differ. Resample b depends only on the indices of resample b, so blocks can be
 * computed by any thread in any order with the same bits (./thread-pool.ts). Self-contained (no imports, no module
 * state): the workers run its source text. The column loop runs as WebAssembly (./estimate-wasm.ts) when the job
 * carries the module, else in JavaScript: the same operations in the same order, the same bits.
 */

/** A shared WebAssembly.Memory (this package's TypeScript libraries declare no WebAssembly types). */
export interface SharedMemory {
  readonly buffer: SharedArrayBuffer;
}

/** The WebAssembly globals the kernel and its job builder use. */
export interface WasmGlobals {
  Memory: new (d: { initial: number; maximum: number; shared: true }) => SharedMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/** One estimating job. Its arrays live in one shared WebAssembly memory, at the byte offsets given. */
export interface EstimateJob {
  /** Items per resample. */
  n: number;
  /** Resamples. */
  samples: number;
  /** `samples` × `n` item indices in draw order. */
  indices: Uint32Array;
  /** Columns. */
  count: number;
  /** Shared memory holding every array below (and each thread's scratch). */
  memory: SharedMemory;
  /** The column loop's WebAssembly module (./estimate-wasm.ts), or undefined to run it in JavaScript. */
  wasm?: Uint8Array;
  /** Int32 per column: the earlier column its sum starts from, or −1 to start from base·n. */
  parent: number;
  /** Float64 per column. */
  base: number;
  /** Int32, columns + 1: column c's items are at[start[c]] … at[start[c + 1] − 1], with their offsets delta. */
  start: number;
  at: number;
  delta: number;
  /** Float64, per column its `samples` resample means (sum / n): the output. */
  out: number;
  /** Resamples per block (a multiple of the WebAssembly loop's LANES), and the float64 row length of the scratch: blockSize, or the resamples rounded up to LANES when fewer. */
  blockSize: number;
  stride: number;
  /** Int32: the next scratch slot to hand out. Each thread takes one slot for the job, the first time it computes a block of it. */
  slot: number;
  /** Scratch slots (threads that may compute blocks); slot u is at scratch + u·scratchBytes: sums (count × stride float64), then counts (n × stride float64). */
  slots: number;
  scratch: number;
  scratchBytes: number;
}

/**
 * Resample means b0 … b1 − 1 of every column of `job` into its output. The block's draw counts are taken first,
 * item-major (item i's counts of the block's resamples side by side), then each column runs over all of the block's
 * resamples while its item list is in the core's cache: the lists are read once per block, not once per resample.
 */
export function estimateBlock(job: EstimateJob, b0: number, b1: number): void {
  const { n, samples, indices, count: columns, memory, stride } = job;
  const buffer = memory.buffer;
  const width = b1 - b0;
  // this thread's scratch slot for the job (each thread has its own copy of the job object), under a symbol, which
  // postMessage does not copy
  const slotKey = Symbol.for("persode.estimate-slot");
  const owned = job as EstimateJob & { [slotKey]?: number };
  const slot = (owned[slotKey] ??= Atomics.add(new Int32Array(buffer, job.slot, 1), 0, 1));
  if (slot >= job.slots) throw new RangeError(`estimateBlock: ${slot + 1} threads computing one job, scratch for ${job.slots}`);
  const sumsAt = job.scratch + slot * job.scratchBytes;
  const countsAt = sumsAt + columns * stride * 8;
  const counts = new Float64Array(buffer, countsAt, n * stride);
  // a function of its own (typed arrays and numbers only), optimized as a whole: as a loop inside estimateBlock it was
  // entered on-stack once per block and left that optimized code at its exit, into the interpreter, every time
  const countDraws = (counts: Float64Array, indices: Uint32Array, from: number, n: number, stride: number, width: number): void => {
    counts.fill(0);
    for (let r = 0; r < width; r++) {
      for (let k = from + r * n, end = k + n; k < end; k++) counts[indices[k]! * stride + r]!++;
    }
  };
  countDraws(counts, indices, b0 * n, n, stride, width);
  if (job.wasm) {
    // one instance per job and thread, like the slot
    const key = Symbol.for("persode.estimate");
    const j = job as EstimateJob & { [key]?: (...args: number[]) => void };
    const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
    const run = (j[key] ??= new wasm.Instance(new wasm.Module(job.wasm), { env: { memory } }).exports.estimate as (
      ...args: number[]
    ) => void);
    run(countsAt, n, stride, width, columns, job.parent, job.base, job.start, job.at, job.delta, sumsAt, job.out, samples, b0);
    return;
  }
  const parent = new Int32Array(buffer, job.parent, columns);
  const base = new Float64Array(buffer, job.base, columns);
  const start = new Int32Array(buffer, job.start, columns + 1);
  const at = new Int32Array(buffer, job.at, start[columns]!);
  const delta = new Float64Array(buffer, job.delta, start[columns]!);
  const sums = new Float64Array(buffer, sumsAt, columns * stride);
  const out = new Float64Array(buffer, job.out, columns * samples);
  for (let c = 0; c < columns; c++) {
    const p = parent[c]!;
    const from = base[c]! * n;
    const j0 = start[c]!;
    const m = start[c + 1]!;
    for (let r = 0; r < width; r++) {
      let s = p < 0 ? from : sums[p * stride + r]!;
      for (let j = j0; j < m; j++) s += counts[at[j]! * stride + r]! * delta[j]!;
      sums[c * stride + r] = s;
      out[c * samples + b0 + r] = s / n;
    }
  }
}
