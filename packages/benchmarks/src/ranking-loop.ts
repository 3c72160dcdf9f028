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
  type StoreColumns,
} from "@persode/core";
import type { Progress } from "@persode/util";
import { checkInterrupt } from "./interrupt.js";
import { inPhase } from "./phases.js";
import { startRankWorker, type RankedGroup } from "./rank-worker.js";

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
  /**
   * E of each memory (each in [0, 1]), aligned with `memories`, in place of their `emotionalIntensity`: one
   * store ranked again with other memory E (Exp. 7, once per emotion estimator) is built once, for the first call that ranks the same
   * `memories` and `vectors` arrays, and each call ranks it with its own E.
   */
  memoryIntensity?: ArrayLike<number>;
}

/** Receives the rankings; query indices run over all groups' queries in order. */
export interface RankingVisitor {
  /** Called once per query before its rankings, for a visitor that reads no context (e.g. to prepare its gold set). */
  begin?(qi: number, group: number): void;
  /**
   * Called once per query before its rankings, after `begin`, with its context (e.g. to keep `ctx.similarity()` for a
   * later pass). Only a visitor with this hook makes the calling thread build the stores the rank worker ranks.
   */
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
  /**
   * Rank the later units (runs of at most UNIT_QUERIES of a group's queries; about three quarters of the work: this
   * thread also hands every order to the visitor, and takes units back from the worker's end rather than wait) on a
   * worker thread (./rank-worker.ts) while this thread ranks the first ones. The visitor sees the same calls in the
   * same order with the same orders. Only without `top`, with shipped strategies (a plugin's strategy lives in this
   * thread) and more than one thread (PERSODE_THREADS); else, or if the worker fails, everything is ranked here.
   */
  worker?: boolean;
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
  return inPhase("rank", () => {
    let total = 0;
    for (const g of groups) total += g.queries.length;
    const fires = new Uint8Array(total);
    const units = options.worker && top === undefined ? rankingUnits(groups) : [];
    const worker = units.length > 0 ? startRankWorker(groups, embedder, strats, undefined, units) : undefined;
    let qi = 0;
    if (!worker) {
      for (let gi = 0; gi < groups.length; gi++) qi = rankGroup(groups[gi]!, gi, qi, embedder, strats, visitor, fires, progress, top);
      return fires;
    }
    // while the worker's next unit is not ready, this thread ranks the worker's last unclaimed one (visited in turn)
    const steal = (ui: number) => {
      const u = units[ui]!;
      return rankedGroup(groups[u.group]!, embedder, strats, u.from, u.to);
    };
    try {
      for (let ui = 0; ui < units.length; ui++) {
        const u = units[ui]!;
        const g = groups[u.group]!;
        const ranked = ui >= worker.first ? worker.take(ui, steal) : undefined;
        qi = ranked
          ? visitRanked(g, u, qi, ranked, embedder, strats, visitor, fires, progress)
          : rankGroup(g, u.group, qi, embedder, strats, visitor, fires, progress, undefined, u.from, u.to);
      }
    } finally {
      worker.close();
    }
    return fires;
  });
}

/**
 * A run of one group's queries, from … to − 1: what the rank worker and the calling thread share out. Groups are
 * cut into units of at most UNIT_QUERIES queries, so the last units to rank, and to visit once the worker is done,
 * are small whatever the groups' sizes; a group's store is built once per thread however many units it has.
 */
export interface RankingUnit {
  group: number;
  from: number;
  to: number;
}

/** Queries per ranking unit at most. */
const UNIT_QUERIES = 32;

/** Every group's units, in order (a group without queries is one empty unit, so its store is still built and checked). */
function rankingUnits(groups: readonly RankingGroup[]): RankingUnit[] {
  const units: RankingUnit[] = [];
  groups.forEach((g, group) => {
    const n = g.queries.length;
    const parts = Math.max(1, Math.ceil(n / UNIT_QUERIES));
    // equal parts (sizes differ by at most one), not 32s and a remainder
    for (let k = 0; k < parts; k++) units.push({ group, from: Math.floor((k * n) / parts), to: Math.floor(((k + 1) * n) / parts) });
  });
  return units;
}

/** Rank one group's queries from … to − 1 with every strategy, handing each order to `visitor`; returns the next query index. */
function rankGroup(
  group: RankingGroup,
  gi: number,
  qi: number,
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  visitor: RankingVisitor,
  fires: Uint8Array,
  progress: Progress | undefined,
  top: number | undefined,
  from = 0,
  to = group.queries.length,
): number {
  const { store, columns } = groupStore(group, embedder);
  const staticOrders: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(strats.length);
  for (let k = from; k < to; k++) {
    const q = group.queries[k]!;
    fires[qi] = gateFires(q.intensity) ? 1 : 0;
    const ctx = store.context(q, group.nowMs, columns);
    visitor.begin?.(qi, gi);
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
  return qi;
}

/**
 * One group's queries from … to − 1 (a unit) ranked with every strategy and kept, as the rank worker hands them over
 * (./rank-worker.ts): the worker runs this, and so does the calling thread for a unit it takes back from the worker.
 * No progress is ticked here: visitRanked ticks when the unit is visited.
 * @internal exported for the rank worker, which imports dist/ranking-loop.js by URL, and for test/rank-worker.test.ts.
 */
export function rankedGroup(
  group: RankingGroup,
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  from = 0,
  to = group.queries.length,
): RankedGroup {
  const size = group.memories.length;
  const S = strats.length;
  const n = to - from;
  // shared memory: posting it to the calling thread neither copies nor detaches it (./rank-worker.ts)
  const orders = new Int32Array(new SharedArrayBuffer(n * S * size * 4));
  const nearTies = new Array<Int32Array | null>(n * S).fill(null);
  const fires = new Uint8Array(n);
  rankGroup(
    group,
    0,
    0,
    embedder,
    strats,
    {
      ranking(qi, si, order, _g, ties) {
        orders.set(order, (qi * S + si) * size);
        if (ties) nearTies[qi * S + si] = ties;
      },
    },
    fires,
    undefined,
    undefined,
    from,
    to,
  );
  return { orders, nearTies, fires };
}

/** Hand a unit the rank worker ranked to `visitor`, as rankGroup would have (the same calls, in the same order). */
function visitRanked(
  group: RankingGroup,
  unit: RankingUnit,
  qi: number,
  ranked: RankedGroup,
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  visitor: RankingVisitor,
  fires: Uint8Array,
  progress: Progress | undefined,
): number {
  // the store is built here only for a visitor that reads a query's context
  const built = visitor.query ? groupStore(group, embedder) : undefined;
  const size = group.memories.length;
  const gi = unit.group;
  for (let k = 0; k < unit.to - unit.from; k++) {
    const q = group.queries[unit.from + k]!;
    fires[qi] = ranked.fires[k]!;
    visitor.begin?.(qi, gi);
    if (built) visitor.query!(qi, gi, built.store.context(q, group.nowMs, built.columns));
    for (let si = 0; si < strats.length; si++) {
      const at = (k * strats.length + si) * size;
      const o = ranked.orders.subarray(at, at + size);
      const ties = ranked.nearTies[k * strats.length + si] ?? undefined;
      inPhase("metrics", () => visitor.ranking(qi, si, o, gi, ties));
    }
    qi++;
    progress?.tick();
    checkInterrupt();
  }
  return qi;
}

/** A group's store and its columns as built (E from the memories), kept while its `memories` array is referenced. */
interface BuiltStore {
  embedder: Embedder;
  vectors: readonly Float64Array[];
  store: MemoryStore;
  columns: StoreColumns;
}

const builtStores = new WeakMap<readonly MemoryInit[], BuiltStore>();

/**
 * The store of a group and the columns its queries are ranked over: built once per (memories, vectors, embedder) — ranking never
 * changes a store (no recall is recorded) — with the group's memoryIntensity, when given, as the E column.
 */
function groupStore(group: RankingGroup, embedder: Embedder): { store: MemoryStore; columns: StoreColumns } {
  let built = builtStores.get(group.memories);
  if (!built || built.embedder !== embedder || built.vectors !== group.vectors) {
    const store = new MemoryStore({ embedder });
    for (let i = 0; i < group.memories.length; i++) store.addEmbedded(group.memories[i]!, group.vectors[i]!);
    built = { embedder, vectors: group.vectors, store, columns: store.columns() };
    builtStores.set(group.memories, built);
  }
  const { store, columns } = built;
  const e = group.memoryIntensity;
  if (e === undefined) return { store, columns };
  if (e.length !== columns.size)
    throw new RangeError(`rankGroups: memoryIntensity has ${e.length} values, the group has ${columns.size} memories`);
  const E = new Float64Array(columns.size);
  for (let i = 0; i < E.length; i++) {
    const x = e[i]!;
    if (!(x >= 0 && x <= 1))
      throw new RangeError(
        `rankGroups: memoryIntensity[${i}] (memory ${store.memories[i]!.id}) is ${x}; an emotional intensity E is in [0, 1]`,
      );
    E[i] = x;
  }
  return { store, columns: { ...columns, emotionalIntensity: E } };
}
