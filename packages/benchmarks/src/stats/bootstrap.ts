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
 * Values are returned unrounded; callers round for display. The runners publish rounded intervals only, and take
 * them from resampleIntervals: the same rounded numbers, from resample means estimated within a proven bound (and
 * computed exactly wherever that bound could not settle a rounding).
 */
import seedrandom from "seedrandom";
import { Progress, pyRound } from "@persode/util";
import { percentileRanks } from "./python-bootstrap.js";
import { inPhase } from "../phases.js";
import { selectRank } from "./select.js";
import { type ResampleJob } from "./resample-kernel.js";
import { runBlocks, sharedArray, startBlocks, type PendingBlocks } from "./thread-pool.js";
import { type DrawJob } from "./draw-kernel.js";
import { type EstimateJob, type WasmGlobals } from "./estimate-kernel.js";
import { ESTIMATE_WASM } from "./estimate-wasm.js";

/** How many resamples to draw and the base seed (mixed with a per-call label). */
export interface BootstrapSpec {
  samples: number;
  seed: number;
}

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
      throw new RangeError(
        `bootstrap "${label}": metric "${name}" has ${xs.length} values but "${names[0]}" has ${n}; all arrays must be aligned per item`,
      );
    }
    const col = Float64Array.from(xs as ArrayLike<number>);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(col[i]!)) throw new RangeError(`bootstrap "${label}": metric "${name}" value ${i} is not finite (${xs[i]})`);
    }
    return col;
  });
  return { names, cols, n };
}

/** One label's resample indices (`samples` × `n`, draw order) and the resample means already computed from them. */
interface ResampleSet {
  indices: Uint32Array;
  /** Per content hash of a column: the columns seen with it (their values, copied) and their resample means. */
  means: ByContent<Float64Array>;
  /** Per content hash: the columns resampleIntervals estimated under this label (values copied), with their bounds. */
  estimates: ByContent<Estimate>;
  /** Per content hash: the columns a started estimate job is computing (estimatesOf); each call waits for the job. */
  started: ByContent<() => Estimate>;
  /** Set while the indices are still being drawn by a worker thread (prefetchResamples). */
  pending?: PendingBlocks;
}

/**
 * The most recent resample sets, by `${seed}/${label}|n|samples`. Exp. 5 asks for the same label's
 * resamples three times (paper file, extended file, audited gold's original set), with the same
 * columns among them: the indices are drawn once and each distinct column is resampled once. Bounded:
 * an experiment's labels are used together, so the oldest sets are dropped first (one Exp. 5 uses 16).
 */
const resampleSets = new Map<string, ResampleSet>();
const MAX_RESAMPLE_SETS = 24;

const setKey = (n: number, spec: BootstrapSpec, label: string) => `${spec.seed}/${label}|${n}|${spec.samples}`;

/** The draw job of several labels' streams: each seeded as documented (seedrandom xor4096), into shared memory. */
function drawJob(requests: readonly { n: number; label: string }[], spec: BootstrapSpec): DrawJob {
  const job: DrawJob = {
    samples: spec.samples,
    n: Int32Array.from(requests, (r) => r.n),
    X: sharedArray(Int32Array, requests.length * 128 * 4),
    i: sharedArray(Int32Array, requests.length * 4),
    w: sharedArray(Int32Array, requests.length * 4),
    // shared memory: the thread pool's workers draw into and read the indices without a copy
    out: requests.map((r) => sharedArray(Uint32Array, spec.samples * r.n * 4)),
  };
  requests.forEach((r, s) => {
    const seeded = seedrandom.xor4096(`${spec.seed}/${r.label}`, { state: true }).state() as { i: number; w: number; X: number[] };
    job.X.set(seeded.X, s * 128);
    job.i[s] = seeded.i;
    job.w[s] = seeded.w;
  });
  return job;
}

/**
 * Drop every resample set kept in this process, so the next call draws and resamples again (bench:perf's in-process
 * runs, each timed as a fresh process would be).
 * @internal
 */
export function forgetResampleSets(): void {
  for (const set of resampleSets.values()) set.pending?.finish();
  resampleSets.clear();
}

function keepSet(key: string, set: ResampleSet): void {
  resampleSets.set(key, set);
  while (resampleSets.size > MAX_RESAMPLE_SETS) resampleSets.delete(resampleSets.keys().next().value!);
}

/**
 * Start drawing the resample indices of labels an experiment will ask for later (e.g. before it ranks), on the worker
 * threads, while the caller goes on; resampleTable then finds them drawn. The same indices as drawn on demand: a
 * request whose size or label does not match a later call only costs its draws.
 */
export function prefetchResamples(requests: readonly { n: number; label: string }[], spec: BootstrapSpec): void {
  checkSpec(spec, requests[0]?.label ?? "prefetch");
  const fresh = requests.filter((r, k) => {
    if (!Number.isInteger(r.n) || r.n < 1) throw new RangeError(`bootstrap "${r.label}": cannot prefetch resamples of ${r.n} items`);
    const key = setKey(r.n, spec, r.label);
    return !resampleSets.has(key) && requests.findIndex((q) => setKey(q.n, spec, q.label) === key) === k;
  });
  if (fresh.length === 0) return;
  const job = drawJob(fresh, spec);
  const pending = startBlocks("drawIndicesBlock", job, fresh.length, 1);
  fresh.forEach((r, s) =>
    keepSet(setKey(r.n, spec, r.label), {
      indices: job.out[s]!,
      means: new ByContent(),
      estimates: new ByContent(),
      started: new ByContent(),
      pending,
    }),
  );
}

function resampleSet(n: number, spec: BootstrapSpec, label: string): ResampleSet {
  const key = setKey(n, spec, label);
  const hit = resampleSets.get(key);
  if (hit) {
    resampleSets.delete(key);
    resampleSets.set(key, hit);
    if (hit.pending) {
      hit.pending.finish();
      delete hit.pending;
    }
    return hit;
  }
  const job = drawJob([{ n, label }], spec);
  runBlocks("drawIndicesBlock", job, 1, 1, false);
  const set: ResampleSet = { indices: job.out[0]!, means: new ByContent(), estimates: new ByContent(), started: new ByContent() };
  keepSet(key, set);
  return set;
}

/**
 * The resample indices of `label`'s stream for n items (`samples` × n, draw order: resample b is [b·n, (b + 1)·n)), as documented
 * above; drawn once, or found drawn by prefetchResamples. Shared with resampleTable's sets: do not modify them.
 */
export function resampleIndices(n: number, spec: BootstrapSpec, label: string): Uint32Array {
  checkSpec(spec, label);
  return resampleSet(n, spec, label).indices;
}

/** Something known of each column, by its content: an FNV-1a hash of its bits (contentHash), confirmed by comparing the values. */
class ByContent<T> {
  private readonly entries = new Map<number, { values: Float64Array; item: T }[]>();

  get(hash: number, values: Float64Array): T | undefined {
    return this.entries.get(hash)?.find((e) => sameValues(e.values, values))?.item;
  }

  add(hash: number, values: Float64Array, item: T): void {
    let list = this.entries.get(hash);
    if (!list) this.entries.set(hash, (list = []));
    list.push({ values, item });
  }
}

/** FNV-1a over a column's float64 bits: a cheap key, confirmed by comparing the values. */
function contentHash(col: Float64Array): number {
  const words = new Uint32Array(col.buffer, col.byteOffset, col.length * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return h >>> 0;
}

function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * Resample means of every column with one shared index stream; returns, per column, the
 * `samples` resample means in draw order. Each mean is the left-to-right sum of the resampled
 * values divided by n, so a column's means do not depend on which other columns share the call:
 * they are computed once per (label, column values) and reused; callers get copies.
 */
function resampleMeans(cols: Float64Array[], n: number, spec: BootstrapSpec, label: string): Float64Array[] {
  const set = resampleSet(n, spec, label);
  const out: (Float64Array | undefined)[] = new Array(cols.length);
  // Columns not resampled before under this label (first of each distinct content).
  const todo: number[] = [];
  const firstOf = new Map<number, number>();
  const hashes = cols.map(contentHash);
  cols.forEach((col, c) => {
    const h = hashes[c]!;
    const found = set.means.get(h, col);
    if (found) {
      out[c] = found;
      return;
    }
    const twin = todo.find((t) => hashes[t] === h && sameValues(cols[t]!, col));
    if (twin !== undefined) firstOf.set(c, twin);
    else todo.push(c);
  });
  const keep = (c: number, means: Float64Array) => {
    set.means.add(hashes[c]!, cols[c]!, means);
    out[c] = means;
  };
  // Columns whose every sum is exact (counts, hits, dyadic fractions): one multiplicity count per resample serves them all;
  // the rest are summed left to right. Blocks of resamples are computed on every core (./thread-pool.ts), the same bits.
  const isExact = new Set(todo.filter((c) => exactScale(cols[c]!) !== undefined));
  const exact = todo.filter((c) => isExact.has(c));
  const summed = todo.filter((c) => !isExact.has(c));
  if (todo.length > 0) {
    const job = resampleJob(
      exact.map((c) => cols[c]!),
      summed.map((c) => cols[c]!),
      n,
      set.indices,
      spec.samples,
    );
    // Silent unless the resampling runs for seconds (a large --samples): then a line with the time left.
    const progress = new Progress(`bootstrap ${label}`, { total: spec.samples });
    const work = spec.samples * n * (summed.length + exact.length / 4);
    const blockSize = Math.max(1, Math.floor(BLOCK_INDICES / n));
    runBlocks("resampleBlock", job, spec.samples, blockSize, work >= PARALLEL_WORK, (b) => progress.update(b));
    progress.finish();
    [...exact, ...summed].forEach((c, j) => keep(c, job.out.slice(j * spec.samples, (j + 1) * spec.samples)));
  }
  for (const [c, t] of firstOf) out[c] = out[t];
  return out.map((m) => m!.slice());
}

/**
 * The power of two 2^K that makes every value of `col` an integer with n·max|v|·2^K ≤ 2^52, if there is one
 * (0/1 hits, counts, halves and quarters…), else undefined. For such a column every partial sum of any n of its
 * values (and of their offsets from any one of them) is a multiple of 2^−K below 2^53·2^−K, so float addition is exact in every order: the left-to-right sum
 * over the draws equals Σ_i (times i was drawn)·v_i, bit for bit.
 */
function exactScale(col: Float64Array): number | undefined {
  let maxAbs = 0;
  let scale = 1;
  for (let i = 0; i < col.length; i++) {
    const v = col[i]!;
    if (v === 0) continue;
    maxAbs = Math.max(maxAbs, Math.abs(v));
    while (!Number.isInteger(v * scale)) {
      scale *= 2;
      if (scale > 2 ** 60) return undefined;
    }
  }
  return maxAbs * col.length * scale <= 2 ** 52 ? scale : undefined;
}

/** Item indices per block of resamples (256 KB): a block's indices and one group's rows stay in the core's L2 cache. */
const BLOCK_INDICES = 65_536;

/** Below this many gather-adds a call runs on the main thread alone (starting the pool's work costs more than it saves). */
const PARALLEL_WORK = 20_000_000;
/** The same for the estimate kernel (terms and counts): its blocks are cheap to hand out (shared memory), measured on Exp. 5's audit sets. */
const ESTIMATE_PARALLEL_WORK = 2_000_000;

/**
 * The job of resampling `exact` (sums exact in every order: see exactScale) and `summed` columns over `indices`, in
 * shared memory for the thread pool. Exact columns keep only the items that differ from their most frequent value
 * (the base): Σ_i count_i·v_i = base·n + Σ_{v_i ≠ base} count_i·(v_i − base), every term an exact multiple of
 * 2^−K, so e.g. a hit@10 visits only its misses. Summed columns are packed eight to a row-major group, so one draw
 * reads its eight values contiguously.
 */
function resampleJob(exact: Float64Array[], summed: Float64Array[], n: number, indices: Uint32Array, samples: number): ResampleJob {
  const parts = exact.map((col) => {
    const freq = new Map<number, number>();
    for (let i = 0; i < n; i++) freq.set(col[i]! + 0, (freq.get(col[i]! + 0) ?? 0) + 1);
    let base = 0;
    let best = -1;
    for (const [v, f] of freq) if (f > best || (f === best && v === 0)) [base, best] = [v, f];
    const at: number[] = [];
    for (let i = 0; i < n; i++) if (col[i] !== base) at.push(i);
    // offsets of exactly 1 (a 0/1 column) need no multiply
    return { base, ones: at.every((i) => col[i]! - base === 1), at, col };
  });
  const items = parts.reduce((t, p) => t + p.at.length, 0);
  const job: ResampleJob = {
    n,
    samples,
    indices,
    exactCount: exact.length,
    base: sharedArray(Float64Array, Math.max(1, exact.length) * 8),
    ones: sharedArray(Uint8Array, Math.max(1, exact.length)),
    start: sharedArray(Int32Array, (exact.length + 1) * 4),
    at: sharedArray(Int32Array, Math.max(1, items) * 4),
    delta: sharedArray(Float64Array, Math.max(1, items) * 8),
    summedCount: summed.length,
    rows: sharedArray(Float64Array, Math.max(1, Math.ceil(summed.length / 8) * n * 8) * 8),
    out: sharedArray(Float64Array, Math.max(1, (exact.length + summed.length) * samples) * 8),
  };
  let j = 0;
  parts.forEach((p, c) => {
    job.base[c] = p.base;
    job.ones[c] = p.ones ? 1 : 0;
    job.start[c] = j;
    for (const i of p.at) {
      job.at[j] = i;
      job.delta[j++] = p.col[i]! - p.base;
    }
  });
  job.start[parts.length] = j;
  summed.forEach((col, s) => {
    const r0 = Math.floor(s / 8) * n * 8 + (s % 8);
    for (let i = 0; i < n; i++) job.rows[r0 + i * 8] = col[i]!;
  });
  return job;
}

/**
 * Resample means for many aligned per-item columns with one index stream for `label`: use it to
 * give every strategy of an experiment the same resamples, so CIs and paired differences agree.
 * Returns, per column name, the `samples` resample means in draw order.
 */
export function resampleTable(
  metrics: Record<string, ArrayLike<number>>,
  spec: BootstrapSpec,
  label: string,
): Record<string, Float64Array> {
  checkSpec(spec, label);
  const { names, cols, n } = toColumns(metrics, label);
  const means = inPhase("bootstrap", () => resampleMeans(cols, n, spec, label));
  return Object.fromEntries(names.map((name, c) => [name, means[c]!]));
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

/** The estimate kernel's job of `columns`: its arrays in one new shared memory (the thread pool's workers read it without a copy). */
function estimateJob(
  columns: readonly EstimatedColumn[],
  n: number,
  indices: Uint32Array,
  samples: number,
  blockSize: number,
): EstimateJob {
  const C = columns.length;
  const terms = columns.reduce((t, e) => t + e.at.length, 0);
  const blocks = Math.ceil(samples / blockSize);
  const align8 = (x: number) => Math.ceil(x / 8) * 8;
  let bytes = 0;
  const take = (size: number) => {
    const at = bytes;
    bytes = align8(bytes + size);
    return at;
  };
  const layout = {
    parent: take(C * 4),
    base: take(C * 8),
    start: take((C + 1) * 4),
    at: take(terms * 4),
    delta: take(terms * 8),
    out: take(C * samples * 8),
  };
  const scratchBytes = align8(C * blockSize * 8 + blockSize * n * 4);
  const scratch = take(blocks * scratchBytes);
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
    scratch,
    scratchBytes,
    blockSize,
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
      return interval(Float64Array.from(e.means), e.bound, () => percentileInterval(exact(c)));
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
    const known = set.estimates.get(h, col);
    if (known) return void (out[c] = () => known);
    const started = set.started.get(h, col);
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
    const blockSize = Math.max(1, Math.floor(BLOCK_INDICES / n));
    const terms = columns.reduce((t, e) => t + e.at.length, 0);
    const job = estimateJob(columns, n, set.indices, spec.samples, blockSize);
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
        else set.estimates.add(hashes[c]!, cols[c]!, estimate);
        return estimate;
      });
      return results;
    };
    todo.forEach((c, j) => {
      const get = (): Estimate => finish()[j]!;
      out[c] = get;
      set.started.add(hashes[c]!, cols[c]!, get);
    });
  }
  for (const [c, t] of firstOf) out[c] = out[t]!;
  let all: Estimate[] | undefined;
  return () => (all ??= out.map((get) => get()));
}

/**
 * A base for a column's sparse list: 0 or the most frequent value among every `step`-th item, whichever more items
 * hold, with that count (any base is exact or within the bound; a frequent one only makes the list shorter).
 */
function frequentBase(col: Float64Array, step: number): { base: number; count: number } {
  const sample = new Float64Array(Math.ceil(col.length / step));
  for (let k = 0; k < sample.length; k++) sample[k] = col[k * step]!;
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
  for (let i = 0; i < col.length; i++) {
    const v = col[i]!;
    if (v === 0) zeros++;
    if (v === common) commons++;
  }
  return commons > zeros ? { base: common, count: commons } : { base: 0, count: zeros };
}

/** How many of every `step`-th item differ between a and b, counting up to `limit` (whole columns: step 1). */
function differing(a: Float64Array, b: Float64Array, step: number, limit: number): number {
  let d = 0;
  for (let i = 0; i < a.length && d < limit; i += step) if (a[i] !== b[i]) d++;
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
 * column takes only a parent that is exact too.
 */
function chainColumns(cols: readonly Float64Array[], n: number): { columns: EstimatedColumn[]; bounds: number[]; maxOf: number[] } {
  const columns: EstimatedColumn[] = [];
  /** Per column: the bound on |estimated sum − Σ count·v|, and the 2^K its sums are exact on (undefined: not exact). */
  const sumErr: number[] = [];
  const exactOn: (number | undefined)[] = [];
  const maxOf: number[] = [];
  const bounds: number[] = [];
  const g = gamma(n + 3);
  cols.forEach((col, j) => {
    const scale = exactScale(col);
    const step = Math.max(1, Math.floor(n / SAMPLE));
    const { base, count } = frequentBase(col, step);
    let cost = n - count;
    let parent = -1;
    // candidates ranked by how many of the sampled items differ, then the best few compared in full
    const near: number[] = [];
    const nearD: number[] = [];
    for (let k = Math.max(0, j - ESTIMATE_WINDOW); k < j; k++) {
      if (scale !== undefined && exactOn[k] === undefined) continue;
      near.push(k);
      nearD.push(differing(col, cols[k]!, step, n));
    }
    const byD = near.map((_, i) => i).sort((x, y) => nearD[x]! - nearD[y]! || near[y]! - near[x]!);
    for (let t = 0; t < Math.min(FULL_COMPARES, byD.length); t++) {
      const k = near[byD[t]!]!;
      const d = differing(col, cols[k]!, 1, cost);
      if (d < cost) {
        cost = d;
        parent = k;
      }
    }
    const ref = parent < 0 ? undefined : cols[parent]!;
    const at = new Int32Array(cost);
    const delta = new Float64Array(cost);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const r = ref ? ref[i]! : base;
      if (col[i] !== r) {
        at[m] = i;
        delta[m++] = col[i]! - r;
      }
    }
    columns.push({ parent, base, at, delta });
    const mv = maxAbs(col);
    maxOf.push(mv);
    const mr = ref ? maxOf[parent]! : Math.abs(base);
    // exact: both on the grid 2^−K (the finer of the two), the start (parent sum or base·n) and every partial sum below 2^52 of it
    const k = scale === undefined ? undefined : Math.max(scale, parent < 0 ? 1 : (exactOn[parent] ?? Infinity));
    if (k !== undefined && Number.isFinite(k) && n * (mr + maxAbs(delta)) * k <= 2 ** 52) {
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

/** 95 % percentile interval of resample statistics (selects in a copy). */
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

/** The values a full numeric sort of `stats` (Float64Array#sort: −0 before +0) puts at the two percentile ranks, by selection. */
function percentileCI(stats: Float64Array, samples: number): [number, number] {
  const [lo, hi] = percentileRanks(samples);
  selectRank(stats, 0, stats.length - 1, hi, below);
  // everything before hi is now not greater than stats[hi]
  if (lo < hi) selectRank(stats, 0, hi - 1, lo, below);
  return [stats[lo]!, stats[hi]!];
}

/** Float64Array#sort's order: numeric, −0 before +0 (no NaN reaches here: resample means of finite values). */
const below = (x: number, y: number): boolean => x < y || (x === 0 && y === 0 && 1 / x < 0 && 1 / y > 0);
