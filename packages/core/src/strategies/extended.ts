import { bm25 } from "./bm25.js";
import { combSum } from "./combsum.js";
import { gatedHybrid } from "./gated-hybrid.js";
import { generativeAgents } from "./generative-agents.js";
import { memoryBank } from "./memorybank.js";
import { mmr } from "./mmr.js";
import { claimNames, releaseNames, shipStrategies } from "./claims.js";
import { strategies } from "./registry.js";
import { rrf } from "./rrf.js";
import type { RetrievalStrategy } from "./strategy.js";

/**
 * Strategies beyond the paper's five: strong lexical and hybrid baselines, published memory models and
 * the Persode gate on the hybrid. They are kept out of the main registry so the paper-format results
 * keep exactly the paper's strategies; benchmarks run them through `extendedStrategies()`.
 */
export const EXTENDED_STRATEGIES: readonly RetrievalStrategy[] = Object.freeze([
  bm25,
  rrf,
  combSum,
  generativeAgents,
  memoryBank,
  mmr,
  gatedHybrid,
]);

const extended: RetrievalStrategy[] = [];

/** Add a strategy to the extended set only (throws on a key or slug taken by any strategy, or reserved for a shipped one). */
export function registerExtendedStrategy(s: RetrievalStrategy): void {
  claimNames(s, "registerExtendedStrategy");
  extended.push(s);
}

/** Remove a plugin's strategy from the extended set by key; returns whether it was there. Shipped strategies cannot be removed. */
export function unregisterExtendedStrategy(key: string): boolean {
  const i = extended.findIndex((r) => r.key === key);
  if (i >= 0) {
    releaseNames(extended[i]!);
    extended.splice(i, 1);
  }
  return i >= 0;
}

/**
 * The extended set, in table order: every registered strategy (the paper's five, then plugins) and
 * then the extended ones (names are unique across both registries, see claims.ts).
 */
export function extendedStrategies(): readonly RetrievalStrategy[] {
  const base = strategies();
  return [...base, ...extended];
}

/**
 * Look any known strategy up by key or slug: the registered ones (the paper's five, plugins) and the extended
 * set, searched in `extendedStrategies()` order; the error lists every known slug. Looking up never registers.
 */
export function getStrategy(keyOrSlug: string): RetrievalStrategy {
  const known = extendedStrategies();
  const s = known.find((r) => r.key === keyOrSlug || r.slug === keyOrSlug);
  if (!s) throw new Error(`unknown strategy "${keyOrSlug}"; known: ${known.map((r) => r.slug).join(", ")}`);
  return s;
}

shipStrategies(EXTENDED_STRATEGIES);
for (const s of EXTENDED_STRATEGIES) registerExtendedStrategy(s);
