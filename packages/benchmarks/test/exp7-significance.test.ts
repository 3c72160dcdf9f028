// Exp. 7's paired tests, recomputed: the committed per-item table (results/exp7_per_item_scores.json)
// fed to compareWithBaseline with the family, stream label and seed the results file records must give
// exactly the p-values, Holm-adjusted p-values and W/T/L of results/exp7_estimators.json.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pyRound } from "@persode/util";
import { FACTUAL } from "../src/episodic.js";
import { compareWithBaseline } from "../src/stats/paired-comparison.js";

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "results");
const read = (f: string) => JSON.parse(readFileSync(join(RESULTS, f), "utf8"));

describe("Exp. 7 significance, recomputed from the committed per-item scores", () => {
  const perItem = read("exp7_per_item_scores.json");
  const results = read("exp7_estimators.json");
  const seed: number = results.significance.seed;
  const samples: number = results.significance.samples;
  const alpha: number = results.significance.alpha;

  for (const emb of Object.keys(results.runs)) {
    const run = results.runs[emb];
    const real = Object.keys(run.estimators).filter((n) => !run.estimators[n].upper_bound);
    const realColumns = real.flatMap((n) => [`${n}/fused`, `${n}/gated`]);
    // Streams are named by the embedder's registry name (as every experiment's bootstrap label is), not the run key.
    const stream: string = run.embedder.name;

    it(`${emb}: EpiRec reflective recall@3 — randomization p, Holm p, t-test p and W/T/L match the results file`, () => {
      const hits = perItem.runs[emb].hits_at_3 as Record<string, number[]>;
      const idx = (perItem.probe_types as string[]).flatMap((t, i) => (t !== FACTUAL ? [i] : []));
      const pick = (v: number[]) => ({ value: Float64Array.from(idx, (i) => v[i]!) });
      const systems = ["similarity-only", ...realColumns].map((key) => ({ key, values: pick(hits[key]!) }));
      const tests = compareWithBaseline(systems, "similarity-only", {
        seed,
        samples,
        alpha,
        label: `exp7/${stream}/retrieval/reflective/randomization`,
      });
      let compared = 0;
      for (const col of realColumns) {
        const t = tests.get(col)!.value!;
        const stored = run.retrieval[col].reflective.paired_vs_similarity;
        expect(run.retrieval[col].reflective.n).toBe(idx.length);
        expect(stored.p_randomization, col).toBe(pyRound(t.pRandomization, 6));
        expect(stored.p_holm, col).toBe(pyRound(t.pHolm, 6));
        expect(stored.p_t, col).toBe(pyRound(t.pT, 6));
        expect([stored.wins, stored.ties, stored.losses], col).toEqual([t.wins, t.ties, t.losses]);
        expect(stored.significant, col).toBe(t.significant);
        compared++;
      }
      expect(compared).toBe(realColumns.length);
      expect(compared).toBeGreaterThan(1); // a Holm family, not a single test
    });

    it(`${emb}: LoCoMo overall evidence recall@5 — the same tests match`, () => {
      const r5 = perItem.runs[emb].locomo_evidence_recall_at_5 as Record<string, number[]>;
      const systems = ["similarity-only", ...realColumns].map((key) => ({ key, values: { value: Float64Array.from(r5[key]!) } }));
      const tests = compareWithBaseline(systems, "similarity-only", {
        seed,
        samples,
        alpha,
        label: `exp7/${stream}/locomo/overall/randomization`,
      });
      for (const col of realColumns) {
        const t = tests.get(col)!.value!;
        const stored = run.locomo.retrieval[col].overall.paired_vs_similarity;
        expect(stored.p_randomization, col).toBe(pyRound(t.pRandomization, 6));
        expect(stored.p_holm, col).toBe(pyRound(t.pHolm, 6));
        expect([stored.wins, stored.ties, stored.losses], col).toEqual([t.wins, t.ties, t.losses]);
      }
    });

    it(`${emb}: the answer's Holm outcome counts exactly the significant real comparisons`, () => {
      let n = 0;
      let wins = 0;
      let losses = 0;
      for (const col of realColumns) {
        for (const r of Object.values(run.retrieval[col]) as {
          paired_vs_similarity: { significant: boolean; diff: number; p_holm: number };
        }[]) {
          n++;
          expect(r.paired_vs_similarity.significant).toBe(r.paired_vs_similarity.p_holm < alpha);
          if (r.paired_vs_similarity.significant && r.paired_vs_similarity.diff > 0) wins++;
          else if (r.paired_vs_similarity.significant) losses++;
        }
      }
      expect(run.answer.holm.comparisons).toBe(n);
      expect(run.answer.holm.significant_wins).toHaveLength(wins);
      expect(run.answer.holm.significant_losses).toHaveLength(losses);
    });
  }
});
