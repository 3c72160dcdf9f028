/**
 * The records a results file carries about what produced it, so a reader needs no copy of the
 * producer's registries: each strategy's key, file slug, order and whether it is built in, and the
 * emotion gate's rule (docs/spec.md §5).
 */

/** One strategy a results file reports, as the registry knew it when the file was written. */
export interface StrategyRecord {
  /** The key the file's tables are keyed by, e.g. "fused (Persode)". */
  key: string;
  /** The strategy's own slug (rankings file names, manifest ids), e.g. "fused_persode". */
  slug: string;
  /** Presentation order: 0, 1, … in the order the strategies ran (the paper's five first). */
  order: number;
  /** One of the paper's five built-in strategies (docs/spec.md §5), not an extension or a plugin. */
  built_in: boolean;
}

/** The strategy records of `strategies` in the order given: `order` is the position, `built_in` from the predicate. */
export function strategyRecords(strategies: ReadonlyArray<{ key: string; slug: string }>, isBuiltIn: (s: { key: string; slug: string }) => boolean): StrategyRecord[] {
  return strategies.map((s, order) => ({ key: s.key, slug: s.slug, order, built_in: isBuiltIn(s) }));
}

/** The emotion gate as a results file records it: the rule in words and the two numbers it is made of. */
export interface GateRecord {
  /** E.g. "fusion iff analyzer E >= 0.6 on the query". */
  rule: string;
  /** The query E at or above which the gate fuses. */
  threshold: number;
  /** The fusion weight α used when the gate fires. */
  fused_alpha: number;
}

/** Where the query's E comes from in a gate rule: the library's analyzer or an Exp. 7 estimator. */
export type GateSource = "analyzer" | "estimator";

/** The gate record for a threshold and fusion weight, its rule worded the same way in every file. */
export function gateRecord(source: GateSource, threshold: number, fusedAlpha: number): GateRecord {
  return { rule: `fusion iff ${source} E >= ${threshold} on the query`, threshold, fused_alpha: fusedAlpha };
}
