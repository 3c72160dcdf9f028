/**
 * The paired t-test (Student 1908; e.g. Smucker, Allan & Carterette, CIKM 2007, for IR): on the per-item
 * differences d_i = a_i − b_i, t = mean(d) / (sd(d)/√n) with the sample standard deviation (n − 1),
 * df = n − 1, two-sided p = 2·F_t(−|t|; df). The t CDF is @stdlib's (regularised incomplete beta; loaded by ./stdlib.ts).
 */
import { stdlib } from "./stdlib.js";

/** Result of a paired t-test. */
export interface PairedTTest {
  /** t statistic (±Infinity when every difference is the same non-zero value; 0 when all are 0). */
  t: number;
  /** Degrees of freedom, n − 1. */
  df: number;
  /** Two-sided p-value (NaN when undefined: fewer than 2 items). */
  p: number;
}

/**
 * Paired two-sided t-test of mean(a − b) = 0 over aligned per-item arrays. With fewer than 2 items the
 * test is undefined (no variance estimate): t, df and p are NaN, and results files write p as null.
 */
export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): PairedTTest {
  const n = a.length;
  if (b.length !== n) throw new RangeError(`paired t-test: ${n} vs ${b.length} values; the arrays must be aligned per item`);
  if (n < 2) return { t: NaN, df: NaN, p: NaN };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i]! - b[i]!;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const e = a[i]! - b[i]! - mean;
    ss += e * e;
  }
  const df = n - 1;
  const se = Math.sqrt(ss / df / n);
  if (se === 0) return mean === 0 ? { t: 0, df, p: 1 } : { t: mean > 0 ? Infinity : -Infinity, df, p: 0 };
  const t = mean / se;
  return { t, df, p: Math.min(1, 2 * stdlib().tCdf(-Math.abs(t), df)) };
}
