/**
 * The inner loop of stats/bootstrap.ts `resampleIntervals` over one block of resamples: every column's resample
 * sums estimated from the resample's draw counts, each as an earlier column's sum (or base·n) plus Σ count·delta
 * over the items where the two differ. Resample b depends only on the indices of resample b, so blocks can be
 * computed by any thread in any order with the same bits (./thread-pool.ts). Self-contained (no imports, no module
 * state): the workers run its source text.
 */

/** One estimating job, in memory every thread of the pool can read (SharedArrayBuffer). */
export interface EstimateJob {
  /** Items per resample. */
  n: number;
  /** Resamples. */
  samples: number;
  /** `samples` × `n` item indices in draw order. */
  indices: Uint32Array;
  /** Columns. */
  count: number;
  /** Per column: the earlier column its sum starts from, or −1 to start from base·n. */
  parent: Int32Array;
  base: Float64Array;
  /** Column c's items are `at[start[c]] … at[start[c + 1] − 1]`, with their offsets `delta` from the parent's (or base) value. */
  start: Int32Array;
  at: Int32Array;
  delta: Float64Array;
  /** Output: per column, its `samples` resample means (sum / n). */
  out: Float64Array;
}

/**
 * Resample means b0 … b1 − 1 of every column of `job` into `job.out`. The block's draw counts are taken first
 * (one row of n per resample), then each column runs over all of the block's resamples while its item list is in
 * the core's cache: the lists are read once per block, not once per resample.
 */
export function estimateBlock(job: EstimateJob, b0: number, b1: number): void {
  const { n, samples, indices, count: columns, parent, base, start, at, delta, out } = job;
  const width = b1 - b0;
  const counts = new Int32Array(width * n);
  for (let r = 0; r < width; r++) {
    const row = r * n;
    for (let i = 0, k = (b0 + r) * n; i < n; i++, k++) counts[row + indices[k]!]!++;
  }
  const sums = new Float64Array(columns * width);
  for (let c = 0; c < columns; c++) {
    const p = parent[c]!;
    const from = base[c]! * n;
    const j0 = start[c]!;
    const m = start[c + 1]!;
    for (let r = 0; r < width; r++) {
      const row = r * n;
      // independent partial sums, so the additions do not wait on each other
      let s0 = p < 0 ? from : sums[p * width + r]!;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let j = j0;
      for (; j + 3 < m; j += 4) {
        s0 += counts[row + at[j]!]! * delta[j]!;
        s1 += counts[row + at[j + 1]!]! * delta[j + 1]!;
        s2 += counts[row + at[j + 2]!]! * delta[j + 2]!;
        s3 += counts[row + at[j + 3]!]! * delta[j + 3]!;
      }
      for (; j < m; j++) s0 += counts[row + at[j]!]! * delta[j]!;
      const s = s0 + s1 + (s2 + s3);
      sums[c * width + r] = s;
      out[c * samples + b0 + r] = s / n;
    }
  }
}
