/**
 * @persode/core/transformers — the semantic embedders (docs/spec.md §4): transformers.js models
 * (all-MiniLM-L6-v2 by default; any declared model with its pooling, prefixes and word-piece limit) with
 * L2 normalisation, and the on-disk embedding cache. `createEmbedder("minilm")` from the root entry loads
 * this lazily; import it directly to configure the model or the cache yourself. Needs the optional
 * dependency @huggingface/transformers.
 */

/** The transformers.js embedder, its loaders, model-folder resolution, pooling and the error raised when no model is available. */
export {
  MINILM_DEFAULT_MODEL,
  TransformersEmbedder,
  ModelUnavailableError,
  loadTransformersEmbedder,
  createTransformersEmbedder,
  transformersOptionsFromEnv,
  resolveModelSource,
  requiredModelFiles,
  meanPoolNormalize,
  modelFingerprint,
  poolVectors,
  type TransformersEmbedderOptions,
  type ModelSource,
  type Pooling,
} from "./embedders/transformers.js";
/** The append-only, CRC-checked embedding cache keyed by model identity and model input, and an embedder that reads through it. */
export { EmbeddingCache, CachedEmbedder, textKey, type EmbeddingCacheStats } from "./embedders/embedding-cache.js";
