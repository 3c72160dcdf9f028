// rankGroups(…, { worker: true }): the later groups ranked on a worker thread (src/rank-worker.ts, running the built
// dist/ranking-loop.js) reach the visitor as the same calls, in the same order, with the same orders, near-ties and
// gate firings as when everything is ranked on this thread; a worker that cannot run leaves its groups to this thread.
import { EXTENDED_STRATEGIES, HashingEmbedder, similarityOnly, type Embedder, type RetrievalStrategy } from "@persode/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rankedGroup, rankGroups, type RankingGroup } from "../src/ranking-loop.js";
import { prepareRankWorker, startRankWorker } from "../src/rank-worker.js";
import { randomGroup } from "./random-groups.js";

const hashing = new HashingEmbedder();
/** The hashing vectors presented as a model's, so rankings record near-ties (tieEpsilon > 0) and take the model dot kernel. */
const modelLike: Embedder = {
  name: "model-like",
  id: "test/model-like",
  dim: hashing.dim,
  model: { id: "test/model-like", revision: "test", dtype: "fp32" },
  embed: (t) => hashing.embed(t),
  embedBatch: (ts) => hashing.embedBatch(ts),
};

/** Every visitor call of a run, as plain values. */
function calls(groups: readonly RankingGroup[], embedder: Embedder, strats: readonly RetrievalStrategy[], worker: boolean) {
  const out: unknown[] = [];
  const fires = rankGroups(
    groups,
    embedder,
    strats,
    {
      begin: (qi, g) => void out.push(["begin", qi, g]),
      query: (qi, g, ctx) => void out.push(["query", qi, g, ctx.columns.size, ctx.query.text]),
      ranking: (qi, si, order, g, ties) => void out.push(["ranking", qi, si, g, Array.from(order), ties ? Array.from(ties) : null]),
    },
    undefined,
    { worker },
  );
  return { out, fires: Array.from(fires) };
}

const groups = (n: number) =>
  Array.from({ length: n }, (_, i) => randomGroup(`worker-${i}`, 20 + 13 * i, 3 + (i % 4), (r) => Math.floor(r() * 5) / 4));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("rankGroups on a rank worker", () => {
  it("gives the visitor exactly the calls of a run on this thread, every shipped strategy, exact and model vectors", () => {
    const gs = groups(7);
    const warn = vi.spyOn(process.stderr, "write");
    for (const [i, embedder] of [hashing, modelLike].entries()) {
      // the first run takes a worker started ahead of its job (as Exp. 5 does), the second a new one
      if (i === 0) prepareRankWorker();
      const here = calls(gs, embedder, EXTENDED_STRATEGIES, false);
      const split = calls(gs, embedder, EXTENDED_STRATEGIES, true);
      expect(split.out.length).toBe(here.out.length);
      expect(split).toEqual(here);
      expect(here.fires).toContain(1);
    }
    // the worker ran: a failed one would have warned (and left its groups to this thread)
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("rank worker"))).toEqual([]);
    // the model-like run records near-ties somewhere, so that path is compared too
    expect(calls(gs, modelLike, EXTENDED_STRATEGIES, false).out.some((c) => Array.isArray(c) && c[0] === "ranking" && c[5] !== null)).toBe(
      true,
    );
  });

  it("gives a visitor that reads no context (begin, no query) the same calls in the same order", () => {
    const gs = groups(5);
    const run = (worker: boolean) => {
      const out: unknown[] = [];
      rankGroups(
        gs,
        hashing,
        EXTENDED_STRATEGIES,
        {
          begin: (qi, g) => void out.push(["begin", qi, g]),
          ranking: (qi, si, order, g) => void out.push(["ranking", qi, si, g, Array.from(order)]),
        },
        undefined,
        { worker },
      );
      return out;
    };
    const here = run(false);
    expect(here.filter((c) => (c as unknown[])[0] === "begin")).toHaveLength(gs.reduce((n, g) => n + g.queries.length, 0));
    expect(run(true)).toEqual(here);
  });

  it("cuts groups of many queries into units (≤ 32 queries) and still gives the visitor the calls of a run here", () => {
    // 33 … 97 queries per group: two to four units each, so units of one group go to both threads
    const gs = Array.from({ length: 4 }, (_, i) => randomGroup(`units-${i}`, 15 + 5 * i, 33 + 21 * i, (r) => Math.floor(r() * 5) / 4));
    const strats = [similarityOnly, ...EXTENDED_STRATEGIES.slice(0, 3)];
    const here = calls(gs, hashing, strats, false);
    const split = calls(gs, hashing, strats, true);
    expect(split.out.length).toBe(here.out.length);
    expect(split).toEqual(here);
  });

  it("hands the worker the later groups, and keeps at least the first here", () => {
    const gs = groups(6);
    const w = startRankWorker(gs, hashing, [similarityOnly]);
    expect(w).toBeDefined();
    expect(w!.first).toBeGreaterThanOrEqual(1);
    expect(w!.first).toBeLessThan(gs.length);
    for (let gi = w!.first; gi < gs.length; gi++) {
      const r = w!.take(gi)!;
      expect(r.orders.length).toBe(gs[gi]!.queries.length * gs[gi]!.memories.length);
    }
    expect(() => w!.take(0)).toThrow(/unit 0 asked for, 6 expected/);
    w!.close();
  });

  it("posts its orders in shared memory: never transferred, so no buffer is detached in the worker", () => {
    // Detaching an ArrayBuffer (a transfer) invalidates V8's detaching protector in that thread, and with it every
    // optimized function there that reads a typed array: the worker recompiled its whole ranking code once.
    const gs = groups(6);
    const w = startRankWorker(gs, hashing, EXTENDED_STRATEGIES);
    expect(w).toBeDefined();
    for (let gi = w!.first; gi < gs.length; gi++) expect(w!.take(gi)!.orders.buffer).toBeInstanceOf(SharedArrayBuffer);
    w!.close();
  });

  it("shares the groups' vectors with the worker (one shared buffer, not a copy per vector), the same values", () => {
    // reported by a loop that throws what it received (fixtures/reporting-ranking-loop.mjs)
    const report = (gs: readonly RankingGroup[]) => {
      const warn = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const w = startRankWorker(gs, hashing, [similarityOnly], new URL("./fixtures/reporting-ranking-loop.mjs", import.meta.url).href)!;
      expect(w.take(w.first)).toBeUndefined();
      w.close();
      const m = /REPORT(.*)REPORT/s.exec(String(warn.mock.calls[0]?.[0]));
      warn.mockRestore();
      expect(m).not.toBeNull();
      return { first: w.first, got: JSON.parse(m![1]!) as Record<string, unknown> };
    };
    const gs = groups(5);
    const { first, got } = report(gs);
    const g = gs[first]!;
    expect(got).toEqual({
      memoriesShared: true,
      queriesShared: true,
      vectors: g.vectors.map((v) => Array.from(v)),
      queries: g.queries.map((q) => ({ ...q, vector: Array.from(q.vector) })),
    });
    // vectors of different lengths (the store refuses them as it would here) are sent as they are
    const odd = groups(5).map((x, i) => (i === 0 ? x : { ...x, vectors: x.vectors.map((v) => v.subarray(0, 8)) }));
    expect(report(odd).got).toMatchObject({ memoriesShared: false, queriesShared: false });
  });

  it("takes groups back from the worker's end instead of waiting: each group ranked once, the same orders", () => {
    const gs = groups(8);
    const strats = EXTENDED_STRATEGIES;
    // a new worker still loads its modules when the first group is asked for, so this thread takes groups back
    const w = startRankWorker(gs, hashing, strats)!;
    const stolen: number[] = [];
    const steal = (gi: number) => (stolen.push(gi), rankedGroup(gs[gi]!, hashing, strats));
    const got = Array.from({ length: gs.length - w.first }, (_, k) => w.take(w.first + k, steal));
    w.close();
    expect(stolen.length).toBeGreaterThan(0);
    // taken back from the end, each once, and never one the worker posted
    expect(stolen).toEqual([...stolen].sort((a, b) => b - a));
    expect(new Set(stolen).size).toBe(stolen.length);
    got.forEach((r, k) => {
      const gi = w.first + k;
      const want = rankedGroup(gs[gi]!, hashing, strats);
      // undefined: the group asked for was itself unclaimed, and is ranked by the caller as it is visited
      if (r === undefined) expect(stolen).not.toContain(gi);
      else
        expect({ orders: Array.from(r.orders), fires: Array.from(r.fires), ties: r.nearTies }).toEqual({
          orders: Array.from(want.orders),
          fires: Array.from(want.fires),
          ties: want.nearTies,
        });
    });
  });

  it("is not started for a strategy that is not shipped (a plugin's), one thread, or one group", () => {
    const plugin: RetrievalStrategy = { ...similarityOnly, key: "plugin-copy", slug: "plugin-copy" };
    expect(startRankWorker(groups(4), hashing, [similarityOnly, plugin])).toBeUndefined();
    expect(startRankWorker(groups(1), hashing, [similarityOnly])).toBeUndefined();
    vi.stubEnv("PERSODE_THREADS", "1");
    expect(startRankWorker(groups(4), hashing, [similarityOnly])).toBeUndefined();
  });

  it("a worker that fails leaves its groups to this thread: the same calls, and a warning", () => {
    const gs = groups(5);
    const warn = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const w = startRankWorker(gs, hashing, [similarityOnly], "file:///nonexistent/ranking-loop.js");
    expect(w).toBeDefined();
    expect(w!.take(w!.first)).toBeUndefined();
    expect(w!.take(w!.first + 1)).toBeUndefined();
    w!.close();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /warning: the rank worker thread failed \(.*nonexistent.*\); ranking its units on the main thread/s,
    );
  });

  it("a worker whose thread exits mid-unit is noticed when its unit is asked for, not after the stall timeout", () => {
    const gs = groups(5);
    const warn = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const loop = new URL("./fixtures/exiting-ranking-loop.mjs", import.meta.url).href;
    const w = startRankWorker(gs, hashing, [similarityOnly], loop);
    expect(w).toBeDefined();
    // no steal: this thread waits for the worker's unit, which never comes
    expect(w!.take(w!.first)).toBeUndefined();
    w!.close();
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toMatch(new RegExp(`the rank worker thread failed \\(its thread exited without sending unit ${w!.first}\\)`));
    expect(message).not.toMatch(/no unit for/);
  });
});
