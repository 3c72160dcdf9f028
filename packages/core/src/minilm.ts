/**
 * @persode/core/minilm — the semantic embedder (docs/spec.md §4): all-MiniLM-L6-v2 (or another
 * transformers.js model) with mean pooling and L2 normalisation, and the on-disk embedding cache.
 * `createEmbedder("minilm")` from the root entry loads this lazily; import it directly to configure
 * the model source or the cache yourself.
 */

/** The MiniLM embedder, its loaders, model-source resolution and the error raised when no model is available. */
export {
  MINILM_DEFAULT_MODEL,
  MiniLMEmbedder,
  ModelUnavailableError,
  loadMiniLM,
  createMiniLMEmbedder,
  miniLMOptionsFromEnv,
  resolveModelSource,
  requiredModelFiles,
  meanPoolNormalize,
  type MiniLMOptions,
  type ModelSource,
} from "./embedders/minilm.js";
/** The append-only, CRC-checked embedding cache keyed by model identity and text hash, and an embedder that reads through it. */
export { EmbeddingCache, CachedEmbedder, textKey, type EmbeddingCacheStats } from "./embedders/embedding-cache.js";
