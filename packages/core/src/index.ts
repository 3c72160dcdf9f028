/** @persode/core — the Persode memory model (Jin et al., ICES 2025) as a library. */
export { pyRound, clip, requireFinite } from "./numeric.js";
export { persodeCacheDir } from "./paths.js";
export { parseEnvFlag, offlineFromEnv } from "./env-flag.js";
export { writeFileAtomic } from "./atomic-write.js";
export { DAY_MS, MAX_TIMER_MS, toEpochMs, toDate, isoUtc, daysBetween, requireTimerMs, type TimeInput } from "./time.js";
export { DECAY_RATE_PER_DAY, SHORT_TERM_WINDOW_DAYS, decay, halfLifeDays, recallStrength, isShortTerm } from "./forgetting.js";
export {
  DEFAULT_WEIGHTS,
  DEFAULT_PROTECTION,
  Scorer,
  salience,
  strength,
  rankByStrength,
  validateWeights,
  validateProtection,
  type ScoringWeights,
  type ScorerConfig,
  type Score,
  type Scorable,
} from "./scorer.js";
export { Memory, type MemoryInit, type MemoryJSON } from "./memory.js";
export { defaultLexicon, validateLexicon, type Lexicon, type LexiconEmotion } from "./lexicon.js";
export { LexiconAnalyzer, SIGNIFICANCE_THRESHOLD, type Analysis, type EmotionAnalyzer } from "./analyzer.js";
export { cosine, type Embedder, type EmbedderModel } from "./embedders/embedder.js";
export { blasDot, blasNorm, fma } from "./embedders/blas-dot.js";
export { HashingEmbedder, hashToken, hashingTokens } from "./embedders/hashing.js";
export { createEmbedder, registerEmbedder, embedderNames, type EmbedderFactory, type EmbedderOptions } from "./embedders/registry.js";
export { RankingContext, descendingOrder, type StoreColumns, type RankingQuery, type RankingParams } from "./ranking.js";
export { MemoryStore, type MemoryStoreOptions, type RetrieveOptions, type RetrievalResult } from "./store.js";
export type { RetrievalStrategy, Fusion } from "./strategies/strategy.js";
export { recencyOnly } from "./strategies/recency.js";
export { similarityOnly } from "./strategies/similarity.js";
export { salienceOnly } from "./strategies/salience.js";
export { fused, fusedStrategy } from "./strategies/fused.js";
export { gated, gateAlpha, gateFires, type GateOptions } from "./strategies/gated.js";
export { registerStrategy, unregisterStrategy, strategies, getStrategy, BUILTIN_STRATEGIES } from "./strategies/registry.js";
export {
  DEFAULT_ART_STYLE,
  CONVERSATION_STYLES,
  RESPONSE_LENGTHS,
  PERSONALITIES,
  createPreferences,
  preferencesFromProfile,
  stylePrompt,
  visualDescriptors,
  descriptorString,
  type Preferences,
  type PreferencesInput,
} from "./onboarding.js";
export {
  MOOD_CUES,
  COMPOSITION_CUE,
  IMAGE_PROMPT_EXAMPLES,
  moodCue,
  buildVisualPrompt,
  buildImagePromptRequest,
  type VisualEpisode,
  type ImagePromptExample,
} from "./templates/visual.js";
export { LINGER_THRESHOLD, DIARY_OPENERS, DIARY_CLOSERS, diaryOpener, diaryCloser, composeDiary, buildDiaryPrompt, type DiaryEpisode } from "./templates/diary.js";
export { OfflineLlm, DEFAULT_TEMPERATURE, type Llm, type GeneratedImage } from "./llm/llm.js";
export {
  OpenAiLlm,
  LlmError,
  createLlm,
  DEFAULT_LLM_BASE_URL,
  DEFAULT_LLM_MODEL,
  DEFAULT_IMAGE_MODEL,
  DEFAULT_LLM_TIMEOUT_MS,
  type LlmErrorKind,
  type OpenAiLlmOptions,
  type CreateLlmOptions,
} from "./llm/openai.js";
export { LlmAnalyzer, type LlmAnalyzerOptions, type AnalyzerFallback, type AnalyzerFallbackReason } from "./analyzer-llm.js";
export { utcDay, journalMemory, journalToMarkdown, type JournalEntry, type JournalMemory } from "./journal.js";
export {
  PersodeAgent,
  RESPOND_TOP_K,
  JOURNAL_TOP_K,
  RELATED_SIMILARITY_CEILING,
  NO_MEMORIES_LINE,
  type PersodeAgentOptions,
  type IngestResult,
  type AgentReply,
} from "./agent.js";
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
export { EmbeddingCache, CachedEmbedder, textKey, type EmbeddingCacheStats } from "./embedders/embedding-cache.js";
export { writeTinyBertModel, tinyBertFiles, TINY_BERT_MODEL_ID, type TinyBertOptions, type TinyBertInfo } from "./embedders/tiny-bert.js";
