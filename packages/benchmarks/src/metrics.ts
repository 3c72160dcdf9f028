/**
 * Ranking metrics shared by the experiments: every function works on one ranked list and
 * returns one number per query; means are taken by the callers.
 */
import { relevantRanks, scoreRanks } from "./protocols.js";

/** Plain float mean, left to right (Python's `sum(xs) / len(xs)`); 0 for an empty list. */
export function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return 0;
  // metric columns are Float64Arrays: a loop of their own keeps the sum in a register (the same additions)
  if (xs instanceof Float64Array) return meanOfColumn(xs);
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** mean() of a non-empty Float64Array. */
function meanOfColumn(xs: Float64Array): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Population standard deviation (numpy.std / statistics.pstdev), two-pass. */
export function pstdev(xs: ArrayLike<number>): number {
  if (xs.length === 0) return 0;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < xs.length; i++) ss += (xs[i]! - m) * (xs[i]! - m);
  return Math.sqrt(ss / xs.length);
}

/** 1-based rank of `target` in `ranked`, or 0 when absent. */
export function rankOf<T>(ranked: ArrayLike<T>, target: T): number {
  for (let i = 0; i < ranked.length; i++) if (ranked[i] === target) return i + 1;
  return 0;
}

/**
 * Metrics of one full ranking given as memory indices, with the relevant memories as a 0/1 mask:
 * recall@k and hit@k (turn.recall@k, turn.any@k) for each k, and the reciprocal rank of the first relevant
 * memory (turn.mrr) — all through the one protocol implementation (protocols.ts).
 */
export function rankingMetrics(
  order: Int32Array,
  relevant: Uint8Array,
  nRelevant: number,
  ks: readonly number[],
): { recall: number[]; hit: number[]; rr: number } {
  const ranks = relevantRanks(order, relevant, Math.max(...ks));
  return {
    recall: ks.map((k) => scoreRanks(ranks, nRelevant, "recall", k)),
    hit: ks.map((k) => scoreRanks(ranks, nRelevant, "any", k)),
    rr: scoreRanks(ranks, nRelevant, "mrr"),
  };
}
