import { fused } from "./fused.js";
import { gated } from "./gated.js";
import { recencyOnly } from "./recency.js";
import { salienceOnly } from "./salience.js";
import { similarityOnly } from "./similarity.js";
import { claimNames, releaseNames, shipStrategies } from "./claims.js";
import type { RetrievalStrategy } from "./strategy.js";

const registry: RetrievalStrategy[] = [];

/**
 * Add a strategy to the registry every benchmark iterates (throws on a key or slug taken by any strategy,
 * in either registry, or reserved for a shipped one: the paper's five and the extended set).
 */
export function registerStrategy(s: RetrievalStrategy): void {
  claimNames(s, "registerStrategy");
  registry.push(s);
}

/**
 * Remove a plugin's strategy by key (for experiments and tests); returns whether it was registered. Shipped strategies cannot be removed.
 */
export function unregisterStrategy(key: string): boolean {
  const i = registry.findIndex((r) => r.key === key);
  if (i >= 0) {
    releaseNames(registry[i]!);
    registry.splice(i, 1);
  }
  return i >= 0;
}

/** All registered strategies, in registration order (the five built-ins first); `getStrategy` (extended.ts) also finds the extended set. */
export function strategies(): readonly RetrievalStrategy[] {
  return [...registry];
}

/** The five strategies of the paper's evaluation, in table order. */
export const BUILTIN_STRATEGIES: readonly RetrievalStrategy[] = Object.freeze([recencyOnly, similarityOnly, salienceOnly, fused, gated]);

shipStrategies(BUILTIN_STRATEGIES);
for (const s of BUILTIN_STRATEGIES) registerStrategy(s);
