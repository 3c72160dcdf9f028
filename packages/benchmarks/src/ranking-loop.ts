/**
 * The one ranking loop of the dataset experiments (Exp. 5 LoCoMo, Exp. 6 EpiRec and the corpus
 * command, Exp. 7's reruns of both): one store per group (a conversation, a persona), every strategy
 * ranks the whole store for every query of its group (docs/spec.md §5: a ranking is a permutation of the
 * store, checked by rankChecked), query-independent orders are computed once per group, and the
 * emotion gate's firing is recorded per query (docs/spec.md §5, gated: analyzer E(query) ≥ 0.6).
 */
import {
  MemoryStore,
  gateFires,
  rankChecked,
  type Embedder,
  type MemoryInit,
  type RankingContext,
  type RankingQuery,
  type RetrievalStrategy,
} from "@persode/core";
import type { Progress } from "@persode/util";
import { checkInterrupt } from "./interrupt.js";
import { inPhase } from "./phases.js";

/**
 * A query as ranked in a group (docs/spec.md §5): core's RankingQuery with the intensity E the gate and fusion
 * read already computed, once per question, for every strategy.
 */
export interface GroupQuery extends RankingQuery {
  intensity: number;
}

/** One store's worth of work: its memories (insertion order) with their embeddings, the ranking time and its queries. */
export interface RankingGroup {
  memories: readonly MemoryInit[];
  /** Embedding of each memory, aligned with `memories`. */
  vectors: readonly Float64Array[];
  /** "now" of every ranking in this group, epoch ms. */
  nowMs: number;
  queries: readonly GroupQuery[];
}

/** Receives the rankings; query indices run over all groups' queries in order. */
export interface RankingVisitor {
  /** Called once per query before its rankings (e.g. to prepare its gold set, or keep `ctx.similarity()` for a later pass). */
  query?(qi: number, group: number, ctx: RankingContext): void;
  /**
   * Strategy `si`'s order for query `qi` (memory indices, best first); shared across a group's queries for
   * query-independent strategies, so never mutate it. `nearTies`: the positions p where ranks p and p + 1
   * scored within the store's tie threshold (model vectors only; docs/reproducibility.md), else undefined.
   */
  ranking(qi: number, si: number, order: Int32Array, group: number, nearTies?: Int32Array): void;
}

/** How rankGroups ranks. */
export interface RankOptions {
  /**
   * Hand the visitor only the first `top` of each order, for a caller that reads no deeper (Exp. 7's recall@5 and
   * recall@3): every strategy must rank by its fused score (`fusion()`, as similarity-only, fused and gated do), and
   * the order is the first `top` of ctx.fusedOrder(fusion) exactly (RankingContext.fusedTop), without a full sort.
   */
  top?: number;
}

/**
 * Rank every query of every group with every strategy (in the given order) and hand each order to
 * `visitor`; ticks `progress` once per query. Returns, per query, 1 when the gate fires on its E.
 */
export function rankGroups(
  groups: readonly RankingGroup[],
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  visitor: RankingVisitor,
  progress?: Progress,
  options: RankOptions = {},
): Uint8Array {
  const { top } = options;
  if (top !== undefined) {
    if (!Number.isInteger(top) || top < 1) throw new RangeError(`rankGroups: top must be a positive integer, got ${top}`);
    const plain = strats.find((s) => !s.fusion);
    if (plain)
      throw new Error(`rankGroups: strategy "${plain.key}" does not rank by a fused score (no fusion()), so it has no top-${top} shortcut`);
  }
  return inPhase("rank", () => rankAll(groups, embedder, strats, visitor, progress, top));
}

function rankAll(
  groups: readonly RankingGroup[],
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  visitor: RankingVisitor,
  progress: Progress | undefined,
  top: number | undefined,
): Uint8Array {
  let total = 0;
  for (const g of groups) total += g.queries.length;
  const fires = new Uint8Array(total);
  const staticOrders: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(strats.length);
  let qi = 0;
  for (let gi = 0; gi < groups.length; gi++) {
    const group = groups[gi]!;
    const store = new MemoryStore({ embedder });
    for (let i = 0; i < group.memories.length; i++) store.addEmbedded(group.memories[i]!, group.vectors[i]!);
    const columns = store.columns();
    staticOrders.fill(undefined);
    for (const q of group.queries) {
      fires[qi] = gateFires(q.intensity) ? 1 : 0;
      const ctx = store.context(q, group.nowMs, columns);
      visitor.query?.(qi, gi, ctx);
      for (let si = 0; si < strats.length; si++) {
        const s = strats[si]!;
        let order = staticOrders[si];
        if (top !== undefined) {
          const f = s.fusion!(ctx);
          order = ctx.fusedTop(f.alpha, f.useQueryRelevance, top);
        } else if (!order) {
          order = rankChecked(s, ctx);
          if (s.queryIndependent) staticOrders[si] = order;
        }
        const o = order;
        inPhase("metrics", () => visitor.ranking(qi, si, o, gi, top === undefined ? ctx.nearTies(o) : undefined));
      }
      qi++;
      progress?.tick();
      checkInterrupt();
    }
  }
  return fires;
}
