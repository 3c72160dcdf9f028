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
import { canonicalizeSplitSums, exactMean, splitFixedPoint, splitSumMean } from "./exact-mean.js";
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
  return percentileCIOfCounts(drawCounts(rng, n, samples), values, samples);
}

/** Draw counts by item: entry j·samples + b counts how often resample b drew item j (an item's column is contiguous). */
export type DrawCounts = Uint16Array | Uint32Array;

/**
 * Draw `samples` resamples of n items from `rng` (n draws each, in the reference's order, as
 * `rng.fillDraws` takes them) and return how often each resample drew each item: a resample's sum
 * is Σ_j count_j · value_j, the same exact sum as adding its draws one by one, whatever the values.
 * @internal exported for tests: test/python-bootstrap.test.ts and test/mt-counts-kernel.test.ts (the official reports draw
 * whole groups with ./mt-counts-kernel.ts)
 */
export function drawCounts(rng: PyRandom, n: number, samples: number): DrawCounts {
  const counts = n <= 0xffff ? new Uint16Array(samples * n) : new Uint32Array(samples * n);
  const draws = new Uint32Array(n);
  // counted COUNT_BLOCK resamples at a time in a small item-major block (in the core's cache), then each item's
  // COUNT_BLOCK counts copied into its column at once, instead of one scattered write per draw into the whole table
  const block = n <= 0xffff ? new Uint16Array(COUNT_BLOCK * n) : new Uint32Array(COUNT_BLOCK * n);
  for (let b0 = 0; b0 < samples; b0 += COUNT_BLOCK) {
    checkInterrupt();
    const width = Math.min(COUNT_BLOCK, samples - b0);
    block.fill(0);
    for (let r = 0; r < width; r++) {
      rng.fillDraws(draws, n);
      for (let i = 0; i < n; i++) block[draws[i]! * COUNT_BLOCK + r]!++;
    }
    for (let j = 0; j < n; j++) counts.set(block.subarray(j * COUNT_BLOCK, j * COUNT_BLOCK + width), j * samples + b0);
  }
  return counts;
}

/** Resamples drawCounts counts together (one cache line of 16-bit counts per item). */
const COUNT_BLOCK = 32;

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/**
 * pythonPercentileCI over draws already taken, as counts (drawCounts). Lets every ranking evaluated on the same group share one
 * generator's draws (they depend only on the seed, the group's size and the number of resamples).
 *
 * Each resample's exact fixed-point sum is n·v_m + Σ count_j·(v_j − v_m) over the items j whose value
 * differs from the most frequent value v_m, items of equal value counted together (their count columns
 * added for all resamples at once): every term and partial sum is an integer on the grid below 2^53, so it
 * equals the draw-by-draw sum bit for bit while visiting only those items (for a recall, the minority of
 * hits or misses).
 */
export function percentileCIOfCounts(counts: DrawCounts, values: ArrayLike<number>, samples: number): [number, number] {
  const n = values.length;
  if (n === 0) throw new RangeError("bootstrap: cannot resample an empty group");
  if (samples * n !== counts.length)
    throw new RangeError(`bootstrap: ${samples} resamples of ${n} need ${samples * n} counts, got ${counts.length}`);
  const [loRank, hiRank] = percentileRanks(samples);
  // the items of each distinct value (±0 are one), in item order
  const itemsOf = new Map<number, number[]>();
  for (let j = 0; j < n; j++) {
    const v = values[j]!;
    if (!Number.isFinite(v)) throw new RangeError(`bootstrap: value ${j} is not finite (${v})`);
    const items = itemsOf.get(v);
    if (items) items.push(j);
    else itemsOf.set(v, [j]);
  }
  const distinct = [...itemsOf.keys()];
  // the distinct values on the grid of all values (the same grid and bound as splitting every item)
  const split = splitFixedPoint(distinct, n);
  if (split === null) {
    // exponent spread too wide for the fixed-point grid: exact BigInt mean per resample (order-free)
    const means = new Float64Array(samples);
    const resample = new Float64Array(n);
    for (let b = 0; b < samples; b++) {
      if ((b & 255) === 0) checkInterrupt();
      for (let j = 0, k = 0; j < n; j++) for (let c = counts[j * samples + b]!; c > 0; c--) resample[k++] = values[j]!;
      means[b] = exactMean(resample);
    }
    means.sort();
    return [means[loRank]!, means[hiRank]!];
  }
  const { hi, lo } = split;
  // the most frequent value is the base; with it, every partial sum stays below n·(|base| + max |v − base|)
  let base = 0;
  for (let d = 1; d < distinct.length; d++) if (itemsOf.get(distinct[d]!)!.length > itemsOf.get(distinct[base]!)!.length) base = d;
  let maxDh = 0;
  let maxDl = 0;
  for (let d = 0; d < distinct.length; d++) {
    maxDh = Math.max(maxDh, Math.abs(hi[d]! - hi[base]!));
    maxDl = Math.max(maxDl, Math.abs(lo[d]! - lo[base]!));
  }
  const baseFits = n * (Math.abs(hi[base]!) + maxDh) <= TWO_POW_53 && n * (Math.abs(lo[base]!) + maxDl) <= TWO_POW_53;
  // without a base (zero), the split's own bound holds: any n of its parts sum exactly
  const bh = baseFits ? hi[base]! : 0;
  const bl = baseFits ? lo[base]! : 0;
  const h0 = n * bh + 0; // + 0: a −0 base sums like the draw-by-draw +0 start
  const l0 = n * bl + 0;
  const sumHi = new Float64Array(samples).fill(h0);
  const sumLo = new Float64Array(samples).fill(l0);
  const columns = columnAdder(counts, n, samples);
  checkInterrupt(); // at most n · samples additions follow
  // a resample adds each other value's count total times its difference from the base (a recall has one such value)
  for (let d = 0; d < distinct.length; d++) {
    const dh = hi[d]! - bh;
    const dl = lo[d]! - bl;
    if (dh === 0 && dl === 0) continue;
    const total = columns(itemsOf.get(distinct[d]!)!);
    for (let b = 0; b < samples; b++) {
      sumHi[b] = sumHi[b]! + total[b]! * dh;
      sumLo[b] = sumLo[b]! + total[b]! * dl;
    }
  }
  canonicalizeSplitSums(sumHi, sumLo);
  const mean = (h: number, l: number): number => splitSumMean(h, l, split, n);
  const ranked = byHistogram(sumHi, sumLo, loRank, hiRank);
  if (ranked !== undefined) return [mean(...ranked[0]), mean(...ranked[1])];
  const order = new Int32Array(samples);
  for (let b = 0; b < samples; b++) order[b] = b;
  const less = (x: number, y: number): boolean => sumHi[x]! < sumHi[y]! || (sumHi[x] === sumHi[y] && sumLo[x]! < sumLo[y]!);
  selectRank(order, 0, samples - 1, loRank, less);
  selectRank(order, loRank, samples - 1, hiRank, less);
  return [mean(sumHi[order[loRank]!]!, sumLo[order[loRank]!]!), mean(sumHi[order[hiRank]!]!, sumLo[order[hiRank]!]!)];
}

/**
 * The canonical split sums (H, L) at two ranks of the resamples' order, read off a histogram of the exact keys
 * H·2^26 + L when they span few values (a recall's sums are integers up to n), as a sort would rank them;
 * undefined when the keys are not exact in float64 or span more than 4 values per resample.
 */
function byHistogram(
  sumHi: Float64Array,
  sumLo: Float64Array,
  loRank: number,
  hiRank: number,
): [[number, number], [number, number]] | undefined {
  const samples = sumHi.length;
  const keys = new Float64Array(samples);
  let min = Infinity;
  let max = -Infinity;
  for (let b = 0; b < samples; b++) {
    if (!(Math.abs(sumHi[b]!) < TWO_POW_26)) return undefined;
    const k = sumHi[b]! * TWO_POW_26 + sumLo[b]!;
    keys[b] = k;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  if (max - min > 4 * samples) return undefined;
  const histogram = new Int32Array(max - min + 1);
  for (let b = 0; b < samples; b++) histogram[keys[b]! - min]!++;
  const at = (rank: number): [number, number] => {
    let seen = 0;
    let v = 0;
    while (seen + histogram[v]! <= rank) seen += histogram[v++]!;
    const key = min + v;
    const h = Math.floor(key / TWO_POW_26);
    return [h, key - h * TWO_POW_26];
  };
  return [at(loRank), at(hiRank)];
}

/**
 * Per resample, the total count of a set of items (their count columns added). A total is at most n, so with 16-bit
 * counts and n < 2^15 two resamples' totals share one 32-bit word without a carry crossing between them: the columns
 * are added two resamples per addition. Returns a view that the next call overwrites.
 */
function columnAdder(counts: DrawCounts, n: number, samples: number): (items: readonly number[]) => Uint16Array | Int32Array {
  if (counts instanceof Uint16Array && n < 0x8000 && samples % 2 === 0 && counts.byteOffset % 4 === 0) {
    const words = samples / 2;
    const packed = new Int32Array(counts.buffer, counts.byteOffset, counts.length / 2);
    const sum = new Int32Array(words);
    const total = new Uint16Array(sum.buffer);
    return (items) => {
      sum.fill(0);
      for (const j of items) {
        const column = j * words;
        for (let w = 0; w < words; w++) sum[w] = (sum[w]! + packed[column + w]!) | 0;
      }
      return total;
    };
  }
  const total = new Int32Array(samples);
  return (items) => {
    total.fill(0);
    for (const j of items) {
      const column = j * samples;
      for (let b = 0; b < samples; b++) total[b] = total[b]! + counts[column + b]!;
    }
    return total;
  };
}
