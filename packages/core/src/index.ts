/**
 * @persode/core — the Persode memory model (Jin et al., ICES 2025) as a library: what an application
 * needs to remember, forget, rank and journal. Two more entry points keep heavy or test-only code out
 * of this one: `@persode/core/transformers` (the transformers.js sentence embedders and their embedding cache; needs the optional
 * dependency @huggingface/transformers)
 * and `@persode/core/testing` (an offline generator of a tiny BERT-shaped ONNX model).
 * Section references (§N) are to docs/spec.md.
 */

// Time (§1: a day is 86 400 s; an instant without a zone is UTC)
/** Milliseconds in a day. */
export { DAY_MS } from "@persode/util";
/** A write the file system refused (MemoryStore.save), with the path, the reason and the fix. */
export { WriteError } from "@persode/util";
/**
 * toEpochMs: parse a Date, ISO-8601 string or epoch ms to epoch ms (§1); isoUtc: render epoch ms as ISO-8601 UTC; TimeInput: what the
 * library accepts as an instant.
 */
export { toEpochMs, isoUtc, type TimeInput } from "./time.js";

// Forgetting (§1)
/** The Ebbinghaus decay (λ = ln 4 / 6 per day), its half-life, recall strength and the six-day short-term window. */
export { DECAY_RATE_PER_DAY, SHORT_TERM_WINDOW_DAYS, decay, halfLifeDays, recallStrength, isShortTerm } from "./forgetting.js";

// Memory strength, Eq. 1 with consolidation (§2)
/** The Eq. 1 scorer: default weights (1, 1, 1) and protection γ, salience, strength, ranking by strength and validators. */
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
/** One stored memory (text, emotion, context, recall count, timestamps) and its JSON form. */
export { Memory, type MemoryInit, type MemoryJSON } from "./memory.js";

// Event-Emotion Analyzer (§3)
/** The emotion lexicon the offline analyzer reads, and its validator. */
export { defaultLexicon, validateLexicon, type Lexicon, type LexiconEmotion } from "./lexicon.js";
/** The offline lexicon analyzer (emotion, intensity E, context C) and the significance threshold. */
export { LexiconAnalyzer, SIGNIFICANCE_THRESHOLD, type Analysis, type EmotionAnalyzer } from "./analyzer.js";
/** An analyzer that asks an LLM and falls back to the lexicon analyzer on any failure. */
export { LlmAnalyzer, type LlmAnalyzerOptions, type AnalyzerFallback, type AnalyzerFallbackReason } from "./analyzer-llm.js";

// Embedders (§4)
/** The embedder interface and the numpy-exact cosine every strategy uses. */
export { cosine, type Embedder, type EmbedderModel, type EmbedRole } from "./embedders/embedder.js";
/** The dependency-free hashing embedder (the reference embedder of every committed result). */
export { HashingEmbedder } from "./embedders/hashing.js";
/** Embedders by name ("hashing", "minilm", plugins): create, register, list. */
export { createEmbedder, registerEmbedder, embedderNames, type EmbedderFactory, type EmbedderOptions } from "./embedders/registry.js";

// Store and retrieval (§5)
/** What a strategy ranks with: the store's typed columns and lazily computed similarity, salience and fused orders. */
export {
  NEAR_TIE_EPSILON,
  RankingContext,
  descendingOrder,
  topOrder,
  nearTiePositions,
  type StoreColumns,
  type RankingQuery,
  type RankingParams,
} from "./ranking.js";
/** The Memory Selection Block: add, retrieve with a strategy, reinforce, save and load. */
export { MemoryStore, MAX_STORE_DIM, type MemoryStoreOptions, type RetrieveOptions, type RetrievalResult } from "./store.js";
/** A retrieval strategy: key, file-name slug and a full ranking of the store. */
export type { RetrievalStrategy, Fusion } from "./strategies/strategy.js";
/** Rank by creation time, newest first. */
export { recencyOnly } from "./strategies/recency.js";
/** Rank by cosine similarity to the query. */
export { similarityOnly } from "./strategies/similarity.js";
/** Rank by emotional salience alone. */
export { salienceOnly } from "./strategies/salience.js";
/** Persode's fusion of similarity and salience (α = 0.5), and the same at any α. */
export { fused, fusedStrategy } from "./strategies/fused.js";
/** Fusion only when the query itself is emotional (E ≥ 0.6), else similarity; the gate's rule. */
export { gated, gateAlpha, gateFires, GATE_FUSED_ALPHA, type GateOptions } from "./strategies/gated.js";
/**
 * Rank with a strategy and check the result is a permutation of the store (NaN scores refused), naming the strategy and query on failure.
 */
export { rankChecked, permutationProblem, StrategyRankingError } from "./strategies/checked-rank.js";
/** The strategy registry every paper-format experiment iterates: the five built-ins, then plugins. */
export { registerStrategy, unregisterStrategy, strategies, BUILTIN_STRATEGIES } from "./strategies/registry.js";
/** The BM25 inverted index over a store's texts, its tokenizer and the textbook parameters (k1 1.2, b 0.75). */
export { Bm25Index, bm25Tokens, BM25_DEFAULTS, type Bm25Params } from "./lexical/bm25-index.js";
/** Okapi BM25 as a retrieval strategy (Robertson & Zaragoza 2009). */
export { bm25, bm25Strategy, bm25IndexOf, bm25Scores, bm25Order } from "./strategies/bm25.js";
/** Reciprocal-rank fusion of BM25 and cosine (k = 60; Cormack et al. 2009). */
export { rrf, rrfStrategy, RRF_K } from "./strategies/rrf.js";
/** CombSUM of min-max-normalised BM25 and cosine (Fox & Shaw 1994). */
export { combSum, combSumScores } from "./strategies/combsum.js";
/** Generative Agents retrieval: recency, importance (analyzer E) and relevance, min-max normalised (Park et al. 2023). */
export {
  generativeAgents,
  generativeAgentsStrategy,
  generativeAgentsScores,
  type GenerativeAgentsOptions,
} from "./strategies/generative-agents.js";
/** MemoryBank retention-weighted similarity, e^(−t/S) with S = 1 + recalls (Zhong et al. 2023). */
export { memoryBank, memoryBankRetention } from "./strategies/memorybank.js";
/** Maximal marginal relevance over cosine (λ = 0.5; Carbonell & Goldstein 1998). */
export { mmr, mmrStrategy, mmrOrder, type MmrOptions } from "./strategies/mmr.js";
/** The Persode gate on the CombSUM hybrid: salience joins only when the query is emotional (E ≥ 0.6). */
export { gatedHybrid } from "./strategies/gated-hybrid.js";
/** Min-max normalisation and 1-based ranks, as the fusion strategies use them. */
export { minMax, ranksOf } from "./strategies/score-utils.js";
/**
 * The extended set beyond the paper's five (baselines and published memory models), its registry, and lookup of any strategy by key or
 * slug.
 */
export {
  EXTENDED_STRATEGIES,
  extendedStrategies,
  registerExtendedStrategy,
  unregisterExtendedStrategy,
  getStrategy,
} from "./strategies/extended.js";

// Onboarding and templates (§6)
/** User preferences from onboarding or a profile, the style prompt and the visual descriptors they imply. */
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
/** The visual template: the emotion's mood cue, the image prompt and the LLM request that writes one. */
export { moodCue, buildVisualPrompt, buildImagePromptRequest, type VisualEpisode } from "./templates/visual.js";
/** The diary template: an offline diary entry and the LLM prompt that writes one. */
export { composeDiary, buildDiaryPrompt, type DiaryEpisode } from "./templates/diary.js";

// LLM adapters and the agent (§6)
/** The LLM interface and the deterministic offline stand-in. */
export { OfflineLlm, DEFAULT_TEMPERATURE, type Llm, type GeneratedImage } from "./llm/llm.js";
/** The OpenAI-compatible HTTP client, its errors and defaults, and createLlm (offline unless a key is set). */
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
/** A day's journal entry (diary + image prompt + the memories behind it) and its Markdown rendering. */
export { utcDay, journalMemory, journalToMarkdown, type JournalEntry, type JournalMemory } from "./journal.js";
/** The journaling agent: ingest, respond with gated retrieval, write the day's journal. */
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

// Emotion estimators (Exp. 7)
/**
 * An emotion estimator: E ∈ [0, 1] (and valence where it can) for any text, and the adapter that puts one behind the analyzer interface
 * (Exp. 7).
 */
export { polarityOf, checkEstimate, estimatorAnalyzer, type EmotionEstimate, type EmotionEstimator } from "./estimators/estimator.js";
/** The keyword lexicon analyzer as an estimator (the paper's E). */
export { lexiconEstimator } from "./estimators/lexicon.js";
/** VADER (Hutto & Gilbert 2014): E from |compound|, valence from its sign. */
export { vaderEstimator, vaderScores, VADER_NEUTRAL_BAND } from "./estimators/vader.js";
/** AFINN-165 through the `sentiment` package: E from the normalised comparative score. */
export { afinnEstimator, afinnScore, AFINN_NORMALIZATION_ALPHA } from "./estimators/afinn.js";
/** Closed-form ridge regression (Cholesky), deterministic, for the EmoBank regressor. */
export {
  fitRidge,
  ridgeProblem,
  solveRidge,
  predictLinear,
  cholesky,
  choleskySolve,
  type LinearModel,
  type RidgeProblem,
} from "./estimators/ridge.js";
/** Pearson correlation. */
export { pearson } from "./estimators/pearson.js";
/** Percentile calibration of raw scores onto E ∈ [0, 1]. */
export { quantilesOf, calibrate, CALIBRATION_POINTS } from "./estimators/calibration.js";
export {
  fitEmoBankModel,
  emobankEstimator,
  emobankPredict,
  emobankIntensityScore,
  EMOBANK_LAMBDAS,
  EMOBANK_MODEL_FORMAT,
  EMOBANK_MODEL_LICENSE,
  type EmoBankExample,
  type EmoBankModel,
  type EmoBankFitOptions,
} from "./estimators/emobank.js";
/** Zero-shot E from embedder cosine to emotion-exemplar sentences written for this project. */
export {
  EMOTION_EXEMPLARS,
  prototypeSpace,
  prototypeScore,
  prototypeCalibration,
  prototypeEstimator,
  type PrototypeSpace,
} from "./estimators/prototype.js";
/** An OpenAI-compatible LLM as an estimator. */
export { llmEstimator } from "./estimators/llm.js";
/** EpiRec's authored intensity band as E: an upper bound, never a method. */
export { oracleEstimator } from "./estimators/oracle.js";
/** Estimators by name. */
export { createEstimator, ESTIMATOR_NAMES, type EstimatorName, type EstimatorParts } from "./estimators/registry.js";
