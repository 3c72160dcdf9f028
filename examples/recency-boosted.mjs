// A complete retrieval strategy in one file: cosine similarity plus a small boost for recent
// memories. Load it with `pnpm bench all --plugin examples/recency-boosted.mjs` and it is ranked
// in every experiment, written to every results file and drawn in every figure.
import { DAY_MS, descendingOrder, registerStrategy } from "@persode/core";

/** Boost weight and time constant (days) of the recency bonus. */
const BOOST = 0.1;
const TAU_DAYS = 7;

registerStrategy({
  key: "recency-boosted similarity",
  slug: "recency-boosted",
  description: `cosine + ${BOOST}·exp(−age / ${TAU_DAYS} d)`,
  rank(ctx) {
    const sim = ctx.similarity(); // cosine(query, memory) for the whole store, computed once
    const created = ctx.columns.createdAtMs;
    const score = new Float64Array(ctx.size);
    for (let i = 0; i < ctx.size; i++) {
      const ageDays = Math.max(0, (ctx.nowMs - created[i]) / DAY_MS);
      score[i] = sim[i] + BOOST * Math.exp(-ageDays / TAU_DAYS);
    }
    return descendingOrder(score); // stable: ties keep insertion order
  },
});
