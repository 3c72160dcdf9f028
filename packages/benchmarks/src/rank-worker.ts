/**
 * The ranking loop's second core (ranking-loop.ts, `rankGroups(…, { worker: true })`): a worker thread ranks the
 * later units (runs of a group's queries) with the same code (this package's dist/ranking-loop.js and @persode/core)
 * while the calling thread ranks the first ones and hands every order to its visitor. Rankings are pure functions of a group's memories,
 * vectors, time and queries, so the worker's orders are the same bits as the calling thread's would be.
 *
 * The worker claims its units one at a time from the front of a shared range and posts each, in order, on a
 * MessagePort that the calling thread reads synchronously (receiveMessageOnPort), waiting on a shared counter
 * between messages. When the calling thread would wait, it takes the worker's last unclaimed unit back instead and
 * ranks it itself, kept until its turn to be visited: both threads stay busy to the end, whichever is faster on the
 * day. A worker that fails (an error, its thread exiting, a stall) leaves its units to the calling thread, which
 * ranks them itself: the same results, or the same error.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { BUILTIN_STRATEGIES, EXTENDED_STRATEGIES, type Embedder, type RetrievalStrategy } from "@persode/core";
import { checkInterrupt } from "./interrupt.js";
import type { GroupQuery, RankingGroup, RankingUnit } from "./ranking-loop.js";
import { poolThreads, STALL_MS } from "./stats/thread-pool.js";
import { rankLoopUrl, spawnRankWorker, takePreparedRankWorker } from "./rank-worker-thread.js";

export { prepareRankWorker } from "./rank-worker-thread.js";

/** One unit as the worker ranked it: per query k of the unit and strategy si, the order at (k·strategies + si)·size. */
export interface RankedGroup {
  orders: Int32Array;
  /** Per (query, strategy), ctx.nearTies of the order (null: none). */
  nearTies: (Int32Array | null)[];
  /** Per query, 1 when the gate fires. */
  fires: Uint8Array;
}

/**
 * The rank worker of one rankGroups call: it ranks units `first` … end, in order, while the calling thread ranks
 * the first ones; when the calling thread would wait, it takes units back from the end (take's `steal`).
 */
export interface RankWorker {
  first: number;
  /**
   * Unit ui as ranked, or undefined to rank it here (the worker failed, or ui was taken back). While ui is not
   * ready, `steal` (if given) ranks the worker's last unclaimed unit on this thread, kept until it is asked for.
   */
  take(ui: number, steal?: (ui: number) => RankedGroup): RankedGroup | undefined;
  close(): void;
}

/**
 * A group as the worker is sent it: a RankingGroup, or, when the job's vectors are packed (sentGroups), one whose
 * vectors are offsets into `packed.buffer` (the memories' from `vectors` on, one every `dim`; each query's at its `vector`).
 */
interface SentGroup {
  memories: RankingGroup["memories"];
  vectors: readonly Float64Array[] | number;
  nowMs: number;
  queries: readonly (Omit<GroupQuery, "vector"> & { vector: Float64Array | number })[];
  memoryIntensity?: number[];
}

/** What the worker is sent, once it runs (its workerData holds the URLs of @persode/core and of dist/ranking-loop.js). */
interface RankJob {
  /** The groups the worker's units are of. */
  groups: SentGroup[];
  /** The groups' vectors in shared memory (sentGroups), or undefined when each group carries its own. */
  packed: { buffer: Float64Array; dim: number } | undefined;
  /** The worker's units, in order, each a run of queries of groups[group]. */
  units: RankingUnit[];
  strategies: string[];
  embedder: Pick<Embedder, "name" | "id" | "dim" | "model" | "prefixes">;
  port: MessagePort;
  /** [0]: units posted so far; [1]: 1 once the worker's thread is exiting (an uncaught error, process.exit, or done). */
  posted: Int32Array;
  /**
   * [0]: the units still to rank, next | end << 16 (indices into `units`): the worker claims `next`, the calling
   * thread takes back `end − 1`, each by compare-and-swap, so every unit is ranked by exactly one thread.
   */
  range: Int32Array;
}

type RankMessage = ({ unit: number } & RankedGroup) | { error: string };

/**
 * The share of the ranking work the worker is given: the calling thread also visits every order (metrics, files),
 * and takes units back from the worker's end when it would wait, so the share errs on the worker's side.
 */
const WORKER_SHARE = 3 / 4;

/**
 * The groups as the worker is sent them: their vectors (each group's memories', then its queries') copied into one
 * Float64Array over a SharedArrayBuffer, which posting shares without copying, and each group holding offsets into
 * it. Sent one by one, Exp. 5's ≈ 6 000 vectors (12 MB) were serialized on the calling thread and rebuilt on the
 * worker's, tens of milliseconds each way. When the vectors differ in length, `packed` is undefined and the groups
 * carry their own.
 */
function sentGroups(groups: readonly RankingGroup[]): { groups: SentGroup[]; packed: RankJob["packed"] } {
  const common = (g: RankingGroup) => ({
    memories: g.memories,
    nowMs: g.nowMs,
    ...(g.memoryIntensity !== undefined ? { memoryIntensity: Array.from(g.memoryIntensity) } : {}),
  });
  const first = groups.find((g) => g.vectors.length > 0)?.vectors[0] ?? groups.find((g) => g.queries.length > 0)?.queries[0]?.vector;
  const dim = first?.length ?? 0;
  let count = 0;
  for (const g of groups) count += g.vectors.length + g.queries.length;
  const sameLength =
    first !== undefined && groups.every((g) => g.vectors.every((v) => v.length === dim) && g.queries.every((q) => q.vector.length === dim));
  if (!sameLength) return { groups: groups.map((g) => ({ ...common(g), vectors: g.vectors, queries: g.queries })), packed: undefined };
  const buffer = new Float64Array(new SharedArrayBuffer(count * dim * Float64Array.BYTES_PER_ELEMENT));
  let at = 0;
  /** Copy v to the next free place of the buffer; returns its offset. */
  const put = (v: Float64Array) => {
    buffer.set(v, at);
    return (at += dim) - dim;
  };
  const sent = groups.map((g): SentGroup => {
    const vectors = at;
    g.vectors.forEach(put);
    return { ...common(g), vectors, queries: g.queries.map((q) => ({ ...q, vector: put(q.vector) })) };
  });
  return { groups: sent, packed: { buffer, dim } };
}

/** The first unit to give the worker: the later units holding about WORKER_SHARE of queries × memories (at least one unit stays here). */
function splitPoint(groups: readonly RankingGroup[], units: readonly RankingUnit[]): number {
  const work = units.map((u) => (u.to - u.from) * groups[u.group]!.memories.length);
  const total = work.reduce((a, b) => a + b, 0);
  let best = units.length;
  let bestGap = Infinity;
  let suffix = 0;
  for (let ui = units.length - 1; ui >= 1; ui--) {
    suffix += work[ui]!;
    const gap = Math.abs(suffix - WORKER_SHARE * total);
    if (gap < bestGap) [best, bestGap] = [ui, gap];
  }
  return best;
}

/**
 * Start ranking the later units (default: one per group) on a worker thread, or undefined when that cannot help or
 * cannot be done: one thread (PERSODE_THREADS=1), fewer than two units, or a strategy that is not shipped (a plugin's
 * lives in this thread). `loop`: the ranking loop module the worker runs (tests point it elsewhere to see a failing
 * worker). take(ui) is then asked for units first … units.length − 1, in order.
 */
export function startRankWorker(
  groups: readonly RankingGroup[],
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  loop: string = rankLoopUrl(),
  units: readonly RankingUnit[] = groups.map((g, group) => ({ group, from: 0, to: g.queries.length })),
): RankWorker | undefined {
  if (poolThreads() < 2 || units.length < 2) return undefined;
  const shipped = new Set<RetrievalStrategy>([...BUILTIN_STRATEGIES, ...EXTENDED_STRATEGIES]);
  if (!strats.every((s) => shipped.has(s))) return undefined;
  const first = splitPoint(groups, units);
  if (first >= units.length) return undefined;
  const count = units.length - first;
  if (count >= 0x8000) return undefined; // the range packs two 16-bit indices
  const { port1, port2 } = new MessageChannel();
  const posted = new Int32Array(new SharedArrayBuffer(8));
  const range = new Int32Array(new SharedArrayBuffer(4));
  range[0] = count << 16;
  // each group the worker's units are of, sent once
  const sent = new Map<number, number>();
  const mine = units.slice(first).map((u) => {
    if (!sent.has(u.group)) sent.set(u.group, sent.size);
    return { group: sent.get(u.group)!, from: u.from, to: u.to };
  });
  const job: RankJob = {
    ...sentGroups([...sent.keys()].map((gi) => groups[gi]!)),
    units: mine,
    strategies: strats.map((s) => s.key),
    embedder: { name: embedder.name, id: embedder.id, dim: embedder.dim, model: embedder.model, prefixes: embedder.prefixes },
    port: port2,
    posted,
    range,
  };
  const worker = (loop === rankLoopUrl() ? takePreparedRankWorker() : undefined) ?? spawnRankWorker(loop);
  if (!worker) return undefined;
  worker.postMessage(job, [port2]);
  let failed = false;
  let next = first;
  let received = 0;
  const fail = (why: string) => {
    if (!failed)
      process.stderr.write(`warning: the rank worker thread failed (${why}); ranking its units on the main thread (same results)\n`);
    failed = true;
    void worker.terminate();
  };
  /** Units taken back from the worker and ranked here, by index relative to `first`, until visited. */
  const stolen = new Map<number, RankedGroup>();
  /** Take back the worker's last unclaimed unit (relative index), or return undefined when it has claimed them all. */
  const takeBack = (): number | undefined => {
    for (;;) {
      const w = Atomics.load(range, 0);
      const g = w & 0xffff;
      const end = w >>> 16;
      if (g >= end) return undefined;
      if (Atomics.compareExchange(range, 0, w, g | ((end - 1) << 16)) === w) return end - 1;
    }
  };
  return {
    first,
    take(ui, steal) {
      if (ui !== next) throw new Error(`rank worker: unit ${ui} asked for, ${next} expected (units are taken in order)`);
      next++;
      const rel = ui - first;
      const kept = stolen.get(rel);
      if (kept) {
        stolen.delete(rel);
        return kept;
      }
      if (failed) return undefined;
      let last = performance.now();
      for (;;) {
        // read before the port: every message the worker posts is queued before its thread exits, so once it has
        // exited, a port without unit ui means the unit will never come
        const exited = Atomics.load(posted, 1) !== 0;
        const m = receiveMessageOnPort(port1)?.message as RankMessage | undefined;
        if (m) {
          received++;
          if ("error" in m) return void fail(m.error);
          if (m.unit !== rel) return void fail(`sent unit ${m.unit + first} when ${ui} was expected`);
          return m;
        }
        if (steal) {
          const back = takeBack();
          // ui itself, unclaimed: ranked here as it is visited
          if (back === rel) return undefined;
          if (back !== undefined) {
            stolen.set(back, steal(back + first));
            continue;
          }
        }
        if (exited) return void fail(`its thread exited without sending unit ${ui}`);
        // returns at once when a message was posted since the last one received, or the worker's thread is exiting
        if (Atomics.wait(posted, 0, received, 100) === "timed-out") {
          checkInterrupt();
          if (performance.now() - last > STALL_MS) return void fail(`no unit for ${STALL_MS / 1000} s`);
        } else last = performance.now();
      }
    },
    close() {
      port1.close();
      void worker.terminate();
    },
  };
}
