import type { RankingContext } from "../ranking.js";
import { bm25Scores } from "./bm25.js";
import { minMax } from "./score-utils.js";
import type { RetrievalStrategy } from "./strategy.js";

const cache = new WeakMap<RankingContext, Float64Array>();

/**
 * CombSUM of min-max-normalised BM25 and cosine (Fox & Shaw, TREC-2 1994; min-max normalisation as
 * in Lee, SIGIR 1997): minmax(bm25) + minmax(cos), in [0, 2]. A constant score list normalises to 0.
 * Memoised per context.
 */
export function combSumScores(ctx: RankingContext): Float64Array {
  let s = cache.get(ctx);
  if (!s) {
    const lexical = minMax(bm25Scores(ctx));
    const semantic = minMax(ctx.similarity());
    s = new Float64Array(ctx.size);
    for (let i = 0; i < s.length; i++) s[i] = lexical[i]! + semantic[i]!;
    cache.set(ctx, s);
  }
  return s;
}

const orders = new WeakMap<RankingContext, Int32Array>();

/** The CombSUM ranking of a context (ctx.order of combSumScores), memoised: the gated hybrid returns it whenever its gate does not fire. */
export function combSumOrder(ctx: RankingContext): Int32Array {
  let o = orders.get(ctx);
  if (!o) orders.set(ctx, (o = ctx.order(combSumScores(ctx))));
  return o;
}

/** CombSUM hybrid: min-max BM25 + min-max cosine, stable descending (ties in insertion order). */
export const combSum: RetrievalStrategy = {
  key: "combsum (bm25 + cosine)",
  slug: "combsum",
  description: "CombSUM of min-max-normalised BM25 and cosine",
  rank: (ctx) => combSumOrder(ctx),
};
