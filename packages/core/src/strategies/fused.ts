import type { RetrievalStrategy } from "./strategy.js";

/** Persode's fused Memory Selection Block (paper §4.2): α·sim + (1 − α)·salience, C′ = sim. */
export function fusedStrategy(alpha = 0.5, key = "fused (Persode)", slug = "fused_persode"): RetrievalStrategy {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`fused strategy: α must be in [0, 1], got ${alpha}`);
  return {
    key,
    slug,
    description: `similarity fused with salience, α = ${alpha}, query relevance as C`,
    rank: (ctx) => ctx.fusedOrder(alpha, true),
    fusion: () => ({ alpha, useQueryRelevance: true }),
  };
}

/** The paper's always-on fusion, α = 0.5. */
export const fused: RetrievalStrategy = fusedStrategy(0.5);
