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
 * them from ./estimated-intervals.ts (resampleIntervals): the same rounded numbers, from resample means estimated
 * within a proven bound over this module's resample sets (and computed here, exactly, wherever that bound could not
 * settle a rounding).
 */
import seedrandom from "seedrandom";
import { Progress } from "@persode/util";
import { percentileRanks } from "./python-bootstrap.js";
import { inPhase } from "../phases.js";
import { selectSortedPair } from "./select.js";
import { type ResampleJob } from "./resample-kernel.js";
import { runBlocks, sharedArray, startBlocks, type PendingBlocks } from "./thread-pool.js";
import { type DrawJob } from "./draw-kernel.js";
import { DRAW_OUT, DRAW_WASM } from "./draw-wasm.js";
import { type WasmGlobals } from "./estimate-kernel.js";

/** How many resamples to draw and the base seed (mixed with a per-call label). */
export interface BootstrapSpec {
  samples: number;
  seed: number;
}

/** Refuse resample counts and seeds the draw cannot use, naming the call's label. */
export function checkSpec(spec: BootstrapSpec, label: string): void {
  if (!Number.isInteger(spec.samples) || spec.samples < 1) {
    throw new RangeError(`bootstrap "${label}": samples must be a positive integer, got ${spec.samples}`);
  }
  if (!Number.isSafeInteger(spec.seed)) throw new RangeError(`bootstrap "${label}": seed must be an integer, got ${spec.seed}`);
}

/** The metric arrays of a call as aligned, finite float64 columns (copies), or a RangeError naming the label and the metric. */
export function toColumns(metrics: Record<string, ArrayLike<number>>, label: string): { names: string[]; cols: Float64Array[]; n: number } {
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

/**
 * One label's resample indices (`samples` × `n`, draw order) and the exact resample means already computed from them
 * (./estimated-intervals.ts keeps its estimates beside each set).
 */
export interface ResampleSet {
  indices: Uint32Array;
  /** Per content hash of a column: the columns seen with it (their values, copied) and their resample means. */
  means: ByContent<Float64Array>;
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

/** The draw job of several labels' streams: each seeded as documented (seedrandom xor4096), into its own shared memory. */
function drawJob(requests: readonly { n: number; label: string }[], spec: BootstrapSpec): { job: DrawJob; indices: Uint32Array[] } {
  const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
  const job: DrawJob = {
    samples: spec.samples,
    n: Int32Array.from(requests, (r) => r.n),
    i: new Int32Array(requests.length),
    w: new Int32Array(requests.length),
    // shared memory: the thread pool's workers draw into and read the indices without a copy
    memory: requests.map((r) => {
      const pages = Math.ceil((DRAW_OUT + spec.samples * r.n * 4) / 65_536);
      if (pages > 65_536) {
        throw new RangeError(
          `bootstrap "${r.label}": ${spec.samples} resamples of ${r.n} items are ${spec.samples * r.n} draws, more than one stream holds (2^30); use fewer --samples`,
        );
      }
      return new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    }),
    wasm: DRAW_WASM,
  };
  requests.forEach((r, s) => {
    const seeded = seedrandom.xor4096(`${spec.seed}/${r.label}`, { state: true }).state() as { i: number; w: number; X: number[] };
    new Int32Array(job.memory[s]!.buffer, 0, 128).set(seeded.X);
    job.i[s] = seeded.i;
    job.w[s] = seeded.w;
  });
  const indices = requests.map((r, s) => new Uint32Array(job.memory[s]!.buffer, DRAW_OUT, spec.samples * r.n));
  return { job, indices };
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
  const { job, indices } = drawJob(fresh, spec);
  const pending = startBlocks("drawIndicesBlock", job, fresh.length, 1);
  fresh.forEach((r, s) => keepSet(setKey(r.n, spec, r.label), { indices: indices[s]!, means: new ByContent(), pending }));
}

/** `label`'s resample set for n items: kept (waiting for its prefetched draws if need be), or drawn now and kept. */
export function resampleSet(n: number, spec: BootstrapSpec, label: string): ResampleSet {
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
  const { job, indices } = drawJob([{ n, label }], spec);
  runBlocks("drawIndicesBlock", job, 1, 1, false);
  const set: ResampleSet = { indices: indices[0]!, means: new ByContent() };
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
export class ByContent<T> {
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
export function contentHash(col: Float64Array): number {
  const words = new Uint32Array(col.buffer, col.byteOffset, col.length * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return h >>> 0;
}

/** Whether two columns hold the same values, bit for bit (−0 and +0 differ). */
export function sameValues(a: Float64Array, b: Float64Array): boolean {
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
export function resampleMeans(cols: Float64Array[], n: number, spec: BootstrapSpec, label: string): Float64Array[] {
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
export function exactScale(col: Float64Array): number | undefined {
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
export const BLOCK_INDICES = 65_536;

/** Below this many gather-adds a call runs on the main thread alone (starting the pool's work costs more than it saves). */
const PARALLEL_WORK = 20_000_000;

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

/** 95 % percentile interval of resample statistics (stats unchanged). */
export function percentileInterval(stats: Float64Array): [number, number] {
  return percentileCI(stats, stats.length);
}

/** 95 % percentile interval of the paired difference a* − b* over the same resamples. */
export function pairedInterval(a: Float64Array, b: Float64Array): [number, number] {
  if (a.length !== b.length) throw new RangeError(`pairedInterval: ${a.length} vs ${b.length} resamples`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return percentileCI(d, d.length);
}

/** The values a full numeric sort of `stats` (Float64Array#sort: −0 before +0) puts at the two percentile ranks, by selection (stats unchanged). */
export function percentileCI(stats: Float64Array, samples: number): [number, number] {
  const [lo, hi] = percentileRanks(samples);
  return selectSortedPair(stats, lo, hi);
}
