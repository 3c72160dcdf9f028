import type { RetrievalStrategy } from "./strategy.js";

/** Salience-only baseline: α = 0 with the stored C, so the query plays no role. */
export const salienceOnly: RetrievalStrategy = {
  key: "salience-only",
  slug: "salience-only",
  description: "Eq. 1 salience with stored C (α = 0; query ignored)",
  queryIndependent: true,
  rank: (ctx) => ctx.fusedOrder(0, false),
  fusion: () => ({ alpha: 0, useQueryRelevance: false }),
};
