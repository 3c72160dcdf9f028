/**
 * The bootstrap's resample indices for several streams (stats/bootstrap.ts documents the draw): seedrandom's xor4096
 * stepped from each stream's seeded state with the generator's own recurrence (xor4096.js `next`), so each draw is the
 * int32 `prng.int32()` would return, and index = floor(uint32 · n / 2^32). One block is one stream; streams are
 * independent, so ./thread-pool.ts draws them on any thread, in any order, with the same bits. Self-contained:
 * the workers run its source text.
 */

/** Streams to draw: per stream its item count, seeded state and output, in shared memory. */
export interface DrawJob {
  samples: number;
  /** Per stream: items per resample. */
  n: Int32Array;
  /** Per stream s: its 128 state words at X[128·s …], and its i and w. */
  X: Int32Array;
  i: Int32Array;
  w: Int32Array;
  /** Per stream: `samples` × n[s] indices in draw order. */
  out: Uint32Array[];
}

/** Draw streams s0 … s1 − 1 of `job` into their outputs. */
export function drawIndicesBlock(job: DrawJob, s0: number, s1: number): void {
  for (let s = s0; s < s1; s++) {
    const n = job.n[s]!;
    const X = job.X.slice(s * 128, s * 128 + 128);
    const indices = job.out[s]!;
    let xi = job.i[s]!;
    let w = job.w[s]!;
    for (let k = 0, total = job.samples * n; k < total; k++) {
      w = (w + 0x61c88647) | 0;
      let v = X[(xi + 34) & 127]!;
      xi = (xi + 1) & 127;
      let t = X[xi]!;
      v ^= v << 13;
      t ^= t << 17;
      v ^= v >>> 15;
      t ^= t >>> 12;
      v = X[xi] = v ^ t;
      const r = (v + (w ^ (w >>> 16))) | 0;
      indices[k] = Math.floor(((r >>> 0) * n) / 4294967296);
    }
  }
}
