// Exactness of the statistics behind the EpiRec official report. Expected values are
// external vectors produced by CPython 3 (`random`, `statistics.mean`), pasted as literals.
import { describe, expect, it } from "vitest";
import { PyRandom, percentileRanks, pythonPercentileCI } from "../src/index.js";
import { exactMean, splitFixedPoint } from "../src/stats/exact-mean.js";
import { drawCounts, percentileCIOfCounts } from "../src/stats/python-bootstrap.js";

describe("pythonPercentileCI (the reference's bootstrap)", () => {
  it("uses Python-rounded ranks", () => {
    expect(percentileRanks(2000)).toEqual([50, 1949]);
    expect(percentileRanks(200)).toEqual([5, 194]);
    expect(percentileRanks(100)).toEqual([2, 97]);
    expect(() => percentileRanks(0)).toThrow(/positive integer/);
  });

  it("matches sorted(mean(rng.choices(v, k=n))) on the fast fixed-point path", () => {
    // v=[1/(1+(i%14)) for i in range(37)]; rng=random.Random(7); 200 resamples
    const v = Array.from({ length: 37 }, (_, i) => 1 / (1 + (i % 14)));
    expect(pythonPercentileCI(new PyRandom(7), v, 200)).toEqual([0.1822923322923323, 0.33336483336483336]);
  });

  it("matches on the BigInt fallback path (exponent spread too wide for the grid)", () => {
    // v2=[1e300,1e-300,1.0,-3.5,2.0**-1000]; rng=random.Random(11); 100 resamples
    const v = [1e300, 1e-300, 1.0, -3.5, 2 ** -1000];
    expect(splitFixedPoint(v, v.length)).toBeNull();
    expect(pythonPercentileCI(new PyRandom(11), v, 100)).toEqual([-1.9, 6e299]);
  });

  it("matches for arbitrary decimals", () => {
    // v3=[0.1,0.2,0.3,0.7,1e-9,123.456]; rng=random.Random(5); 50 resamples
    const v = [0.1, 0.2, 0.3, 0.7, 1e-9, 123.456];
    expect(pythonPercentileCI(new PyRandom(5), v, 50)).toEqual([0.15000000033333333, 61.928000000000004]);
  });

  it("advances the generator by samples · n draws", () => {
    const a = new PyRandom(3);
    pythonPercentileCI(a, [1, 0, 1], 10);
    const b = new PyRandom(3);
    for (let i = 0; i < 30; i++) b.random();
    expect(a.random()).toBe(b.random());
  });

  it("from draw counts equals sorting the draw-by-draw exact means (mode base, no base, signed and tied values)", () => {
    // the naive definition: every resample's values in draw order, its exact mean, all means sorted
    const naive = (seed: number, v: number[], samples: number): [number, number] => {
      const rng = new PyRandom(seed);
      const means = Array.from({ length: samples }, () => exactMean(Array.from({ length: v.length }, () => v[rng.draw(v.length)]!)));
      means.sort((a, b) => a - b);
      const [lo, hi] = percentileRanks(samples);
      return [means[lo]!, means[hi]!];
    };
    const big = 2 ** 76; // on the grid of 1: n · (|base| + max |v − base|) exceeds 2^53, resampled without a base
    for (const v of [
      [1, 0, 0, 1, 1, 1, 0, 1],
      [-0.25, 0.5, 0.5, -0.25, 0.125, 0.5, -0, 0],
      [big, -big, big, big, 1, big],
      Array.from({ length: 40 }, (_, i) => 1 / (1 + (i % 7))),
    ]) {
      // an even number of resamples adds two 16-bit counts per 32-bit word; an odd one one at a time
      for (const samples of [300, 301]) {
        const counts = drawCounts(new PyRandom(9), v.length, samples);
        expect(percentileCIOfCounts(counts, v, samples)).toEqual(naive(9, v, samples));
      }
    }
  });
});
