import { LexiconAnalyzer } from "../analyzer.js";
import type { EmotionEstimator } from "./estimator.js";

/**
 * The paper's keyword analyzer as an estimator (docs/spec.md §3): E is the analyzer's intensity (the matched
 * emotion's base intensity plus emphasis cues), valence the matched emotion's valence (−1, 0, 1).
 * Kept as the baseline every other estimator is measured against.
 */
export function lexiconEstimator(analyzer: LexiconAnalyzer = new LexiconAnalyzer()): EmotionEstimator {
  return {
    name: "lexicon",
    description: "keyword lexicon analyzer (paper §3.2): matched emotion's base E + emphasis cues",
    async estimate(texts) {
      return texts.map((t) => {
        const a = analyzer.analyzeSync(t);
        const p = a.valence > 0 ? 1 : a.valence < 0 ? -1 : 0;
        return { intensity: a.intensity, valence: p, polarity: p };
      });
    },
  };
}
