import type { RetrievalStrategy } from "./strategy.js";

/**
 * Which strategy keys and slugs are taken (by the paper's five, the extended set and plugins, in both
 * registries), and which strategies the project ships. A shipped strategy is frozen, its key and slug
 * stay reserved even while it is not registered, and it can never be replaced or unregistered: a plugin
 * can add strategies, never change what a shipped one computes.
 */
const shipped = new WeakSet<RetrievalStrategy>();
const reserved = new Map<string, string>();
const taken = new Map<string, RetrievalStrategy>();

/** Mark the project's own strategies: frozen, their names reserved for them alone. */
export function shipStrategies(list: readonly RetrievalStrategy[]): void {
  for (const s of list) {
    Object.freeze(s);
    shipped.add(s);
    reserved.set(s.key, s.key);
    reserved.set(s.slug, s.key);
  }
}

/** Whether `s` is one of the project's own strategies (the paper's five or the extended set), not a plugin's. */
export function isShipped(s: RetrievalStrategy): boolean {
  return shipped.has(s);
}

/** Claim `s`'s key and slug for a registration; throws when either is taken or reserved for a shipped strategy. */
export function claimNames(s: RetrievalStrategy, where: string): void {
  if (!s || typeof s.rank !== "function") throw new TypeError(`${where}: expected an object with key, slug and rank()`);
  if (typeof s.key !== "string" || s.key === "") throw new TypeError(`${where}: a strategy needs a non-empty string key`);
  if (typeof s.slug !== "string" || !/^[a-z0-9_-]+$/.test(s.slug))
    throw new RangeError(`strategy slug "${String(s.slug)}" must match [a-z0-9_-]+`);
  for (const name of new Set([s.key, s.slug])) {
    const owner = reserved.get(name);
    if (owner !== undefined && !shipped.has(s)) {
      throw new Error(
        `a strategy with key "${s.key}" or slug "${s.slug}" is already registered: "${name}" belongs to the shipped strategy "${owner}", which a plugin cannot replace; give yours its own key and slug`,
      );
    }
    if (taken.has(name)) throw new Error(`a strategy with key "${s.key}" or slug "${s.slug}" is already registered`);
  }
  taken.set(s.key, s);
  taken.set(s.slug, s);
}

/** Release `s`'s names on unregistering; a shipped strategy cannot be unregistered (throws). */
export function releaseNames(s: RetrievalStrategy): void {
  if (shipped.has(s)) throw new Error(`strategy "${s.key}" ships with Persode and cannot be unregistered`);
  if (taken.get(s.key) === s) taken.delete(s.key);
  if (taken.get(s.slug) === s) taken.delete(s.slug);
}
