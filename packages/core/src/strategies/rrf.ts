import { bm25Order } from "./bm25.js";
import { ranksOf } from "./score-utils.js";
import type { RetrievalStrategy } from "./strategy.js";

/** RRF's rank constant k = 60 (Cormack, Clarke & Büttcher, SIGIR 2009). */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion of BM25 and cosine (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion
 * outperforms Condorcet and individual Rank Learning Methods", SIGIR 2009):
 * RRF(d) = Σ_r 1/(k + r(d)), k = 60, r(d) the 1-based rank of d in each full ranking (BM25, and
 * similarity-only's cosine ranking; each ranking breaks ties by insertion order, as do RRF ties).
 */
export function rrfStrategy(k = RRF_K, key = "rrf (bm25 + cosine)", slug = "rrf"): RetrievalStrategy {
  if (!(Number.isFinite(k) && k >= 0)) throw new RangeError(`RRF: k must be a finite number ≥ 0, got ${k}`);
  return {
    key,
    slug,
    description: `reciprocal-rank fusion of BM25 and cosine, Σ 1/(${k} + rank)`,
    rank: (ctx) => {
      const lexical = ranksOf(bm25Order(ctx));
      const semantic = ranksOf(ctx.fusedOrder(1, true));
      const s = new Float64Array(ctx.size);
      for (let i = 0; i < s.length; i++) s[i] = 1 / (k + lexical[i]!) + 1 / (k + semantic[i]!);
      return ctx.order(s);
    },
  };
}

/** RRF with k = 60. */
export const rrf: RetrievalStrategy = rrfStrategy();
