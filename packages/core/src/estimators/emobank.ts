/**
 * The EmoBank estimator (Exp. 7): ridge regressions of EmoBank's arousal and valence (Buechel & Hahn,
 * EACL 2017; 1–5 scales) on the run's sentence embeddings — the hashing embedder's signed token buckets,
 * or MiniLM vectors — trained on the train split, λ chosen on the dev split, evaluated on test.
 * Licence consequence: EmoBank is CC BY-SA 4.0, so the fitted weights are an adaptation of it and are
 * shared under CC BY-SA 4.0 with attribution; they are produced by `pnpm bench exp7`, never by hand.
 */
import { pyRound } from "@persode/util";
import type { Embedder, EmbedderModel } from "../embedders/embedder.js";
import { clip } from "../numeric.js";
import { calibrate, quantilesOf } from "./calibration.js";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";
import { polarityOf } from "./estimator.js";
import { pearson } from "./pearson.js";
import { predictLinear, ridgeProblem, solveRidge, type LinearModel } from "./ridge.js";

/** Format tag of a fitted EmoBank model file. */
export const EMOBANK_MODEL_FORMAT = "persode-emobank-ridge/1";

/** Ridge penalties tried on the dev split, in order (ties keep the earlier one). */
export const EMOBANK_LAMBDAS: readonly number[] = [0.01, 0.1, 1, 10, 100, 1000, 10000];

/** Licence of the fitted weights (inherited from EmoBank). */
export const EMOBANK_MODEL_LICENSE = "CC BY-SA 4.0 (weights adapted from EmoBank, Buechel & Hahn 2017)";

/** One EmoBank sentence's features and labels. */
export interface EmoBankExample {
  split: "train" | "dev" | "test";
  features: ArrayLike<number>;
  arousal: number;
  valence: number;
}

/** A fitted EmoBank model as written to its JSON file. */
export interface EmoBankModel {
  format: typeof EMOBANK_MODEL_FORMAT;
  license: string;
  /** The embedder fitted on; `model` names its weights when it is a neural model. */
  embedder: { name: string; id: string; dim: number; model?: string };
  training: {
    train: number;
    dev: number;
    lambdas: number[];
    dev_pearson: { lambda: number; arousal: number; valence: number }[];
    lambda: number;
  };
  arousal: { intercept: number; weights: number[] };
  valence: { intercept: number; weights: number[] };
  /** Percentiles of the raw intensity score over the train split (see `emobankIntensityScore`). */
  intensity_quantiles: number[];
}

/**
 * Raw intensity of predicted arousal Â and valence V̂ (1–5): the mean of arousal on [0, 1] and valence
 * extremity |V̂ − 3|/2 — intensity as "how activated plus how far from neutral", fixed a priori.
 */
export function emobankIntensityScore(arousal: number, valence: number): number {
  return ((arousal - 1) / 4 + Math.abs(valence - 3) / 2) / 2;
}

function rows(examples: readonly EmoBankExample[], dim: number): { x: Float64Array; n: number } {
  const x = new Float64Array(examples.length * dim);
  examples.forEach((e, i) => {
    if (e.features.length !== dim) throw new RangeError(`EmoBank features have ${e.features.length} dimensions, expected ${dim}`);
    for (let j = 0; j < dim; j++) x[i * dim + j] = e.features[j]!;
  });
  return { x, n: examples.length };
}

/** Options of fitEmoBankModel. */
export interface EmoBankFitOptions {
  /**
   * Round the fitted parameters (intercepts, weights, intensity quantiles, dev r) to this many decimals,
   * and predict with the rounded model: over a neural model's vectors their last digits are CPU noise
   * (docs/reproducibility.md). Omitted: full float64 precision (exact embedders).
   */
  decimals?: number;
}

/** Fit the EmoBank model: λ by mean dev Pearson r of arousal and valence, weights on train (deterministic). */
export function fitEmoBankModel(
  examples: readonly EmoBankExample[],
  embedder: { name: string; id: string; dim: number; model?: EmbedderModel },
  lambdas: readonly number[] = EMOBANK_LAMBDAS,
  options: EmoBankFitOptions = {},
): EmoBankModel {
  const r = options.decimals === undefined ? (x: number) => x : (x: number) => pyRound(x, options.decimals);
  const dim = embedder.dim;
  const train = examples.filter((e) => e.split === "train");
  const dev = examples.filter((e) => e.split === "dev");
  if (train.length === 0 || dev.length === 0)
    throw new RangeError(`fitEmoBankModel: need train and dev sentences, got ${train.length} and ${dev.length}`);
  const tr = rows(train, dim);
  const targets = [Float64Array.from(train, (e) => e.arousal), Float64Array.from(train, (e) => e.valence)];
  const devA = Float64Array.from(dev, (e) => e.arousal);
  const devV = Float64Array.from(dev, (e) => e.valence);
  let best: { lambda: number; score: number; models: LinearModel[] } | undefined;
  const devPearson: EmoBankModel["training"]["dev_pearson"] = [];
  const problem = ridgeProblem(tr.x, tr.n, dim, targets);
  for (const lambda of lambdas) {
    const models = solveRidge(problem, lambda);
    const ra = pearson(
      Float64Array.from(dev, (e) => predictLinear(models[0]!, e.features)),
      devA,
    );
    const rv = pearson(
      Float64Array.from(dev, (e) => predictLinear(models[1]!, e.features)),
      devV,
    );
    devPearson.push({ lambda, arousal: r(ra), valence: r(rv) });
    const score = (ra + rv) / 2;
    if (!best || score > best.score) best = { lambda, score, models };
  }
  const rounded = (m: LinearModel): LinearModel => ({ intercept: r(m.intercept), weights: Float64Array.from(m.weights, r) });
  const [a, v] = (best!.models as [LinearModel, LinearModel]).map(rounded) as [LinearModel, LinearModel];
  const scores = train.map((e) => emobankIntensityScore(predictLinear(a, e.features), predictLinear(v, e.features)));
  return {
    format: EMOBANK_MODEL_FORMAT,
    license: EMOBANK_MODEL_LICENSE,
    embedder: { name: embedder.name, id: embedder.id, dim, ...(embedder.model ? { model: embedder.model.id } : {}) },
    training: { train: train.length, dev: dev.length, lambdas: [...lambdas], dev_pearson: devPearson, lambda: best!.lambda },
    arousal: { intercept: a.intercept, weights: Array.from(a.weights) },
    valence: { intercept: v.intercept, weights: Array.from(v.weights) },
    intensity_quantiles: quantilesOf(scores).map(r),
  };
}

/** Predicted arousal and valence (1–5 scales) of one feature vector. */
export function emobankPredict(model: EmoBankModel, features: ArrayLike<number>): { arousal: number; valence: number } {
  const lin = (m: { intercept: number; weights: number[] }) =>
    predictLinear({ intercept: m.intercept, weights: Float64Array.from(m.weights) }, features);
  return { arousal: lin(model.arousal), valence: lin(model.valence) };
}

/**
 * The EmoBank estimator: E = the raw intensity score's percentile among EmoBank train sentences
 * (quantile calibration), valence = (V̂ − 3)/2 clipped to [−1, 1], neutral within ±0.05 (±0.1 on 1–5).
 * The embedder must be the one the model was fitted with.
 */
export function emobankEstimator(model: EmoBankModel, embedder: Embedder): EmotionEstimator {
  if (model.format !== EMOBANK_MODEL_FORMAT)
    throw new TypeError(
      `EmoBank model: format is ${JSON.stringify(model.format)}, expected ${EMOBANK_MODEL_FORMAT}; refit it with \`pnpm bench exp7\``,
    );
  if (model.embedder.id !== embedder.id)
    throw new Error(
      `EmoBank model was fitted with embedder "${model.embedder.id}" but the run uses "${embedder.id}"; refit with \`pnpm bench exp7 --embedder ${embedder.name}\``,
    );
  const a = { intercept: model.arousal.intercept, weights: Float64Array.from(model.arousal.weights) };
  const v = { intercept: model.valence.intercept, weights: Float64Array.from(model.valence.weights) };
  return {
    name: "emobank",
    description: `ridge regression on EmoBank train (λ = ${model.training.lambda}) over ${embedder.name} embeddings: E = percentile of arousal + valence extremity`,
    async estimate(texts) {
      const vecs = await embedder.embedBatch([...texts]);
      return vecs.map((x): EmotionEstimate => {
        const pa = predictLinear(a, x);
        const pv = predictLinear(v, x);
        const val = clip((pv - 3) / 2, -1, 1);
        return {
          intensity: calibrate(model.intensity_quantiles, emobankIntensityScore(pa, pv)),
          valence: val,
          polarity: polarityOf(val, 0.05),
        };
      });
    },
  };
}
