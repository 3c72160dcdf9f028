import { RankingContext, type StoreColumns } from "../ranking.js";
import type { RetrievalStrategy } from "./strategy.js";

/** Each plugin strategy's own copy of a store's columns, made once per column view. */
const copies = new WeakMap<StoreColumns, WeakMap<RetrievalStrategy, StoreColumns>>();

/** A frozen copy of a column view: its typed arrays copied, its texts a frozen array. */
function copyColumns(c: StoreColumns): StoreColumns {
  return Object.freeze({
    size: c.size,
    dim: c.dim,
    vectors: c.vectors.slice(),
    norms: c.norms.slice(),
    emotionalIntensity: c.emotionalIntensity.slice(),
    contextualRelevance: c.contextualRelevance.slice(),
    recallCount: c.recallCount.slice(),
    createdAtMs: c.createdAtMs.slice(),
    decayFromMs: c.decayFromMs.slice(),
    ...(c.texts ? { texts: Object.freeze([...c.texts]) } : {}),
  });
}

/**
 * What a plugin's strategy ranks with instead of the shared context: the same query, store and
 * parameters, over copies only it sees (columns copied once per store and strategy; query vector and
 * similarity per query), so nothing it writes can reach the store, the query or another strategy's
 * numbers. Typed arrays cannot be frozen, hence copies; the cost is measured in the commit that added this.
 */
export function isolatedContext(ctx: RankingContext, strategy: RetrievalStrategy): RankingContext {
  let byStrategy = copies.get(ctx.columns);
  if (!byStrategy) copies.set(ctx.columns, (byStrategy = new WeakMap()));
  let columns = byStrategy.get(strategy);
  if (!columns) byStrategy.set(strategy, (columns = copyColumns(ctx.columns)));
  const q = ctx.query;
  const query = Object.freeze({
    text: q.text,
    vector: q.vector.slice(),
    intensity: ctx.queryIntensity(),
    similarity: ctx.similarity().slice(),
  });
  const p = ctx.params;
  // Frozen too: similarity and intensity are given, so the context never assigns its own fields again (its caches are Maps).
  const own = new RankingContext(columns, query, ctx.nowMs, Object.freeze({ ...p, weights: Object.freeze({ ...p.weights }) }));
  Object.freeze(own);
  return own;
}
