// Order statistics by selection (src/stats/select.ts) against a full Float64Array#sort, the order the percentile CIs
// are defined by: numeric, −0 before +0.
import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { selectSortedPair } from "../src/stats/select.js";

describe("selectSortedPair", () => {
  it("gives the values a sort puts at two ranks, the sign of zero included (3 000 arrays)", () => {
    const r = seedrandom("select-sorted-pair");
    const mismatches: string[] = [];
    let signedZeros = 0;
    for (let t = 0; t < 3000; t++) {
      const n = 1 + Math.floor(r() * 300);
      const levels = 1 + Math.floor(r() * 12);
      // few levels (many ties), zeros of both signs, and negatives on some arrays
      const a = Float64Array.from({ length: n }, () =>
        r() < 0.3 ? (r() < 0.5 ? -0 : 0) : (Math.floor(r() * levels) - (t % 2 ? levels / 2 : 0)) / 7,
      );
      const lo = Math.floor(r() * n);
      const hi = lo + Math.floor(r() * (n - lo));
      const sorted = a.slice().sort();
      const [x, y] = selectSortedPair(a, lo, hi);
      if (!Object.is(x, sorted[lo]) || !Object.is(y, sorted[hi]))
        mismatches.push(`n ${n}, ranks ${lo} ${hi}: ${x} ${y} vs ${sorted[lo]} ${sorted[hi]}`);
      if (Object.is(sorted[lo], -0) || Object.is(sorted[hi], -0)) signedZeros++;
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // the arrays really put −0 at the ranks asked for, not only +0
    expect(signedZeros).toBeGreaterThan(100);
  });

  it("leaves the array as it was", () => {
    const r = seedrandom("select-unchanged");
    const a = Float64Array.from({ length: 2000 }, () => r() - 0.5);
    const before = a.slice();
    selectSortedPair(a, 50, 1949);
    expect(Array.from(a)).toEqual(Array.from(before));
  });

  it("finds the ranks where the sampled values mislead its bracket, and on large resample-sized arrays", () => {
    const r = seedrandom("select-misled");
    const mismatches: string[] = [];
    for (let t = 0; t < 400; t++) {
      const n = 200 + Math.floor(r() * 4000);
      const step = Math.max(1, Math.floor(n / 128));
      // on every other array, the sampled positions (every step-th) hold outliers the rest of the values never reach
      const a = Float64Array.from({ length: n }, (_, i) => (t % 2 && i % step === 0 ? 10 + r() : Math.floor(r() * 50) / 49));
      const sorted = a.slice().sort();
      for (const [lo, hi] of [
        [Math.round((n - 1) * 0.025), Math.round((n - 1) * 0.975)],
        [Math.floor(n / 2), Math.floor(n / 2) + Math.floor(r() * (n - Math.floor(n / 2)))],
      ] as const) {
        const [x, y] = selectSortedPair(a, lo, hi);
        if (!Object.is(x, sorted[lo]) || !Object.is(y, sorted[hi]))
          mismatches.push(`n ${n}, ranks ${lo} ${hi}: ${x} ${y} vs ${sorted[lo]} ${sorted[hi]}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
