/**
 * Estimators by name (Exp. 7). Each name builds from the parts it needs; asking for one without its
 * parts (an EmoBank model, an embedder, an LLM, gold labels) is an error that says what to pass.
 */
import type { LlmAnalyzerOptions } from "../analyzer-llm.js";
import type { Embedder } from "../embedders/embedder.js";
import { afinnEstimator } from "./afinn.js";
import { emobankEstimator, type EmoBankModel } from "./emobank.js";
import type { EmotionEstimate, EmotionEstimator } from "./estimator.js";
import { lexiconEstimator } from "./lexicon.js";
import { llmEstimator } from "./llm.js";
import { oracleEstimator } from "./oracle.js";
import { prototypeEstimator, type PrototypeSpace } from "./prototype.js";
import { vaderEstimator } from "./vader.js";

/** Every estimator name, in presentation order (the oracle last: it is an upper bound). */
export const ESTIMATOR_NAMES = ["lexicon", "vader", "afinn", "emobank", "prototype", "llm", "oracle"] as const;
/** One estimator name. */
export type EstimatorName = (typeof ESTIMATOR_NAMES)[number];

/** The parts some estimators need. */
export interface EstimatorParts {
  embedder?: Embedder;
  emobankModel?: EmoBankModel;
  prototype?: { space: PrototypeSpace; quantiles: readonly number[] };
  llm?: LlmAnalyzerOptions;
  oracle?: { labels: ReadonlyMap<string, EmotionEstimate>; description: string };
}

/** Build an estimator by name. */
export function createEstimator(name: string, parts: EstimatorParts = {}): EmotionEstimator {
  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`estimator "${name}" needs ${what}`);
    return x;
  };
  switch (name as EstimatorName) {
    case "lexicon":
      return lexiconEstimator();
    case "vader":
      return vaderEstimator();
    case "afinn":
      return afinnEstimator();
    case "emobank":
      return emobankEstimator(
        need(parts.emobankModel, "a fitted EmoBank model (fitEmoBankModel, or `pnpm bench exp7`)"),
        need(parts.embedder, "the embedder the model was fitted with"),
      );
    case "prototype": {
      const p = need(parts.prototype, "its exemplar space and calibration (prototypeSpace, prototypeCalibration)");
      return prototypeEstimator(need(parts.embedder, "an embedder"), p.space, p.quantiles);
    }
    case "llm":
      return llmEstimator(need(parts.llm, "LLM options ({ llm: createLlm(...) })"));
    case "oracle": {
      const o = need(parts.oracle, "gold labels per text");
      return oracleEstimator(o.labels, o.description);
    }
    default:
      throw new Error(`unknown estimator "${name}"; known: ${ESTIMATOR_NAMES.join(", ")}`);
  }
}
