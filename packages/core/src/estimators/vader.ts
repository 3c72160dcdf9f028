import { createRequire } from "node:module";
import type vaderPort from "vader-sentiment";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";
import { polarityOf } from "./estimator.js";

/** VADER's published classification threshold on the compound score (Hutto & Gilbert, ICWSM 2014). */
export const VADER_NEUTRAL_BAND = 0.05;

let loaded: typeof vaderPort | undefined;

/** The port, loaded on first use: importing the library (every run of the harness does) does not load its lexicon. */
function port(): typeof vaderPort {
  return (loaded ??= createRequire(import.meta.url)("vader-sentiment") as typeof vaderPort);
}

/** VADER scores of one text: the port's `polarity_scores` (neg, neu, pos, compound). */
export function vaderScores(text: string): { neg: number; neu: number; pos: number; compound: number } {
  return port().SentimentIntensityAnalyzer.polarity_scores(text);
}

/**
 * VADER (Hutto & Gilbert 2014, the `vader-sentiment` port): E = |compound|. The compound score is
 * VADER's own normalised sum of rule-adjusted valences (x/√(x²+15)), so its magnitude already is
 * "how strongly sentiment-laden" on [0, 1]; its sign is the valence. Polarity uses VADER's published
 * ±0.05 band. VADER measures sentiment, not arousal: calm grief and quiet joy score high too.
 */
export function vaderEstimator(): EmotionEstimator {
  return {
    name: "vader",
    description: "VADER sentiment: E = |compound|, valence = compound",
    async estimate(texts) {
      return texts.map((t): EmotionEstimate => {
        const c = vaderScores(t).compound;
        return { intensity: Math.abs(c), valence: c, polarity: polarityOf(c, VADER_NEUTRAL_BAND) };
      });
    },
  };
}
