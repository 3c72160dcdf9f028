import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";

/**
 * An oracle estimator: E looked up from gold labels given per text (e.g. EpiRec's authored intensity
 * band). An UPPER BOUND for what a perfect estimator would give — it reads labels no deployed system
 * has, so it is never a method. Asking for a text without a label is an error.
 */
export function oracleEstimator(labels: ReadonlyMap<string, EmotionEstimate>, description: string): EmotionEstimator {
  return {
    name: "oracle",
    description: `UPPER BOUND, not a method: ${description}`,
    upperBound: true,
    async estimate(texts) {
      return texts.map((t) => {
        const e = labels.get(t);
        if (!e)
          throw new Error(
            `oracle estimator: no gold label for ${JSON.stringify(t.slice(0, 80))}; the oracle only knows the texts it was built from`,
          );
        return e;
      });
    },
  };
}
