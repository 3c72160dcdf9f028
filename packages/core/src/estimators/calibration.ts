/**
 * Quantile calibration of a raw emotion score to E ∈ [0, 1]: E is the (linearly interpolated) empirical
 * CDF of the score over a reference sample of sentences. Used by the EmoBank and prototype estimators so
 * their E is on the gate's scale — E ≥ 0.6 then means "more intense than 60 % of reference sentences" —
 * without looking at any EpiRec label.
 */

/** Number of quantiles stored (every percentile, 0 … 100). */
export const CALIBRATION_POINTS = 101;

/** The 0th … 100th percentiles of `scores` (type-7 linear interpolation, as numpy's default). */
export function quantilesOf(scores: ArrayLike<number>, points = CALIBRATION_POINTS): number[] {
  if (scores.length === 0) throw new RangeError("quantilesOf: no scores");
  const s = Float64Array.from(scores).sort();
  const out: number[] = [];
  for (let k = 0; k < points; k++) {
    const h = ((s.length - 1) * k) / (points - 1);
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, s.length - 1);
    out.push(s[lo]! + (h - lo) * (s[hi]! - s[lo]!));
  }
  return out;
}

/** E for a raw score: position among the stored quantiles, interpolated, clipped to [0, 1]. */
export function calibrate(quantiles: readonly number[], x: number): number {
  const m = quantiles.length;
  if (m < 2) throw new RangeError("calibrate: need at least 2 quantiles");
  if (x <= quantiles[0]!) return 0;
  if (x >= quantiles[m - 1]!) return 1;
  let lo = 0;
  let hi = m - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (quantiles[mid]! <= x) lo = mid;
    else hi = mid;
  }
  const span = quantiles[hi]! - quantiles[lo]!;
  const frac = span > 0 ? (x - quantiles[lo]!) / span : 0;
  return (lo + frac) / (m - 1);
}
