// Exactness of the statistics behind the EpiRec official report. Expected values are
// external vectors produced by CPython 3 (`random`, `statistics.mean`), pasted as literals.
import { describe, expect, it } from "vitest";
import { exactMean, ratioToDouble } from "../src/index.js";
import { splitFixedPoint } from "../src/stats/exact-mean.js";

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
