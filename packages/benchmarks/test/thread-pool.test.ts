// The bootstrap's thread pool (src/stats/thread-pool.ts): blocks of resamples computed by the main thread and
// worker threads give the same bits as one thread, and the thread count is validated.
import seedrandom from "seedrandom";
import { afterEach, describe, expect, it, vi } from "vitest";

type Bootstrap = typeof import("../src/stats/bootstrap.js");
type Randomization = typeof import("../src/stats/randomization.js");

async function randomizationWith(threads: string): Promise<Randomization> {
  vi.resetModules();
  process.env.PERSODE_THREADS = threads;
  return import("../src/stats/randomization.js");
}

/** A fresh copy of the bootstrap module (its resample and means caches and its pool empty) under `threads`. */
async function bootstrapWith(threads: string): Promise<Bootstrap> {
  vi.resetModules();
  process.env.PERSODE_THREADS = threads;
  return import("../src/stats/bootstrap.js");
}

/** Columns of every kind the kernel distinguishes: 0/1 hits, dyadic fractions, thirds (summed left to right), MRR-like. */
function columns(n: number): Record<string, Float64Array> {
  const r = seedrandom("thread-pool");
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  const out: Record<string, Float64Array> = {};
  for (let c = 0; c < 6; c++) {
    out[`hit${c}`] = col(() => (r() < 0.2 ? 1 : 0));
    out[`quarter${c}`] = col(() => Math.floor(r() * 5) / 4);
    out[`third${c}`] = col(() => Math.floor(r() * 4) / 3);
    out[`mrr${c}`] = col(() => 1 / (1 + Math.floor(r() * 50)));
  }
  out.constant = col(() => 0.1);
  return out;
}

const saved = process.env.PERSODE_THREADS;
afterEach(() => {
  if (saved === undefined) delete process.env.PERSODE_THREADS;
  else process.env.PERSODE_THREADS = saved;
  vi.resetModules();
});

describe("bootstrap thread pool", () => {
  it("gives the same resample means, bit for bit, with one thread and with four", async () => {
    // 2 000 resamples × 1 500 items × 25 columns: above the size at which the pool's workers join in
    const cols = columns(1500);
    const spec = { samples: 2000, seed: 20260713 };
    const one = (await bootstrapWith("1")).resampleTable(cols, spec, "pool");
    const many = await bootstrapWith("4");
    many.resampleTable(columns(1500), spec, "warm-up"); // the workers are running for the next call
    const four = many.resampleTable(cols, spec, "pool");
    expect(Object.keys(four)).toEqual(Object.keys(one));
    for (const name of Object.keys(one)) {
      const a = one[name]!;
      const b = four[name]!;
      expect(b.length).toBe(spec.samples);
      const differing = a.findIndex((x, i) => !Object.is(x, b[i]));
      expect(differing, `${name}: resample ${differing}`).toBe(-1);
    }
    // and the CIs the runners read from them
    expect(many.percentileInterval(four.mrr0!)).toEqual(many.percentileInterval(one.mrr0!));
  });

  it("resample indices drawn ahead on the workers (prefetchResamples) are the ones drawn on demand", async () => {
    const cols = columns(1500);
    const spec = { samples: 2000, seed: 20260713 };
    const onDemand = (await bootstrapWith("1")).resampleTable(cols, spec, "ahead");
    const b = await bootstrapWith("3");
    // a request that matches nothing later (another size) only costs its draws
    b.prefetchResamples(
      [
        { n: 1500, label: "ahead" },
        { n: 999, label: "ahead" },
        { n: 1500, label: "other" },
      ],
      spec,
    );
    const ahead = b.resampleTable(cols, spec, "ahead");
    for (const name of Object.keys(onDemand)) {
      const differing = onDemand[name]!.findIndex((x, i) => !Object.is(x, ahead[name]![i]));
      expect(differing, `${name}: resample ${differing}`).toBe(-1);
    }
    expect(() => b.prefetchResamples([{ n: 0, label: "empty" }], spec)).toThrow(/cannot prefetch resamples of 0 items/);
  });

  it("sign-flip tests: the same counts with one thread and four, and each the same as run alone", async () => {
    // 24 comparisons × 1 000 items × 10 000 sign vectors: above the size at which the workers join in
    const r = seedrandom("flips");
    const n = 1000;
    const base = Float64Array.from({ length: n }, () => Math.floor(r() * 3) / 2);
    const pairs = Array.from({ length: 24 }, (_, t) => {
      const shift = (t % 6) / 20;
      return [Float64Array.from(base, (x) => (r() < 0.3 ? Math.min(1, x + (r() < 0.5 + shift ? 0.5 : -0.5)) : x)), base] as const;
    });
    const one = await randomizationWith("1");
    const flips1 = one.drawSignFlips(n, { samples: 10_000, seed: 7 }, "pool");
    const alone = pairs.map(([a, b]) => one.randomizationTest(a, b, flips1));
    const single = one.startRandomizationTests(pairs, flips1)();
    const four = await randomizationWith("4");
    const flips4 = four.drawSignFlips(n, { samples: 10_000, seed: 7 }, "pool");
    four.startRandomizationTests(pairs, flips4)(); // the workers are running for the next calls
    // two sets of tests outstanding on the workers together, waited for in the other order
    const first = four.startRandomizationTests(pairs, flips4);
    const second = four.startRandomizationTests([...pairs].reverse(), flips4);
    expect(second()).toEqual([...alone].reverse());
    const parallel = first();
    expect(first()).toBe(parallel); // waited for once
    expect(single).toEqual(alone);
    expect(parallel).toEqual(alone);
    // the comparisons differ, so the counts read the data: not all equal, not all extreme
    expect(new Set(alone.map((x) => x.atLeastAsExtreme)).size).toBeGreaterThan(3);
  });

  it("refuses a thread count that is not an integer from 1 to 64, saying what to set", async () => {
    const b = await bootstrapWith("two");
    expect(() => b.resampleTable(columns(1500), { samples: 2000, seed: 1 }, "bad")).toThrow(
      /PERSODE_THREADS must be an integer from 1 to 64.*"two"/,
    );
  });
});
