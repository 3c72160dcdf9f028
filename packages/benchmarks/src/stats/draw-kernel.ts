/**
 * The bootstrap's resample indices for several streams (stats/bootstrap.ts documents the draw): seedrandom's xor4096
 * stepped from each stream's seeded state with the generator's own recurrence (xor4096.js `next`), so each draw is the
 * int32 `prng.int32()` would return, and index = floor(uint32 · n / 2^32). The loop runs as WebAssembly
 * (./draw-wasm.ts). One block is one stream; streams are independent, so ./thread-pool.ts draws them on any thread,
 * in any order, with the same bits. Self-contained: the workers run its source text.
 */
import { type SharedMemory, type WasmGlobals } from "./estimate-kernel.js";

/** Streams to draw: per stream its item count and one shared memory holding its seeded state and its indices. */
export interface DrawJob {
  samples: number;
  /** Per stream: items per resample. */
  n: Int32Array;
  /** Per stream s: its seeded state's i and w; its 128 state words are at byte 0 of memory[s]. */
  i: Int32Array;
  w: Int32Array;
  /** Per stream: the memory its indices are drawn into (samples × n[s] uint32 in draw order, from byte 512). */
  memory: SharedMemory[];
  /** The draw loop's WebAssembly module (./draw-wasm.ts). */
  wasm: Uint8Array;
}

/** Draw streams s0 … s1 − 1 of `job` into their memories. */
export function drawIndicesBlock(job: DrawJob, s0: number, s1: number): void {
  const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
  // the module compiled once per job and thread (each thread has its own copy of the job object), under a symbol,
  // which postMessage does not copy
  const key = Symbol.for("persode.draw");
  const j = job as DrawJob & { [key]?: object };
  const module = (j[key] ??= new wasm.Module(job.wasm));
  for (let s = s0; s < s1; s++) {
    const draw = new wasm.Instance(module, { env: { memory: job.memory[s]! } }).exports.draw as (...args: number[]) => void;
    draw(job.n[s]!, job.samples * job.n[s]!, job.i[s]!, job.w[s]!);
  }
}
