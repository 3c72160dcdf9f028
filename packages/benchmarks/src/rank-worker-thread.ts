/**
 * The rank worker's thread itself (./rank-worker.ts hands it its job): the source it runs, and starting it — ahead
 * of its job where a run will certainly rank (prepareRankWorker), so its modules load while the calling thread loads
 * its own and the data. Only Node's built-ins and the pool's thread count are imported here, so the command line can
 * start the thread before it loads @persode/core or any experiment's code.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { poolThreads } from "./stats/thread-pool.js";

/** The worker's program (run with `eval`): it loads the ranking loop and @persode/core, then ranks the units of its one job. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
// the modules load while the calling thread prepares the job
const modules = Promise.all([import(workerData.loop), import(workerData.core)]);
modules.catch(() => undefined);
parentPort.once("message", async ({ groups: sent, packed, units, strategies, embedder: e, port, posted, range }) => {
  // however the thread ends, the calling thread (blocked in Atomics.wait, deaf to events) learns it at once
  process.on("exit", () => {
    Atomics.store(posted, 1, 1);
    Atomics.notify(posted, 0);
  });
  try {
    const [{ rankedGroup }, c] = await modules;
    // packed vectors become views of the shared buffer, once per group (a group's store is built once per memories array)
    const view = (at) => packed.buffer.subarray(at, at + packed.dim);
    const groups = packed
      ? sent.map((g) => ({
          ...g,
          vectors: Array.from(g.memories, (_, i) => view(g.vectors + i * packed.dim)),
          queries: g.queries.map((q) => ({ ...q, vector: view(q.vector) })),
        }))
      : sent;
    const byKey = new Map([...c.BUILTIN_STRATEGIES, ...c.EXTENDED_STRATEGIES].map((s) => [s.key, s]));
    const strats = strategies.map((k) => byKey.get(k));
    const refuse = () => Promise.reject(new Error("the rank worker embeds nothing: vectors come with the groups"));
    const embedder = { name: e.name, id: e.id, dim: e.dim, model: e.model, prefixes: e.prefixes, embed: refuse, embedBatch: refuse };
    // claim units from the front of the range; the calling thread takes units back from its end
    for (;;) {
      const w = Atomics.load(range, 0);
      const u = w & 0xffff;
      if (u >= w >>> 16) break;
      if (Atomics.compareExchange(range, 0, w, w + 1) !== w) continue;
      const { group, from, to } = units[u];
      const { orders, nearTies, fires } = rankedGroup(groups[group], embedder, strats, from, to);
      // orders are in shared memory (rankedGroup), so posting them neither copies nor detaches: the first detached
      // buffer of a thread invalidates V8's detaching protector there, and every optimized typed-array reader with it
      port.postMessage({ unit: u, orders, nearTies, fires });
      Atomics.add(posted, 0, 1);
      Atomics.notify(posted, 0);
    }
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
export function spawnRankWorker(loop: string): Worker | undefined {
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
 * Start the rank worker now, so its modules load while the caller loads data and embeds (Exp. 5 calls this first, and
 * the command line earlier still when the run will certainly rank); the next startRankWorker hands it its job. Does
 * nothing where startRankWorker would not use a worker (one thread), or when a prepared one is waiting.
 */
export function prepareRankWorker(): void {
  if (!prepared && poolThreads() >= 2) prepared = spawnRankWorker(rankLoopUrl());
}

/** The prepared rank worker, if any, handed over once (the next prepareRankWorker starts another). */
export function takePreparedRankWorker(): Worker | undefined {
  const w = prepared;
  prepared = undefined;
  return w;
}

/** This package's dist/ranking-loop.js (the worker runs the built code, also when the caller runs from src/ under vitest). */
export function rankLoopUrl(): string {
  const self = import.meta.url;
  return self.endsWith(".js") ? new URL("./ranking-loop.js", self).href : new URL("../dist/ranking-loop.js", self).href;
}
