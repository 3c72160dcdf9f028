// The harness's own seeded bootstrap (seedrandom xor4096), through the functions the runners use
// (resampleTable → percentileInterval / pairedInterval): determinism, stream separation, shared
// resample indices, and agreement with an independent re-derivation of the documented algorithm.
import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { pyRound } from "@persode/util";
import {
  forgetResampleSets,
  pairedInterval,
  percentileInterval,
  resampleIndices,
  resampleTable,
  type BootstrapSpec,
} from "../src/stats/bootstrap.js";
import { resampleEstimates, resampleIntervals, useEstimateWasm } from "../src/stats/estimated-intervals.js";

const spec: BootstrapSpec = { samples: 1000, seed: 20260713 };

function pseudoValues(n: number, seed: string, levels = 0): number[] {
  const r = seedrandom(seed);
  return Array.from({ length: n }, () => (levels > 0 ? Math.floor(r() * levels) / levels : r()));
}

/** The documented algorithm written out directly (small sizes, plain arrays). */
function referenceCI(values: number[], samples: number, seed: number, label: string): [number, number] {
  const prng = seedrandom.xor4096(`${seed}/${label}`);
  const n = values.length;
  const means: number[] = [];
  for (let b = 0; b < samples; b++) {
    let sum = 0;
    const picks: number[] = [];
    for (let i = 0; i < n; i++) picks.push(Math.floor(((prng.int32() >>> 0) * n) / 2 ** 32));
    for (const j of picks) sum += values[j]!;
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const lo = Math.round((samples - 1) * 0.025); // no exact .5 ties for these sample counts
  const hi = Math.round((samples - 1) * 0.975);
  return [means[lo]!, means[hi]!];
}

/** The 95 % CI of one metric's mean, the way the runners compute it. */
function ci(values: ArrayLike<number>, s: BootstrapSpec, label: string): [number, number] {
  return percentileInterval(resampleTable({ value: values }, s, label).value!);
}

describe("percentile CI over resampleTable", () => {
  it("follows the documented algorithm", () => {
    const xs = pseudoValues(57, "a", 4);
    expect(ci(xs, { samples: 300, seed: 7 }, "recall@3")).toEqual(referenceCI(xs, 300, 7, "recall@3"));
  });

  it("is deterministic, and the label selects an independent stream", () => {
    const xs = pseudoValues(200, "b");
    const a = ci(xs, spec, "mrr");
    expect(ci(xs, spec, "mrr")).toEqual(a);
    expect(ci(xs, spec, "recall@5")).not.toEqual(a);
    expect(ci(xs, { ...spec, seed: spec.seed + 1 }, "mrr")).not.toEqual(a);
  });

  it("brackets the sample mean and collapses for constant data", () => {
    const xs = pseudoValues(300, "c", 2);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const [lo, hi] = ci(xs, spec, "x");
    expect(lo).toBeLessThan(mean);
    expect(hi).toBeGreaterThan(mean);
    expect(ci([0.25, 0.25, 0.25], spec, "x")).toEqual([0.25, 0.25]);
  });

  it("rejects empty, non-finite and misaligned input with the label in the message", () => {
    expect(() => ci([], spec, "mrr")).toThrow(/"mrr".*empty/);
    expect(() => ci([1, NaN], spec, "mrr")).toThrow(/not finite/);
    expect(() => ci([1], { samples: 0, seed: 1 }, "mrr")).toThrow(/samples/);
    expect(() => resampleTable({ a: [1, 2], b: [1] }, spec, "s")).toThrow(/"b" has 1 values but "a" has 2/);
  });

  it("shares one index stream: each column's resamples equal its single-column resamples under the same label", () => {
    const a = pseudoValues(150, "d", 2);
    const b = pseudoValues(150, "e");
    const table = resampleTable({ "recall@5": a, mrr: b }, spec, "fused");
    expect(Object.keys(table)).toEqual(["recall@5", "mrr"]);
    expect(table["recall@5"]).toEqual(resampleTable({ value: a }, spec, "fused").value);
    expect(table.mrr).toEqual(resampleTable({ value: b }, spec, "fused").value);
  });
});

describe("resample sets shared across calls", () => {
  it("a column resampled again under the same label (alone, or among other columns) gets the same means, and a caller's edit does not leak", () => {
    const a = pseudoValues(140, "g", 3);
    const b = pseudoValues(140, "h");
    const first = resampleTable({ a }, spec, "shared");
    const expected = Float64Array.from(first.a!);
    first.a!.fill(-1);
    const again = resampleTable({ b, a: a.slice() }, spec, "shared");
    expect(again.a).toEqual(expected);
    expect(ci(a, spec, "shared")).toEqual(referenceCI(a, spec.samples, spec.seed, "shared"));
    expect(ci(b, spec, "shared")).toEqual(referenceCI(b, spec.samples, spec.seed, "shared"));
  });

  it("columns that differ in one value get their own means", () => {
    const a = pseudoValues(90, "i", 2);
    const b = a.slice();
    b[5] = b[5] === 0 ? 0.5 : 0;
    const t = resampleTable({ a, b }, spec, "differ");
    expect(t.a).not.toEqual(t.b);
    expect(ci(b, spec, "differ")).toEqual(referenceCI(b, spec.samples, spec.seed, "differ"));
  });
});

describe("pairedInterval", () => {
  it("a system against itself differs by exactly 0", () => {
    const a = pseudoValues(120, "f");
    const t = resampleTable({ a, b: a }, spec, "same");
    expect(pairedInterval(t.a!, t.b!)).toEqual([0, 0]);
  });

  it("uses the same indices for both arms: a constant offset gives a zero-width CI", () => {
    const a = pseudoValues(128, "g", 8);
    const b = a.map((x) => x - 0.5); // eighths and n = 128: every sum and mean is exact
    const t = resampleTable({ a, b }, spec, "offset");
    expect(pairedInterval(t.a!, t.b!)).toEqual([0.5, 0.5]);
  });

  it("brackets the observed difference and rejects resample sets of different sizes", () => {
    const a = pseudoValues(400, "h", 2);
    const b = pseudoValues(400, "i", 2);
    const diff = a.reduce((s, x) => s + x, 0) / a.length - b.reduce((s, x) => s + x, 0) / b.length;
    const t = resampleTable({ a, b }, spec, "fused-vs-similarity");
    const [lo, hi] = pairedInterval(t.a!, t.b!);
    expect(lo).toBeLessThanOrEqual(diff);
    expect(hi).toBeGreaterThanOrEqual(diff);
    expect(lo).toBeLessThan(hi);
    expect(() => pairedInterval(new Float64Array(3), new Float64Array(2))).toThrow(/3 vs 2 resamples/);
  });
});

describe("columns with exact sums (counts, hits, dyadic fractions) resampled by draw counts", () => {
  /** Every resample mean as the documented algorithm computes it: the drawn values summed left to right. */
  function referenceMeans(values: number[], samples: number, seed: number, label: string): Float64Array {
    const prng = seedrandom.xor4096(`${seed}/${label}`);
    const n = values.length;
    const out = new Float64Array(samples);
    for (let b = 0; b < samples; b++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += values[Math.floor(((prng.int32() >>> 0) * n) / 2 ** 32)]!;
      out[b] = sum / n;
    }
    return out;
  }
  const same = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

  it("gives the same bits as the left-to-right sums, beside columns that are summed", () => {
    const n = 173;
    const r = seedrandom("exact-columns");
    const columns: Record<string, number[]> = {
      hits: Array.from({ length: n }, () => (r() < 0.2 ? 1 : 0)),
      counts: Array.from({ length: n }, () => Math.floor(r() * 7) - 3),
      quarters: Array.from({ length: n }, () => (r() < 0.5 ? 0 : Math.floor(r() * 5) / 4)),
      negZero: Array.from({ length: n }, () => (r() < 0.5 ? -0 : 0)),
      thirds: Array.from({ length: n }, () => Math.floor(r() * 4) / 3), // not dyadic: summed left to right
      reals: Array.from({ length: n }, () => r()),
      huge: Array.from({ length: n }, () => (r() < 0.5 ? 2 ** 50 : 1)), // n·max above 2^52: summed
      mostlyOnes: Array.from({ length: n }, () => (r() < 0.9 ? 1 : r() < 0.5 ? 0 : 0.5)), // base 1, offsets −1 and −½
      mostlyTwos: Array.from({ length: n }, () => (r() < 0.7 ? -2 : 3)),
    };
    const s: BootstrapSpec = { samples: 400, seed: 11 };
    const table = resampleTable(columns, s, "exact");
    for (const [name, values] of Object.entries(columns)) {
      expect(same(table[name]!, referenceMeans(values, s.samples, s.seed, "exact")), name).toBe(true);
    }
  });
});

describe("percentile ranks by selection", () => {
  it("equal the sorted resample statistics at the two ranks, ties and ±0 included, for many sizes", () => {
    const r = seedrandom("select");
    for (const samples of [1, 2, 3, 40, 41, 999, 2000]) {
      for (const levels of [1, 2, 5, 1000]) {
        const stats = Float64Array.from({ length: samples }, () =>
          r() < 0.1 ? (r() < 0.5 ? -0 : 0) : Math.floor(r() * levels) - levels / 2,
        );
        const sorted = Float64Array.from(stats).sort();
        const lo = Math.round((samples - 1) * 0.025);
        const hi = Math.round((samples - 1) * 0.975);
        const [a, b] = percentileInterval(stats);
        expect(Object.is(a, sorted[lo]) && Object.is(b, sorted[hi]), `samples=${samples} levels=${levels}`).toBe(true);
      }
    }
  });
});

describe("resampleIntervals: rounded CIs from estimated resample means", () => {
  /** Every column's resample means written out from the label's indices: the left-to-right sum / n (independent of the cache). */
  function leftToRight(t: Record<string, Float64Array>, label: string): Record<string, Float64Array> {
    const n = Object.values(t)[0]!.length;
    const idx = resampleIndices(n, spec, label);
    const out: Record<string, Float64Array> = {};
    for (const [name, v] of Object.entries(t)) {
      const m = new Float64Array(spec.samples);
      for (let b = 0; b < spec.samples; b++) {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += v[idx[b * n + i]!]!;
        m[b] = sum / n;
      }
      out[name] = m;
    }
    return out;
  }

  /** A table like a ladder's: hits, dyadic and non-dyadic recall, reciprocal ranks, near-copies, twins, zeros, negatives. */
  function mixedTable(n: number, seed: string): Record<string, Float64Array> {
    const r = seedrandom(seed);
    const rank = Array.from({ length: n }, () => 1 + Math.floor(r() ** 2 * 40));
    const gold = Array.from({ length: n }, () => 1 + Math.floor(r() * 3));
    const t: Record<string, Float64Array> = {};
    for (const k of [1, 3, 5, 10, 20]) {
      t[`hit@${k}`] = Float64Array.from(rank, (x) => (x <= k ? 1 : 0));
      t[`recall@${k}`] = Float64Array.from(rank, (x, i) => Math.min(1, Math.max(0, k - x + 1) / (3 * gold[i]!)));
      t[`halves@${k}`] = Float64Array.from(rank, (x) => (x <= k ? 0.5 : x <= 2 * k ? 0.25 : 0));
    }
    t.mrr = Float64Array.from(rank, (x) => 1 / x);
    t["mrr-copy"] = Float64Array.from(t.mrr);
    t["mrr-near"] = Float64Array.from(t.mrr, (v, i) => (i % 17 === 0 ? v / 2 : v));
    t.ndcg = Float64Array.from(rank, (x) => 1 / Math.log2(x + 1));
    t.noise = Float64Array.from(rank, () => r() - 0.5);
    t.zero = new Float64Array(n);
    t.third = Float64Array.from(rank, () => 1 / 3);
    return t;
  }

  it("gives exactly the rounded intervals of resampleTable + percentileInterval / pairedInterval, for many tables and digits", () => {
    let calls = 0;
    for (const n of [1, 7, 64, 333, 1200]) {
      for (const digits of [2, 4, 6]) {
        const t = mixedTable(n, `mixed-${n}`);
        const label = `intervals-${n}-${digits}`;
        const iv = resampleIntervals(t, spec, label, digits);
        const exact = leftToRight(t, label);
        const round = (x: number) => pyRound(x, digits);
        for (const name of Object.keys(t)) {
          expect(iv.ci(name), `${name} n=${n} digits=${digits}`).toEqual(percentileInterval(exact[name]!).map(round));
          for (const base of ["mrr", "hit@5", "zero", "noise"])
            expect(iv.paired(name, base), `${name} − ${base} n=${n} digits=${digits}`).toEqual(
              pairedInterval(exact[name]!, exact[base]!).map(round),
            );
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(200);
  });

  it("still equals the exact intervals where the bound cannot settle the rounding (15 digits: every estimated column recomputed)", () => {
    const t = mixedTable(500, "fallback");
    const iv = resampleIntervals(t, spec, "fallback", 15);
    const exact = leftToRight(t, "fallback");
    for (const name of Object.keys(t)) {
      expect(iv.ci(name), name).toEqual(percentileInterval(exact[name]!).map((x) => pyRound(x, 15)));
      expect(iv.paired(name, "mrr"), name).toEqual(pairedInterval(exact[name]!, exact.mrr!).map((x) => pyRound(x, 15)));
    }
  });

  it("every estimated mean is within its bound of the left-to-right mean, and bound-0 columns are the same bits", () => {
    for (const n of [5, 200, 1500]) {
      const t = mixedTable(n, `bound-${n}`);
      const names = Object.keys(t);
      const est = resampleEstimates(t, spec, `bound-${n}`);
      const exact = leftToRight(t, `bound-${n}`);
      let estimated = 0;
      names.forEach((name, c) => {
        const e = est[c]!;
        const x = exact[name]!;
        if (e.bound === 0) expect(Array.from(e.means), name).toEqual(Array.from(x));
        else {
          estimated++;
          let worst = 0;
          for (let b = 0; b < x.length; b++) worst = Math.max(worst, Math.abs(e.means[b]! - x[b]!));
          expect(worst, name).toBeLessThanOrEqual(e.bound);
          // and the bound is small enough to settle a 4-digit rounding almost always
          expect(e.bound, name).toBeLessThan(1e-10);
        }
      });
      // resampleTable afterwards (reusing what the estimate found exact) is still left to right for every column
      const table = resampleTable(t, spec, `bound-${n}`);
      for (const name of names) expect(Array.from(table[name]!), name).toEqual(Array.from(exact[name]!));
      // the hits and dyadic columns are exact (bound 0); recall thirds, mrr, ndcg and noise are estimated
      expect(est[names.indexOf("hit@5")]!.bound).toBe(0);
      expect(est[names.indexOf("halves@10")]!.bound).toBe(0);
      if (n > 5) expect(estimated).toBeGreaterThanOrEqual(5);
    }
  });

  it("the WebAssembly column loop gives the JavaScript loop's bits, on the main thread and on the thread pool", () => {
    const big: Record<string, Float64Array> = {};
    const r = seedrandom("wasm-big");
    // enough work (columns × items × resamples) for the thread pool to take part
    for (let c = 0; c < 40; c++) big[`noise${c}`] = Float64Array.from({ length: 4000 }, () => (r() < 0.5 ? 0 : r()));
    for (const [label, t] of [
      ["wasm-small", mixedTable(7, "wasm-small")],
      ["wasm-mid", mixedTable(900, "wasm-mid")],
      ["wasm-big", big],
    ] as const) {
      forgetResampleSets();
      const fast = resampleEstimates(t, spec, label);
      forgetResampleSets();
      const was = useEstimateWasm(false);
      const plain = resampleEstimates(t, spec, label);
      useEstimateWasm(was);
      fast.forEach((e, c) => {
        expect(e.bound, `${label} column ${c}`).toBe(plain[c]!.bound);
        expect(Array.from(e.means), `${label} column ${c}`).toEqual(Array.from(plain[c]!.means));
      });
    }
  });

  it("calls started before any is read give each the intervals it gives alone, a column still being computed shared", () => {
    // large enough for the thread pool: the three estimate jobs are outstanding together, read in reverse order
    const a = mixedTable(1500, "started-a");
    const b = mixedTable(1500, "started-b");
    const shared = { ...b, mrr: a.mrr!, "hit@5": a["hit@5"]!, ndcg: a.ndcg! }; // three of a's columns under a's label
    const calls = [
      [a, "started"],
      [shared, "started"],
      [b, "started-b"],
    ] as const;
    const read = (iv: ReturnType<typeof resampleIntervals>, t: Record<string, Float64Array>) =>
      Object.keys(t).map((name) => [iv.ci(name), iv.paired(name, "mrr"), iv.paired(name, "noise")]);
    forgetResampleSets();
    const started = calls.map(([t, label]) => resampleIntervals(t, spec, label, 4));
    const together = calls
      .map((_, k) => k)
      .reverse()
      .map((k) => read(started[k]!, calls[k]![0]));
    together.reverse();
    calls.forEach(([t, label], k) => {
      forgetResampleSets();
      expect(together[k], `call ${k}`).toEqual(read(resampleIntervals(t, spec, label, 4), t));
      const exact = leftToRight(t, label);
      expect(together[k]![0]![0], `call ${k}, first column, exact`).toEqual(
        percentileInterval(exact[Object.keys(t)[0]!]!).map((x) => pyRound(x, 4)),
      );
    });
  });

  it("names a metric it was not given", () => {
    const iv = resampleIntervals({ a: [0.1, 0.2, 0.3] }, spec, "names", 4);
    expect(() => iv.ci("b")).toThrow(/bootstrap "names": no metric "b" \(have a\)/);
    expect(() => iv.paired("a", "b")).toThrow(/no metric "b"/);
  });
});
