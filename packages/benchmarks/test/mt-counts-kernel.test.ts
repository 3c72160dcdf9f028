// The EpiRec official bootstrap's draws for whole groups (src/stats/mt-counts-kernel.ts): the kernel's counts equal
// drawCounts over CPython's generator (./mt19937.ts), table after table; drawn ahead on a worker thread
// (prefetchOfficialDraws) the official report is the same bytes as drawn on demand; bad requests are refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MT19937, cpythonSeedKey, PyRandom } from "../src/stats/mt19937.js";
import { groupCountsBlock, type GroupCountsJob } from "../src/stats/mt-counts-kernel.js";
import { drawCounts } from "../src/stats/python-bootstrap.js";
import type { EvaluatedCorpus } from "../src/epirec/corpus-index.js";

/** The kernel's job for groups of these sizes drawn from one seed, `tables` count tables each. */
function job(seed: number, sizes: readonly number[], samples: number, tables: number): GroupCountsJob {
  return {
    seeded: new MT19937(cpythonSeedKey(seed)).mt,
    samples,
    tables,
    n: Int32Array.from(sizes),
    out: sizes.flatMap((n) =>
      Array.from({ length: tables }, () => (n <= 0xffff ? new Uint16Array(samples * n) : new Uint32Array(samples * n))),
    ),
  };
}

describe("groupCountsBlock", () => {
  it("counts what drawCounts counts from a fresh random.Random(seed), one table after another, each group from a fresh copy", () => {
    // seeds of one and two key words, 0 and a negative one (CPython seeds with |seed|); resample counts around the 32-resample block
    const sizes = [1, 7, 300];
    for (const seed of [0, 1, 20260713, 2 ** 40 + 5, -7]) {
      for (const samples of [1, 33, 64]) {
        const j = job(seed, sizes, samples, 3);
        groupCountsBlock(j, 0, sizes.length);
        sizes.forEach((n, g) => {
          const rng = new PyRandom(seed);
          for (let t = 0; t < 3; t++)
            expect(j.out[g * 3 + t], `n ${n}, seed ${seed}, samples ${samples}, table ${t}`).toEqual(drawCounts(rng, n, samples));
        });
      }
    }
  });

  it("computes only its own groups, and 32-bit counts for more than 65 535 items", () => {
    const j = job(4, [5, 70_000], 2, 1);
    groupCountsBlock(j, 1, 2);
    expect(j.out[0]).toEqual(new Uint16Array(10)); // group 0 untouched
    expect(j.out[1]).toBeInstanceOf(Uint32Array);
    expect(j.out[1]).toEqual(drawCounts(new PyRandom(4), 70_000, 2));
  });
});

/** Two personas, three probe types, bands and ages of every kind: groups of several sizes. */
function corpus(): EvaluatedCorpus {
  const day = 86_400_000;
  const now = 100 * day;
  const episode = (id: string, age: number, band: string | undefined, types: string[]) => ({
    id,
    timestampMs: now - age * day,
    intensityBand: band,
    probes: types.map((type, k) => ({ id: `${id}-q${k}`, type })),
  });
  return {
    referenceNowMs: now,
    personas: [
      { id: "p1", episodes: [episode("e1", 1, "high", ["factual", "reflective"]), episode("e2", 40, "low", ["factual"])] },
      {
        id: "p2",
        episodes: [episode("e3", 10, undefined, ["reflective", "reflective", "factual"]), episode("e4", 2, "high", ["explicit"])],
      },
    ],
  };
}

const saved = process.env.PERSODE_THREADS;
afterEach(() => {
  if (saved === undefined) delete process.env.PERSODE_THREADS;
  else process.env.PERSODE_THREADS = saved;
});

describe("prefetchOfficialDraws", () => {
  /** A fresh official module (its kept draws and the pool empty) under `threads`. */
  async function official(threads: string) {
    vi.resetModules();
    process.env.PERSODE_THREADS = threads;
    return import("../src/epirec/official.js");
  }

  it("officialGroupSizes are the sizes of the report's groups", async () => {
    const o = await official("1");
    const c = corpus();
    const rankings = new Map(
      c.personas.flatMap((p) => p.episodes.flatMap((e) => e.probes.map((q) => [q.id, p.episodes.map((x) => x.id)] as const))),
    );
    const r = o.evaluateRankings(c, rankings, { dataSha256: "x", samples: 20 });
    const groups = [
      r.overall,
      ...Object.values(r.by_probe_type),
      ...Object.values(r.by_probe_type_and_intensity),
      ...Object.values(r.by_probe_type_and_age),
    ];
    expect(o.officialGroupSizes(c).sort((a, b) => a - b)).toEqual(groups.map((g) => g.n).sort((a, b) => a - b));
  });

  it("the report is the same bytes with the draws taken ahead on a worker thread as drawn on demand", async () => {
    const c = corpus();
    const rankings = new Map(
      c.personas.flatMap((p) =>
        p.episodes.flatMap((e) => e.probes.map((q) => [q.id, [...p.episodes.map((x) => x.id)].reverse()] as const)),
      ),
    );
    const spec = { dataSha256: "x", samples: 501, seed: 11 };
    const onDemand = await official("1");
    const expected = onDemand.formatOfficialReport(onDemand.evaluateRankings(c, rankings, spec));
    const ahead = await official("2");
    ahead.prefetchOfficialDraws(ahead.officialGroupSizes(c), { samples: 501, seed: 11 });
    expect(ahead.formatOfficialReport(ahead.evaluateRankings(c, rankings, spec))).toBe(expected);
    // a second report over the same groups reads the same draws
    expect(ahead.formatOfficialReport(ahead.evaluateRankings(c, rankings, spec))).toBe(expected);
  });

  it("refuses sizes, resample counts and seeds it cannot draw", async () => {
    const o = await official("1");
    expect(() => o.prefetchOfficialDraws([3, 0])).toThrow(/a group has 0 probes; sizes must be positive integers/);
    expect(() => o.prefetchOfficialDraws([2.5])).toThrow(/a group has 2.5 probes/);
    expect(() => o.prefetchOfficialDraws([3], { samples: 0 })).toThrow(/samples must be a positive integer, got 0/);
    expect(() => o.prefetchOfficialDraws([3], { seed: 0.5 })).toThrow(/seed must be an integer, got 0.5/);
  });
});
