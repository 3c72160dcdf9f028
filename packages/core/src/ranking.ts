import { LexiconAnalyzer } from "./analyzer.js";
import { blasDot, blasNorm, fma, laneDot, reduceLanes } from "./embedders/blas-dot.js";
import { clip } from "./numeric.js";
import { salience as salienceOf, type ScoringWeights } from "./scorer.js";

/**
 * Column view of a memory store: typed arrays over all memories, in insertion order.
 * Strategies read only this, so ranking a whole store is a few tight loops.
 */
export interface StoreColumns {
  readonly size: number;
  readonly dim: number;
  /** Row-major embeddings, size × dim. */
  readonly vectors: Float64Array;
  /** ‖v_i‖ of each embedding (0 for an empty text). */
  readonly norms: Float64Array;
  readonly emotionalIntensity: Float64Array;
  readonly contextualRelevance: Float64Array;
  readonly recallCount: Float64Array;
  readonly createdAtMs: Float64Array;
  /** last_recalled if set, else created_at: where the decay clock starts. */
  readonly decayFromMs: Float64Array;
  /** The memories' texts, for lexical strategies such as BM25 (absent in hand-built column views). */
  readonly texts?: readonly string[];
}

/** The query side of a ranking: its text, embedding and (lazily) analyzer intensity. */
export interface RankingQuery {
  text: string;
  vector: Float64Array;
  /** Analyzer E of the query; computed with the lexicon analyzer when omitted. */
  intensity?: number;
  /**
   * cosine(query, memory) for every memory, when the caller already has it: the same query ranked again
   * against the same vectors with other memory E (Exp. 7 reruns LoCoMo once per emotion estimator). Used
   * as given, so it must be what `similarity()` computed for these vectors; only its length is checked.
   */
  similarity?: Float64Array;
}

/** Eq. 1 / fusion parameters a ranking uses. */
export interface RankingParams {
  weights: ScoringWeights;
  gamma: number;
  lambda: number;
  /** The store's default similarity weight α (0.5). */
  alpha: number;
  /**
   * Scores closer than this are near-ties whose order may depend on the last bits of a neural model's
   * output (docs/reproducibility.md): 0 for exact embedders, NEAR_TIE_EPSILON for model vectors.
   */
  tieEpsilon?: number;
}

/**
 * The near-tie threshold of rankings over a neural model's vectors (docs/reproducibility.md): |Δscore| ≤ 1e-6,
 * 4.5 times the largest cosine deviation measured between two instruction sets (AVX-512 and AVX2: 2.2e-7),
 * so any pair whose order a CPU can flip is recorded as a near-tie in the rankings files.
 */
export const NEAR_TIE_EPSILON = 1e-6;

let sharedAnalyzer: LexiconAnalyzer | undefined;

/**
 * Everything a retrieval strategy may look at for one query against one store, with the
 * expensive parts (cosine over the store, salience, fused orders) computed once and memoised.
 */
export class RankingContext {
  private sim?: Float64Array;
  private readonly salienceCache = new Map<boolean, Float64Array>();
  private readonly orderCache = new Map<string, Int32Array>();
  private readonly ties = new WeakMap<Int32Array, Int32Array>();
  private intensity?: number;

  constructor(
    readonly columns: StoreColumns,
    readonly query: RankingQuery,
    readonly nowMs: number,
    readonly params: RankingParams,
  ) {
    this.intensity = query.intensity;
    if (query.similarity) {
      if (query.similarity.length !== columns.size)
        throw new RangeError(`precomputed similarity has ${query.similarity.length} values, the store has ${columns.size} memories`);
      this.sim = query.similarity;
    }
  }

  /** Number of memories ranked. */
  get size(): number {
    return this.columns.size;
  }

  /** Analyzer E of the query (the emotion gate's input). */
  queryIntensity(): number {
    if (this.intensity === undefined) {
      sharedAnalyzer ??= new LexiconAnalyzer();
      this.intensity = sharedAnalyzer.analyzeSync(this.query.text).intensity;
    }
    return this.intensity;
  }

  /**
   * cosine(query, memory) for every memory (docs/spec.md §4: 0 when a norm is 0): numpy-exact for exact embedders, laneDot for model
   * vectors.
   */
  similarity(): Float64Array {
    if (this.sim) return this.sim;
    const { size, dim, vectors, norms } = this.columns;
    const q = this.query.vector;
    if (q.length !== dim) throw new RangeError(`query embedding has ${q.length} dimensions, the store has ${dim}`);
    const qn = blasNorm(q);
    const out = new Float64Array(size);
    if (qn === 0) {
      this.sim = out;
      return out;
    }
    const postings = postingsOf(this.columns);
    if (postings) {
      // Sparse store (hashing): visit only the (memory, dimension) pairs where both are non-zero.
      // Each memory keeps its own 16 kernel lanes, so the result is identical to blasDot.
      const n1 = dim & -16;
      const lanes = scratchLanes(size * 16);
      const dots = new Float64Array(size);
      for (let j = 0; j < n1; j++) {
        const x = q[j]!;
        if (x === 0) continue;
        const { mem, val } = postings[j]!;
        const lane = j & 15;
        for (let t = 0; t < mem.length; t++) {
          const k = mem[t]! * 16 + lane;
          lanes[k] = fma(x, val[t]!, lanes[k]!);
        }
      }
      for (let i = 0; i < size; i++) dots[i] = reduceLanes(lanes, i * 16);
      for (let j = n1; j < dim; j++) {
        const x = q[j]!;
        if (x === 0) continue;
        const { mem, val } = postings[j]!;
        for (let t = 0; t < mem.length; t++) dots[mem[t]!] = fma(val[t]!, x, dots[mem[t]!]!);
      }
      for (let i = 0; i < size; i++) if (norms[i] !== 0) out[i] = dots[i]! / (qn * norms[i]!);
    } else {
      // Model vectors (tieEpsilon > 0: compared within tolerance) take the fast kernel; exact embedders keep numpy's.
      const dot = (this.params.tieEpsilon ?? 0) > 0 ? laneDot : blasDot;
      for (let i = 0; i < size; i++) {
        const mn = norms[i]!;
        if (mn !== 0) out[i] = dot(q, vectors, dim, 0, i * dim) / (qn * mn);
      }
    }
    this.sim = out;
    return out;
  }

  /**
   * Salience k of every memory (Eq. 1 at d = 1); with `useQueryRelevance` the query similarity,
   * clipped to [0, 1], stands in for the stored C.
   */
  salience(useQueryRelevance: boolean): Float64Array {
    const hit = this.salienceCache.get(useQueryRelevance);
    if (hit) return hit;
    const { size, emotionalIntensity: E, contextualRelevance: C, recallCount: n } = this.columns;
    const sim = useQueryRelevance ? this.similarity() : undefined;
    const out = new Float64Array(size);
    for (let i = 0; i < size; i++) out[i] = salienceOf(E[i]!, n[i]!, sim ? clip(sim[i]!) : C[i]!, this.params.weights);
    this.salienceCache.set(useQueryRelevance, out);
    return out;
  }

  /** fused = α·sim + (1 − α)·salience for every memory (docs/spec.md §5). */
  fused(alpha: number, useQueryRelevance: boolean): Float64Array {
    const sim = this.similarity();
    const sal = this.salience(useQueryRelevance);
    const out = new Float64Array(this.size);
    for (let i = 0; i < out.length; i++) out[i] = alpha * sim[i]! + (1 - alpha) * sal[i]!;
    return out;
  }

  /**
   * fused(alpha, useQueryRelevance)'s values in a scratch buffer reused by every context (read at once by fusedTop, never kept):
   * the same expressions, element by element, without a fused and a salience array per query (the salience is taken from the
   * cache when some strategy computed it already).
   */
  private fusedScratch(alpha: number, useQueryRelevance: boolean): Float64Array {
    const sim = this.similarity();
    const { size, emotionalIntensity: E, contextualRelevance: C, recallCount: n } = this.columns;
    if (fusedScratchBuffer.length < size) fusedScratchBuffer = new Float64Array(Math.max(size, 2 * fusedScratchBuffer.length));
    const out = fusedScratchBuffer.subarray(0, size);
    const sal = this.salienceCache.get(useQueryRelevance);
    if (sal) for (let i = 0; i < size; i++) out[i] = alpha * sim[i]! + (1 - alpha) * sal[i]!;
    else {
      const w = this.params.weights;
      for (let i = 0; i < size; i++)
        out[i] = alpha * sim[i]! + (1 - alpha) * salienceOf(E[i]!, n[i]!, useQueryRelevance ? clip(sim[i]!) : C[i]!, w);
    }
    return out;
  }

  /** Full ranking by fused score, stable descending (memoised per α and context mode; α = 1 also per similarity array). */
  fusedOrder(alpha: number, useQueryRelevance = true): Int32Array {
    const key = `${alpha}|${useQueryRelevance}`;
    let o = this.orderCache.get(key);
    if (!o) {
      const simOnly = alpha === 1 && useQueryRelevance;
      const shared = simOnly ? similarityOrders.get(this.similarity()) : undefined;
      if (shared) {
        o = shared.order;
        if (shared.ties) this.ties.set(o, shared.ties);
      } else {
        // salience-only (α = 0, stored C) reads no embedding: its order is exact on every machine
        o = this.order(this.fused(alpha, useQueryRelevance), alpha !== 0 || useQueryRelevance);
        if (simOnly) similarityOrders.set(this.similarity(), { order: o, ties: this.ties.get(o) });
      }
      this.orderCache.set(key, o);
    }
    return o;
  }

  /**
   * The first k of fusedOrder(alpha, useQueryRelevance), the same indices in the same order (topOrder over the
   * same fused scores), for callers that read only the top k; memoised like fusedOrder, and taken from the
   * full order when that was already computed.
   */
  fusedTop(alpha: number, useQueryRelevance: boolean, k: number): Int32Array {
    const full = this.orderCache.get(`${alpha}|${useQueryRelevance}`);
    if (full) return full.subarray(0, Math.min(k, full.length));
    const key = `top${k}|${alpha}|${useQueryRelevance}`;
    let o = this.orderCache.get(key);
    if (!o) {
      // similarity-only (α = 1) is a function of the cosines alone, so it is shared per similarity array, like fusedOrder's
      const sim = alpha === 1 && useQueryRelevance ? this.similarity() : undefined;
      const shared = sim ? similarityOrders.get(sim)?.order : undefined;
      let tops = sim ? similarityTops.get(sim) : undefined;
      o = shared ? shared.subarray(0, Math.min(k, shared.length)) : tops?.get(k);
      if (!o) {
        o = topOrder(this.fusedScratch(alpha, useQueryRelevance), k);
        if (sim) {
          if (!tops) similarityTops.set(sim, (tops = new Map()));
          tops.set(k, o);
        }
      }
      this.orderCache.set(key, o);
    }
    return o;
  }

  /**
   * Indices by score, stable descending (descendingOrder). When the scores depend on model vectors
   * (`modelDerived`, the default) and the store's tieEpsilon is above 0, the positions of near-ties are
   * recorded for nearTies(): the rankings files carry them so the results checker can tell a CPU's
   * rounding from a real change (docs/reproducibility.md).
   */
  order(scores: ArrayLike<number>, modelDerived = true): Int32Array {
    const o = descendingOrder(scores);
    const eps = this.params.tieEpsilon ?? 0;
    if (modelDerived && eps > 0) {
      const at = nearTiePositions(o, scores, eps);
      if (at.length > 0) this.ties.set(o, at);
    }
    return o;
  }

  /** Positions p of an order made by order() where scores of ranks p and p + 1 differ by at most tieEpsilon (undefined: none). */
  nearTies(order: Int32Array): Int32Array | undefined {
    return this.ties.get(order);
  }

  /**
   * A value that depends on the store and the time but not on the query (a recency or retention column), computed
   * once per (columns, now, key) and shared by every query's context over the same columns: `compute` must read
   * nothing of the query, and callers must not mutate what it returns.
   */
  storeValue<T>(key: string, compute: () => T): T {
    let memo = storeValues.get(this.columns);
    if (!memo) storeValues.set(this.columns, (memo = new Map()));
    const at = `${this.nowMs}|${key}`;
    if (memo.has(at)) return memo.get(at) as T;
    const value = compute();
    memo.set(at, value);
    return value;
  }

  /** All memories by created_at, newest first, ties in insertion order (a function of the store alone: sorted once per store's columns). */
  recencyOrder(): Int32Array {
    let o = recencyOrders.get(this.columns);
    if (!o) recencyOrders.set(this.columns, (o = descendingOrder(this.columns.createdAtMs)));
    return o;
  }
}

/** RankingContext.recencyOrder's order, per store's columns (as storeValue): shared by every query over them (callers must not mutate it). */
const recencyOrders = new WeakMap<StoreColumns, Int32Array>();

/** RankingContext.storeValue's values, per store's columns, by "now|key". */
const storeValues = new WeakMap<StoreColumns, Map<string, unknown>>();

/**
 * The similarity-only order (α = 1: 1·sim + 0·salience, a function of the cosines alone) of each similarity array,
 * with its near-ties: a query ranked again over the same precomputed similarity (RankingQuery.similarity; Exp. 7
 * reruns LoCoMo once per emotion estimator) reuses it instead of sorting again.
 */
const similarityOrders = new WeakMap<Float64Array, { order: Int32Array; ties: Int32Array | undefined }>();

/** The similarity-only top k (fusedTop, α = 1) of each similarity array, per k: shared like similarityOrders. */
const similarityTops = new WeakMap<Float64Array, Map<number, Int32Array>>();

// Strategies from plugins run in the same process: no one may swap the methods every strategy ranks with.
Object.freeze(RankingContext.prototype);

let lanesScratch = new Float64Array(0);

/** RankingContext.fusedScratch's buffer (ranking is synchronous, so one buffer serves every context). */
let fusedScratchBuffer = new Float64Array(0);

/**
 * A zeroed scratch buffer for the per-memory FMA lanes, reused across queries: similarity() is
 * synchronous, so one buffer serves every call and a benchmark does not allocate 75 kB per query.
 */
function scratchLanes(n: number): Float64Array {
  if (lanesScratch.length < n) lanesScratch = new Float64Array(n);
  else lanesScratch.fill(0, 0, n);
  return lanesScratch;
}

/** Per dimension: the memories with a non-zero value there, and the values. */
type Postings = { mem: Int32Array; val: Float64Array }[];

const postingsCache = new WeakMap<StoreColumns, Postings | null>();

/**
 * An inverted index over the store's embeddings when they are sparse (≤ 1/4 non-zero, e.g. the
 * hashing embedder), else null. Built once per column view and reused for every query.
 */
function postingsOf(c: StoreColumns): Postings | null {
  let p = postingsCache.get(c);
  if (p !== undefined) return p;
  const { size, dim, vectors } = c;
  const counts = new Int32Array(dim);
  let nnz = 0;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < dim; j++) {
      if (vectors[i * dim + j] !== 0) {
        counts[j]!++;
        nnz++;
      }
    }
  }
  if (nnz * 4 > size * dim) p = null;
  else {
    const built: Postings = Array.from(counts, (n) => ({ mem: new Int32Array(n), val: new Float64Array(n) }));
    const fill = new Int32Array(dim);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < dim; j++) {
        const v = vectors[i * dim + j]!;
        if (v !== 0) {
          const t = fill[j]!++;
          built[j]!.mem[t] = i;
          built[j]!.val[t] = v;
        }
      }
    }
    p = built;
  }
  postingsCache.set(c, p);
  return p;
}

/**
 * Positions p (ascending) where 0 < |scores[order[p]] − scores[order[p + 1]]| ≤ eps. Exact ties are left
 * out: they are ordered by index on every machine where they stay exact, and where another machine's
 * scores part them by a hair, that machine records the pair itself.
 */
export function nearTiePositions(order: Int32Array, scores: ArrayLike<number>, eps: number): Int32Array {
  const at: number[] = [];
  for (let p = 0; p + 1 < order.length; p++) {
    const gap = Math.abs(scores[order[p]!]! - scores[order[p + 1]!]!);
    if (gap > 0 && gap <= eps) at.push(p);
  }
  return Int32Array.from(at);
}

/**
 * The first min(k, n) indices of descendingOrder(scores), in its order (ties by ascending index), by one pass
 * keeping the best k so far: O(n) for the small k a metric reads, instead of a full sort. NaN is an error, as there.
 */
export function topOrder(scores: ArrayLike<number>, k: number): Int32Array {
  const n = scores.length;
  const m = Math.max(0, Math.min(Math.floor(k), n));
  const top = new Int32Array(m);
  const val = new Float64Array(m);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (s !== s)
      throw new RangeError(
        `topOrder: score ${i} of ${n} is NaN; every score must be a number to be ranked (check the computation that produced it)`,
      );
    let j: number;
    if (size < m) j = size++;
    else if (m > 0 && s > val[m - 1]!) j = m - 1;
    else continue;
    // an equal score stays ahead: it has the lower index
    while (j > 0 && val[j - 1]! < s) {
      val[j] = val[j - 1]!;
      top[j] = top[j - 1]!;
      j--;
    }
    val[j] = s;
    top[j] = i;
  }
  return top;
}

/**
 * Indices sorted by score, descending; ties keep ascending index order (a stable sort).
 * A NaN score has no place in an order, so it is an error (RangeError naming its index), never a
 * silent position; ±Infinity sort as numbers. Strategies run through rankChecked, which adds the
 * strategy's key and the query to the message.
 * A bucket sort finished by insertion sort: one counting pass spreads the indices over 2n buckets by a map
 * that never rises as the score falls (linear in the score; for scores spanning many orders of magnitude,
 * linear in the float's high bits, i.e. logarithmic), then an insertion sort on the scores fixes what the
 * buckets left out of order. On the ~600-memory stores the benchmarks rank thousands of times that is a few
 * moves per memory: ≈ 14 µs per sort of Exp. 5's LoCoMo scores (23 ns per score, 2 804 score arrays captured from a
 * run), against ≈ 44 µs for a merge sort (an LSD radix sort on the float bits took ≈ 30: eight passes). When both
 * maps would leave more than 4n moves, the built-in comparison sort (fallbackOrder) runs instead, so every input
 * stays O(n log n).
 */
export function descendingOrder(scores: ArrayLike<number>): Int32Array {
  const n = scores.length;
  if (bucketKey.length < n) {
    const size = Math.max(n, 2 * bucketKey.length);
    bucketKey = new Float64Array(size);
    bucketKeyWords = new Int32Array(bucketKey.buffer);
    bucketOf = new Int32Array(size);
    sortedKey = new Float64Array(size);
    sortedIndex = new Int32Array(size);
    bucketStarts = new Int32Array(2 * size + 1);
  }
  // scratch reused across calls (no garbage per sort but the result)
  const key = bucketKey;
  const keyWords = bucketKeyWords;
  const bucket = bucketOf;
  const sk = sortedKey;
  const si = sortedIndex;
  const bucketStart = bucketStarts;
  const buckets = 2 * n;
  let max = -Infinity;
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (s !== s)
      throw new RangeError(
        `descendingOrder: score ${i} of ${n} is NaN; every score must be a number to be ranked (check the computation that produced it)`,
      );
    key[i] = s + 0; // −0 becomes +0: equal scores must have equal bits for the second map
    if (s > max && s !== Infinity) max = s;
    if (s < min && s !== -Infinity) min = s;
  }
  if (n <= 16) return fallbackOrder(key, n); // too few scores to be worth 2n buckets
  for (let map = 0; map < 2; map++) {
    // 1. bucket[i] for every memory: 0 holds the highest scores. Equal scores always share a bucket, and a
    // bucket keeps its memories in index order (step 2), so ties stay in index order whichever map is used.
    bucketStart.fill(0, 0, buckets + 1);
    if (map === 0) {
      // linear in the score between the finite extremes; ±Infinity in the end buckets. (max − s)·scale is ≥ 0 and
      // below buckets (it exceeds buckets − 1 by rounding at most), so `| 0` (floor) is a bucket; NaN (∞·0, when
      // max − s overflows) gives bucket 0
      let scale = (buckets - 1) / (max - min);
      if (!(scale > 0 && scale < Infinity)) scale = 0; // one finite value, none, or a range that overflows
      for (let i = 0; i < n; i++) {
        const s = key[i]!;
        const b = s === Infinity ? 0 : s === -Infinity ? buckets - 1 : ((max - s) * scale) | 0;
        bucket[i] = b;
        bucketStart[b + 1]!++;
      }
      // Scores crowding around 0 over many orders of magnitude (products of decays: MemoryBank's, Generative Agents')
      // share the bucket of 0. When it holds more non-zero scores than the insertion sort's budget can order (m
      // distinct values in one bucket cost up to m²/2 moves), the float-bits map is taken at once rather than after
      // a failed insertion sort (≈ 14 % of Exp. 5's sorts). Exact zeros tie: they cost no moves, so they are not counted.
      if (min <= 0 && max >= 0 && scale > 0) {
        const zero = (max * scale) | 0;
        const c = bucketStart[zero + 1]!;
        if (c * c > 8 * n) {
          let crowded = 0;
          for (let i = 0; i < n; i++) crowded += +(bucket[i] === zero && key[i] !== 0);
          if (crowded * crowded > 8 * n) continue;
        }
      }
    } else {
      // linear in the high 32 bits of the float, mapped to an unsigned integer that rises as the score falls
      // (positive: all bits but the sign flipped; negative: as they are)
      let lo = 2 ** 32;
      let hi = 0;
      for (let i = 0; i < n; i++) {
        const h = keyWords[2 * i + HIGH_WORD]!;
        const k = (h ^ (~(h >> 31) & 0x7fffffff)) >>> 0;
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
      const scale = hi > lo ? (buckets - 1) / (hi - lo) : 0;
      for (let i = 0; i < n; i++) {
        const h = keyWords[2 * i + HIGH_WORD]!;
        const b = ((((h ^ (~(h >> 31) & 0x7fffffff)) >>> 0) - lo) * scale) | 0;
        bucket[i] = b;
        bucketStart[b + 1]!++;
      }
    }
    // 2. counting sort by bucket, in index order (stable), of the scores and their indices side by side, so the
    // insertion sort reads its scores in order rather than through the indices. The running sum stays in a
    // register: bucketStart[b] becomes the first place of bucket b.
    let sum = 0;
    for (let b = 0; b < buckets; b++) {
      sum += bucketStart[b]!;
      bucketStart[b] = sum;
    }
    for (let i = 0; i < n; i++) {
      const p = bucketStart[bucket[i]!]!++;
      sk[p] = key[i]!;
      si[p] = i;
    }
    // 3. insertion sort on the scores; a strictly higher score moves up, an equal one never passes (stable)
    if (insertionSorted(sk, si, n, 4 * n)) return si.slice(0, n);
  }
  return fallbackOrder(key, n);
}

/**
 * Insertion sort of the first n of sk descending, moving si alongside; a score moves up only past strictly lower ones
 * (stable). False as soon as it has made more than `budget` moves (sk and si are then partly sorted).
 */
function insertionSorted(sk: Float64Array, si: Int32Array, n: number, budget: number): boolean {
  for (let i = 1; i < n; i++) {
    const s = sk[i]!;
    let j = i - 1;
    if (!(sk[j]! < s)) continue;
    const x = si[i]!;
    do {
      sk[j + 1] = sk[j]!;
      si[j + 1] = si[j]!;
      j--;
    } while (j >= 0 && sk[j]! < s);
    sk[j + 1] = s;
    si[j + 1] = x;
    budget -= i - 1 - j;
    if (budget < 0) return false;
  }
  return true;
}

/** Which Int32 of a Float64 holds its sign and exponent (1 on little-endian machines). */
const HIGH_WORD = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0;

/**
 * Scores descendingOrder's scratch holds from the start (≈ 130 kB): more than any store of the shipped benchmarks, so
 * the growing branch never runs there. Code V8 optimised before that branch first ran would be thrown away and
 * compiled again when it did (its first run, in the first calls, leaves no type feedback).
 */
const INITIAL_SCRATCH = 4096;

/**
 * descendingOrder's scratch arrays (scores, their 32-bit words, each one's bucket, the scores and indices in bucket
 * order, bucket starts), grown on demand.
 */
let bucketKey = new Float64Array(INITIAL_SCRATCH);
let bucketKeyWords = new Int32Array(bucketKey.buffer);
let bucketOf = new Int32Array(INITIAL_SCRATCH);
let sortedKey = new Float64Array(INITIAL_SCRATCH);
let sortedIndex = new Int32Array(INITIAL_SCRATCH);
let bucketStarts = new Int32Array(2 * INITIAL_SCRATCH + 1);

/**
 * descendingOrder for the first n of scores (no NaN; −0 already +0) when n ≤ 16 or both bucket maps leave them too far
 * from sorted: the built-in sort of the indices by score descending, then index ascending. That is a total order, so
 * this is the one permutation every stable descending sort gives. Few inputs take this path (≈ 75 of an Exp. 5's
 * 14 000 sorts): a hand-written merge sort here cost V8's optimizing compiler more (compiled four times a process, for
 * ≈ 40–75 ms of its time) than the comparator calls cost the sorts (≈ 50 µs a call on 600 scores).
 */
function fallbackOrder(key: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // key[j] − key[i] is NaN only for two equal infinities (a tie), and 0 only for equal keys: then by index
  return order.sort((i, j) => key[j]! - key[i]! || i - j);
}
