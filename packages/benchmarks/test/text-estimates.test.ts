// estimateOnWorker: the lexicon, VADER and AFINN estimates computed on a worker thread are the main thread's, chunk by chunk.
import { createEstimator } from "@persode/core";
import { afterEach, describe, expect, it } from "vitest";
import { estimateOnWorker } from "../src/text-estimates.js";

const names = ["lexicon", "vader", "afinn"];
const chunks = [
  ["I am SO happy today!!!", "The exam went badly, but the coffee was good.", "", "nothing much happened :)"],
  ["I can't believe she lied to me...", "We walked to the beach.", "NOT bad at all", "kind of sad, sort of relieved?!?"],
];
const threads = process.env.PERSODE_THREADS;

afterEach(() => {
  if (threads === undefined) delete process.env.PERSODE_THREADS;
  else process.env.PERSODE_THREADS = threads;
});

describe("estimateOnWorker", () => {
  it("gives every estimator's own estimates of each chunk, in order, then no more chunks", async () => {
    process.env.PERSODE_THREADS = "2";
    const pending = estimateOnWorker(names, chunks);
    expect(pending).toBeDefined();
    for (const name of names) {
      const est = createEstimator(name);
      for (const texts of chunks) {
        const chunk = await pending!.next(name);
        const own = await est.estimate(texts);
        expect(chunk, name).toBeDefined();
        expect([...chunk!.keys()]).toEqual(texts);
        expect(texts.map((t) => chunk!.get(t))).toEqual(own);
      }
      expect(pending!.next(name)).toBeUndefined();
    }
    expect(pending!.next("oracle")).toBeUndefined();
  });

  it("starts nothing with one thread (PERSODE_THREADS=1) or nothing to estimate", () => {
    process.env.PERSODE_THREADS = "1";
    expect(estimateOnWorker(names, chunks)).toBeUndefined();
    process.env.PERSODE_THREADS = "2";
    expect(estimateOnWorker(names, [[], []])).toBeUndefined();
    expect(estimateOnWorker([], chunks)).toBeUndefined();
  });

  it("hands back undefined chunks, with a warning, when the worker fails", async () => {
    process.env.PERSODE_THREADS = "2";
    const pending = estimateOnWorker(["no-such-estimator"], chunks);
    expect(await pending!.next("no-such-estimator")).toBeUndefined();
    expect(await pending!.next("no-such-estimator")).toBeUndefined();
  });
});
