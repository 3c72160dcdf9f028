/**
 * The ranking loop's second core (ranking-loop.ts, `rankGroups(…, { worker: true })`): a worker thread ranks the
 * later groups with the same code (this package's dist/ranking-loop.js and @persode/core) while the calling thread
 * ranks the first ones and hands every order to its visitor. Rankings are pure functions of a group's memories,
 * vectors, time and queries, so the worker's orders are the same bits as the calling thread's would be.
 *
 * The worker posts one message per group, in order, on a MessagePort that the calling thread reads synchronously
 * (receiveMessageOnPort), waiting on a shared counter between messages. A worker that fails (an error, a stall)
 * leaves its groups to the calling thread, which ranks them itself: the same results, or the same error.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { BUILTIN_STRATEGIES, EXTENDED_STRATEGIES, type Embedder, type RetrievalStrategy } from "@persode/core";
import { checkInterrupt } from "./interrupt.js";
import type { RankingGroup } from "./ranking-loop.js";
import { poolThreads, STALL_MS } from "./stats/thread-pool.js";

/** One group as the worker ranked it: per query k and strategy si, the order at (k·strategies + si)·size. */
export interface RankedGroup {
  orders: Int32Array;
  /** Per (query, strategy), ctx.nearTies of the order (null: none). */
  nearTies: (Int32Array | null)[];
  /** Per query, 1 when the gate fires. */
  fires: Uint8Array;
}

/** The rank worker of one rankGroups call: it ranks groups `first` … end; take(gi) returns group gi, or undefined to rank it here. */
export interface RankWorker {
  first: number;
  take(gi: number): RankedGroup | undefined;
  close(): void;
}

/** What the worker is sent, once it runs (its workerData holds the URLs of @persode/core and of dist/ranking-loop.js). */
interface RankJob {
  groups: RankingGroup[];
  strategies: string[];
  embedder: Pick<Embedder, "name" | "id" | "dim" | "model" | "prefixes">;
  port: MessagePort;
  /** [0]: groups posted so far. */
  posted: Int32Array;
}

type RankMessage = ({ group: number } & RankedGroup) | { error: string };

/** The share of the ranking work the worker takes: the calling thread also visits every order (metrics, files). */
const WORKER_SHARE = 2 / 3;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
// the modules load while the calling thread prepares the job
const modules = Promise.all([import(workerData.loop), import(workerData.core)]);
modules.catch(() => undefined);
parentPort.once("message", async ({ groups, strategies, embedder: e, port, posted }) => {
  try {
    const [{ rankGroups }, c] = await modules;
    const byKey = new Map([...c.BUILTIN_STRATEGIES, ...c.EXTENDED_STRATEGIES].map((s) => [s.key, s]));
    const strats = strategies.map((k) => byKey.get(k));
    const refuse = () => Promise.reject(new Error("the rank worker embeds nothing: vectors come with the groups"));
    const embedder = { name: e.name, id: e.id, dim: e.dim, model: e.model, prefixes: e.prefixes, embed: refuse, embedBatch: refuse };
    groups.forEach((group, g) => {
      const size = group.memories.length;
      const S = strats.length;
      const orders = new Int32Array(group.queries.length * S * size);
      const nearTies = new Array(group.queries.length * S).fill(null);
      const fires = rankGroups([group], embedder, strats, {
        ranking(qi, si, order, _g, ties) {
          orders.set(order, (qi * S + si) * size);
          if (ties) nearTies[qi * S + si] = ties;
        },
      });
      port.postMessage({ group: g, orders, nearTies, fires }, [orders.buffer]);
      Atomics.add(posted, 0, 1);
      Atomics.notify(posted, 0);
    });
  } catch (err) {
    port.postMessage({ error: String((err && err.stack) || err) });
    Atomics.add(posted, 0, 1);
    Atomics.notify(posted, 0);
  }
});
`;

/** A rank worker started ahead of its job (prepareRankWorker), its modules loading. */
let prepared: Worker | undefined;

/** A new rank worker running `loop`, loading its modules; undefined if no worker thread can be started. */
function spawn(loop: string): Worker | undefined {
  try {
    const core = pathToFileURL(createRequire(import.meta.url).resolve("@persode/core")).href;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { core, loop } });
    worker.on("error", () => undefined);
    // never keeps the process alive: a prepared worker may never be given a job
    worker.unref();
    return worker;
  } catch {
    return undefined;
  }
}

/**
 * Start the rank worker now, so its modules load while the caller loads data and embeds (Exp. 5 calls this first);
 * the next startRankWorker hands it its job. Does nothing where startRankWorker would not use a worker (one thread).
 */
export function prepareRankWorker(): void {
  if (!prepared && poolThreads() >= 2) prepared = spawn(loopUrl());
}

/** This package's dist/ranking-loop.js (the worker runs the built code, also when the caller runs from src/ under vitest). */
function loopUrl(): string {
  const self = import.meta.url;
  return self.endsWith(".js") ? new URL("./ranking-loop.js", self).href : new URL("../dist/ranking-loop.js", self).href;
}

/** The first group index to give the worker: the later groups holding about WORKER_SHARE of queries × memories (at least one group stays here). */
function splitPoint(groups: readonly RankingGroup[]): number {
  const work = groups.map((g) => g.queries.length * g.memories.length);
  const total = work.reduce((a, b) => a + b, 0);
  let best = groups.length;
  let bestGap = Infinity;
  let suffix = 0;
  for (let gi = groups.length - 1; gi >= 1; gi--) {
    suffix += work[gi]!;
    const gap = Math.abs(suffix - WORKER_SHARE * total);
    if (gap < bestGap) [best, bestGap] = [gi, gap];
  }
  return best;
}

/**
 * Start ranking the later groups on a worker thread, or undefined when that cannot help or cannot be done: one thread
 * (PERSODE_THREADS=1), fewer than two groups, or a strategy that is not shipped (a plugin's lives in this thread).
 * `loop`: the ranking loop module the worker runs (tests point it elsewhere to see a failing worker).
 */
export function startRankWorker(
  groups: readonly RankingGroup[],
  embedder: Embedder,
  strats: readonly RetrievalStrategy[],
  loop: string = loopUrl(),
): RankWorker | undefined {
  if (poolThreads() < 2 || groups.length < 2) return undefined;
  const shipped = new Set<RetrievalStrategy>([...BUILTIN_STRATEGIES, ...EXTENDED_STRATEGIES]);
  if (!strats.every((s) => shipped.has(s))) return undefined;
  const first = splitPoint(groups);
  if (first >= groups.length) return undefined;
  const { port1, port2 } = new MessageChannel();
  const posted = new Int32Array(new SharedArrayBuffer(4));
  const job: RankJob = {
    groups: groups.slice(first).map((g) => ({
      memories: g.memories,
      vectors: g.vectors,
      nowMs: g.nowMs,
      queries: g.queries,
      ...(g.memoryIntensity !== undefined ? { memoryIntensity: Array.from(g.memoryIntensity) } : {}),
    })),
    strategies: strats.map((s) => s.key),
    embedder: { name: embedder.name, id: embedder.id, dim: embedder.dim, model: embedder.model, prefixes: embedder.prefixes },
    port: port2,
    posted,
  };
  const worker = loop === loopUrl() && prepared ? prepared : spawn(loop);
  prepared = undefined;
  if (!worker) return undefined;
  worker.postMessage(job, [port2]);
  let failed = false;
  let next = first;
  let received = 0;
  const fail = (why: string) => {
    if (!failed)
      process.stderr.write(`warning: the rank worker thread failed (${why}); ranking its groups on the main thread (same results)\n`);
    failed = true;
    void worker.terminate();
  };
  return {
    first,
    take(gi) {
      if (failed) return undefined;
      if (gi !== next) throw new Error(`rank worker: group ${gi} asked for, ${next} expected (groups are taken in order)`);
      next++;
      let last = performance.now();
      for (;;) {
        const m = receiveMessageOnPort(port1)?.message as RankMessage | undefined;
        if (m) {
          received++;
          if ("error" in m) return void fail(m.error);
          if (m.group !== gi - first) return void fail(`sent group ${m.group + first} when ${gi} was expected`);
          return m;
        }
        // returns at once when a message was posted since the last one received
        if (Atomics.wait(posted, 0, received, 100) === "timed-out") {
          checkInterrupt();
          if (performance.now() - last > STALL_MS) return void fail(`no group for ${STALL_MS / 1000} s`);
        } else last = performance.now();
      }
    },
    close() {
      port1.close();
      void worker.terminate();
    },
  };
}
