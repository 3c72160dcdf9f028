// Exactness of the statistics behind the EpiRec official report. Expected values are
// external vectors produced by CPython 3 (`random`, `statistics.mean`), pasted as literals.
import { describe, expect, it } from "vitest";
import { MT19937, PyRandom, cpythonSeedKey, exactMean, percentileRanks, pythonPercentileCI, ratioToDouble } from "../src/index.js";
import { splitFixedPoint } from "../src/stats/exact-mean.js";

describe("PyRandom (CPython random.Random)", () => {
  it("matches random.Random(20260713).random() for the first outputs", () => {
    // python3 -c "import random; r=random.Random(20260713); print([r.random() for _ in range(3)])"
    const r = new PyRandom(20260713);
    expect([r.random(), r.random(), r.random()]).toEqual([0.2891804149064596, 0.8966127972629223, 0.6331646500132186]);
  });

  it("matches the 1000th output (crosses a state twist)", () => {
    const r = new PyRandom(20260713);
    let x = 0;
    for (let i = 0; i < 1000; i++) x = r.random();
    expect(x).toBe(0.07307096370516553);
  });

  it("seeds 0 and seeds above 2^32 like CPython (multi-word init_by_array key)", () => {
    expect(new PyRandom(0).random()).toBe(0.8444218515250481);
    expect(cpythonSeedKey(2 ** 32 + 5)).toEqual([5, 1]);
    expect(new PyRandom(2 ** 32 + 5).random()).toBe(0.15727238718789782);
    expect(new PyRandom(-7).random()).toBe(new PyRandom(7).random());
  });

  it("draws indices like random.choices (floor(random() * n))", () => {
    // [int(r.random()*504) for _ in range(5)] and r.choices(range(168), k=6)
    const r = new PyRandom(20260713);
    expect([0, 1, 2, 3, 4].map(() => r.draw(504))).toEqual([145, 451, 319, 33, 342]);
    const out = new Uint32Array(6);
    new PyRandom(20260713).fillDraws(out, 168);
    expect([...out]).toEqual([48, 150, 106, 11, 114, 41]);
  });

  it("bulk draws continue the same stream as single draws", () => {
    const a = new PyRandom(99);
    const b = new PyRandom(99);
    const bulk = new Uint32Array(1500); // > 624 words: crosses twists inside the bulk path
    a.fillDraws(bulk, 1000);
    const single = Array.from({ length: 1500 }, () => b.draw(1000));
    expect([...bulk]).toEqual(single);
    expect(a.random()).toBe(b.random());
  });

  it("MT19937 rejects bad seed keys", () => {
    expect(() => new MT19937([])).toThrow(/at least one/);
    expect(() => new MT19937([2 ** 32])).toThrow(/\[0, 2\^32\)/);
    expect(() => new PyRandom(0.5)).toThrow(/safe integer/);
  });
});

describe("exactMean (statistics.mean semantics)", () => {
  // expected: repr(statistics.mean(xs)) from CPython
  const cases: Array<[string, number[], number]> = [
    ["[0.1]*3", [0.1, 0.1, 0.1], 0.1],
    ["[1e16, 1, -1e16]", [1e16, 1, -1e16], 0.3333333333333333],
    ["MRR mix 1/r", [1.0, 0.5, 1 / 3, 0.25, 1 / 14, 1 / 7], 0.3829365079365079],
    ["[1/3]*7 + [1/14]*5", [...Array(7).fill(1 / 3), ...Array(5).fill(1 / 14)], 0.2242063492063492],
    ["[0.1, 0.2, 0.3]", [0.1, 0.2, 0.3], 0.2],
    ["[0.1, 0.7]", [0.1, 0.7], 0.39999999999999997],
    ["[0.3]*10", Array(10).fill(0.3), 0.3],
    ["[0.1]*10", Array(10).fill(0.1), 0.1],
    ["1/r for r in 1..14", Array.from({ length: 14 }, (_, i) => 1 / (i + 1)), 0.23225445189730903],
    ["[1/7]*3 + [1/3]", [1 / 7, 1 / 7, 1 / 7, 1 / 3], 0.19047619047619047],
    ["[-1.5, 0.1, 0.7]", [-1.5, 0.1, 0.7], -0.23333333333333334],
    ["[1e308, 1e308, -1e308] (no overflow)", [1e308, 1e308, -1e308], 3.333333333333333e307],
    ["[max, max]", [1.7976931348623157e308, 1.7976931348623157e308], 1.7976931348623157e308],
    ["[1e-300, 1e300]", [1e-300, 1e300], 5e299],
    ["subnormals [5e-324]*3", [5e-324, 5e-324, 5e-324], 5e-324],
    ["subnormal tie to even [5e-324, 0]", [5e-324, 0], 0],
    ["subnormal [5e-324, 5e-324, 0]", [5e-324, 5e-324, 0], 5e-324],
    ["subnormal [3·2^-1074, 2^-1074]", [3 * 5e-324, 5e-324], 1e-323],
    ["subnormal mix", [-1e-310, 3e-310, 0.5e-310], 8.3333333333334e-311],
    ["[1, 2, 3, 4]", [1, 2, 3, 4], 2.5],
  ];
  for (const [name, xs, expected] of cases) {
    it(name, () => {
      expect(exactMean(xs)).toBe(expected);
      expect(exactMean(Float64Array.from(xs))).toBe(expected);
    });
  }

  it("differs from the naive float sum where Python's does", () => {
    const xs = [0.1, 0.1, 0.1];
    expect((0.1 + 0.1 + 0.1) / 3).not.toBe(0.1);
    expect(exactMean(xs)).toBe(0.1);
  });

  it("returns +0 for zeros, IEEE results for non-finite values, and rejects empty data", () => {
    expect(Object.is(exactMean([-0]), 0)).toBe(true);
    expect(exactMean([Infinity, 1])).toBe(Infinity);
    expect(exactMean([Infinity, -Infinity])).toBeNaN();
    expect(() => exactMean([])).toThrow(/at least one value/);
  });

  it("ratioToDouble rounds exact ties to even", () => {
    // (2^53 + 1) / 1 lies exactly between 2^53 and 2^53 + 2 → 2^53 (even mantissa)
    expect(ratioToDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(ratioToDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(ratioToDouble(-1n, 3n)).toBe(-1 / 3);
    expect(ratioToDouble(1n, 10n)).toBe(0.1);
    expect(ratioToDouble(1n, 1n, -1074)).toBe(5e-324);
    expect(ratioToDouble(1n, 2n, -1074)).toBe(0); // half the smallest subnormal: tie → 0
    expect(ratioToDouble(3n, 4n, -1074)).toBe(5e-324);
    expect(ratioToDouble(1n, 1n, 1024)).toBe(Infinity);
  });

  it("splitFixedPoint reproduces every value exactly and refuses too-wide spreads", () => {
    const xs = [1, 0.5, 1 / 3, 1 / 14, 0, -0.25];
    const split = splitFixedPoint(xs, 1000)!;
    expect(split).not.toBeNull();
    xs.forEach((x, i) => {
      expect((split.hi[i]! * 2 ** 26 + split.lo[i]!) * 2 ** split.exp).toBe(x);
    });
    expect(splitFixedPoint([1e300, 1e-300], 10)).toBeNull();
  });
});

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
});
