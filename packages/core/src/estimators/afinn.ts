import { createRequire } from "node:module";
import type Sentiment from "sentiment";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";

/** α of VADER's normalisation x/√(x² + α), reused so AFINN's E is on the same footing as VADER's. */
export const AFINN_NORMALIZATION_ALPHA = 15;

let analyzer: Sentiment | undefined;

/** AFINN-165 sum of word scores of one text (the `sentiment` package, with its negation handling). */
export function afinnScore(text: string): number {
  // the package (and its word list) is loaded on first use: importing the library does not load it
  analyzer ??= new (createRequire(import.meta.url)("sentiment") as typeof Sentiment)();
  return analyzer.analyze(text).score;
}

/**
 * AFINN-165 (Nielsen 2011, the `sentiment` package): the sum s of word valences (each −5…+5) is
 * squashed with VADER's normalisation v = s/√(s² + 15) into [−1, 1]; E = |v|. The sum (not the
 * per-token mean) is used because longer diary entries with more charged words are more intense,
 * and the squash keeps E comparable to VADER's |compound|. Polarity is the sign of s.
 */
export function afinnEstimator(): EmotionEstimator {
  return {
    name: "afinn",
    description: "AFINN-165 word valences: E = |s|/√(s²+15), s = summed scores",
    async estimate(texts) {
      return texts.map((t): EmotionEstimate => {
        const s = afinnScore(t);
        const v = s / Math.sqrt(s * s + AFINN_NORMALIZATION_ALPHA);
        return { intensity: Math.abs(v), valence: v, polarity: s > 0 ? 1 : s < 0 ? -1 : 0 };
      });
    },
  };
}
