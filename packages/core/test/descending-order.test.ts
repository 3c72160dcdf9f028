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

  it("refuses NaN, naming its index", () => {
    expect(() => descendingOrder([0, 0, NaN, 0])).toThrow(/score 2 of 4 is NaN/);
  });
});
