/**
 * The percentile bootstrap exactly as the EpiRec reference evaluator computes it in
 * Python (docs/spec.md §7, "EpiRec official evaluation"):
 *
 *   means = sorted(statistics.mean(rng.choices(values, k=n)) for _ in range(samples))
 *   ci    = (means[round((samples − 1) · 0.025)], means[round((samples − 1) · 0.975)])
 *
 * with `rng` a CPython `random.Random`. Resample sums are accumulated exactly on a
 * fixed-point grid, ordered exactly, and only the two selected ones are turned into
 * correctly rounded means — the same order statistics as sorting the rounded means,
 * since rounding is monotone.
 */
import { pyRound } from "@persode/util";
import { checkInterrupt } from "../interrupt.js";
import { canonicalSplitSum, exactMean, splitFixedPoint, splitSumMean } from "./exact-mean.js";
import type { PyRandom } from "./mt19937.js";
import { selectRank } from "./select.js";

/** The two sorted-resample positions the reference reads: round((samples − 1)·0.025) and round((samples − 1)·0.975). */
export function percentileRanks(samples: number): [number, number] {
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`bootstrap samples must be a positive integer, got ${samples}`);
  return [pyRound((samples - 1) * 0.025), pyRound((samples - 1) * 0.975)];
}

/**
 * 95 % percentile CI of the mean of `values`, drawing `samples` resamples of size n from
 * `rng` (n draws each, floor(random()·n)); advances `rng` by samples·n draws, so calls
 * made in sequence on one generator reproduce the reference's sequence of metrics.
 */
export function pythonPercentileCI(rng: PyRandom, values: ArrayLike<number>, samples: number): [number, number] {
  const n = values.length;
  if (n === 0) throw new RangeError("bootstrap: cannot resample an empty group");
  const draws = new Uint32Array(samples * n);
  rng.fillDraws(draws, n);
  return percentileCIOfDraws(draws, 0, values, samples);
}

/**
 * pythonPercentileCI over draws already taken: resample b reads draws[offset + b·n … offset + b·n + n − 1].
 * Lets every ranking evaluated on the same group share one generator's draws (they depend only on the
 * seed, the group's size and the number of resamples).
 */
export function percentileCIOfDraws(draws: Uint32Array, offset: number, values: ArrayLike<number>, samples: number): [number, number] {
  const n = values.length;
  if (n === 0) throw new RangeError("bootstrap: cannot resample an empty group");
  if (offset + samples * n > draws.length)
    throw new RangeError(`bootstrap: ${samples} resamples of ${n} need ${samples * n} draws from ${offset}, only ${draws.length} taken`);
  const [loRank, hiRank] = percentileRanks(samples);
  const split = splitFixedPoint(values, n);
  if (split === null) {
    // exponent spread too wide for the fixed-point grid: exact BigInt mean per resample
    const means = new Float64Array(samples);
    const resample = new Float64Array(n);
    for (let b = 0, k = offset; b < samples; b++) {
      if ((b & 255) === 0) checkInterrupt();
      for (let i = 0; i < n; i++, k++) resample[i] = values[draws[k]!]!;
      means[b] = exactMean(resample);
    }
    means.sort();
    return [means[loRank]!, means[hiRank]!];
  }
  const { hi, lo } = split;
  const sumHi = new Float64Array(samples);
  const sumLo = new Float64Array(samples);
  for (let b = 0, k = offset; b < samples; b++) {
    if ((b & 255) === 0) checkInterrupt();
    let h = 0;
    let l = 0;
    for (let i = 0; i < n; i++, k++) {
      const j = draws[k]!;
      h += hi[j]!;
      l += lo[j]!;
    }
    const [ch, cl] = canonicalSplitSum(h, l);
    sumHi[b] = ch;
    sumLo[b] = cl;
  }
  const order = new Int32Array(samples);
  for (let b = 0; b < samples; b++) order[b] = b;
  const less = (x: number, y: number): boolean => sumHi[x]! < sumHi[y]! || (sumHi[x] === sumHi[y] && sumLo[x]! < sumLo[y]!);
  selectRank(order, 0, samples - 1, loRank, less);
  selectRank(order, loRank, samples - 1, hiRank, less);
  const at = (rank: number): number => {
    const b = order[rank]!;
    return splitSumMean(sumHi[b]!, sumLo[b]!, split, n);
  };
  return [at(loRank), at(hiRank)];
}
