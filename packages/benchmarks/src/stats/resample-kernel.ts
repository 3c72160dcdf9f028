/**
 * The bootstrap's inner loop over one block of resamples (stats/bootstrap.ts documents the algorithm).
 * Resample b of every column depends only on the indices of resample b, so blocks of resamples can be
 * computed in any order, by any thread, with the same bits: ./thread-pool.ts runs the blocks of a job on
 * the main thread and on worker threads at once. `resampleBlock` is self-contained (no imports, no
 * module state) because the workers run its source text.
 */

/** One resampling job: its inputs and output, in memory every thread of the pool can read (SharedArrayBuffer). */
export interface ResampleJob {
  /** Items per resample. */
  n: number;
  /** Resamples. */
  samples: number;
  /** `samples` × `n` item indices in draw order. */
  indices: Uint32Array;
  /** Columns whose sums are exact in any order (stats/bootstrap.ts `exactScale`): how many. */
  exactCount: number;
  /** Per exact column: its most frequent value. */
  base: Float64Array;
  /** Per exact column: 1 when every item that differs from the base differs by exactly 1. */
  ones: Uint8Array;
  /** Per exact column c, its items that differ from the base are `at[start[c] … start[c + 1] − 1]`. */
  start: Int32Array;
  at: Int32Array;
  /** Those items' value − base, aligned with `at`. */
  delta: Float64Array;
  /** Columns summed left to right: how many, in groups of 8 (the last group may be short). */
  summedCount: number;
  /** Per group g, row-major: `rows[(g·n + i)·8 + c]` is the value of item i in the group's column c (0 past the end). */
  rows: Float64Array;
  /** Output: the `samples` resample means of every exact column, then of every summed column. */
  out: Float64Array;
}

/**
 * Resample means b0 … b1 − 1 of every column of `job`, written into `job.out`. Exact columns: per resample,
 * how often each item was drawn, then base·n + Σ count·(v − base) over the items that differ from the base
 * (exact in every order, so the same bits as the left-to-right sum). Summed columns: the left-to-right sum
 * of the drawn values from 0, eight columns per pass with independent running sums, divided by n.
 */
export function resampleBlock(job: ResampleJob, b0: number, b1: number): void {
  const { n, samples, indices, exactCount, base, ones, start, at, delta, summedCount, rows, out } = job;
  if (exactCount > 0) {
    const count = new Float64Array(n);
    for (let b = b0; b < b1; b++) {
      count.fill(0);
      for (let i = 0, k = b * n; i < n; i++, k++) count[indices[k]!]!++;
      for (let c = 0; c < exactCount; c++) {
        const j0 = start[c]!;
        const m = start[c + 1]!;
        // independent partial sums (exact in any order), so the additions do not wait on each other
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let j = j0;
        if (ones[c] === 1) {
          for (; j + 3 < m; j += 4) {
            s0 += count[at[j]!]!;
            s1 += count[at[j + 1]!]!;
            s2 += count[at[j + 2]!]!;
            s3 += count[at[j + 3]!]!;
          }
          for (; j < m; j++) s0 += count[at[j]!]!;
        } else {
          for (; j + 3 < m; j += 4) {
            s0 += count[at[j]!]! * delta[j]!;
            s1 += count[at[j + 1]!]! * delta[j + 1]!;
            s2 += count[at[j + 2]!]! * delta[j + 2]!;
            s3 += count[at[j + 3]!]! * delta[j + 3]!;
          }
          for (; j < m; j++) s0 += count[at[j]!]! * delta[j]!;
        }
        // exact: base·n and the offsets' sum are multiples of 2^−K whose magnitudes stay below 2^53·2^−K
        out[c * samples + b] = (base[c]! * n + (s0 + s1 + (s2 + s3))) / n;
      }
    }
  }
  const groups = Math.ceil(summedCount / 8);
  for (let g = 0; g < groups; g++) {
    const width = Math.min(8, summedCount - g * 8);
    const r0 = g * n * 8;
    const o = (exactCount + g * 8) * samples;
    for (let b = b0; b < b1; b++) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0;
      for (let i = 0, k = b * n; i < n; i++, k++) {
        const r = r0 + indices[k]! * 8;
        s0 += rows[r]!;
        s1 += rows[r + 1]!;
        s2 += rows[r + 2]!;
        s3 += rows[r + 3]!;
        s4 += rows[r + 4]!;
        s5 += rows[r + 5]!;
        s6 += rows[r + 6]!;
        s7 += rows[r + 7]!;
      }
      out[o + b] = s0 / n;
      if (width > 1) out[o + samples + b] = s1 / n;
      if (width > 2) out[o + 2 * samples + b] = s2 / n;
      if (width > 3) out[o + 3 * samples + b] = s3 / n;
      if (width > 4) out[o + 4 * samples + b] = s4 / n;
      if (width > 5) out[o + 5 * samples + b] = s5 / n;
      if (width > 6) out[o + 6 * samples + b] = s6 / n;
      if (width > 7) out[o + 7 * samples + b] = s7 / n;
    }
  }
}
