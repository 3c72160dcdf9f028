/**
 * Rank and association statistics for Exp. 7's estimator quality, with percentile-bootstrap CIs of
 * any statistic of resampled items. The resampling stream is the harness's (./bootstrap.ts): seedrandom
 * xor4096 seeded `${seed}/${label}`, index = floor(uint32 · n / 2³²), percentile ranks as there.
 */
import { pearson } from "@persode/core";
import { Progress } from "@persode/util";
import { checkInterrupt } from "../interrupt.js";
import { resampleIndices, type BootstrapSpec } from "./bootstrap.js";
import { percentileRanks } from "./python-bootstrap.js";

export { pearson };

/**
 * Average ranks (1-based; ties share the mean of their ranks), as scipy.stats.rankdata.
 * @internal exported for tests only: test/exp7.test.ts checks it against scipy values.
 */
export function averageRanks(xs: ArrayLike<number>): Float64Array {
  const n = xs.length;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b);
  const r = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && xs[idx[j + 1]!] === xs[idx[i]!]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]!] = avg;
    i = j + 1;
  }
  return r;
}

/**
 * Spearman's ρ: Pearson's r of the average ranks (NaN when either side is constant).
 * @internal exported for tests only: the plain definition test/exp7.test.ts checks RankResampler against.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Area under the ROC curve of `score` separating positives (label 1) from negatives (label 0): the
 * probability that a random positive scores above a random negative, ties counting one half
 * (Mann–Whitney U / (n₊ n₋)). NaN without both classes.
 * @internal exported for tests only: the plain definition test/exp7.test.ts checks RankResampler against.
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

/**
 * Fraction of items where a equals b.
 * @internal exported for tests only: test/exp7.test.ts checks it by hand and agreementResampler against it.
 */
export function agreement(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`agreement: ${a.length} vs ${b.length} values`);
  let k = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) k++;
  return a.length === 0 ? Number.NaN : k / a.length;
}

/**
 * `agreement(pick(a, idx), pick(b, idx))` for any resample `idx`, without the two picked copies: which items agree is
 * found once, and a resample counts its picks of those (the same count over the same items, so the same value).
 */
export function agreementResampler(a: ArrayLike<number>, b: ArrayLike<number>): (idx: Int32Array) => number {
  if (a.length !== b.length) throw new RangeError(`agreement: ${a.length} vs ${b.length} values`);
  const same = Uint8Array.from({ length: a.length }, (_, j) => (a[j] === b[j] ? 1 : 0));
  return (idx) => {
    let k = 0;
    for (let i = 0; i < idx.length; i++) k += same[idx[i]!]!;
    return idx.length === 0 ? Number.NaN : k / idx.length;
  };
}

/** Item indices in ascending order of `xs` (ties by index): computed once, reused by every resample. */
function ascendingOrder(xs: ArrayLike<number>): Int32Array {
  return Int32Array.from({ length: xs.length }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b);
}

/**
 * Average ranks of a resample given as per-item multiplicities: every copy of item i gets the mean
 * rank of its tie group, exactly as `averageRanks` of the expanded resample, in O(n) (no sort).
 */
function resampleRanks(xs: ArrayLike<number>, order: Int32Array, counts: ArrayLike<number>, out: Float64Array): Float64Array {
  const n = order.length;
  let cum = 0;
  for (let k = 0; k < n;) {
    const v = xs[order[k]!]!;
    let c = counts[order[k]!]!;
    let j = k;
    while (j + 1 < n && xs[order[j + 1]!] === v) c += counts[order[++j]!]!;
    const avg = cum + (c + 1) / 2;
    for (let t = k; t <= j; t++) out[order[t]!] = avg;
    cum += c;
    k = j + 1;
  }
  return out;
}

/** Pearson's r of paired values with per-item multiplicities (the expanded sample's r). */
function weightedPearson(x: ArrayLike<number>, y: ArrayLike<number>, w: ArrayLike<number>): number {
  let sw = 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < x.length; i++) {
    sw += w[i]!;
    mx += w[i]! * x[i]!;
    my += w[i]! * y[i]!;
  }
  if (sw < 2) return Number.NaN;
  mx /= sw;
  my /= sw;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += w[i]! * dx * dy;
    sxx += w[i]! * dx * dx;
    syy += w[i]! * dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** Resampled rank statistics of one score against a second variable, without sorting per resample. */
export class RankResampler {
  private readonly ox: Int32Array;
  private readonly oy: Int32Array;
  private readonly rx: Float64Array;
  private readonly ry: Float64Array;

  constructor(
    private readonly x: ArrayLike<number>,
    private readonly y: ArrayLike<number>,
  ) {
    this.ox = ascendingOrder(x);
    this.oy = ascendingOrder(y);
    this.rx = new Float64Array(x.length);
    this.ry = new Float64Array(y.length);
  }

  /** Spearman's ρ of the resample given by `counts`. */
  spearman(counts: ArrayLike<number>): number {
    return weightedPearson(resampleRanks(this.x, this.ox, counts, this.rx), resampleRanks(this.y, this.oy, counts, this.ry), counts);
  }

  /** AUC of x separating y = 1 from y = 0 in the resample given by `counts`. */
  auc(counts: ArrayLike<number>): number {
    const r = resampleRanks(this.x, this.ox, counts, this.rx);
    let nPos = 0;
    let nAll = 0;
    let rankSum = 0;
    for (let i = 0; i < r.length; i++) {
      const c = counts[i]!;
      nAll += c;
      if (this.y[i] === 1) {
        nPos += c;
        rankSum += c * r[i]!;
      }
    }
    const nNeg = nAll - nPos;
    if (nPos === 0 || nNeg === 0) return Number.NaN;
    return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
  }
}

/** A statistic with its 95 % percentile-bootstrap CI (null when some resample left it undefined). */
export interface StatWithCi {
  value: number;
  ci95: [number, number] | null;
}

/**
 * A statistic of a resample: its indices in draw order, the same resample as per-item multiplicities, and the
 * resample's number (0 … samples − 1; −1 for the observed value), so statistics sharing a derived value can
 * compute it once per resample. It must not keep or modify `idx` and `counts`: they are reused.
 */
export type ResampledStatistic = (idx: Int32Array, counts: Int32Array, resample: number) => number;

/**
 * Percentile-bootstrap 95 % CIs of several statistics of the same n items, all computed on one shared
 * stream of resampled index sets (one per `label`: the harness's, ./bootstrap.ts resampleIndices, so prefetchResamples can draw it
 * ahead on a worker thread). Each statistic gets the resampled indices (in draw order) and the same resample as per-item
 * multiplicities; the observed value uses the identity resample.
 */
export function bootstrapStatistics(
  n: number,
  stats: Record<string, ResampledStatistic>,
  spec: BootstrapSpec,
  label: string,
): Record<string, StatWithCi> {
  if (!Number.isInteger(spec.samples) || spec.samples < 1)
    throw new RangeError(`bootstrap "${label}": samples must be a positive integer, got ${spec.samples}`);
  if (n < 1) throw new RangeError(`bootstrap "${label}": no items`);
  const names = Object.keys(stats);
  const fns = names.map((name) => stats[name]!);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const draws = names.map(() => new Float64Array(spec.samples));
  const indices = resampleIndices(n, spec, label);
  const idx = new Int32Array(n);
  const counts = new Int32Array(n);
  const progress = new Progress(`bootstrap ${label}`, { total: spec.samples });
  for (let b = 0; b < spec.samples; b++) {
    if ((b & 255) === 0) {
      checkInterrupt();
      progress.update(b);
    }
    counts.fill(0);
    for (let i = 0, at = b * n; i < n; i++) {
      const j = indices[at + i]!;
      idx[i] = j;
      counts[j]!++;
    }
    for (let k = 0; k < fns.length; k++) draws[k]![b] = fns[k]!(idx, counts, b);
  }
  progress.update(spec.samples);
  progress.finish();
  const ones = new Int32Array(n).fill(1);
  const [lo, hi] = percentileRanks(spec.samples);
  const out: Record<string, StatWithCi> = {};
  names.forEach((name, k) => {
    const d = draws[k]!;
    const value = stats[name]!(identity, ones, -1);
    const finite = d.every((x) => Number.isFinite(x));
    out[name] = { value, ci95: finite ? (d.sort(), [d[lo]!, d[hi]!]) : null };
  });
  return out;
}

/**
 * pearson(pick(xs, idx), y) without the picked copy: the same sums in the same order (item k of the resample is xs[idx[k]]), so the
 * same bits; y is aligned with idx.
 */
export function pearsonPicked(xs: ArrayLike<number>, idx: Int32Array, y: ArrayLike<number>): number {
  const n = idx.length;
  if (n !== y.length) throw new RangeError(`pearson: ${n} vs ${y.length} values`);
  if (n < 2) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[idx[i]!]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[idx[i]!]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** The items of `xs` at `idx`, as a new Float64Array (or into `out`, of length idx.length, reused across resamples). */
export function pick(xs: ArrayLike<number>, idx: Int32Array, out = new Float64Array(idx.length)): Float64Array {
  for (let i = 0; i < idx.length; i++) out[i] = xs[idx[i]!]!;
  return out;
}
