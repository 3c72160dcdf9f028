/**
 * Emotion estimators (Exp. 7): interchangeable sources of the emotional intensity E ∈ [0, 1] that
 * Eq. 1 salience and the emotion gate (docs/spec.md §3, §5) read, each selectable by name. The paper's
 * lexicon analyzer is one of them; `estimatorAnalyzer` puts any estimator behind EmotionAnalyzer.
 */
import { LexiconAnalyzer, type Analysis, type EmotionAnalyzer } from "../analyzer.js";
import { pyRound } from "@persode/util";
import { clip } from "../numeric.js";

/** One estimate: E, and — where the estimator can tell — a signed valence score and its class. */
export interface EmotionEstimate {
  /** Emotional intensity E in [0, 1]. */
  intensity: number;
  /** Signed valence score in [−1, 1] (continuous where the estimator has one); undefined if it cannot tell. */
  valence?: number;
  /** Valence class: 1 pleasant, −1 unpleasant, 0 neither; undefined if it cannot tell. */
  polarity?: -1 | 0 | 1;
}

/** A named emotion estimator; `estimate` is batched so embedding-based estimators embed once per text. */
export interface EmotionEstimator {
  /** Registry name, e.g. "vader". */
  readonly name: string;
  /** One line: what E is and where it comes from. */
  readonly description: string;
  /** True for an estimator that reads gold labels (an upper bound, never a method). */
  readonly upperBound?: boolean;
  /** Estimates for each text, in order. */
  estimate(texts: readonly string[]): Promise<EmotionEstimate[]>;
}

/** Sign of x with a dead zone: 1 when x ≥ eps, −1 when x ≤ −eps, else 0. */
export function polarityOf(x: number, eps: number): -1 | 0 | 1 {
  return x >= eps ? 1 : x <= -eps ? -1 : 0;
}

/** Check an estimate is in range (E finite in [0, 1], valence in [−1, 1]); returns it. */
export function checkEstimate(e: EmotionEstimate, who: string, text: string): EmotionEstimate {
  if (!(e.intensity >= 0 && e.intensity <= 1))
    throw new RangeError(`${who}: E must be in [0, 1], got ${e.intensity} for ${JSON.stringify(text.slice(0, 60))}`);
  if (e.valence !== undefined && !(e.valence >= -1 && e.valence <= 1))
    throw new RangeError(`${who}: valence must be in [−1, 1], got ${e.valence}`);
  return e;
}

/**
 * Any estimator behind the EmotionAnalyzer interface: the lexicon analyzer supplies event,
 * emotion label, hashtags and title; the estimator supplies E (rounded to 3 like docs/spec.md §3) and valence.
 */
export function estimatorAnalyzer(estimator: EmotionEstimator, lexicon: LexiconAnalyzer = new LexiconAnalyzer()): EmotionAnalyzer {
  return {
    async analyze(text: string): Promise<Analysis> {
      const base = lexicon.analyzeSync(text);
      const [e] = await estimator.estimate([base.text]);
      const intensity = pyRound(clip(e!.intensity, 0, 1), 3);
      return { ...base, intensity, valence: e!.polarity ?? base.valence, significant: intensity >= lexicon.threshold };
    },
  };
}
