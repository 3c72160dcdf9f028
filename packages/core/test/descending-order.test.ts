// descendingOrder against the definition it implements: a stable sort by score, descending, ties by ascending index.
import { describe, expect, it } from "vitest";
import { descendingOrder } from "../src/index.js";

/** The definition, written out: Array#sort is stable, and −0 and +0 tie as in any numeric comparison. */
function reference(scores: ArrayLike<number>): number[] {
  return Array.from({ length: scores.length }, (_, i) => i).sort((a, b) =>
    scores[b]! > scores[a]! ? 1 : scores[b]! < scores[a]! ? -1 : 0,
  );
}

function scoresOf(n: number, seed: number, pick: (u: number, v: number) => number): Float64Array {
  let s = seed >>> 0 || 1;
  const next = () => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), (s >>> 0) / 2 ** 32);
  return Float64Array.from({ length: n }, () => pick(next(), next()));
}

describe("descendingOrder", () => {
  const cases: [string, (u: number, v: number) => number][] = [
    ["distinct", (u) => u],
    ["mostly 0 (a sparse query), ±0 mixed", (u, v) => (u < 0.8 ? (v < 0.5 ? 0 : -0) : v)],
    ["all but one at the minimum", (u) => (u < 0.99 ? -3 : 1)],
    ["many ties at several levels", (u) => Math.floor(u * 4) / 4],
    ["a quarter exactly at the minimum, negatives", (u, v) => (u < 0.25 ? -1 : v - 0.5)],
    ["infinities and zeros", (u, v) => (u < 0.3 ? -Infinity : u < 0.6 ? 0 : u < 0.7 ? Infinity : v)],
    ["all equal", () => 0.5],
  ];
  for (const [name, pick] of cases) {
    it(`is the stable descending order: ${name}`, () => {
      for (const n of [0, 1, 2, 17, 600, 1999]) {
        const scores = scoresOf(n, n * 31 + name.length, pick);
        expect(Array.from(descendingOrder(scores)), `n = ${n}`).toEqual(reference(scores));
      }
    });
  }

  // descendingOrder buckets the scores (linear in the value, else in the float's bits), finishes with an insertion
  // sort and falls back to a merge sort when the buckets leave too much to do, or when n ≤ 16: every path is
  // checked against the definition, with the ties (±0 included) and extremes each path must keep in order
  const paths: [string, (u: number, v: number) => number][] = [
    // linear map: cosine-like scores, a few exact zeros of either sign, some negatives
    ["linear: cosines with ±0", (u, v) => (u < 0.1 ? (v < 0.5 ? 0 : -0) : u < 0.15 ? -v / 20 : v)],
    // bits map: decayed scores over hundreds of orders of magnitude (linear buckets would hold almost all in one)
    ["bits: decays with ±0 and negatives", (u, v) => (u < 0.1 ? (v < 0.5 ? 0 : -0) : u < 0.2 ? -Math.exp(-v * 600) : Math.exp(-v * 700))],
    [
      "bits: subnormals, ±0 and the smallest normals",
      (u, v) => (u < 0.2 ? (v < 0.5 ? 0 : -0) : (u < 0.6 ? 1 : -1) * 2 ** (-1074 + Math.floor(v * 60))),
    ],
    // +0 and −0 differ in the float's high word (0 and 2³¹): with subnormals a few high-word steps apart the bits
    // map gives each step its own bucket, so it must see −0 as +0 or the tie would not stay in index order
    ["bits: ±0 among subnormals", (u, v) => (u < 0.4 ? (v < 0.5 ? 0 : -0) : (u < 0.7 ? 1 : -1) * (1 + Math.floor(v * 100)) * 2 ** -1042)],
    // merge fallback: a cluster within 1e-12 (one bucket in either map) between far outliers, many ties in it
    ["merge: a tight cluster between outliers", (u, v) => (u < 0.01 ? 1e6 : u < 0.02 ? -1e6 : 1 + Math.floor(v * 50) * 1e-14)],
    ["merge: reversed runs of timestamps", (u, v) => 1.7e12 + Math.floor(v * 3) * 86_400_000 - Math.floor(u * 1e6)],
    // a finite range that overflows (max − min = ∞), infinities, only infinities
    [
      "overflowing range with infinities",
      (u, v) => (u < 0.1 ? Infinity : u < 0.2 ? -Infinity : u < 0.3 ? 0 : (2 * v - 1) * Number.MAX_VALUE),
    ],
    ["only ±Infinity and ±0", (u, v) => (u < 0.5 ? (v < 0.5 ? Infinity : -Infinity) : v < 0.5 ? 0 : -0)],
    ["only −Infinity", () => -Infinity],
    ["largest magnitudes", (u, v) => (u < 0.5 ? 1 : -1) * (v < 0.5 ? Number.MAX_VALUE : Number.MAX_VALUE / 2)],
  ];
  for (const [name, pick] of paths) {
    it(`is the stable descending order on every path: ${name}`, () => {
      for (const n of [0, 1, 2, 3, 15, 16, 17, 18, 33, 100, 601, 4099]) {
        const scores = scoresOf(n, n * 17 + name.length, pick);
        expect(Array.from(descendingOrder(scores)), `n = ${n}`).toEqual(reference(scores));
      }
    });
  }

  it("orders a nearly sorted range wider than the largest float (max − min overflows to ∞)", () => {
    for (const n of [17, 100, 1000]) {
      // descending from Number.MAX_VALUE to −Number.MAX_VALUE in index order, in pairs of ties, one swap at the ends, ±Infinity inside
      const scores = Float64Array.from({ length: n }, (_, i) => Number.MAX_VALUE * (1 - (4 * Math.floor(i / 2)) / (n - 1)));
      [scores[0], scores[n - 1]] = [scores[n - 1]!, scores[0]!];
      [scores[3], scores[n - 4]] = [Infinity, -Infinity];
      expect(Array.from(descendingOrder(scores)), `n = ${n}`).toEqual(reference(scores));
    }
  });

  it("is the same for a plain array as for a Float64Array, and −0 ties +0 in index order", () => {
    const plain = [0, -0, 0.5, -0, 0, Infinity, -Infinity, -0.5, 0.5, 0];
    expect(Array.from(descendingOrder(plain))).toEqual([5, 2, 8, 0, 1, 3, 4, 9, 7, 6]);
    expect(Array.from(descendingOrder(Float64Array.from(plain)))).toEqual([5, 2, 8, 0, 1, 3, 4, 9, 7, 6]);
  });

  it("keeps its scratch correct while it grows and after it has grown (large, then small, then larger)", () => {
    for (const [i, n] of [5, 20_000, 3, 40, 70_001, 17, 601].entries()) {
      const scores = scoresOf(n, 1000 + i, (u, v) => (u < 0.3 ? 0 : u < 0.5 ? Math.exp(-v * 500) : v));
      expect(Array.from(descendingOrder(scores)), `call ${i}, n = ${n}`).toEqual(reference(scores));
    }
  });

  it("refuses NaN, naming its index", () => {
    expect(() => descendingOrder([0, 0, NaN, 0])).toThrow(/score 2 of 4 is NaN/);
  });

  it("refuses the first NaN of a large array, with the same message, and sorts correctly afterwards", () => {
    const scores = scoresOf(700, 9, (u) => u);
    scores[650] = NaN;
    scores[690] = NaN;
    expect(() => descendingOrder(scores)).toThrow(
      new RangeError(
        "descendingOrder: score 650 of 700 is NaN; every score must be a number to be ranked (check the computation that produced it)",
      ),
    );
    scores[650] = 0.25;
    scores[690] = -0;
    expect(Array.from(descendingOrder(scores))).toEqual(reference(scores));
  });
});
