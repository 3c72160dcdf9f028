import { describe, expect, it } from "vitest";
import { compareWithBaseline, pValueForJson, pairedTest } from "../src/stats/paired-comparison.js";
import { holm } from "../src/stats/holm.js";
import { DEFAULT_PERMUTATIONS, drawSignFlips, randomizationTest } from "../src/stats/randomization.js";
import { pairedTTest } from "../src/stats/t-test.js";

/** A small deterministic generator for test data (not the one under test). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

/** The textbook sign-flip count: for every resample, flip item i iff its bit is set, sum left to right. */
function bruteForceCount(a: number[], b: number[], flips: ReturnType<typeof drawSignFlips>): number {
  const d = a.map((x, i) => x - b[i]!);
  const obs = Math.abs(d.reduce((s, x) => s + x, 0));
  const tol = 1e-10 * d.reduce((s, x) => s + Math.abs(x), 0);
  let count = 0;
  for (let s = 0; s < flips.samples; s++) {
    let t = 0;
    for (let i = 0; i < d.length; i++) {
      const bit = (flips.words[s * flips.wordsPerSample + (i >> 5)]! >>> (i & 31)) & 1;
      t += bit ? -d[i]! : d[i]!;
    }
    if (Math.abs(t) >= obs - tol) count++;
  }
  return count;
}

describe("randomization (sign-flip) test", () => {
  it("identical systems give p = 1", () => {
    const a = Array.from({ length: 300 }, (_, i) => (i % 7) / 7);
    const r = randomizationTest(a, a, drawSignFlips(300, { samples: DEFAULT_PERMUTATIONS, seed: 1 }, "same"));
    expect(r.atLeastAsExtreme).toBe(DEFAULT_PERMUTATIONS);
    expect(r.p).toBe(1);
  });

  it("the same improvement on every one of many queries gives the smallest p, 1/(B + 1)", () => {
    const n = 1500;
    const base = Array.from({ length: n }, (_, i) => (i % 5) / 5);
    const better = base.map((x) => x + 0.1);
    const r = randomizationTest(better, base, drawSignFlips(n, { samples: DEFAULT_PERMUTATIONS, seed: 7 }, "shift"));
    expect(r.atLeastAsExtreme).toBe(0);
    expect(r.p).toBe(1 / (DEFAULT_PERMUTATIONS + 1));
    // Two-sided: the same shift the other way is just as significant.
    expect(randomizationTest(base, better, drawSignFlips(n, { samples: DEFAULT_PERMUTATIONS, seed: 7 }, "shift")).p).toBe(
      1 / (DEFAULT_PERMUTATIONS + 1),
    );
  });

  it("the byte-table evaluation counts exactly what flipping each sign does", () => {
    for (const n of [1, 7, 8, 9, 31, 32, 33, 100, 257]) {
      const r = lcg(n);
      const a = Array.from({ length: n }, () => Math.round(r() * 4) / 4);
      const b = Array.from({ length: n }, () => Math.round(r() * 4) / 4 + (r() < 0.3 ? 0.1 : 0));
      // 1030 sign vectors: two full blocks of the pool's work and a short one, four at a time and the rest one by one
      for (const samples of [500, 1030]) {
        const flips = drawSignFlips(n, { samples, seed: 42 }, `brute/${n}`);
        const got = randomizationTest(a, b, flips);
        expect(got.atLeastAsExtreme, `n = ${n}, B = ${samples}`).toBe(bruteForceCount(a, b, flips));
        expect(got.p).toBe((1 + got.atLeastAsExtreme) / (samples + 1));
      }
    }
  });

  it("one tiny difference among many ties is not significant; a p-value is never 0", () => {
    const a = new Float64Array(200);
    const b = new Float64Array(200);
    b[3] = 1;
    const r = randomizationTest(a, b, drawSignFlips(200, { samples: 2000, seed: 3 }, "one"));
    expect(r.p).toBe(1); // flipping d_3 or not gives |T| = 1 either way
    expect(r.p).toBeGreaterThan(0);
  });

  it("same seed and label → the same sign vectors and p-values on any machine (pinned stream)", () => {
    const f1 = drawSignFlips(40, { samples: 3, seed: 20260713 }, "exp5/hashing");
    const f2 = drawSignFlips(40, { samples: 3, seed: 20260713 }, "exp5/hashing");
    expect(Array.from(f1.words)).toEqual(Array.from(f2.words));
    // The stream is seedrandom's xor4096 (pure 32-bit integer arithmetic): these words are the same everywhere.
    expect(Array.from(f1.words)).toMatchSnapshot();
    expect(Array.from(drawSignFlips(40, { samples: 3, seed: 20260713 }, "exp6/hashing").words)).not.toEqual(Array.from(f1.words));
    const r = lcg(9);
    const a = Array.from({ length: 800 }, () => (r() < 0.5 ? 1 : 0));
    const b = a.map((x, i) => (i % 11 === 0 ? 1 - x : x));
    const p1 = randomizationTest(a, b, drawSignFlips(800, { samples: 10_000, seed: 5 }, "x")).p;
    const p2 = randomizationTest(a, b, drawSignFlips(800, { samples: 10_000, seed: 5 }, "x")).p;
    expect(p1).toBe(p2);
    expect(p1).toMatchSnapshot();
  });

  it("rejects misaligned arrays and bad specs with clear errors", () => {
    const flips = drawSignFlips(3, { samples: 10, seed: 1 }, "e");
    expect(() => randomizationTest([1, 2], [1, 2], flips)).toThrow(/aligned per item/);
    expect(() => randomizationTest([1, 2, NaN], [1, 2, 3], flips)).toThrow(/non-finite/);
    expect(() => drawSignFlips(0, { samples: 10, seed: 1 }, "e")).toThrow(/at least one/);
    expect(() => drawSignFlips(3, { samples: 0, seed: 1 }, "e")).toThrow(/samples/);
  });
});

describe("paired t-test", () => {
  it("Student's sleep data (R: t.test(extra ~ group, paired = TRUE)): t = −4.0621, df = 9, p = 0.002833", () => {
    const g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    const r = pairedTTest(g1, g2);
    expect(r.df).toBe(9);
    expect(r.t).toBeCloseTo(-4.0621, 4);
    expect(r.p).toBeCloseTo(0.002833, 6);
  });

  it("degenerate cases: no differences → p = 1, a constant non-zero difference → p = 0", () => {
    expect(pairedTTest([1, 2, 3], [1, 2, 3])).toEqual({ t: 0, df: 2, p: 1 });
    expect(pairedTTest([2, 3, 4], [1, 2, 3]).p).toBe(0);
    expect(pairedTTest([1], [1])).toEqual({ t: NaN, df: NaN, p: NaN }); // undefined with one item, not an error
    expect(pValueForJson(pairedTTest([1], [1]).p, 6)).toBeNull(); // results files write it as null
    expect(pValueForJson(0.0123456789, 6)).toBe(0.012346);
  });
});

describe("Holm–Bonferroni", () => {
  it("textbook example: p = 0.01, 0.04, 0.03, 0.005 → 0.03, 0.06, 0.06, 0.02", () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.06.
    const adj = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((x, i) => expect(adj[i]).toBeCloseTo(x, 15));
  });

  it("caps at 1, keeps a single p-value and rejects non-probabilities", () => {
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
    expect(holm([0.2])).toEqual([0.2]);
    expect(holm([])).toEqual([]);
    expect(() => holm([1.2])).toThrow(/probability/);
  });
});

describe("compareWithBaseline", () => {
  const n = 400;
  const r = lcg(11);
  const base = Array.from({ length: n }, () => (r() < 0.4 ? 1 : 0));
  const better = base.map((x, i) => (i % 4 === 0 ? 1 : x));
  const same = [...base];
  const worse = base.map((x, i) => (i % 9 === 0 ? 0 : x));
  const systems = [
    { key: "base", values: { hit: base, rr: base.map((x) => x / 2) } },
    { key: "better", values: { hit: better, rr: better.map((x) => x / 2) } },
    { key: "same", values: { hit: same, rr: same.map((x) => x / 2) } },
    { key: "worse", values: { hit: worse, rr: worse.map((x) => x / 2) } },
  ];

  it("W/T/L, raw and Holm-adjusted p-values per metric, and the decision", () => {
    const out = compareWithBaseline(systems, "base", { seed: 1, label: "t" });
    expect([...out.keys()]).toEqual(["better", "same", "worse"]);
    const b = out.get("better")!.hit!;
    const gains = better.filter((x, i) => x > base[i]!).length;
    expect([b.wins, b.ties, b.losses]).toEqual([gains, n - gains, 0]);
    expect(b.diff).toBeCloseTo(gains / n, 15);
    expect(b.significant).toBe(true);
    const s = out.get("same")!.hit!;
    expect([s.wins, s.ties, s.losses, s.pRandomization, s.pHolm, s.significant]).toEqual([0, n, 0, 1, 1, false]);
    const w = out.get("worse")!.rr!;
    expect(w.wins).toBe(0);
    expect(w.diff).toBeLessThan(0);
    // Holm across the three systems within the metric.
    for (const m of ["hit", "rr"]) {
      const raw = ["better", "same", "worse"].map((k) => out.get(k)![m]!.pRandomization);
      expect(["better", "same", "worse"].map((k) => out.get(k)![m]!.pHolm)).toEqual(holm(raw));
    }
    // The single-pair API gives the same raw numbers with the same sign vectors.
    const single = pairedTest(better, base, drawSignFlips(n, { samples: DEFAULT_PERMUTATIONS, seed: 1 }, "t"));
    expect(single.pRandomization).toBe(b.pRandomization);
    expect(single.pT).toBe(b.pT);
  });

  it("is deterministic and needs the baseline", () => {
    const a = compareWithBaseline(systems, "base", { seed: 1, label: "t", samples: 2000 });
    const b = compareWithBaseline(systems, "base", { seed: 1, label: "t", samples: 2000 });
    expect(a).toEqual(b);
    expect(() => compareWithBaseline(systems, "nope", { seed: 1, label: "t" })).toThrow(/no system "nope"/);
  });
});
