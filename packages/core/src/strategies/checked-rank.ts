import { StampedMarks } from "@persode/util";
import type { RankingContext } from "../ranking.js";
import { isShipped } from "./claims.js";
import { isolatedContext } from "./isolated-context.js";
import type { RetrievalStrategy } from "./strategy.js";

/**
 * A strategy whose ranking cannot be used (docs/spec.md §5: a ranking is a permutation of the store):
 * it threw, or returned something other than every memory index exactly once. Names the strategy
 * and the query, so a plugin's author can find the fault.
 */
export class StrategyRankingError extends Error {
  override readonly name = "StrategyRankingError";
  constructor(
    /** The strategy's key. */
    readonly strategy: string,
    /** The query text being ranked. */
    readonly query: string,
    problem: string,
  ) {
    super(
      `strategy ${JSON.stringify(strategy)} on query ${JSON.stringify(query.length > 80 ? query.slice(0, 80) + "…" : query)}: ${problem}`,
    );
  }
}

const FIX = "rank(ctx) must return every memory index 0 … ctx.size − 1 exactly once, best first (a permutation of the store)";

/**
 * Why `order` is not a permutation of 0 … size − 1 (wrong type or length, a non-integer or
 * out-of-range entry, a repeated index), or null when it is.
 */
export function permutationProblem(order: unknown, size: number): string | null {
  if (!(order instanceof Int32Array) && !Array.isArray(order) && !ArrayBuffer.isView(order)) {
    return `returned ${order === null ? "null" : typeof order}, not an Int32Array of memory indices; ${FIX}`;
  }
  const xs = order as ArrayLike<unknown>;
  if (xs.length !== size) return `returned ${xs.length} indices for a store of ${size} memories; ${FIX}`;
  if (order instanceof Int32Array && isPermutation(order, size)) return null;
  const seen = new Uint8Array(size);
  for (let r = 0; r < size; r++) {
    const i = xs[r];
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= size) {
      return `position ${r} holds ${typeof i === "number" ? String(i) : typeof i}, not a memory index in 0 … ${size - 1}; ${FIX}`;
    }
    if (seen[i] === 1) return `memory index ${i} appears twice (again at position ${r}); ${FIX}`;
    seen[i] = 1;
  }
  return null;
}

/**
 * Whether an Int32Array of length `size` holds every index 0 … size − 1 once: the check every shipped ranking passes,
 * with a scratch array of stamps instead of a fresh mask per ranking (permutationProblem describes any failure).
 */
function isPermutation(order: Int32Array, size: number): boolean {
  const at = seen.next(size);
  const marks = seen.marks;
  for (let r = 0; r < size; r++) {
    const i = order[r]!;
    if (i < 0 || i >= size || marks[i] === at) return false;
    marks[i] = at;
  }
  return true;
}

/** isPermutation's memory indices seen, one pass per check. */
const seen = new StampedMarks();

/**
 * The one way every caller (benchmarks, `retrieveWith`) runs a strategy: `strategy.rank(ctx)`,
 * validated as a permutation of the store before any metric sees it. A throw inside rank()
 * (e.g. descendingOrder refusing a NaN score) and an invalid ranking both become a
 * StrategyRankingError naming the strategy's key and the query. A strategy that does not ship with
 * Persode (a plugin's) ranks an isolated copy of the context and its order is copied, so what it
 * mutates — store columns, similarity, query — never reaches the store or another strategy.
 */
export function rankChecked(strategy: RetrievalStrategy, ctx: RankingContext): Int32Array {
  const shipped = isShipped(strategy);
  const own = shipped ? ctx : isolatedContext(ctx, strategy);
  let order: unknown;
  try {
    order = strategy.rank(own);
  } catch (e) {
    if (e instanceof StrategyRankingError) throw e;
    throw new StrategyRankingError(strategy.key, ctx.query.text, `rank() failed: ${(e as Error)?.message ?? String(e)}`);
  }
  const problem = permutationProblem(order, ctx.size);
  if (problem !== null) throw new StrategyRankingError(strategy.key, ctx.query.text, problem);
  return shipped && order instanceof Int32Array ? order : Int32Array.from(order as ArrayLike<number>);
}
