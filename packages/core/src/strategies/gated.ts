import { SIGNIFICANCE_THRESHOLD } from "../analyzer.js";
import type { RetrievalStrategy } from "./strategy.js";

/** Options of the emotion gate. */
export interface GateOptions {
  /** Analyzer E at or above which fusion is used (0.6, the significance threshold). */
  threshold?: number;
  /** α when the gate fires (0.5). */
  fusedAlpha?: number;
}

/** The fusion weight α the gate uses when it fires (docs/spec.md §5). */
export const GATE_FUSED_ALPHA = 0.5;

/** The emotion gate (docs/spec.md §5): α = 0.5 when the query's own E ≥ 0.6, else α = 1 (pure similarity). */
export function gateAlpha(queryIntensity: number, opts: GateOptions = {}): number {
  return gateFires(queryIntensity, opts) ? (opts.fusedAlpha ?? GATE_FUSED_ALPHA) : 1;
}

/** Whether the gate fuses for a query of this intensity. */
export function gateFires(queryIntensity: number, opts: GateOptions = {}): boolean {
  return queryIntensity >= (opts.threshold ?? SIGNIFICANCE_THRESHOLD);
}

/** Persode's agent retrieval: fusion gated by the query's emotion. */
export const gated: RetrievalStrategy = {
  key: "gated (Persode)",
  slug: "gated_persode",
  description: `fusion (α = ${GATE_FUSED_ALPHA}) iff analyzer E(query) ≥ ${SIGNIFICANCE_THRESHOLD}, else similarity only`,
  rank: (ctx) => ctx.fusedOrder(gateAlpha(ctx.queryIntensity()), true),
  fusion: (ctx) => ({ alpha: gateAlpha(ctx.queryIntensity()), useQueryRelevance: true }),
};
