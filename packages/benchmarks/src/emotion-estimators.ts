/**
 * The estimators Exp. 7 compares, built for one run's embedder: the EmoBank regressor is fitted here
 * (train split, λ on dev; deterministic), the prototype estimator is calibrated on EmoBank train text
 * (labels unused), the oracle reads EpiRec's authored labels (an upper bound), and the LLM estimator
 * joins only when PERSODE_EXP7_LLM is on (it then needs an endpoint: PERSODE_LLM_API_KEY, _BASE_URL).
 */
import {
  EMOBANK_LAMBDAS,
  OfflineLlm,
  createEstimator,
  createLlm,
  fitEmoBankModel,
  prototypeCalibration,
  prototypeSpace,
  type EmbedRole,
  type EmoBankModel,
  type Embedder,
  type EmotionEstimate,
  type EmotionEstimator,
} from "@persode/core";
import type { EmoBankDataset, EpisodicCorpus } from "@persode/datasets";
import { FITTED_DECIMALS } from "@persode/results";
import { parseEnvFlag } from "@persode/util";
import { embedByRole, inRole, type RoleVectors } from "./embed.js";
import { FACTUAL } from "./episodic.js";

/** Oracle E of EpiRec's authored intensity bands: the midpoints of three equal thirds of [0, 1]. */
const ORACLE_BAND_E: Readonly<Record<string, number>> = Object.freeze({ low: 1 / 6, mild: 1 / 2, high: 5 / 6 });

/** What the oracle reads, stated wherever its numbers appear. */
export const ORACLE_DESCRIPTION =
  "EpiRec's authored labels — episode E from the intensity band (low 1/6, mild 1/2, high 5/6), valence from the authored valence; " +
  "query E 1 for reflective probes and 0 for factual ones (the ideal gate)";

const VALENCE_CLASS: Readonly<Record<string, -1 | 0 | 1>> = { positive: 1, negative: -1, neutral: 0 };

/** Authored valence class of an EpiRec episode (positive 1, negative −1, neutral 0). */
export function authoredPolarity(valence: string | undefined): -1 | 0 | 1 {
  const p = valence === undefined ? undefined : VALENCE_CLASS[valence];
  if (p === undefined) throw new Error(`EpiRec episode has no known authored valence (${JSON.stringify(valence)})`);
  return p;
}

/** Gold labels per EpiRec text for the oracle (episodes by band, probe queries by type). */
function oracleLabels(corpus: EpisodicCorpus): Map<string, EmotionEstimate> {
  const labels = new Map<string, EmotionEstimate>();
  const put = (text: string, e: EmotionEstimate) => {
    const prev = labels.get(text);
    if (prev && (prev.intensity !== e.intensity || prev.polarity !== e.polarity))
      throw new Error(`oracle: the text ${JSON.stringify(text.slice(0, 60))} has two different gold labels`);
    labels.set(text, e);
  };
  for (const p of corpus.personas) {
    for (const e of p.episodes) {
      const band = e.intensityBand === undefined ? undefined : ORACLE_BAND_E[e.intensityBand];
      if (band === undefined) throw new Error(`oracle: episode ${e.id} has no known intensity band (${JSON.stringify(e.intensityBand)})`);
      const polarity = authoredPolarity(e.valence);
      put(e.text, { intensity: band, valence: polarity, polarity });
      for (const q of e.probes) put(q.query, { intensity: q.type === FACTUAL ? 0 : 1 });
    }
  }
  return labels;
}

/** The estimators of one run and the artefacts fitted for it. */
export interface RunEstimators {
  estimators: EmotionEstimator[];
  emobankModel: EmoBankModel;
  prototypeQuantiles: number[];
  /**
   * Every EmoBank and EpiRec text's embedding, computed once per role (EmoBank sentences, episodes and exemplars are documents; probes
   * queries).
   */
  vectors: RoleVectors;
}

/** A cached embedder over precomputed vectors (every EmoBank and EpiRec text is embedded once per run). */
function precomputed(embedder: Embedder, vectors: ReadonlyMap<string, Float64Array>): Embedder {
  const one = async (t: string) => vectors.get(t) ?? (await embedder.embed(t));
  return {
    name: embedder.name,
    id: embedder.id,
    dim: embedder.dim,
    ...(embedder.model ? { model: embedder.model } : {}),
    embed: one,
    embedBatch: async (texts: string[]) => Promise.all(texts.map(one)),
  } as Embedder;
}

/**
 * Build every estimator for `embedder`: fit EmoBank, calibrate the prototype, label the oracle; `extraTexts` are embedded with the rest.
 */
export async function buildEstimators(
  emobank: EmoBankDataset,
  corpus: EpisodicCorpus,
  embedder: Embedder,
  extraTexts: readonly (readonly [string, EmbedRole])[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunEstimators> {
  const epirecTexts = corpus.personas.flatMap((p) =>
    p.episodes.flatMap((e) => [
      [e.text, "document"] as const,
      ...inRole(
        e.probes.map((q) => q.query),
        "query",
      ),
    ]),
  );
  const vectors = await embedByRole(
    embedder,
    [
      ...inRole(
        emobank.sentences.map((s) => s.text),
        "document",
      ),
      ...epirecTexts,
      ...extraTexts,
    ],
    "exp7",
  );
  const emb = precomputed(embedder, vectors.document);
  const emobankModel = fitEmoBankModel(
    emobank.sentences.map((s) => ({ split: s.split, features: vectors.document.get(s.text)!, arousal: s.arousal, valence: s.valence })),
    embedder,
    EMOBANK_LAMBDAS,
    // a neural model's weights are published (and used) at the precision its CPU noise cannot reach (docs/reproducibility.md)
    embedder.model ? { decimals: FITTED_DECIMALS } : {},
  );
  const space = await prototypeSpace(emb);
  const prototypeQuantiles = await prototypeCalibration(
    emb,
    space,
    emobank.sentences.filter((s) => s.split === "train").map((s) => s.text),
  );
  const names = ["lexicon", "vader", "afinn", "emobank", "prototype"];
  if (parseEnvFlag("PERSODE_EXP7_LLM", env.PERSODE_EXP7_LLM)) names.push("llm");
  names.push("oracle");
  const llm = names.includes("llm") ? createLlm({ env }) : undefined;
  if (llm instanceof OfflineLlm)
    throw new Error(
      "PERSODE_EXP7_LLM is on but no LLM endpoint is configured: set PERSODE_LLM_API_KEY (and PERSODE_LLM_BASE_URL, " +
        "PERSODE_LLM_MODEL) or unset PERSODE_EXP7_LLM",
    );
  const estimators = names.map((name) =>
    createEstimator(name, {
      embedder: emb,
      emobankModel,
      prototype: { space, quantiles: prototypeQuantiles },
      ...(llm ? { llm: { llm } } : {}),
      oracle: { labels: oracleLabels(corpus), description: ORACLE_DESCRIPTION },
    }),
  );
  return { estimators, emobankModel, prototypeQuantiles, vectors };
}
