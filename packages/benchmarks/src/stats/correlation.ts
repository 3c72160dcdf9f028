/**
 * Rank and association statistics for Exp. 7's estimator quality, with percentile-bootstrap CIs of
 * any statistic of resampled items. The resampling stream is the harness's (./bootstrap.ts): seedrandom
 * xor4096 seeded `${seed}/${label}`, index = floor(uint32 · n / 2³²), percentile ranks as there.
 */
import { pearson } from "@persode/core";
import seedrandom from "seedrandom";
import type { BootstrapSpec } from "./bootstrap.js";
import { percentileRanks } from "./python-bootstrap.js";

export { pearson };

/** Average ranks (1-based; ties share the mean of their ranks), as scipy.stats.rankdata. */
export function averageRanks(xs: ArrayLike<number>): Float64Array {
  const n = xs.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b);
  const r = new Float64Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && xs[idx[j + 1]!] === xs[idx[i]!]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]!] = avg;
    i = j + 1;
  }
  return r;
}

/** Spearman's ρ: Pearson's r of the average ranks (NaN when either side is constant). */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Area under the ROC curve of `score` separating positives (label 1) from negatives (label 0): the
 * probability that a random positive scores above a random negative, ties counting one half
 * (Mann–Whitney U / (n₊ n₋)). NaN without both classes.
 */
export function auc(score: ArrayLike<number>, label: ArrayLike<number>): number {
  const r = averageRanks(score);
  let nPos = 0;
  let rankSum = 0;
  for (let i = 0; i < r.length; i++) {
    if (label[i] === 1) {
      nPos++;
      rankSum += r[i]!;
    }
  }
  const nNeg = r.length - nPos;
  if (nPos === 0 || nNeg === 0) return Number.NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Fraction of items where a equals b. */
export function agreement(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`agreement: ${a.length} vs ${b.length} values`);
  let k = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) k++;
  return a.length === 0 ? Number.NaN : k / a.length;
}

/** A statistic with its 95 % percentile-bootstrap CI (null when some resample left it undefined). */
export interface StatWithCi {
  value: number;
  ci95: [number, number] | null;
}

const TWO_POW_32 = 4294967296;

/**
 * Percentile-bootstrap 95 % CIs of several statistics of the same n items, all computed on one shared
 * stream of resampled index sets (one per `label`). Each statistic gets the resampled indices and
 * returns a number; the observed value uses the identity resample.
 */
export function bootstrapStatistics(n: number, stats: Record<string, (idx: Int32Array) => number>, spec: BootstrapSpec, label: string): Record<string, StatWithCi> {
  if (!Number.isInteger(spec.samples) || spec.samples < 1) throw new RangeError(`bootstrap "${label}": samples must be a positive integer, got ${spec.samples}`);
  if (n < 1) throw new RangeError(`bootstrap "${label}": no items`);
  const names = Object.keys(stats);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const draws = names.map(() => new Float64Array(spec.samples));
  const prng = seedrandom.xor4096(`${spec.seed}/${label}`);
  const idx = new Int32Array(n);
  for (let b = 0; b < spec.samples; b++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(((prng.int32() >>> 0) * n) / TWO_POW_32);
    names.forEach((name, k) => {
      draws[k]![b] = stats[name]!(idx);
    });
  }
  const [lo, hi] = percentileRanks(spec.samples);
  const out: Record<string, StatWithCi> = {};
  names.forEach((name, k) => {
    const d = draws[k]!;
    const value = stats[name]!(identity);
    const finite = d.every((x) => Number.isFinite(x));
    out[name] = { value, ci95: finite ? (d.sort(), [d[lo]!, d[hi]!]) : null };
  });
  return out;
}

/** The items of `xs` at `idx`, as a new Float64Array. */
export function pick(xs: ArrayLike<number>, idx: Int32Array): Float64Array {
  const out = new Float64Array(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = xs[idx[i]!]!;
  return out;
}
