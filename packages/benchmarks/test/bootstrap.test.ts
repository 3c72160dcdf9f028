// The harness's own seeded bootstrap (seedrandom xor4096): determinism, stream separation,
// shared resample indices, and agreement with an independent re-derivation of the
// documented algorithm.
import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { bootstrapCI, bootstrapMany, pairedBootstrapCI, pairedBootstrapMany, type BootstrapSpec } from "../src/index.js";

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

describe("bootstrapCI", () => {
  it("follows the documented algorithm", () => {
    const xs = pseudoValues(57, "a", 4);
    expect(bootstrapCI(xs, { samples: 300, seed: 7 }, "recall@3")).toEqual(referenceCI(xs, 300, 7, "recall@3"));
  });

  it("is deterministic, and the label selects an independent stream", () => {
    const xs = pseudoValues(200, "b");
    const a = bootstrapCI(xs, spec, "mrr");
    expect(bootstrapCI(xs, spec, "mrr")).toEqual(a);
    expect(bootstrapCI(xs, spec, "recall@5")).not.toEqual(a);
    expect(bootstrapCI(xs, { ...spec, seed: spec.seed + 1 }, "mrr")).not.toEqual(a);
  });

  it("brackets the sample mean and collapses for constant data", () => {
    const xs = pseudoValues(300, "c", 2);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const [lo, hi] = bootstrapCI(xs, spec, "x");
    expect(lo).toBeLessThan(mean);
    expect(hi).toBeGreaterThan(mean);
    expect(bootstrapCI([0.25, 0.25, 0.25], spec, "x")).toEqual([0.25, 0.25]);
  });

  it("rejects empty, non-finite and misaligned input with the label in the message", () => {
    expect(() => bootstrapCI([], spec, "mrr")).toThrow(/"mrr".*empty/);
    expect(() => bootstrapCI([1, NaN], spec, "mrr")).toThrow(/not finite/);
    expect(() => bootstrapCI([1], { samples: 0, seed: 1 }, "mrr")).toThrow(/samples/);
    expect(() => bootstrapMany({ a: [1, 2], b: [1] }, spec, "s")).toThrow(/"b" has 1 values but "a" has 2/);
  });
});

describe("bootstrapMany", () => {
  it("shares one index stream: each metric equals its single-metric CI under the same label", () => {
    const a = pseudoValues(150, "d", 2);
    const b = pseudoValues(150, "e");
    const many = bootstrapMany({ "recall@5": a, mrr: b }, spec, "fused");
    expect(many["recall@5"]).toEqual(bootstrapCI(a, spec, "fused"));
    expect(many.mrr).toEqual(bootstrapCI(b, spec, "fused"));
    expect(Object.keys(many)).toEqual(["recall@5", "mrr"]);
  });
});

describe("pairedBootstrapCI", () => {
  it("a system against itself differs by exactly 0", () => {
    const a = pseudoValues(120, "f");
    expect(pairedBootstrapCI(a, a, spec, "same")).toEqual({ diff: 0, ci95: [0, 0] });
  });

  it("uses the same indices for both arms: a constant offset gives a zero-width CI", () => {
    const a = pseudoValues(128, "g", 8);
    const b = a.map((x) => x - 0.5); // eighths and n = 128: every sum and mean is exact
    const r = pairedBootstrapCI(a, b, spec, "offset");
    expect(r.diff).toBe(0.5);
    expect(r.ci95).toEqual([0.5, 0.5]);
  });

  it("brackets the observed difference, and many-metric calls agree with single calls", () => {
    const a = pseudoValues(400, "h", 2);
    const b = pseudoValues(400, "i", 2);
    const single = pairedBootstrapCI(a, b, spec, "fused-vs-similarity");
    expect(single.ci95[0]).toBeLessThanOrEqual(single.diff);
    expect(single.ci95[1]).toBeGreaterThanOrEqual(single.diff);
    const many = pairedBootstrapMany({ value: [a, b] }, spec, "fused-vs-similarity");
    expect(many.value).toEqual(single);
    expect(() => pairedBootstrapCI([1, 2], [1], spec, "p")).toThrow(/aligned/);
  });
});
