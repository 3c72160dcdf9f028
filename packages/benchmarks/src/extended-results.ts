/**
 * The extended results ("beyond the paper"): every strategy of the extended set with its mean, 95 %
 * bootstrap CI, and its paired comparison with similarity-only — bootstrap CI of the difference,
 * wins/ties/losses, the randomization test's raw and Holm-adjusted p-values and the paired t-test's p.
 * Pure: experiments pass per-item metric arrays in and write the returned objects.
 */
import { join } from "node:path";
import type { Embedder, RetrievalStrategy } from "@persode/core";
import { pyRound } from "@persode/util";
import { type DatasetProvenance, type ExtendedFile, type SignificanceRecord } from "@persode/results";
import { mean } from "./metrics.js";
import { libraryGate, meta, runsAfter, writeResult } from "./result-records.js";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import { pValueForJson, startComparisonWithBaseline } from "./stats/paired-comparison.js";
import { DEFAULT_PERMUTATIONS, TIE_TOLERANCE } from "./stats/randomization.js";
import { strategyUncertainty } from "./uncertainty.js";

/** The baseline every extended strategy is compared with. */
export const EXTENDED_BASELINE = "similarity-only";

/** Family-wise error rate of the Holm-adjusted decisions. */
export const EXTENDED_ALPHA = 0.05;

/** The Persode gate on the hybrid and the hybrid it gates: compared head to head as well. */
export const GATE_ON_HYBRID = { gated: "gated hybrid (Persode gate)", hybrid: "combsum (bm25 + cosine)" } as const;

/** Decimals of the p-values in the extended files. */
const P_DIGITS = 6;

/** One strategy's per-item metric arrays, aligned across strategies. */
export interface ExtendedSystem {
  strategy: RetrievalStrategy;
  values: Record<string, ArrayLike<number>>;
}

/**
 * `runs.<embedder>.strategies` of an extended results file: per strategy its description, the mean of
 * each metric (rounded to `digits`), `ci95`, and `vs_similarity` per metric with `diff`, `ci95` (paired
 * bootstrap), `wins`/`ties`/`losses`, `p_randomization`, `p_holm`, `p_t` and `significant` (p_holm < α).
 * `label` names the bootstrap stream (pass the paper-format file's label so shared strategies get the
 * same CIs) and, with "/randomization" appended, the sign-flip stream. The gated hybrid also gets
 * `vs_hybrid`: the same tests against the CombSUM hybrid it gates (stream "/randomization/gate"; a
 * family of one, so p_holm = p_randomization), answering whether the gate helps a strong baseline.
 */
export function extendedStrategyResults(
  systems: readonly ExtendedSystem[],
  spec: BootstrapSpec,
  label: string,
  digits: number,
): Record<string, unknown> {
  return startExtendedStrategyResults(systems, spec, label, digits)();
}

/**
 * extendedStrategyResults, started: the sign-flip tests are handed to the thread pool's workers now, and the returned
 * function (memoised) computes the CIs and builds the results, waiting for the tests; so a caller can do other work
 * while the workers test.
 */
export function startExtendedStrategyResults(
  systems: readonly ExtendedSystem[],
  spec: BootstrapSpec,
  label: string,
  digits: number,
): () => Record<string, unknown> {
  const scores = systems.map((s) => ({ key: s.strategy.key, values: s.values }));
  // the sign-flip tests run on the thread pool's workers while this thread computes the bootstrap CIs
  const testsDone = startComparisonWithBaseline(scores, EXTENDED_BASELINE, {
    seed: spec.seed,
    label: `${label}/randomization`,
    samples: DEFAULT_PERMUTATIONS,
    alpha: EXTENDED_ALPHA,
  });
  const gated = systems.find((s) => s.strategy.key === GATE_ON_HYBRID.gated);
  const hybrid = systems.find((s) => s.strategy.key === GATE_ON_HYBRID.hybrid);
  const gateDone =
    gated && hybrid
      ? startComparisonWithBaseline(
          [hybrid, gated].map((s) => ({ key: s.strategy.key, values: s.values })),
          GATE_ON_HYBRID.hybrid,
          { seed: spec.seed, label: `${label}/randomization/gate`, samples: DEFAULT_PERMUTATIONS, alpha: EXTENDED_ALPHA },
        )
      : undefined;
  let built: Record<string, unknown> | undefined;
  return () => {
    if (built) return built;
    const uncertainty = strategyUncertainty(scores, spec, label, digits, EXTENDED_BASELINE);
    const tests = testsDone();
    const gateTests = gateDone?.().get(GATE_ON_HYBRID.gated);
    const r = (x: number) => pyRound(x, digits);
    const p = (x: number) => pyRound(x, P_DIGITS);
    const out: Record<string, unknown> = {};
    for (const s of systems) {
      const key = s.strategy.key;
      const entry: Record<string, unknown> = { description: s.strategy.description };
      for (const [m, v] of Object.entries(s.values)) entry[m] = r(mean(v));
      const u = uncertainty.get(key)!;
      entry.ci95 = u.ci95;
      const t = tests.get(key);
      if (t) {
        const vs: Record<string, unknown> = {};
        for (const [m, x] of Object.entries(t)) {
          vs[m] = {
            diff: u.paired?.[m]?.diff ?? r(x.diff),
            ci95: u.paired?.[m]?.ci95,
            wins: x.wins,
            ties: x.ties,
            losses: x.losses,
            p_randomization: p(x.pRandomization),
            p_holm: p(x.pHolm),
            p_t: pValueForJson(x.pT, P_DIGITS),
            significant: x.significant,
          };
        }
        entry.vs_similarity = vs;
      }
      if (gateTests && key === GATE_ON_HYBRID.gated) {
        const vh: Record<string, unknown> = {};
        for (const [m, x] of Object.entries(gateTests)) {
          vh[m] = {
            diff: r(x.diff),
            wins: x.wins,
            ties: x.ties,
            losses: x.losses,
            p_randomization: p(x.pRandomization),
            p_t: pValueForJson(x.pT, P_DIGITS),
            significant: x.significant,
          };
        }
        entry.vs_hybrid = vh;
      }
      out[key] = entry;
    }
    return (built = out);
  };
}

/** The `significance` block of an extended results file: how every p-value in it was computed. */
export function significanceBlock(seed: number, unit: string): SignificanceRecord {
  return {
    baseline: EXTENDED_BASELINE,
    test: "paired two-sided randomization (sign-flip) test on the per-" + unit + " differences",
    statistic: "sum of the paired differences",
    samples: DEFAULT_PERMUTATIONS,
    seed,
    stream:
      'seedrandom xor4096 seeded with "<seed>/<label>/randomization" (label = the bootstrap label, e.g. exp5/hashing); per resample ceil(n/32) int32 words, bit j of word w flips item 32w + j',
    p_value: "(1 + #{b: |T_b| >= |T_obs|}) / (B + 1)",
    tie_tolerance: `|T_b| counts as >= |T_obs| within ${TIE_TOLERANCE} x sum |d_i|`,
    correction: "Holm-Bonferroni over all strategies compared with the baseline, separately for each metric",
    gate_on_hybrid: `vs_hybrid: ${GATE_ON_HYBRID.gated} against ${GATE_ON_HYBRID.hybrid}, same tests, stream "<seed>/<label>/randomization/gate", a family of one`,
    gate_on_hybrid_strategies: { gated: GATE_ON_HYBRID.gated, hybrid: GATE_ON_HYBRID.hybrid },
    alpha: EXTENDED_ALPHA,
    t_test: "paired two-sided t-test, df = n - 1 (p_t, unadjusted)",
    wins_ties_losses: `per ${unit}: strategy above / equal to / below the baseline`,
    p_value_decimals: P_DIGITS,
  };
}

/** Protocol note shared by the extended files. */
const EXTENDED_NOTE =
  "beyond the paper: the paper's five strategies plus lexical (BM25), hybrid (RRF, CombSUM) and published memory-model (Generative " +
  "Agents, MemoryBank, MMR) baselines and the Persode gate on the hybrid, on exactly the items and stores of the paper-format file; " +
  "each compared with similarity-only by paired tests with Holm correction";

/** What `writeExtendedFile` needs: where, what data, which run, and the paper-format file it sits beside. */
export interface ExtendedFileSpec {
  out: string;
  file: string;
  paperFile: string;
  /** The `benchmark` block, as the paper-format file states it. */
  benchmark: Record<string, unknown>;
  /** Protocol fields after the note and the paper-format file name. */
  protocol: Record<string, unknown>;
  /** The resampled unit: "question" (LoCoMo) or "probe" (EpiRec-shaped corpora). */
  unit: string;
  seed: number;
  samples: number;
  target: string;
  dataSha256: string;
  /** Provenance of the input datasets, recorded in `meta.datasets` (a `pnpm bench corpus` file has none: its corpus is the user's). */
  datasets?: DatasetProvenance[];
  /** The run key the run is filed under. */
  runKey: string;
  embedder: Pick<Embedder, "name" | "id" | "dim" | "model">;
  run: Record<string, unknown>;
}

/**
 * Write an extended results file (`*_extended.json`) beside its paper-format file, merging the runs of
 * other embedders already in it: one layout for Exp. 5, Exp. 6 and `pnpm bench corpus`.
 */
export async function writeExtendedFile(o: ExtendedFileSpec): Promise<void> {
  const path = join(o.out, o.file);
  const { runs, strategies } = await runsAfter(path, o.dataSha256, { seed: o.seed, samples: o.samples }, o.runKey, o.embedder, o.run);
  const doc: ExtendedFile = {
    benchmark: o.benchmark as ExtendedFile["benchmark"],
    protocol: { note: EXTENDED_NOTE, paper_format_file: o.paperFile, ...o.protocol, gate: libraryGate("analyzer") },
    bootstrap: { samples: o.samples, seed: o.seed, unit: o.unit, method: "percentile" },
    significance: significanceBlock(o.seed, o.unit),
    runs: runs as ExtendedFile["runs"],
    meta: meta(o.seed, Object.keys(runs), o.target, o.dataSha256, { ...(o.datasets ? { datasets: o.datasets } : {}), strategies }),
  };
  await writeResult(path, "extended", doc);
}
