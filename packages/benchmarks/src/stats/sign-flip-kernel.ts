/**
 * The sign-flip test's inner loop over one block of sign vectors (./randomization.ts documents the method):
 * per test, T_b = Σd − 2·Σ_{flipped} d_i with the flipped sum read 8 items at a time from per-byte subset-sum
 * tables, and a count of |T_b| ≥ |T_obs| (within the tie tolerance). Self-contained, because ./thread-pool.ts
 * runs its source text on worker threads too. Each block writes its own counts (so a block computed twice, by a
 * stalled worker and by the main thread, is still counted once) and the integers are summed after: any split is exact.
 */

/** Several tests over one set of sign vectors, in shared memory. */
export interface SignFlipJob {
  /** Row-major B × bytesPerSample sign bits (SignFlips.bytes). */
  bytes: Uint8Array;
  bytesPerSample: number;
  /** How many tests. */
  tests: number;
  /** Test t's active bytes are offsets[start[t] … start[t + 1] − 1], its tables table[k·256 …] for those k. */
  start: Int32Array;
  offsets: Int32Array;
  table: Float64Array;
  /** Per test: Σ d_i, and |Σ d_i| − tolerance·Σ|d_i|. */
  total: Float64Array;
  threshold: Float64Array;
  /** Sign vectors per block: block u covers u·blockSize …; there are `blocks`. */
  blockSize: number;
  blocks: number;
  /** Output, per test t and block u, at t·blocks + u: the block's resamples at least as extreme as observed. */
  count: Int32Array;
}

/** Count, for sign vectors s0 … s1 − 1, the resamples at least as extreme as observed, per test of `job`. */
export function signFlipBlock(job: SignFlipJob, s0: number, s1: number): void {
  const { bytes, bytesPerSample, tests, start, offsets, table, total, threshold, blockSize, blocks, count } = job;
  const u = Math.floor(s0 / blockSize);
  for (let t = 0; t < tests; t++) {
    const k0 = start[t]!;
    const k1 = start[t + 1]!;
    const tot = total[t]!;
    const thr = threshold[t]!;
    let c = 0;
    for (let s = s0; s < s1; s++) {
      let flipped = 0;
      const row = s * bytesPerSample;
      for (let k = k0; k < k1; k++) flipped += table[k * 256 + bytes[row + offsets[k]!]!]!;
      if (Math.abs(tot - 2 * flipped) >= thr) c++;
    }
    count[t * blocks + u] = c;
  }
}
