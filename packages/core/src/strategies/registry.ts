import { fused } from "./fused.js";
import { gated } from "./gated.js";
import { recencyOnly } from "./recency.js";
import { salienceOnly } from "./salience.js";
import { similarityOnly } from "./similarity.js";
import type { RetrievalStrategy } from "./strategy.js";

const registry: RetrievalStrategy[] = [];

/** Add a strategy to the registry every benchmark iterates (throws on a duplicate key or slug). */
export function registerStrategy(s: RetrievalStrategy): void {
  if (!s || typeof s.rank !== "function") throw new TypeError("registerStrategy: expected an object with key, slug and rank()");
  if (!/^[a-z0-9_-]+$/.test(s.slug)) throw new RangeError(`strategy slug "${s.slug}" must match [a-z0-9_-]+`);
  if (registry.some((r) => r.key === s.key || r.slug === s.slug)) {
    throw new Error(`a strategy with key "${s.key}" or slug "${s.slug}" is already registered`);
  }
  registry.push(s);
}

/** Remove a strategy by key (for experiments and tests); returns whether it was registered. */
export function unregisterStrategy(key: string): boolean {
  const i = registry.findIndex((r) => r.key === key);
  if (i >= 0) registry.splice(i, 1);
  return i >= 0;
}

/** All registered strategies, in registration order (the five built-ins first); `getStrategy` (extended.ts) also finds the extended set. */
export function strategies(): readonly RetrievalStrategy[] {
  return [...registry];
}

/** The five strategies of the paper's evaluation, in table order. */
export const BUILTIN_STRATEGIES: readonly RetrievalStrategy[] = Object.freeze([recencyOnly, similarityOnly, salienceOnly, fused, gated]);

for (const s of BUILTIN_STRATEGIES) registerStrategy(s);
