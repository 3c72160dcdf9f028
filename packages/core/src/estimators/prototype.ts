/**
 * The prototype estimator (Exp. 7): zero-shot E from embedding cosine to emotion-exemplar sentences
 * written for this project (not taken from any dataset). Raw score = max(mean cosine to the intense
 * positive exemplars, to the intense negative ones) − mean cosine to the calm neutral ones; E is its
 * percentile among reference sentences (EmoBank train text, labels unused); valence is the nearer
 * of the positive, negative and neutral exemplar sets.
 */
import { blasDotAt, blasNorm, laneDot, lanePositions } from "../embedders/blas-dot.js";
import type { Embedder } from "../embedders/embedder.js";
import { calibrate, quantilesOf } from "./calibration.js";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";

/** Exemplar sentences, written for this project: intense pleasant, intense unpleasant, calm neutral. */
export const EMOTION_EXEMPLARS: Readonly<Record<"positive" | "negative" | "neutral", readonly string[]>> = Object.freeze({
  positive: [
    "I cried with joy when she said yes, the happiest moment of my whole life.",
    "We won the championship and I screamed and hugged everyone, I was ecstatic.",
    "Holding my newborn daughter for the first time, I was overwhelmed with love.",
    "I got the job I dreamed about for years and could not stop smiling all day.",
    "My best friend flew across the world to surprise me and I was so thrilled.",
    "I finally passed the exam after three tries and felt proud and elated.",
    "Our whole family laughed together at the reunion, it felt wonderful.",
    "He proposed on the beach at sunset and my heart was bursting.",
  ],
  negative: [
    "My father died last night and I feel completely broken and lost.",
    "I was so furious when they lied to me that I was shaking with rage.",
    "I panicked when the doctor called about the scan, I am terrified.",
    "Our dog had to be put down today and I could not stop sobbing.",
    "She left me without a word and I feel devastated and alone.",
    "I was humiliated in front of the whole team and wanted to disappear.",
    "The fire destroyed our house and everything we owned is gone.",
    "I lay awake all night sick with worry about losing my job.",
  ],
  neutral: [
    "I bought milk, bread and eggs at the store on the way home.",
    "The meeting was moved from Tuesday to Wednesday afternoon.",
    "I took the bus to work and read the news on my phone.",
    "We had pasta for dinner and then I washed the dishes.",
    "The package arrived this morning and I put it in the hallway.",
    "I changed the printer cartridge and printed the report.",
    "The train left on time and I got off at the usual stop.",
    "I updated the spreadsheet with last month's numbers.",
  ],
});

/** Each exemplar's norm, computed once: the exemplars are compared with every text a run estimates. */
const exemplarNorms = new WeakMap<Float64Array, number>();

/**
 * Mean cosine of `v` to a set of exemplars, with v's norm taken once and each exemplar's norm cached. The dot is
 * the retrieval's own (core's ranking): for exact embedders numpy-exact, visiting only v's non-zeros (`at` =
 * lanePositions(v); blasDotAt is blasDot bit for bit, and a hashing embedding has a few dozen), so `cosine(v, u)`
 * bit for bit; for model vectors (`at` undefined) `laneDot`, whose values are compared within a measured tolerance
 * (docs/reproducibility.md).
 */
function meanCosine(v: Float64Array, at: Int32Array | undefined, nv: number, set: readonly Float64Array[]): number {
  let s = 0;
  for (const u of set) {
    if (u.length !== v.length) throw new RangeError(`cosine: dimension mismatch (${v.length} vs ${u.length})`);
    let nu = exemplarNorms.get(u);
    if (nu === undefined) exemplarNorms.set(u, (nu = blasNorm(u)));
    s += nv === 0 || nu === 0 ? 0 : (at ? blasDotAt(at, v, u) : laneDot(v, u)) / (nv * nu);
  }
  return s / set.length;
}

/** The embedded exemplar sets of one embedder. */
export interface PrototypeSpace {
  positive: Float64Array[];
  negative: Float64Array[];
  neutral: Float64Array[];
  /** The embedder is a neural model: cosines by the fast dot, as retrieval computes them (absent: the exact dot). */
  modelVectors?: boolean;
}

/** Embed the exemplar sentences once. */
export async function prototypeSpace(embedder: Embedder): Promise<PrototypeSpace> {
  const embed = (xs: readonly string[]) => embedder.embedBatch([...xs]);
  return {
    positive: await embed(EMOTION_EXEMPLARS.positive),
    negative: await embed(EMOTION_EXEMPLARS.negative),
    neutral: await embed(EMOTION_EXEMPLARS.neutral),
    modelVectors: embedder.model !== undefined,
  };
}

/** Raw prototype score and nearest set of one embedding. */
export function prototypeScore(
  space: PrototypeSpace,
  v: Float64Array,
): { score: number; positive: number; negative: number; neutral: number } {
  const at = space.modelVectors === true ? undefined : lanePositions(v);
  // ‖v‖ = sqrt(blasDot(v, v)); over v's non-zeros only when they are known (blasDotAt: the same bits)
  const nv = at ? Math.sqrt(blasDotAt(at, v, v)) : blasNorm(v);
  const positive = meanCosine(v, at, nv, space.positive);
  const negative = meanCosine(v, at, nv, space.negative);
  const neutral = meanCosine(v, at, nv, space.neutral);
  return { score: Math.max(positive, negative) - neutral, positive, negative, neutral };
}

/** Percentiles of the raw prototype score over reference texts (the calibration the estimator uses). */
export async function prototypeCalibration(
  embedder: Embedder,
  space: PrototypeSpace,
  referenceTexts: readonly string[],
): Promise<number[]> {
  const vecs = await embedder.embedBatch([...referenceTexts]);
  return quantilesOf(vecs.map((v) => prototypeScore(space, v).score));
}

/** The prototype estimator over a prepared exemplar space and calibration quantiles. */
export function prototypeEstimator(embedder: Embedder, space: PrototypeSpace, quantiles: readonly number[]): EmotionEstimator {
  return {
    name: "prototype",
    description: `zero-shot: ${embedder.name} cosine to ${EMOTION_EXEMPLARS.positive.length + EMOTION_EXEMPLARS.negative.length} intense vs ${EMOTION_EXEMPLARS.neutral.length} neutral exemplar sentences, percentile-calibrated`,
    async estimate(texts) {
      const vecs = await embedder.embedBatch([...texts]);
      return vecs.map((v): EmotionEstimate => {
        const p = prototypeScore(space, v);
        const valence = p.positive - p.negative;
        const top = Math.max(p.positive, p.negative, p.neutral);
        const polarity = top === p.neutral ? 0 : top === p.positive ? 1 : -1;
        return { intensity: calibrate(quantiles, p.score), valence: Math.max(-1, Math.min(1, valence)), polarity };
      });
    },
  };
}
