import { Bm25Index, BM25_DEFAULTS, type Bm25Params } from "../lexical/bm25-index.js";
import { descendingOrder, type RankingContext, type StoreColumns } from "../ranking.js";
import type { RetrievalStrategy } from "./strategy.js";

const indexCache = new WeakMap<StoreColumns, Map<string, Bm25Index>>();
const scoreCache = new WeakMap<RankingContext, Map<string, Float64Array>>();
const orderCache = new WeakMap<RankingContext, Map<string, Int32Array>>();

/** The BM25 index of a column view's texts, built once per column view and parameter set. */
export function bm25IndexOf(columns: StoreColumns, params: Bm25Params = BM25_DEFAULTS): Bm25Index {
  if (!columns.texts)
    throw new Error("BM25 needs the memories' texts: rank with a context from MemoryStore.context() (its columns carry texts)");
  const key = `${params.k1}|${params.b}`;
  let byParams = indexCache.get(columns);
  if (!byParams) indexCache.set(columns, (byParams = new Map()));
  let index = byParams.get(key);
  if (!index) byParams.set(key, (index = new Bm25Index(columns.texts, params)));
  return index;
}

/** BM25 score of every memory for the context's query text (memoised per context). */
export function bm25Scores(ctx: RankingContext, params: Bm25Params = BM25_DEFAULTS): Float64Array {
  const key = `${params.k1}|${params.b}`;
  let byParams = scoreCache.get(ctx);
  if (!byParams) scoreCache.set(ctx, (byParams = new Map()));
  let s = byParams.get(key);
  if (!s) byParams.set(key, (s = bm25IndexOf(ctx.columns, params).scores(ctx.query.text)));
  return s;
}

/** Full BM25 ranking, stable descending (ties in insertion order), memoised per context. */
export function bm25Order(ctx: RankingContext, params: Bm25Params = BM25_DEFAULTS): Int32Array {
  const key = `${params.k1}|${params.b}`;
  let byParams = orderCache.get(ctx);
  if (!byParams) orderCache.set(ctx, (byParams = new Map()));
  let o = byParams.get(key);
  if (!o) byParams.set(key, (o = descendingOrder(bm25Scores(ctx, params))));
  return o;
}

/**
 * Okapi BM25 over the memories' texts (Robertson & Zaragoza 2009; k1 = 1.2, b = 0.75,
 * idf = ln(1 + (N − n + 0.5)/(n + 0.5)); tokenizer: see `bm25Tokens`). The embedding is not used.
 */
export function bm25Strategy(params: Partial<Bm25Params> = {}, key = "bm25", slug = "bm25"): RetrievalStrategy {
  const p: Bm25Params = { k1: params.k1 ?? BM25_DEFAULTS.k1, b: params.b ?? BM25_DEFAULTS.b };
  return {
    key,
    slug,
    description: `Okapi BM25 over the memory texts (k1 = ${p.k1}, b = ${p.b}, Lucene idf; lower-cased letter/digit tokens)`,
    rank: (ctx) => bm25Order(ctx, p),
  };
}

/** BM25 with the textbook defaults k1 = 1.2, b = 0.75. */
export const bm25: RetrievalStrategy = bm25Strategy();
