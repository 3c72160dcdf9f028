import { LlmAnalyzer, type LlmAnalyzerOptions } from "../analyzer-llm.js";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";

/**
 * The LLM estimator: the existing OpenAI-compatible analyzer (docs/spec.md §3, last bullet) asked for each
 * text's intensity and valence (−1, 0, 1); E is the model's intensity as returned. Any endpoint the
 * Llm reaches works; a failed call falls back to the lexicon analyzer and is counted in `fallbackCounts`.
 */
export function llmEstimator(options: LlmAnalyzerOptions): EmotionEstimator & { analyzer: LlmAnalyzer } {
  const analyzer = new LlmAnalyzer(options);
  return {
    name: "llm",
    description: "OpenAI-compatible LLM analyzer in JSON mode (lexicon fallback): E = the model's intensity",
    analyzer,
    async estimate(texts) {
      const out: EmotionEstimate[] = [];
      for (const t of texts) {
        const a = await analyzer.analyze(t);
        const p = a.valence > 0 ? 1 : a.valence < 0 ? -1 : 0;
        out.push({ intensity: a.intensity, valence: p, polarity: p });
      }
      return out;
    },
  };
}
