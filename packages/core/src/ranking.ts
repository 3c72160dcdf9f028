import { LexiconAnalyzer } from "./analyzer.js";
import { blasDot, blasDotSparse, blasNorm } from "./embedders/blas-dot.js";
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
}

/** The query side of a ranking: its text, embedding and (lazily) analyzer intensity. */
export interface RankingQuery {
  text: string;
  vector: Float64Array;
  /** Analyzer E of the query; computed with the lexicon analyzer when omitted. */
  intensity?: number;
}

/** Eq. 1 / fusion parameters a ranking uses. */
export interface RankingParams {
  weights: ScoringWeights;
  gamma: number;
  lambda: number;
  /** The store's default similarity weight α (0.5). */
  alpha: number;
}

let sharedAnalyzer: LexiconAnalyzer | undefined;

/**
 * Everything a retrieval strategy may look at for one query against one store, with the
 * expensive parts (cosine over the store, salience, fused orders) computed once and memoised.
 */
export class RankingContext {
  private sim?: Float64Array;
  private readonly salienceCache = new Map<boolean, Float64Array>();
  private readonly orderCache = new Map<string, Int32Array>();
  private intensity?: number;

  constructor(
    readonly columns: StoreColumns,
    readonly query: RankingQuery,
    readonly nowMs: number,
    readonly params: RankingParams,
  ) {
    this.intensity = query.intensity;
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

  /** cosine(query, memory) for every memory (SPEC §4: 0 when a norm is 0), numpy-exact. */
  similarity(): Float64Array {
    if (this.sim) return this.sim;
    const { size, dim, vectors, norms } = this.columns;
    const q = this.query.vector;
    if (q.length !== dim) throw new RangeError(`query embedding has ${q.length} dimensions, the store has ${dim}`);
    const nz: number[] = [];
    for (let j = 0; j < dim; j++) if (q[j] !== 0) nz.push(j);
    const qn = blasNorm(q);
    const out = new Float64Array(size);
    if (qn !== 0) {
      const sparse = nz.length * 4 < dim;
      const idx = Int32Array.from(nz);
      for (let i = 0; i < size; i++) {
        const mn = norms[i]!;
        if (mn === 0) continue;
        const dot = sparse ? blasDotSparse(q, idx, vectors, dim, i * dim) : blasDot(q, vectors, dim, 0, i * dim);
        out[i] = dot / (qn * mn);
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

  /** fused = α·sim + (1 − α)·salience for every memory (SPEC §5). */
  fused(alpha: number, useQueryRelevance: boolean): Float64Array {
    const sim = this.similarity();
    const sal = this.salience(useQueryRelevance);
    const out = new Float64Array(this.size);
    for (let i = 0; i < out.length; i++) out[i] = alpha * sim[i]! + (1 - alpha) * sal[i]!;
    return out;
  }

  /** Full ranking by fused score, stable descending (memoised per α and context mode). */
  fusedOrder(alpha: number, useQueryRelevance = true): Int32Array {
    const key = `${alpha}|${useQueryRelevance}`;
    let o = this.orderCache.get(key);
    if (!o) {
      o = descendingOrder(this.fused(alpha, useQueryRelevance));
      this.orderCache.set(key, o);
    }
    return o;
  }

  /** All memories by created_at, newest first, ties in insertion order. */
  recencyOrder(): Int32Array {
    let o = this.orderCache.get("recency");
    if (!o) {
      o = descendingOrder(this.columns.createdAtMs);
      this.orderCache.set("recency", o);
    }
    return o;
  }
}

/** Indices sorted by score, descending; ties keep ascending index order (a stable sort). */
export function descendingOrder(scores: ArrayLike<number>): Int32Array {
  const n = scores.length;
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => {
    const d = scores[b]! - scores[a]!;
    return d !== 0 ? d : a - b;
  });
  return Int32Array.from(idx);
}
