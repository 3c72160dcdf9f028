import type { RankingContext } from "../ranking.js";

/**
 * A retrieval strategy (docs/spec.md §5): ranks every memory of a store for one query.
 * Adding a strategy is one small module implementing this interface plus one registry entry.
 */
export interface RetrievalStrategy {
  /** Result key, e.g. "fused (Persode)"; unique. */
  readonly key: string;
  /** File-name slug, e.g. "fused_persode"; unique, [a-z0-9_-]+. */
  readonly slug: string;
  /** One line: what the ranking does. */
  readonly description: string;
  /** True when the ranking ignores the query, so a benchmark may rank once per store. */
  readonly queryIndependent?: boolean;
  /** Full ranking of the store, best first, as memory indices (insertion order numbering). */
  rank(ctx: RankingContext): Int32Array;
  /**
   * For strategies that rank by the fused score (docs/spec.md §5): the α and context mode used for this
   * query, so retrieval results can report the scores that actually ranked them. Omit otherwise.
   */
  fusion?(ctx: RankingContext): Fusion;
}

/** The fusion parameters a strategy ranked one query with. */
export interface Fusion {
  alpha: number;
  useQueryRelevance: boolean;
}
