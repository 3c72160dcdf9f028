import { join } from "node:path";
import { pyRound } from "@persode/util";
import { checkEstimate, emobankPredict, type EmotionEstimate, type EmotionEstimator } from "@persode/core";
import {
  EMOBANK,
  EPIREC,
  LOCOMO,
  corpusCounts,
  loadEmoBank,
  sha256Hex,
  type EmoBankDataset,
  type EpisodicCorpus,
  type LocomoDataset,
} from "@persode/datasets";
import { ORACLE_DESCRIPTION, buildEstimators } from "../emotion-estimators.js";
import { locomoStrata, locomoTexts, rankLocomoWithEstimators, summarizeLocomo } from "../estimator-locomo.js";
import { estimatorQuality } from "../estimator-quality.js";
import { estimateOnWorker, type PendingTextEstimates } from "../text-estimates.js";
import {
  BASELINE,
  EXP7_ALPHA,
  EXP7_P_DIGITS,
  MODES,
  columnKey,
  gateRates,
  rankWithEstimators,
  strata,
  summarizeRetrieval,
  type PairedVsSimilarity,
  type PerProbeTable,
} from "../estimator-retrieval.js";
import { DEFAULT_PERMUTATIONS, TIE_TOLERANCE } from "../stats/randomization.js";
import { prefetchResamples } from "../stats/bootstrap.js";
import { EPISODIC_PROTOCOL } from "../episodic.js";
import { mean } from "../metrics.js";
import { pearson, pick, type StatWithCi } from "../stats/correlation.js";
import {
  EXP7_PER_ITEM_FILE,
  RESULT_FILES,
  emobankModelFile,
  formatResultJson,
  reproducibilityOf,
  type SignificanceRecord,
} from "@persode/results";
import { declaredProvenance, libraryGate, meta, runsAfter, writeResult, writeResultString } from "../result-records.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";

/**
 * Estimators whose estimate of a text depends on the text alone (no embedder, no fitted model): their estimates
 * are shared by every embedder's run in the process (`pnpm bench all` runs Exp. 7 once per embedder).
 */
const EMBEDDER_INDEPENDENT = new Set(["lexicon", "vader", "afinn"]);
const sharedEstimates = new Map<string, Map<string, EmotionEstimate>>();
/** Their estimates of the run's texts being computed on a worker thread (text-estimates.ts), chunk by chunk. */
let pendingEstimates: PendingTextEstimates | undefined;

function sharedCache(name: string): Map<string, EmotionEstimate> {
  let c = sharedEstimates.get(name);
  if (!c) sharedEstimates.set(name, (c = new Map()));
  return c;
}

/**
 * Start the embedder-independent estimates of every text the run will ask them for on a worker thread, in the order it asks:
 * EpiRec episodes, probes and EmoBank test sentences (part 1), then LoCoMo turns and questions (its reruns).
 */
function startSharedEstimates(corpus: EpisodicCorpus, emobank: EmoBankDataset, locomo: LocomoDataset): void {
  const caches = [...EMBEDDER_INDEPENDENT].map(sharedCache);
  const missing = (texts: string[]) => [...new Set(texts)].filter((t) => caches.some((c) => !c.has(t)));
  const episodes = corpus.personas.flatMap((p) => p.episodes);
  pendingEstimates = estimateOnWorker(
    [...EMBEDDER_INDEPENDENT],
    [
      missing([
        ...episodes.map((e) => e.text),
        ...episodes.flatMap((e) => e.probes.map((q) => q.query)),
        ...emobank.sentences.filter((s) => s.split === "test").map((s) => s.text),
      ]),
      missing(locomoTexts(locomo).texts.map(([t]) => t)),
    ],
  );
}

/**
 * Every resample stream the run's bootstrap CIs read, with its size (for prefetchResamples): estimator quality's three item sets,
 * each EpiRec stratum of part 2 (as strata() lists them) and each LoCoMo stratum (locomoStrata), under the run's `label`.
 */
function resampleRequests(corpus: EpisodicCorpus, emobank: EmoBankDataset, locomo: LocomoDataset, label: string) {
  const episodes = corpus.personas.flatMap((p) => p.episodes);
  const probes = episodes.flatMap((e) => e.probes.map((q) => ({ type: q.type, band: e.intensityBand ?? "" })));
  const stream =
    (prefix: string) =>
    ([name, idx]: [string, number[]]) => ({ n: idx.length, label: `${label}/${prefix}/${name}` });
  return [
    { n: episodes.length, label: `${label}/epirec-episodes` },
    { n: probes.length, label: `${label}/epirec-probes` },
    { n: emobank.sentences.filter((s) => s.split === "test").length, label: `${label}/emobank-test` },
    ...strata({ types: probes.map((p) => p.type), bands: probes.map((p) => p.band) }).map(stream("retrieval")),
    ...locomoStrata(locomoTexts(locomo).questions.map((q) => q.category)).map(stream("locomo")),
  ];
}

/**
 * Estimates are asked for the same texts in part 1 and part 2: compute (and range-check) each text once per
 * estimator, and once per process for the embedder-independent ones (taken from the worker's chunks as they come).
 */
function memoized(est: EmotionEstimator): EmotionEstimator {
  const shared = EMBEDDER_INDEPENDENT.has(est.name);
  const cache = shared ? sharedCache(est.name) : new Map<string, EmotionEstimate>();
  const check = (e: EmotionEstimate, text: string) => checkEstimate(e, `estimator "${est.name}"`, text);
  return {
    name: est.name,
    description: est.description,
    ...(est.upperBound ? { upperBound: true } : {}),
    async estimate(texts) {
      const missing = () => [...new Set(texts.filter((t) => !cache.has(t)))];
      let todo = missing();
      for (let next = shared && todo.length > 0 ? pendingEstimates?.next(est.name) : undefined; next;) {
        const chunk = await next;
        if (chunk) for (const [t, e] of chunk) if (!cache.has(t)) cache.set(t, check(e, t));
        todo = missing();
        next = todo.length > 0 ? pendingEstimates?.next(est.name) : undefined;
      }
      if (todo.length > 0) (await est.estimate(todo)).forEach((e, i) => cache.set(todo[i]!, check(e, todo[i]!)));
      return texts.map((t) => cache.get(t)!);
    },
  };
}

/**
 * Share of the oracle's gain over similarity-only that a column reaches on each stratum where the
 * oracle gains at all: (recall − similarity) / (oracle recall − similarity); null where the oracle
 * does not gain (no headroom to close).
 */
function headroomClosed(table: PerProbeTable, estimators: readonly EmotionEstimator[]): Record<string, Record<string, number | null>> {
  const base = table.hits.get(BASELINE)!;
  const oracle = estimators.find((e) => e.upperBound);
  const out: Record<string, Record<string, number | null>> = {};
  if (!oracle) return out;
  const strataList = strata(table);
  for (const est of estimators.filter((e) => !e.upperBound)) {
    for (const m of MODES) {
      const col = table.hits.get(columnKey(est.name, m))!;
      const orc = table.hits.get(columnKey(oracle.name, m))!;
      const row: Record<string, number | null> = {};
      for (const [name, idx] of strataList) {
        const b = mean(idx.map((i) => base[i]!));
        const room = mean(idx.map((i) => orc[i]!)) - b;
        row[name] = room > 0 ? pyRound((mean(idx.map((i) => col[i]!)) - b) / room, 3) : null;
      }
      out[columnKey(est.name, m)] = row;
    }
  }
  return out;
}

/**
 * The Holm-controlled outcome of every real-estimator comparison with similarity-only: the columns
 * whose Holm-adjusted randomization test rejects at α with a gain (wins) or a loss (losses), and the
 * number of comparisons tested (real estimator·strategy columns × strata).
 */
function holmOutcome(
  retrieval: Record<string, Record<string, { paired_vs_similarity?: PairedVsSimilarity }>>,
  realColumns: readonly string[],
) {
  const wins: { column: string; stratum: string; diff: number; ci95: [number, number]; p_holm: number }[] = [];
  const losses: typeof wins = [];
  let comparisons = 0;
  for (const key of realColumns) {
    for (const [stratum, r] of Object.entries(retrieval[key]!)) {
      const p = r.paired_vs_similarity;
      if (!p) continue;
      comparisons++;
      if (p.significant) (p.diff > 0 ? wins : losses).push({ column: key, stratum, diff: p.diff, ci95: p.ci95, p_holm: p.p_holm });
    }
  }
  return { comparisons, significant_wins: wins, significant_losses: losses };
}

/** The `significance` block of the Exp. 7 results: how every p-value in it was computed. */
function significanceBlock(seed: number): SignificanceRecord {
  return {
    baseline: BASELINE,
    test:
      "paired two-sided randomization (sign-flip) test on the per-item differences (EpiRec: recall@3 hit per probe; LoCoMo: evidence " +
      "recall@5 per question)",
    statistic: "sum of the paired differences",
    samples: DEFAULT_PERMUTATIONS,
    seed,
    stream:
      'seedrandom xor4096 seeded with "<seed>/<label>/randomization", label = "exp7/<embedder>/retrieval/<stratum>" (EpiRec) or "exp7/<embedder>/locomo/<category>" (LoCoMo); the oracle\'s family uses "<label>/randomization/upper-bound"',
    p_value: "(1 + #{b: |T_b| >= |T_obs|}) / (B + 1)",
    tie_tolerance: `|T_b| counts as >= |T_obs| within ${TIE_TOLERANCE} x sum |d_i|`,
    correction:
      "Holm-Bonferroni over all real estimator·strategy columns (each real estimator × {fused, gated}) compared with " +
      "similarity-only, separately within each embedder, dataset (EpiRec recall@3 / LoCoMo evidence recall@5) and stratum (overall, " +
      "reflective, each probe type, each type × band; LoCoMo: overall and each category); the oracle (an upper bound, EpiRec only) " +
      "is its own family of two (fused, gated) per stratum",
    alpha: EXP7_ALPHA,
    t_test: "paired two-sided t-test, df = n - 1 (p_t, unadjusted)",
    wins_ties_losses: "per item: column above / equal to / below similarity-only",
    p_value_decimals: EXP7_P_DIGITS,
  };
}

/**
 * Which real estimators' always-on fusion scores below and which above similarity-only on one LoCoMo
 * category (evidence recall@5 as written, so the statement matches the table); ties are in neither list.
 */
function fusionAgainstSimilarity(
  retrieval: Record<string, Record<string, { recall5: number }>>,
  estimators: readonly EmotionEstimator[],
  category: string,
) {
  const sim = retrieval[BASELINE]?.[category]?.recall5;
  if (sim === undefined) return null;
  const real = estimators.filter((e) => !e.upperBound).map((e) => e.name);
  const value = (name: string) => retrieval[columnKey(name, "fused")]![category]!.recall5;
  return { category, below: real.filter((n) => value(n) < sim), above: real.filter((n) => value(n) > sim) };
}

/** The column (real estimators only) with the largest paired gain on a stratum, and that gain. */
function bestOn(retrieval: ReturnType<typeof summarizeRetrieval>, estimators: readonly EmotionEstimator[], stratum: string) {
  let best: { column: string; diff: number; ci95: [number, number] } | undefined;
  for (const est of estimators.filter((e) => !e.upperBound)) {
    for (const m of MODES) {
      const key = columnKey(est.name, m);
      const p = retrieval[key]![stratum]?.paired_vs_similarity;
      if (p && (!best || p.diff > best.diff)) best = { column: key, diff: p.diff, ci95: p.ci95 };
    }
  }
  return best ?? null;
}

/** The stratum where the oracle gains most over similarity-only, and how much of that the best real column closes. */
function headroom(
  retrieval: ReturnType<typeof summarizeRetrieval>,
  closed: Record<string, Record<string, number | null>>,
  estimators: readonly EmotionEstimator[],
) {
  const oracle = estimators.find((e) => e.upperBound);
  if (!oracle) return null;
  let top: { stratum: string; column: string; diff: number; ci95: [number, number] } | undefined;
  for (const m of MODES) {
    const col = columnKey(oracle.name, m);
    for (const [stratum, r] of Object.entries(retrieval[col]!)) {
      const p = r.paired_vs_similarity;
      if (p && p.diff > 0 && (!top || p.diff > top.diff)) top = { stratum, column: col, diff: p.diff, ci95: p.ci95 };
    }
  }
  if (!top) return null;
  let best: { column: string; closed: number } | undefined;
  for (const [col, row] of Object.entries(closed)) {
    const c = row[top.stratum];
    if (c !== null && c !== undefined && (!best || c > best.closed)) best = { column: col, closed: c };
  }
  return {
    stratum: top.stratum,
    oracle_column: top.column,
    oracle_diff: top.diff,
    oracle_ci95: top.ci95,
    best_column: best?.column ?? null,
    best_closed: best?.closed ?? null,
  };
}

/** Per-probe tables are long 0/1 arrays: keep each on one line so the file stays readable. */
function formatPerProbe(obj: unknown): string {
  return formatResultJson(obj).replace(/\[\n\s+([^\]{}]*?)\n\s+\]/g, (_, body: string) => `[${body.split(/,\n\s+/).join(", ")}]`);
}

export const exp7: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp7,
  async run(ctx) {
    const corpus = await ctx.epirec();
    const emobank = await loadEmoBank();
    const locomo = await ctx.locomo();
    startSharedEstimates(corpus, emobank, locomo);
    const embedder = await ctx.embedder();
    const dataSha = sha256Hex(new TextEncoder().encode(`${corpus.sha256}\n${emobank.sha256}\n${locomo.sha256}\n`));
    const spec = { seed: ctx.seed, samples: ctx.samples };
    // the resample indices of every CI are drawn on the worker threads while this thread embeds and fits
    prefetchResamples(resampleRequests(corpus, emobank, locomo, `exp7/${embedder.name}`), spec);
    const built = await buildEstimators(emobank, corpus, embedder, locomoTexts(locomo).texts);
    const estimators = built.estimators.map(memoized);
    const label = `exp7/${embedder.name}`;
    const m = built.emobankModel;
    const test = emobank.sentences.filter((s) => s.split === "test");
    const pred = test.map((s) => emobankPredict(m, built.vectors.document.get(s.text)!));
    const [pa, pv, ga, gv] = [
      pred.map((p) => p.arousal),
      pred.map((p) => p.valence),
      test.map((s) => s.arousal),
      test.map((s) => s.valence),
    ].map((xs) => Float64Array.from(xs));
    const [s1, s2] = [new Float64Array(test.length), new Float64Array(test.length)];
    // the ridge fit's test-set r, on the resamples every estimator's EmoBank r uses (the same stream: drawn once)
    const { quality, emobankTest: testR } = await estimatorQuality(estimators, corpus, emobank, spec, label, {
      arousal: (i) => pearson(pick(pa!, i, s1), pick(ga!, i, s2)),
      valence: (i) => pearson(pick(pv!, i, s1), pick(gv!, i, s2)),
    });
    const table = await rankWithEstimators(corpus, embedder, built.vectors, estimators);
    const bounds = estimators.filter((e) => e.upperBound);
    const realColumns = estimators.filter((e) => !e.upperBound).flatMap((e) => MODES.map((m) => columnKey(e.name, m)));
    const retrieval = summarizeRetrieval(
      table,
      spec,
      `${label}/retrieval`,
      new Set(bounds.flatMap((e) => MODES.map((m) => columnKey(e.name, m)))),
    );
    const closed = headroomClosed(table, estimators);
    const locomoTable = await rankLocomoWithEstimators(
      locomo,
      embedder,
      built.vectors,
      estimators.filter((e) => !e.upperBound),
    );
    const locomoRun = summarizeLocomo(locomoTable, spec, `${label}/locomo`);
    const modelFile = emobankModelFile(ctx.runKey);
    const r4 = (x: StatWithCi) => ({ value: pyRound(x.value, 4), ci95: x.ci95 ? [pyRound(x.ci95[0], 4), pyRound(x.ci95[1], 4)] : null });
    const run = {
      estimators: Object.fromEntries(estimators.map((e) => [e.name, { description: e.description, upper_bound: e.upperBound === true }])),
      emobank_model: {
        file: modelFile,
        license: m.license,
        lambda: m.training.lambda,
        test_pearson: { arousal: r4(testR.arousal!), valence: r4(testR.valence!) },
        dev_pearson: m.training.dev_pearson.map((d) => ({
          lambda: d.lambda,
          arousal: pyRound(d.arousal, 4),
          valence: pyRound(d.valence, 4),
        })),
      },
      quality,
      retrieval,
      gate_rate: gateRates(table),
      headroom_closed: closed,
      locomo: locomoRun,
      answer: {
        holm: holmOutcome(retrieval, realColumns),
        locomo_holm: holmOutcome(locomoRun.retrieval, realColumns),
        headroom: headroom(retrieval, closed, estimators),
        best_reflective: bestOn(retrieval, estimators, "reflective"),
        best_reflective_implicit: bestOn(retrieval, estimators, "reflective_implicit"),
        locomo_temporal_fusion: fusionAgainstSimilarity(locomoRun.retrieval, estimators, "temporal"),
      },
    };
    const path = join(ctx.out, RESULT_FILES.exp7);
    const { runs } = await runsAfter(path, dataSha, ctx, ctx.runKey, embedder, run);
    const counts = corpusCounts(corpus);
    const benchmark = {
      name: "EpiRec v1.0 + EmoBank + LoCoMo",
      epirec: {
        url: "https://github.com/sukoji/epirec",
        probes: counts.probes,
        episodes: counts.episodes,
        personas: counts.personas,
        license: EPIREC.license,
        data_sha256: corpus.sha256,
      },
      emobank: {
        url: "https://github.com/JULIELab/EmoBank",
        sentences: emobank.sentences.length,
        test: emobank.sentences.filter((s) => s.split === "test").length,
        license: EMOBANK.license,
        data_sha256: emobank.sha256,
      },
      locomo: {
        url: "https://github.com/snap-research/locomo",
        questions: locomoTable.categories.length,
        license: LOCOMO.license,
        data_sha256: locomo.sha256,
      },
      data_sha256: dataSha,
    };
    const protocol = {
      note:
        "nothing is fitted on EpiRec or LoCoMo labels: the EmoBank regressor is trained on EmoBank train (λ on dev), the prototype " +
        "estimator is calibrated on EmoBank train text only; the oracle reads EpiRec's authored labels and is an upper bound, never a " +
        "method (LoCoMo has no emotion labels, so no oracle runs there); LoCoMo follows the Exp. 5 protocol with evidence recall@5",
      oracle: ORACLE_DESCRIPTION,
      gate: libraryGate("estimator"),
      paired_tests:
        "every estimator·strategy column is compared with similarity-only on the same items by the paired randomization test " +
        "(p_randomization), the paired t-test (p_t) and W/T/L beside the bootstrap CI of the difference; family for Holm (p_holm, " +
        "significant at alpha): all real estimator·strategy columns within one embedder, one dataset and one stratum (EpiRec " +
        "recall@3 per stratum, LoCoMo evidence recall@5 per category); the oracle's two columns are a separate family; details in " +
        "significance",
      ...EPISODIC_PROTOCOL,
    };
    const bootstrap = { samples: ctx.samples, seed: ctx.seed, unit: "item", method: "percentile" as const };
    const datasets = declaredProvenance("exp7", { epirec: corpus.sha256, emobank: emobank.sha256, locomo: locomo.sha256 });
    const perProbePath = join(ctx.out, EXP7_PER_ITEM_FILE);
    const { runs: perProbeRuns } = await runsAfter(perProbePath, dataSha, ctx, ctx.runKey, embedder, {
      hits_at_3: Object.fromEntries([...table.hits].map(([k, v]) => [k, Array.from(v)])),
      gate_fires: Object.fromEntries([...table.fires].map(([k, v]) => [k, Array.from(v)])),
      locomo_evidence_recall_at_5: Object.fromEntries([...locomoTable.recall5].map(([k, v]) => [k, Array.from(v)])),
    });
    await writeResultString(
      join(ctx.out, modelFile),
      formatResultJson({
        ...m,
        generated_by: `pnpm bench ${ctx.target}`,
        data_sha256: emobank.sha256,
        reproducibility: reproducibilityOf(m),
      }),
    );
    await writeResult(
      perProbePath,
      "exp7-per-item",
      {
        note:
          "per-probe recall@3 hits (1 = target in the top 3) of every Exp. 7 EpiRec column, aligned on probe_ids, and per-question " +
          "LoCoMo evidence recall@5 in Exp. 5's question order: the paired inputs of every comparison with similarity-only",
        probe_ids: table.probeIds,
        probe_types: table.types,
        intensity_bands: table.bands,
        benchmark: { data_sha256: dataSha },
        bootstrap,
        runs: perProbeRuns,
        meta: meta(ctx.seed, Object.keys(perProbeRuns), ctx.target, dataSha, { datasets }),
      },
      formatPerProbe,
    );
    await writeResult(path, "exp7", {
      benchmark,
      protocol,
      bootstrap,
      significance: significanceBlock(ctx.seed),
      runs,
      meta: meta(ctx.seed, Object.keys(runs), ctx.target, dataSha, { datasets }),
    });
    const summary: [string, string][] = estimators.map((e) => {
      const q = quality[e.name]!;
      const fusedR = retrieval[columnKey(e.name, "fused")]!.reflective!;
      const gatedR = retrieval[columnKey(e.name, "gated")]!.reflective!;
      return [
        `${e.name}${e.upperBound ? " (upper bound)" : ""} [${ctx.runKey}]`,
        `ρ(band) ${q.epirec_episodes.spearman_band.value} · AUC ${q.epirec_probes.auc_reflective.value} · reflective recall@3 fused ${fusedR.r3} gated ${gatedR.r3} (similarity ${retrieval[BASELINE]!.reflective!.r3})`,
      ];
    });
    return {
      files: [RESULT_FILES.exp7, EXP7_PER_ITEM_FILE, modelFile],
      summary,
      counters: { probes: table.probeIds.length, estimators: estimators.length },
    };
  },
};
