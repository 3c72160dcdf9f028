/**
 * Rounded bootstrap CIs from estimated resample means (resampleIntervals): every interval the harness publishes is
 * rounded (to 4 decimals), so each resample mean of a column is needed only to within a bound small enough to settle
 * the rounding. Columns are resampled as sparse differences from a similar column over the resample's draw counts
 * (chainColumns), each with a rigorous bound on its distance from the left-to-right mean ./bootstrap.ts computes
 * (estimateBound); a column whose rounding the bound cannot settle is computed exactly there. The same rounded numbers
 * as resampleTable + percentileInterval / pairedInterval, for a fraction of the work (docs/performance.md, round 5).
 * The estimate loop is ./estimate-kernel.ts (JavaScript, or the WebAssembly of ./estimate-wasm.ts) on the thread pool.
 */
import { Progress, pyRound } from "@persode/util";
import { inPhase } from "../phases.js";
import {
  BLOCK_INDICES,
  ByContent,
  checkSpec,
  contentHash,
  exactScale,
  pairedInterval,
  percentileCI,
  percentileInterval,
  resampleMeans,
  resampleSet,
  sameValues,
  toColumns,
  type BootstrapSpec,
  type ResampleSet,
} from "./bootstrap.js";
import { type EstimateJob, type WasmGlobals } from "./estimate-kernel.js";
import { ESTIMATE_WASM, LANES } from "./estimate-wasm.js";
import { poolThreads, runBlocks, startBlocks, type PendingBlocks } from "./thread-pool.js";

/** Below this many terms and counts an estimate job runs on the main thread alone when read: its blocks are cheap to hand out (shared memory), measured on Exp. 5's audit sets. */
const ESTIMATE_PARALLEL_WORK = 2_000_000;

/** What resampleIntervals keeps beside each resample set: the columns it estimated, and those a started job is computing. */
interface EstimateCache {
  /** Per content hash: the columns estimated under this set (values copied), with their bounds. */
  estimates: ByContent<Estimate>;
  /** Per content hash: the columns a started estimate job is computing (estimatesOf); each call waits for the job. */
  started: ByContent<() => Estimate>;
}

/** The caches by set: dropped with the set (forgetResampleSets, or the oldest set evicted). */
const caches = new WeakMap<ResampleSet, EstimateCache>();

function cacheOf(set: ResampleSet): EstimateCache {
  let c = caches.get(set);
  if (!c) caches.set(set, (c = { estimates: new ByContent(), started: new ByContent() }));
  return c;
}

/**
 * A column's estimated resample means: each within `bound` of the left-to-right mean; `max` = max |value| of the column.
 * @internal
 */
export interface Estimate {
  means: Float64Array;
  bound: number;
  max: number;
}

/** A column resampled from sparse differences: its sum is `parent`'s (an earlier estimated column; −1: base·n) plus Σ count·delta over `at`. */
interface EstimatedColumn {
  parent: number;
  base: number;
  at: Int32Array;
  delta: Float64Array;
}

/** Whether the estimate kernel's column loop runs as WebAssembly (tests compare it with the JavaScript loop). */
let estimateWasm = true;

/**
 * Run resampleIntervals' column loop in JavaScript (false) or WebAssembly (true, the default); returns the previous setting.
 * @internal
 */
export function useEstimateWasm(on: boolean): boolean {
  const was = estimateWasm;
  estimateWasm = on;
  return was;
}

/**
 * The estimate kernel's job of `columns`: its arrays in one new shared memory (the thread pool's workers read it without
 * a copy), with one scratch slot per thread of the pool. Blocks are a multiple of the WebAssembly loop's LANES
 * resamples, with about BLOCK_INDICES draws each, so a block's counts (float64) stay in the core's L2 cache.
 */
function estimateJob(columns: readonly EstimatedColumn[], n: number, indices: Uint32Array, samples: number): EstimateJob {
  const C = columns.length;
  const terms = columns.reduce((t, e) => t + e.at.length, 0);
  const blockSize = Math.max(LANES, Math.floor(BLOCK_INDICES / n / LANES) * LANES);
  const stride = Math.min(blockSize, Math.ceil(samples / LANES) * LANES);
  const slots = poolThreads();
  const align16 = (x: number) => Math.ceil(x / 16) * 16;
  let bytes = 0;
  const take = (size: number) => {
    const at = bytes;
    bytes = align16(bytes + size);
    return at;
  };
  const layout = {
    parent: take(C * 4),
    base: take(C * 8),
    start: take((C + 1) * 4),
    at: take(terms * 4),
    delta: take(terms * 8),
    out: take(C * samples * 8),
    slot: take(4),
  };
  const scratchBytes = align16((C + n) * stride * 8);
  const scratch = take(slots * scratchBytes);
  const pages = Math.max(1, Math.ceil(bytes / 65_536));
  const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
  const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
  const buffer = memory.buffer;
  const parent = new Int32Array(buffer, layout.parent, C);
  const base = new Float64Array(buffer, layout.base, C);
  const start = new Int32Array(buffer, layout.start, C + 1);
  const at = new Int32Array(buffer, layout.at, terms);
  const delta = new Float64Array(buffer, layout.delta, terms);
  let j = 0;
  columns.forEach((e, c) => {
    parent[c] = e.parent;
    base[c] = e.base;
    start[c] = j;
    at.set(e.at, j);
    delta.set(e.delta, j);
    j += e.at.length;
  });
  start[C] = j;
  return {
    n,
    samples,
    indices,
    count: C,
    memory,
    ...(estimateWasm ? { wasm: ESTIMATE_WASM } : {}),
    ...layout,
    blockSize,
    stride,
    slots,
    scratch,
    scratchBytes,
  };
}

/** Rounded 95 % percentile intervals of the columns of one resample set (resampleIntervals). */
export interface ResampledIntervals {
  /** Column `name`'s interval, each end rounded to the call's digits: pyRound(percentileInterval(resampleTable(…)[name]), digits). */
  ci(name: string): [number, number];
  /** The paired interval of `name` − `baseline` (pairedInterval over the same resamples), each end rounded likewise. */
  paired(name: string, baseline: string): [number, number];
}

/**
 * The rounded CIs that resampleTable, percentileInterval or pairedInterval and pyRound(·, digits) give, the same
 * numbers, for a fraction of the work. Every caller of the harness publishes its intervals rounded (to 4 decimals),
 * so each resample mean is only needed to within a bound small enough to settle the rounding:
 * - columns whose sums are exact in any order (exactScale) are resampled exactly, as resampleTable does;
 * - every other column's resample sums are estimated from the resample's draw counts: its sum is a similar column's
 *   sum (among the previous ESTIMATE_WINDOW of the call, the one it differs from on the fewest items) or base·n, plus
 *   Σ count·(v − that column's value) over the items where they differ. So e.g. recall@10 costs only the questions
 *   whose first gold turn ranks 6th–10th, once recall@5 is known;
 * - each estimate carries a rigorous bound on its distance from the left-to-right mean resampleTable computes
 *   (estimateBound). An order statistic moves by no more than its inputs, so the interval's ends are known to within
 *   the same bound; when both ends of that range round to the same value, that value is the answer. When one does
 *   not (an end within ≈ 1e-11 of a rounding boundary: almost never), that column's exact left-to-right means are
 *   computed and used, so every answer equals the exact computation's.
 */
export function resampleIntervals(
  metrics: Record<string, ArrayLike<number>>,
  spec: BootstrapSpec,
  label: string,
  digits: number,
): ResampledIntervals {
  checkSpec(spec, label);
  const { names, cols, n } = toColumns(metrics, label);
  // the estimates' job starts now and is waited for at the first interval read, so a caller can start several calls first
  const started = inPhase("bootstrap", () => estimatesOf(cols, n, spec, label));
  let known: Estimate[] | undefined;
  const estimates = (): Estimate[] => (known ??= inPhase("bootstrap", started));
  const byName = new Map(names.map((name, c) => [name, c]));
  const column = (name: string): number => {
    const c = byName.get(name);
    if (c === undefined) throw new RangeError(`bootstrap "${label}": no metric "${name}" (have ${names.join(", ")})`);
    return c;
  };
  const exact = (c: number): Float64Array => inPhase("bootstrap", () => resampleMeans([cols[c]!], n, spec, label)[0]!);
  const round = (x: number) => pyRound(x, digits);
  /** The rounded value of every number within `bound` of x, if they all round alike. */
  const settled = (x: number, bound: number): number | undefined => {
    if (bound === 0) return round(x);
    const m = bound + 4 * U * Math.abs(x);
    const lo = round(x - m);
    return Object.is(lo, round(x + m)) ? lo : undefined;
  };
  const interval = (stats: Float64Array, bound: number, exactly: () => [number, number]): [number, number] => {
    const [lo, hi] = percentileCI(stats, stats.length);
    const a = settled(lo, bound);
    const b = settled(hi, bound);
    if (a !== undefined && b !== undefined) return [a, b];
    const [xl, xh] = exactly();
    return [round(xl), round(xh)];
  };
  return {
    ci(name) {
      const c = column(name);
      const e = estimates()[c]!;
      return interval(e.means, e.bound, () => percentileInterval(exact(c)));
    },
    paired(name, baseline) {
      const a = column(name);
      const b = column(baseline);
      const est = estimates();
      const ea = est[a]!;
      const eb = est[b]!;
      const d = new Float64Array(ea.means.length);
      for (let i = 0; i < d.length; i++) d[i] = ea.means[i]! - eb.means[i]!;
      // the same means (equal columns) or exact ones differ exactly as the left-to-right means do
      const exactD = ea.means === eb.means || (ea.bound === 0 && eb.bound === 0);
      const bound = exactD ? 0 : 2 * (ea.bound + eb.bound + 2 * U * (ea.max + eb.max));
      return interval(d, bound, () => pairedInterval(exact(a), exact(b)));
    },
  };
}

/** The unit roundoff of float64. */
const U = 2 ** -53;
/** Higham's γ_k = k·u / (1 − k·u): the relative error bound of k floating-point operations in sequence. */
const gamma = (k: number): number => (k * U) / (1 - k * U);

/** How many earlier columns of a call resampleIntervals compares a column with to find the one it differs from least. */
const ESTIMATE_WINDOW = 64;
/** Items compared to rank those candidates, and how many of the best are then compared in full. */
const SAMPLE = 64;
const FULL_COMPARES = 3;

/**
 * resampleIntervals' estimated resample means of each column, with the bound each is within of resampleTable's (0:
 * the same bits), for tests of that bound.
 * @internal
 */
export function resampleEstimates(metrics: Record<string, ArrayLike<number>>, spec: BootstrapSpec, label: string): Estimate[] {
  checkSpec(spec, label);
  const { cols, n } = toColumns(metrics, label);
  return estimatesOf(cols, n, spec, label)();
}

/**
 * Every column's resample means, each with its bound (0: exactly the left-to-right means): known means are reused,
 * the rest estimated from sparse differences (resampleIntervals). Cached per label like resampleMeans. The estimate
 * job is started on the thread pool's workers (./thread-pool.ts startBlocks) and the returned function waits for it
 * (helping with the blocks no worker has started), so the caller can prepare other work meanwhile; a column another
 * started call is computing is taken from that call.
 */
function estimatesOf(cols: Float64Array[], n: number, spec: BootstrapSpec, label: string): () => Estimate[] {
  const set = resampleSet(n, spec, label);
  const cache = cacheOf(set);
  const hashes = cols.map(contentHash);
  const out: (() => Estimate)[] = new Array(cols.length);
  const todo: number[] = [];
  const firstOf = new Map<number, number>();
  cols.forEach((col, c) => {
    const h = hashes[c]!;
    const exact = set.means.get(h, col);
    if (exact) {
      const e: Estimate = { means: exact, bound: 0, max: maxAbs(col) };
      return void (out[c] = () => e);
    }
    const known = cache.estimates.get(h, col);
    if (known) return void (out[c] = () => known);
    const started = cache.started.get(h, col);
    if (started) return void (out[c] = started);
    const twin = todo.find((t) => hashes[t] === h && sameValues(cols[t]!, col));
    if (twin !== undefined) firstOf.set(c, twin);
    else todo.push(c);
  });
  if (todo.length > 0) {
    const { columns, bounds, maxOf } = chainColumns(
      todo.map((c) => cols[c]!),
      n,
    );
    const terms = columns.reduce((t, e) => t + e.at.length, 0);
    const job = estimateJob(columns, n, set.indices, spec.samples);
    const { blockSize } = job;
    const parallel = spec.samples * (n + terms) >= ESTIMATE_PARALLEL_WORK;
    // the job (its shared memory) is dropped once joined: the results stay, in the caches
    let running: { job: EstimateJob; pending?: PendingBlocks } | undefined = {
      job,
      ...(parallel ? { pending: startBlocks("estimateBlock", job, spec.samples, blockSize) } : {}),
    };
    let results: Estimate[] | undefined;
    const finish = (): Estimate[] => {
      if (results) return results;
      const { job, pending } = running!;
      running = undefined;
      // Silent unless the estimates take seconds (a large --samples): then a line with the time left.
      const progress = new Progress(`bootstrap ${label}`, { total: spec.samples });
      if (pending) pending.finish((b) => progress.update(b));
      else runBlocks("estimateBlock", job, spec.samples, blockSize, false, (b) => progress.update(b));
      progress.finish();
      results = todo.map((c, j) => {
        const means = new Float64Array(job.memory.buffer, job.out + j * spec.samples * 8, spec.samples).slice();
        const estimate: Estimate = { means, bound: bounds[j]!, max: maxOf[j]! };
        // exact means are resampleTable's too
        if (estimate.bound === 0) set.means.add(hashes[c]!, cols[c]!, means);
        else cache.estimates.add(hashes[c]!, cols[c]!, estimate);
        return estimate;
      });
      return results;
    };
    todo.forEach((c, j) => {
      const get = (): Estimate => finish()[j]!;
      out[c] = get;
      cache.started.add(hashes[c]!, cols[c]!, get);
    });
  }
  for (const [c, t] of firstOf) out[c] = out[t]!;
  let all: Estimate[] | undefined;
  return () => (all ??= out.map((get) => get()));
}

/**
 * A base for a column's sparse list: 0 or the most frequent value among its sampled items (`sample`, sorted here),
 * whichever more of its items hold, with that count and the column's max |value|, in one pass (any base is exact or
 * within the bound; a frequent one only makes the list shorter).
 */
function frequentBase(col: Float64Array, sample: Float64Array): { base: number; count: number; max: number } {
  sample.sort();
  let common = 0;
  let longest = 0;
  for (let i = 0, run = 0; i < sample.length; i++) {
    run = i > 0 && sample[i] === sample[i - 1] ? run + 1 : 1;
    if (run > longest) {
      longest = run;
      common = sample[i]! + 0;
    }
  }
  let zeros = 0;
  let commons = 0;
  let max = 0;
  // the counts without branches (+(x === y)): items differ unpredictably, and a mispredicted branch per item costs more
  for (let i = 0; i < col.length; i++) {
    const v = col[i]!;
    zeros += +(v === 0);
    commons += +(v === common);
    max = Math.max(max, Math.abs(v));
  }
  return commons > zeros ? { base: common, count: commons, max } : { base: 0, count: zeros, max };
}

/** How many of the first `length` values from `a` and from `b` differ in `xs` (two columns' samples, side by side). */
function differingSamples(xs: Float64Array, a: number, b: number, length: number): number {
  let d = 0;
  for (let i = 0; i < length; i++) d += +(xs[a + i] !== xs[b + i]);
  return d;
}

/** How many items differ between a and b. */
function differing(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += +(a[i] !== b[i]);
  return d;
}

function maxAbs(col: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < col.length; i++) m = Math.max(m, Math.abs(col[i]!));
  return m;
}

/**
 * Each column as a sparse difference from the earlier column (within ESTIMATE_WINDOW) it differs from on the fewest
 * items, or from its own most frequent value when that is sparser; with, per column, the bound on |estimated mean −
 * left-to-right mean| over every resample. The bound is 0 where every sum is exact: a column whose values and whose
 * parent's (recursively) are multiples of one 2^−K with every partial sum below 2^52·2^−K (as exactScale). Such a
 * column takes only a parent that is exact too. Candidates are ranked on every column's sampled items (every
 * `step`-th), kept side by side in one array so that ranking the window reads a few cache lines per candidate.
 */
function chainColumns(cols: readonly Float64Array[], n: number): { columns: EstimatedColumn[]; bounds: number[]; maxOf: number[] } {
  const columns: EstimatedColumn[] = [];
  /** Per column: the bound on |estimated sum − Σ count·v|, and the 2^K its sums are exact on (undefined: not exact). */
  const sumErr: number[] = [];
  const exactOn: (number | undefined)[] = [];
  const maxOf: number[] = [];
  const bounds: number[] = [];
  const g = gamma(n + 3);
  const step = Math.max(1, Math.floor(n / SAMPLE));
  const S = Math.ceil(n / step);
  const samples = new Float64Array(cols.length * S);
  cols.forEach((col, j) => {
    for (let k = 0; k < S; k++) samples[j * S + k] = col[k * step]!;
  });
  cols.forEach((col, j) => {
    const scale = exactScale(col);
    const { base, count, max: mv } = frequentBase(col, samples.slice(j * S, (j + 1) * S));
    let cost = n - count;
    let parent = -1;
    // candidates ranked by how many of the sampled items differ (ties: the nearer column first), then the best few
    // compared in full
    const best: number[] = [];
    const bestD: number[] = [];
    for (let k = Math.max(0, j - ESTIMATE_WINDOW); k < j; k++) {
      if (scale !== undefined && exactOn[k] === undefined) continue;
      const d = differingSamples(samples, j * S, k * S, S);
      // k rises, so an equal count ranks k ahead of the kept ones
      let at = best.length;
      while (at > 0 && bestD[at - 1]! >= d) at--;
      if (at >= FULL_COMPARES) continue;
      best.splice(at, 0, k);
      bestD.splice(at, 0, d);
      if (best.length > FULL_COMPARES) {
        best.pop();
        bestD.pop();
      }
    }
    // in ranked order, each compared in full: a candidate is taken when it differs on fewer items than the best so far
    for (const k of best) {
      const d = differing(col, cols[k]!);
      if (d < cost) {
        cost = d;
        parent = k;
      }
    }
    const ref = parent < 0 ? undefined : cols[parent]!;
    const at = new Int32Array(cost);
    const delta = new Float64Array(cost);
    let m = 0;
    let md = 0;
    for (let i = 0; i < n; i++) {
      const r = ref ? ref[i]! : base;
      if (col[i] !== r) {
        const dv = col[i]! - r;
        at[m] = i;
        delta[m++] = dv;
        md = Math.max(md, Math.abs(dv));
      }
    }
    columns.push({ parent, base, at, delta });
    maxOf.push(mv);
    const mr = ref ? maxOf[parent]! : Math.abs(base);
    // exact: both on the grid 2^−K (the finer of the two), the start (parent sum or base·n) and every partial sum below 2^52 of it
    const k = scale === undefined ? undefined : Math.max(scale, parent < 0 ? 1 : (exactOn[parent] ?? Infinity));
    if (k !== undefined && Number.isFinite(k) && n * (mr + md) * k <= 2 ** 52) {
      exactOn.push(k);
      sumErr.push(0);
      bounds.push(0);
      return;
    }
    exactOn.push(undefined);
    // the parent's error plus this column's m + 1 roundings of terms bounded by n·mr + inherited + 2n·(mv + mr)
    const inherited = parent < 0 ? 0 : sumErr[parent]!;
    const err = inherited + g * (n * mr + inherited + 2 * n * (mv + mr));
    sumErr.push(err);
    bounds.push(estimateBound(err, mv, n));
  });
  return { columns, bounds, maxOf };
}

/**
 * A bound on |fl(S̃/n) − fl(T/n)| for every resample: S̃ the estimated sum, within `sumErr` of the exact sum Σ count·v;
 * T the left-to-right sum of the n drawn values, within γ_n·n·max|v| of it (Higham, Accuracy and Stability of
 * Numerical Algorithms, §4.2); the two divisions add u·|mean| each. Doubled, for margin.
 */
function estimateBound(sumErr: number, max: number, n: number): number {
  return 2 * ((sumErr + gamma(n) * n * max) / n + 3 * U * max) + Number.MIN_VALUE;
}
