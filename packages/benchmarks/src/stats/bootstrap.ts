/**
 * Seeded percentile bootstrap CIs for the harness's own results (not the EpiRec
 * official report, which uses ./python-bootstrap.ts to match the reference bit for bit).
 *
 * Algorithm (deterministic, documented so results can be re-derived):
 * - generator: seedrandom's xor4096 (Brent's xorgens), seeded with the string
 *   `${seed}/${label}` — each label (metric, strategy, comparison…) gets its own stream;
 * - one resample: n indices, index = floor(u · n) with u = uint32 / 2^32 from `int32()`;
 *   all metrics of one call share the same indices (one stream per call);
 * - resample statistic: plain float mean, sum left to right divided by n;
 * - CI: the sorted resample statistics at ranks round((samples − 1)·0.025) and
 *   round((samples − 1)·0.975) (Python rounding), as in the official evaluator.
 * Values are returned unrounded; callers round for display.
 */
import seedrandom from "seedrandom";
import { Progress } from "@persode/util";
import { checkInterrupt } from "../interrupt.js";
import { percentileRanks } from "./python-bootstrap.js";

/** How many resamples to draw and the base seed (mixed with a per-call label). */
export interface BootstrapSpec {
  samples: number;
  seed: number;
}

const TWO_POW_32 = 4294967296;

function checkSpec(spec: BootstrapSpec, label: string): void {
  if (!Number.isInteger(spec.samples) || spec.samples < 1) {
    throw new RangeError(`bootstrap "${label}": samples must be a positive integer, got ${spec.samples}`);
  }
  if (!Number.isSafeInteger(spec.seed)) throw new RangeError(`bootstrap "${label}": seed must be an integer, got ${spec.seed}`);
}

function toColumns(metrics: Record<string, ArrayLike<number>>, label: string): { names: string[]; cols: Float64Array[]; n: number } {
  const names = Object.keys(metrics);
  if (names.length === 0) throw new RangeError(`bootstrap "${label}": no metric arrays given`);
  const n = metrics[names[0]!]!.length;
  if (n === 0) throw new RangeError(`bootstrap "${label}": cannot resample empty arrays`);
  const cols = names.map((name) => {
    const xs = metrics[name]!;
    if (xs.length !== n) {
      throw new RangeError(`bootstrap "${label}": metric "${name}" has ${xs.length} values but "${names[0]}" has ${n}; all arrays must be aligned per item`);
    }
    const col = Float64Array.from(xs as ArrayLike<number>);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(col[i]!)) throw new RangeError(`bootstrap "${label}": metric "${name}" value ${i} is not finite (${xs[i]})`);
    }
    return col;
  });
  return { names, cols, n };
}

/**
 * Resample means of every column with one shared index stream; returns, per column, the
 * `samples` resample means in draw order.
 */
function resampleMeans(cols: Float64Array[], n: number, spec: BootstrapSpec, label: string): Float64Array[] {
  const prng = seedrandom.xor4096(`${spec.seed}/${label}`);
  const C = cols.length;
  // Row-major copy: one draw reads its C values contiguously.
  const rows = new Float64Array(n * C);
  for (let c = 0; c < C; c++) {
    const col = cols[c]!;
    for (let i = 0; i < n; i++) rows[i * C + c] = col[i]!;
  }
  const sums = new Float64Array(C);
  const out = cols.map(() => new Float64Array(spec.samples));
  // Silent unless the resampling runs for seconds (a large --samples): then a line with the time left.
  const progress = new Progress(`bootstrap ${label}`, { total: spec.samples });
  for (let b = 0; b < spec.samples; b++) {
    if ((b & 255) === 0) {
      checkInterrupt();
      progress.update(b);
    }
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const base = Math.floor(((prng.int32() >>> 0) * n) / TWO_POW_32) * C;
      for (let c = 0; c < C; c++) sums[c] = sums[c]! + rows[base + c]!;
    }
    for (let c = 0; c < C; c++) out[c]![b] = sums[c]! / n;
  }
  progress.update(spec.samples);
  progress.finish();
  return out;
}

/**
 * Resample means for many aligned per-item columns with one index stream for `label`: use it to
 * give every strategy of an experiment the same resamples, so CIs and paired differences agree.
 * Returns, per column name, the `samples` resample means in draw order.
 */
export function resampleTable(metrics: Record<string, ArrayLike<number>>, spec: BootstrapSpec, label: string): Record<string, Float64Array> {
  checkSpec(spec, label);
  const { names, cols, n } = toColumns(metrics, label);
  const means = resampleMeans(cols, n, spec, label);
  return Object.fromEntries(names.map((name, c) => [name, means[c]!]));
}

/** 95 % percentile interval of resample statistics (sorts a copy). */
export function percentileInterval(stats: Float64Array): [number, number] {
  return percentileCI(Float64Array.from(stats), stats.length);
}

/** 95 % percentile interval of the paired difference a* − b* over the same resamples. */
export function pairedInterval(a: Float64Array, b: Float64Array): [number, number] {
  if (a.length !== b.length) throw new RangeError(`pairedInterval: ${a.length} vs ${b.length} resamples`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return percentileCI(d, d.length);
}

function percentileCI(stats: Float64Array, samples: number): [number, number] {
  const [lo, hi] = percentileRanks(samples);
  stats.sort();
  return [stats[lo]!, stats[hi]!];
}
