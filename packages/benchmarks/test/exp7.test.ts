// Exp. 7: the association statistics against hand and scipy/sklearn values, the statistic bootstrap
// against the harness's mean bootstrap (same stream), and two in-process runs of `pnpm bench exp7`
// that must write byte-identical files whose numbers are consistent with Exp. 6 and with each other.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import seedrandom from "seedrandom";
import { percentileInterval, prefetchResamples, resampleTable } from "../src/stats/bootstrap.js";
import {
  RankResampler,
  agreement,
  agreementResampler,
  auc,
  averageRanks,
  bootstrapStatistics,
  pearson,
  pearsonPicked,
  pick,
  spearman,
} from "../src/stats/correlation.js";
import { mean } from "../src/metrics.js";
import { listFiles, pinnedDataEnv, runCliInProcess } from "./bench-helpers.js";

describe("association statistics", () => {
  it("average ranks share ties like scipy.stats.rankdata", () => {
    expect(Array.from(averageRanks([10, 20, 20, 5, 20]))).toEqual([2, 4, 4, 1, 4]);
  });
  it("Spearman ρ with ties (scipy.stats.spearmanr: 0.8207826816681233)", () => {
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 14);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 14);
  });
  it("AUC is P(positive > negative), ties one half (sklearn.metrics.roc_auc_score)", () => {
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    expect(auc([0.5, 0.5], [0, 1])).toBe(0.5);
    expect(auc([1, 2], [1, 1])).toBeNaN();
  });
  it("agreement counts equal classes", () => {
    expect(agreement([1, 0, -1, 1], [1, 0, 1, -1])).toBe(0.5);
  });
  it("agreementResampler gives agreement of the picked resample, for every resample", () => {
    const rng = seedrandom("agreement");
    const a = Float64Array.from({ length: 37 }, () => Math.floor(rng() * 3) - 1);
    const b = Float64Array.from({ length: 37 }, () => Math.floor(rng() * 3) - 1);
    const agree = agreementResampler(a, b);
    for (let t = 0; t < 50; t++) {
      const idx = Int32Array.from({ length: 37 }, () => Math.floor(rng() * 37));
      expect(agree(idx)).toBe(agreement(pick(a, idx), pick(b, idx)));
    }
    expect(agree(Int32Array.from({ length: 37 }, (_, i) => i))).toBe(agreement(a, b));
    expect(agree(new Int32Array(0))).toBeNaN();
    expect(() => agreementResampler([1, 2], [1])).toThrow(/agreement: 2 vs 1 values/);
  });
  it("resampled ranks from multiplicities equal ranks of the expanded resample (Spearman, AUC)", () => {
    const x = Array.from({ length: 40 }, (_, i) => ((i * 7) % 9) / 8);
    const y = Array.from({ length: 40 }, (_, i) => ((i * 5) % 4) / 3);
    const lab = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const rs = new RankResampler(x, y);
    const ra = new RankResampler(x, lab);
    let checked = 0;
    bootstrapStatistics(
      40,
      {
        s: (idx, c) => {
          expect(rs.spearman(c)).toBeCloseTo(spearman(pick(x, idx), pick(y, idx)), 12);
          expect(ra.auc(c)).toBeCloseTo(auc(pick(x, idx), pick(lab, idx)), 12);
          checked++;
          return 0;
        },
      },
      { samples: 50, seed: 3 },
      "ranks",
    );
    expect(checked).toBe(51); // 50 resamples + the identity
  });

  it("pearsonPicked is pearson of the picked values, bit for bit (constant sides and one item included)", () => {
    const r = seedrandom("picked");
    for (const n of [1, 2, 3, 50, 1000]) {
      const xs = Float64Array.from({ length: n }, () => r() * 4 + 1);
      const ys = Float64Array.from({ length: n }, () => Math.floor(r() * 5));
      const idx = Int32Array.from({ length: n }, () => Math.floor(r() * n));
      const y = pick(ys, idx);
      expect(Object.is(pearsonPicked(xs, idx, y), pearson(pick(xs, idx), y)), `n=${n}`).toBe(true);
      expect(Object.is(pearsonPicked(new Float64Array(n).fill(2), idx, y), Number.NaN), `constant, n=${n}`).toBe(true);
    }
    expect(() => pearsonPicked([1, 2], Int32Array.from([0, 1]), [1])).toThrow(/2 vs 1 values/);
  });

  it("hands each statistic the documented stream's resamples (seedrandom xor4096, floor(uint32 · n / 2³²)), prefetched or not", () => {
    const n = 23;
    const spec = { samples: 40, seed: 5 };
    const expected = (label: string) => {
      const prng = seedrandom.xor4096(`${spec.seed}/${label}`);
      return Array.from({ length: spec.samples }, () => Array.from({ length: n }, () => Math.floor(((prng.int32() >>> 0) * n) / 2 ** 32)));
    };
    prefetchResamples([{ n, label: "prefetched" }], spec);
    for (const label of ["on-demand", "prefetched"]) {
      const seen: number[][] = [];
      bootstrapStatistics(n, { s: (idx, counts, b) => (b >= 0 && seen.push(Array.from(idx)), counts[0]!) }, spec, label);
      expect(seen, label).toEqual(expected(label));
    }
  });

  it("the statistic bootstrap of a mean reproduces the harness's mean bootstrap on the same stream", () => {
    const xs = Array.from({ length: 57 }, (_, i) => ((i * 37) % 11) / 10);
    const spec = { samples: 500, seed: 11 };
    const s = bootstrapStatistics(xs.length, { m: (idx) => mean(pick(xs, idx)) }, spec, "t");
    expect(s.m!.value).toBe(mean(xs));
    expect(s.m!.ci95).toEqual(percentileInterval(resampleTable({ value: xs }, spec, "t").value!));
  });
});

describe("pnpm bench exp7, twice (needs the pinned EpiRec and EmoBank files)", () => {
  let root: string;
  let a: string;
  let b: string;
  const file = (dir: string, f: string) => readFileSync(join(dir, f), "utf8");

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "persode-exp7-"));
    for (const [k, v] of Object.entries(await pinnedDataEnv(join(root, "cache")))) vi.stubEnv(k, v);
    a = join(root, "a");
    b = join(root, "b");
    for (const dir of [a, b]) {
      const r = await runCliInProcess(["exp7", "--out", dir, "--samples", "200"]);
      if (r.code !== 0) throw new Error(`exp7 exited ${r.code}: ${r.stderr}`);
    }
  }, 240_000);

  afterAll(() => {
    vi.unstubAllEnvs();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("writes the results, the per-probe table and the fitted model, byte-identical on rerun", () => {
    const files = listFiles(a).filter((f) => f !== "timings.json");
    expect(files).toEqual(["exp7_emobank_model_hashing.json", "exp7_estimators.json", "exp7_per_item_scores.json"]);
    for (const f of files) expect(file(b, f), f).toBe(file(a, f));
  });

  it("the lexicon estimator's fused and gated runs are Exp. 6's (same analyzer E)", () => {
    const run = JSON.parse(file(a, "exp7_estimators.json")).runs.hashing;
    expect(run.retrieval["lexicon/fused"].overall.r3).toBe(0.518);
    expect(run.retrieval["lexicon/gated"].overall.r3).toBe(0.55);
    expect(run.retrieval["similarity-only"].overall.r3).toBe(0.552);
    expect(run.retrieval["similarity-only"].reflective_implicit.r3).toBe(0.31);
  });

  it("on LoCoMo the lexicon estimator reproduces Exp. 5, and the oracle does not run (no emotion labels)", () => {
    const run = JSON.parse(file(a, "exp7_estimators.json")).runs.hashing;
    expect(run.locomo.retrieval["similarity-only"].overall.recall5).toBe(0.1525);
    expect(run.locomo.retrieval["lexicon/fused"].overall.recall5).toBe(0.1347);
    expect(run.locomo.retrieval["lexicon/gated"].overall.recall5).toBe(0.1536);
    expect(run.locomo.retrieval["lexicon/gated"].overall.n).toBe(1535);
    expect(Object.keys(run.locomo.retrieval).some((k) => k.startsWith("oracle"))).toBe(false);
    expect(run.locomo.gate_rate.lexicon).toBe(0.0287);
  });

  it("the oracle is marked an upper bound and scores perfectly on the labels it reads; no real estimator does", () => {
    const run = JSON.parse(file(a, "exp7_estimators.json")).runs.hashing;
    expect(run.estimators.oracle.upper_bound).toBe(true);
    expect(run.quality.oracle.epirec_episodes.spearman_band.value).toBe(1);
    expect(run.quality.oracle.epirec_probes.auc_reflective.value).toBe(1);
    expect(run.quality.oracle.emobank_test).toBeNull();
    for (const n of ["lexicon", "vader", "afinn", "emobank", "prototype"]) {
      expect(run.estimators[n].upper_bound).toBe(false);
      expect(run.quality[n].epirec_episodes.spearman_band.value).toBeLessThan(1);
    }
  });

  it("per-probe hits agree with the summarised recall and the paired differences", () => {
    const pp = JSON.parse(file(a, "exp7_per_item_scores.json"));
    const run = JSON.parse(file(a, "exp7_estimators.json")).runs.hashing;
    expect(pp.probe_ids).toHaveLength(504);
    const hits = pp.runs.hashing.hits_at_3 as Record<string, number[]>;
    let compared = 0;
    for (const [col, h] of Object.entries(hits)) {
      expect(Math.round(mean(h) * 1000) / 1000, col).toBeCloseTo(run.retrieval[col].overall.r3, 9);
      if (col !== "similarity-only") {
        const d = mean(h) - mean(hits["similarity-only"]!);
        expect(run.retrieval[col].overall.paired_vs_similarity.diff).toBeCloseTo(d, 3);
      }
      compared++;
    }
    expect(compared).toBe(13);
  });

  it("records the significance settings (run seed, B = 10 000, Holm at 0.05) and a test beside every paired CI", () => {
    const doc = JSON.parse(file(a, "exp7_estimators.json"));
    expect(doc.significance).toMatchObject({ baseline: "similarity-only", samples: 10_000, seed: doc.meta.seed, alpha: 0.05 });
    expect(doc.protocol.paired_tests).toContain("Holm");
    const run = doc.runs.hashing;
    let tested = 0;
    for (const group of [run.retrieval, run.locomo.retrieval]) {
      for (const [col, strata] of Object.entries(
        group as Record<
          string,
          Record<
            string,
            { n: number; paired_vs_similarity?: { wins: number; ties: number; losses: number; p_randomization: number; p_holm: number } }
          >
        >,
      )) {
        for (const r of Object.values(strata)) {
          if (col === "similarity-only") {
            expect(r.paired_vs_similarity).toBeUndefined();
            continue;
          }
          const p = r.paired_vs_similarity!;
          expect(p.wins + p.ties + p.losses).toBe(r.n);
          expect(p.p_holm).toBeGreaterThanOrEqual(p.p_randomization);
          expect(p.p_randomization).toBeGreaterThanOrEqual(1 / 10_001 - 1e-9);
          tested++;
        }
      }
    }
    expect(tested).toBe(
      run.answer.holm.comparisons + run.answer.locomo_holm.comparisons + 2 * Object.keys(run.retrieval["oracle/fused"]).length,
    );
  });

  it("the fitted EmoBank model records its licence, λ from the dev split and 256 weights per target", () => {
    const m = JSON.parse(file(a, "exp7_emobank_model_hashing.json"));
    expect(m.license).toContain("CC BY-SA 4.0");
    expect(m.training.lambdas).toContain(m.training.lambda);
    expect(m.arousal.weights).toHaveLength(256);
    expect(m.intensity_quantiles).toHaveLength(101);
  });
});
