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
import { RankResampler, agreement, bootstrapStatistics, pearson, pick, type StatWithCi } from "./stats/correlation.js";

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

/** Part 1 for every estimator (the oracle gets no EmoBank row: it only knows EpiRec's labels). */
export async function estimatorQuality(
  estimators: readonly EmotionEstimator[],
  corpus: EpisodicCorpus,
  emobank: EmoBankDataset,
  spec: BootstrapSpec,
  label: string,
): Promise<Record<string, EstimatorQuality>> {
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
  const out: Record<string, EstimatorQuality> = {};
  for (const est of estimators) {
    const ep = await est.estimate(episodes.map((e) => e.text));
    const epE = Float64Array.from(ep, (x) => x.intensity);
    const hasPolarity = ep.every((x) => x.polarity !== undefined);
    const epP = Float64Array.from(ep, (x) => x.polarity ?? 0);
    const bandRanks = new RankResampler(epE, band);
    const epStats = bootstrapStatistics(
      episodes.length,
      {
        spearman_band: (_, c) => bandRanks.spearman(c),
        ...(hasPolarity ? { valence_agreement: (i: Int32Array) => agreement(pick(epP, i), pick(authored, i)) } : {}),
      },
      spec,
      `${label}/epirec-episodes`,
    );
    const pr = await est.estimate(probes.map((q) => q.query));
    const prE = Float64Array.from(pr, (x) => x.intensity);
    const probeRanks = new RankResampler(prE, reflective);
    const prStats = bootstrapStatistics(probes.length, { auc_reflective: (_, c) => probeRanks.auc(c) }, spec, `${label}/epirec-probes`);
    const gateRate: Record<string, number> = {};
    for (const t of types)
      gateRate[t] = pyRound(mean(probes.flatMap((q, i) => (q.type === t ? [prE[i]! >= SIGNIFICANCE_THRESHOLD ? 1 : 0] : []))), 4);
    let emobankBlock: EstimatorQuality["emobank_test"] = null;
    if (!est.upperBound) {
      const te = await est.estimate(test.map((s) => s.text));
      const teE = Float64Array.from(te, (x) => x.intensity);
      const hasValence = te.every((x) => x.valence !== undefined);
      const teV = Float64Array.from(te, (x) => x.valence ?? 0);
      const s = bootstrapStatistics(
        test.length,
        {
          pearson_arousal: (i) => pearson(pick(teE, i), pick(arousal, i)),
          ...(hasValence ? { pearson_valence: (i: Int32Array) => pearson(pick(teV, i), pick(valence, i)) } : {}),
        },
        spec,
        `${label}/emobank-test`,
      );
      emobankBlock = {
        n: test.length,
        pearson_arousal: round(s.pearson_arousal!),
        pearson_valence: s.pearson_valence ? round(s.pearson_valence) : null,
      };
    }
    out[est.name] = {
      epirec_episodes: {
        n: episodes.length,
        spearman_band: round(epStats.spearman_band!),
        valence_agreement: epStats.valence_agreement ? round(epStats.valence_agreement) : null,
      },
      emobank_test: emobankBlock,
      epirec_probes: { n: probes.length, auc_reflective: round(prStats.auc_reflective!), gate_rate: gateRate },
    };
  }
  return out;
}
