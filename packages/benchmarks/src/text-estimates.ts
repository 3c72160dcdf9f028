/**
 * Estimates of estimators that read the text alone (lexicon, VADER, AFINN: no embedder, no fitted model), computed on a worker
 * thread while the main thread embeds, fits and ranks (Exp. 7). Each estimate is a pure function of its text, so the values are
 * the ones the main thread would compute. Threads as the statistics pool counts them (PERSODE_THREADS; 1 = no worker thread:
 * then nothing is started and the caller computes the estimates itself). If the worker fails, its chunks come back undefined
 * (with one warning) and the caller computes them.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { EmotionEstimate } from "@persode/core";
import { poolThreads } from "./stats/thread-pool.js";

/** What the worker is given: @persode/core's URL, estimator names and chunks of texts, in the order they are wanted. */
interface TextEstimatesJob {
  core: string;
  names: string[];
  chunks: string[][];
}

/** One estimator's estimates of one chunk, aligned with the chunk's texts; or why the worker stopped. */
type TextEstimatesMessage = { name: string; chunk: number; estimates: EmotionEstimate[] } | { error: string };

/** The worker: builds each estimator by name and posts its estimates of chunk 0, then of chunk 1, … each chunk for every name in turn. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { createEstimator } = await import(workerData.core);
  const estimators = workerData.names.map((name) => createEstimator(name));
  for (let chunk = 0; chunk < workerData.chunks.length; chunk++)
    for (const est of estimators)
      parentPort.postMessage({ name: est.name, chunk, estimates: await est.estimate(workerData.chunks[chunk]) });
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

/** The worker's chunks, in order, per estimator name. */
export interface PendingTextEstimates {
  /**
   * The next chunk of `name` not taken yet: its estimates by text, or undefined where the worker failed; undefined when every chunk
   * of `name` was taken. The worker keeps the process alive only while a taken chunk is awaited (an interrupted run exits at once).
   */
  next(name: string): Promise<Map<string, EmotionEstimate> | undefined> | undefined;
}

type Chunk = Map<string, EmotionEstimate> | undefined;

/**
 * Start estimating `chunks` (the texts of each, in order) with every estimator of `names` on a worker thread; undefined when no
 * worker thread may be used or there is nothing to estimate. The worker posts chunk 0 for every name, then chunk 1, …
 */
export function estimateOnWorker(names: readonly string[], chunks: readonly (readonly string[])[]): PendingTextEstimates | undefined {
  const work = chunks.filter((c) => c.length > 0).map((c) => [...c]);
  if (names.length === 0 || work.length === 0 || poolThreads() < 2) return undefined;
  const settle = new Map<string, ((m: Chunk) => void)[]>();
  const queued = new Map<string, Promise<Chunk>[]>();
  for (const name of names) {
    const fns: ((m: Chunk) => void)[] = [];
    queued.set(
      name,
      work.map(() => new Promise<Chunk>((resolve) => fns.push(resolve))),
    );
    settle.set(name, fns);
  }
  let left = names.length * work.length;
  let failed = false;
  const fail = (why: string) => {
    if (left === 0 || failed) return;
    failed = true;
    process.stderr.write(
      `warning: the text-estimates worker thread failed (${why}); computing those estimates on the main thread (same results)\n`,
    );
    for (const fns of settle.values()) for (const f of fns) f(undefined);
  };
  const core = pathToFileURL(createRequire(import.meta.url).resolve("@persode/core")).href;
  const job: TextEstimatesJob = { core, names: [...names], chunks: work };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job });
  worker.on("message", (m: TextEstimatesMessage) => {
    if ("error" in m) return fail(m.error);
    const texts = work[m.chunk]!;
    settle.get(m.name)![m.chunk]!(new Map(texts.map((t, i) => [t, m.estimates[i]!])));
    left--;
  });
  worker.on("error", (e) => fail(e.message));
  worker.on("exit", (code) => fail(`exit code ${code}`));
  // after the listeners (adding a 'message' listener refs the worker again)
  worker.unref();
  let awaited = 0;
  return {
    next(name) {
      const chunk = queued.get(name)?.shift();
      if (!chunk) return undefined;
      if (awaited++ === 0) worker.ref();
      return chunk.finally(() => {
        if (--awaited === 0) worker.unref();
      });
    },
  };
}
