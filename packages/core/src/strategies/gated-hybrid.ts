import { combSumOrder, combSumScores } from "./combsum.js";
import { SIGNIFICANCE_THRESHOLD } from "../analyzer.js";
import { GATE_FUSED_ALPHA, gateAlpha } from "./gated.js";
import type { RetrievalStrategy } from "./strategy.js";

/**
 * The Persode emotion gate (docs/spec.md §5, the gated strategy's rule: analyzer E(query) ≥ 0.6) on top of
 * the CombSUM hybrid: when the gate fires, score = α·h + (1 − α)·salience with α = 0.5,
 * h = CombSUM/2 ∈ [0, 1] standing in for cosine and the salience the gated strategy uses (Eq. 1 with
 * C′ = query cosine); otherwise the plain CombSUM ranking (the same memoised order). CombSUM, not RRF, is the hybrid because its
 * score lives on the same [0, 1] scale as salience.
 */
export const gatedHybrid: RetrievalStrategy = {
  key: "gated hybrid (Persode gate)",
  slug: "gated_hybrid",
  description: `CombSUM(BM25, cosine) fused with salience (α = ${GATE_FUSED_ALPHA}) iff analyzer E(query) ≥ ${SIGNIFICANCE_THRESHOLD}`,
  rank: (ctx) => {
    const alpha = gateAlpha(ctx.queryIntensity());
    if (alpha === 1) return combSumOrder(ctx);
    const h = combSumScores(ctx);
    const sal = ctx.salience(true);
    const s = new Float64Array(ctx.size);
    for (let i = 0; i < s.length; i++) s[i] = alpha * (h[i]! / 2) + (1 - alpha) * sal[i]!;
    return ctx.order(s);
  },
};
