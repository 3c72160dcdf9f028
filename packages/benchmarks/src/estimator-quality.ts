/**
 * Exp. 7 part 1 — how good is each estimator's E, measured against labels no estimator was fitted on:
 * Spearman ρ of episode E with EpiRec's authored intensity band and agreement of its valence class
 * with the authored valence (168 episodes); Pearson r of E with EmoBank test arousal and of its valence
 * score with EmoBank test valence (1000 sentences); AUC of probe E separating reflective from factual
 * probes and the gate's firing rate per probe type (504 probes). 95 % percentile-bootstrap CIs, one
 * resample stream per item set shared by every estimator.
 */
import { SIGNIFICANCE_THRESHOLD, type EmotionEstimator } from "@persode/core";
import { pyRound } from "@persode/util";
import type { EmoBankDataset, EpisodicCorpus } from "@persode/datasets";
import { authoredPolarity } from "./emotion-estimators.js";
import { FACTUAL } from "./episodic.js";
import { mean } from "./metrics.js";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import {
  RankResampler,
  agreementResampler,
  bootstrapStatistics,
  pearsonPicked,
  pick,
  type ResampledStatistic,
  type StatWithCi,
} from "./stats/correlation.js";

/** Ordinal code of EpiRec's intensity bands for Spearman's ρ. */
const BAND_ORDER: Readonly<Record<string, number>> = Object.freeze({ low: 0, mild: 1, high: 2 });

/** One estimator's quality block of the results file. */
export interface EstimatorQuality {
  epirec_episodes: { n: number; spearman_band: StatWithCi; valence_agreement: StatWithCi | null };
  emobank_test: { n: number; pearson_arousal: StatWithCi; pearson_valence: StatWithCi | null } | null;
  epirec_probes: { n: number; auc_reflective: StatWithCi; gate_rate: Record<string, number> };
}

const round = (s: StatWithCi, d = 4): StatWithCi => ({
  value: pyRound(s.value, d),
  ci95: s.ci95 ? [pyRound(s.ci95[0], d), pyRound(s.ci95[1], d)] : null,
});

/**
 * `pick(xs, idx)` of the resample bootstrapStatistics is evaluating, picked once for all the statistics it hands that
 * resample to (they are evaluated in turn on each resample: same index array, same resample number).
 */
function resampledOnce(xs: Float64Array): (idx: Int32Array, resample: number) => Float64Array {
  let lastIdx: Int32Array | undefined;
  let lastResample = 0;
  const picked = new Float64Array(xs.length);
  return (idx, resample) => {
    if (idx !== lastIdx || resample !== lastResample) {
      pick(xs, idx, picked);
      lastIdx = idx;
      lastResample = resample;
    }
    return picked;
  };
}

/**
 * Part 1 for every estimator (the oracle gets no EmoBank row: it only knows EpiRec's labels). `emobankTestExtra`: more
 * statistics of the EmoBank test sentences (Exp. 7's ridge fit), bootstrapped on the same resamples of that set
 * (the same stream, drawn once); their values and CIs come back in `emobankTest`.
 */
export async function estimatorQuality(
  estimators: readonly EmotionEstimator[],
  corpus: EpisodicCorpus,
  emobank: EmoBankDataset,
  spec: BootstrapSpec,
  label: string,
  emobankTestExtra: Readonly<Record<string, ResampledStatistic>> = {},
): Promise<{ quality: Record<string, EstimatorQuality>; emobankTest: Record<string, StatWithCi> }> {
  const episodes = corpus.personas.flatMap((p) => p.episodes);
  const band = Float64Array.from(episodes, (e) => {
    const b = e.intensityBand === undefined ? undefined : BAND_ORDER[e.intensityBand];
    if (b === undefined) throw new Error(`episode ${e.id}: unknown intensity band ${JSON.stringify(e.intensityBand)}`);
    return b;
  });
  const authored = Float64Array.from(episodes, (e) => authoredPolarity(e.valence));
  const probes = episodes.flatMap((e) => e.probes);
  const types = [...new Set(probes.map((q) => q.type))].sort();
  const reflective = Float64Array.from(probes, (q) => (q.type === FACTUAL ? 0 : 1));
  const test = emobank.sentences.filter((s) => s.split === "test");
  const arousal = Float64Array.from(test, (s) => s.arousal);
  const valence = Float64Array.from(test, (s) => s.valence);
  // Every estimator's statistics of an item set are computed on the one resample stream of that set
  // (same seed and label for all), so the stream is drawn once and each resample is handed to all of them.
  const key = (est: EmotionEstimator, stat: string) => `${est.name}\u0000${stat}`;
  const epirecStats: Record<string, ResampledStatistic> = {};
  const probeStats: typeof epirecStats = {};
  const emobankStats: typeof epirecStats = {};
  const probeE = new Map<string, Float64Array>();
  const emobankRows = new Set<string>();
  // the resampled EmoBank labels are shared by every estimator's Pearson r: picked once per resample
  const goldArousal = resampledOnce(arousal);
  const goldValence = resampledOnce(valence);
  for (const est of estimators) {
    const ep = await est.estimate(episodes.map((e) => e.text));
    const epE = Float64Array.from(ep, (x) => x.intensity);
    const hasPolarity = ep.every((x) => x.polarity !== undefined);
    const epP = Float64Array.from(ep, (x) => x.polarity ?? 0);
    const bandRanks = new RankResampler(epE, band);
    epirecStats[key(est, "spearman_band")] = (_, c) => bandRanks.spearman(c);
    if (hasPolarity) epirecStats[key(est, "valence_agreement")] = agreementResampler(epP, authored);
    const pr = await est.estimate(probes.map((q) => q.query));
    const prE = Float64Array.from(pr, (x) => x.intensity);
    probeE.set(est.name, prE);
    const probeRanks = new RankResampler(prE, reflective);
    probeStats[key(est, "auc_reflective")] = (_, c) => probeRanks.auc(c);
    if (!est.upperBound) {
      emobankRows.add(est.name);
      const te = await est.estimate(test.map((s) => s.text));
      const teE = Float64Array.from(te, (x) => x.intensity);
      const hasValence = te.every((x) => x.valence !== undefined);
      const teV = Float64Array.from(te, (x) => x.valence ?? 0);
      emobankStats[key(est, "pearson_arousal")] = (i, _, b) => pearsonPicked(teE, i, goldArousal(i, b));
      if (hasValence) emobankStats[key(est, "pearson_valence")] = (i, _, b) => pearsonPicked(teV, i, goldValence(i, b));
    }
  }
  const epStats = bootstrapStatistics(episodes.length, epirecStats, spec, `${label}/epirec-episodes`);
  const prStats = bootstrapStatistics(probes.length, probeStats, spec, `${label}/epirec-probes`);
  const extraKey = (name: string) => `extra\u0001${name}`;
  for (const [name, f] of Object.entries(emobankTestExtra)) emobankStats[extraKey(name)] = f;
  const teStats = Object.keys(emobankStats).length > 0 ? bootstrapStatistics(test.length, emobankStats, spec, `${label}/emobank-test`) : {};
  const emobankTest = Object.fromEntries(Object.keys(emobankTestExtra).map((name) => [name, teStats[extraKey(name)]!]));
  const out: Record<string, EstimatorQuality> = {};
  for (const est of estimators) {
    const prE = probeE.get(est.name)!;
    const gateRate: Record<string, number> = {};
    for (const t of types)
      gateRate[t] = pyRound(mean(probes.flatMap((q, i) => (q.type === t ? [prE[i]! >= SIGNIFICANCE_THRESHOLD ? 1 : 0] : []))), 4);
    const valenceAgreement = epStats[key(est, "valence_agreement")];
    const pearsonValence = teStats[key(est, "pearson_valence")];
    out[est.name] = {
      epirec_episodes: {
        n: episodes.length,
        spearman_band: round(epStats[key(est, "spearman_band")]!),
        valence_agreement: valenceAgreement ? round(valenceAgreement) : null,
      },
      emobank_test: emobankRows.has(est.name)
        ? {
            n: test.length,
            pearson_arousal: round(teStats[key(est, "pearson_arousal")]!),
            pearson_valence: pearsonValence ? round(pearsonValence) : null,
          }
        : null,
      epirec_probes: { n: probes.length, auc_reflective: round(prStats[key(est, "auc_reflective")]!), gate_rate: gateRate },
    };
  }
  return { quality: out, emobankTest };
}
