/**
 * The Persode agent (paper §3, §4; docs/spec.md §6): it turns utterances into episodic memories, answers
 * with the emotion-gated memories as context, and writes journal entries (diary + image prompt)
 * that recall related — never the same — episodes.
 */
import { describe } from "@persode/util";
import { LexiconAnalyzer } from "./analyzer.js";
import type { Analysis, EmotionAnalyzer } from "./analyzer.js";
import type { Embedder } from "./embedders/embedder.js";
import { HashingEmbedder } from "./embedders/hashing.js";
import { journalMemory, utcDay, type JournalEntry } from "./journal.js";
import { DEFAULT_TEMPERATURE, OfflineLlm, type GeneratedImage, type Llm } from "./llm/llm.js";
import type { Memory } from "./memory.js";
import { requireFinite } from "./numeric.js";
import { createPreferences, stylePrompt, type Preferences, type PreferencesInput } from "./onboarding.js";
import { MemoryStore, type RetrievalResult } from "./store.js";
import { gateAlpha } from "./strategies/gated.js";
import { buildDiaryPrompt, composeDiary } from "./templates/diary.js";
import { buildVisualPrompt } from "./templates/visual.js";
import { isoUtc, toEpochMs, type TimeInput } from "./time.js";

/** How many memories `respond` puts in the LLM's context (docs/spec.md §6). */
export const RESPOND_TOP_K = 3;
/** How many memories `createJournal` retrieves by default (docs/spec.md §6). */
export const JOURNAL_TOP_K = 2;
/** Retrieved memories at or above this similarity are too close to the episode to be "related". */
export const RELATED_SIMILARITY_CEILING = 0.7;
/** The context line used when no memory was retrieved. */
export const NO_MEMORIES_LINE = "(no earlier memories yet: this is the first thing they've shared)";

/** Construction options of the agent; everything but the preferences has an offline default. */
export interface PersodeAgentOptions {
  /** Onboarding preferences (validated again on construction). */
  preferences: Preferences | PreferencesInput;
  /** The memory store (default: an empty store over `embedder`). */
  store?: MemoryStore;
  /** The Event-Emotion Analyzer (default: the lexicon analyzer). */
  analyzer?: EmotionAnalyzer;
  /** The LLM (default: the deterministic offline stub). */
  llm?: Llm;
  /** Embedder of the default store (default: hashing, 256-d). Must match `store.embedder` when both are given. */
  embedder?: Embedder;
  /** Clock used when a method is called without `now` (default: the system clock). */
  clock?: () => TimeInput;
  /** Sampling temperature for replies and LLM diaries (default 0.7). */
  temperature?: number;
  /** Receives a warning when the LLM diary fails and the offline template is used instead. */
  logger?: { warn(message: string): void };
}

/** What `ingest` returns: the analysis and the stored memory. */
export interface IngestResult {
  analysis: Analysis;
  memory: Memory;
}

/** What `respond` returns. */
export interface AgentReply {
  /** The LLM's answer. */
  reply: string;
  /** The retrieved memories (already reinforced). */
  retrieved: RetrievalResult[];
  /** The context lines given to the LLM ("event (emotion: …)" or the no-memories line). */
  context: string[];
  /** α the emotion gate chose (0.5 or 1). */
  alpha: number;
  /** The analysis of the input that drove the gate. */
  queryAnalysis: Analysis;
  /** The exact prompts sent, for inspection. */
  system: string;
  user: string;
}

function requireUtterance(value: unknown, where: string): string {
  if (typeof value !== "string") throw new TypeError(`${where}: the utterance must be a string, got ${describe(value)}`);
  if (value.trim().length === 0) throw new RangeError(`${where}: the utterance is empty; pass the text the user said or wrote`);
  return value;
}

/** The Persode agent: onboarding preferences + analyzer + memory store + LLM. */
export class PersodeAgent {
  readonly preferences: Preferences;
  readonly store: MemoryStore;
  readonly analyzer: EmotionAnalyzer;
  readonly llm: Llm;
  readonly temperature: number;
  private readonly clock: () => TimeInput;
  private readonly logger: { warn(message: string): void } | undefined;

  constructor(options: PersodeAgentOptions) {
    if (options === null || typeof options !== "object")
      throw new TypeError("PersodeAgent: options must be an object with at least { preferences }");
    this.preferences = createPreferences(options.preferences as PreferencesInput, "PersodeAgent preferences");
    if (options.store && options.embedder && options.store.embedder !== options.embedder) {
      throw new Error(
        `PersodeAgent: the store uses embedder "${options.store.embedder.id}" but embedder "${options.embedder.id}" was also given; pass only one of them`,
      );
    }
    this.store = options.store ?? new MemoryStore({ embedder: options.embedder ?? new HashingEmbedder() });
    this.analyzer = options.analyzer ?? new LexiconAnalyzer();
    this.llm = options.llm ?? new OfflineLlm();
    this.temperature = requireFinite(options.temperature ?? DEFAULT_TEMPERATURE, "PersodeAgent temperature");
    this.clock = options.clock ?? (() => Date.now());
    this.logger = options.logger;
  }

  /** The chatbot's system prompt from the onboarding toggles. */
  get systemPrompt(): string {
    return stylePrompt(this.preferences);
  }

  private instant(now: TimeInput | undefined, where: string): number {
    return toEpochMs(now ?? this.clock(), `${where}: now`);
  }

  /** Analyse an utterance and store it as a memory created at `now` with relevance C (docs/spec.md §6). */
  async ingest(utterance: string, now?: TimeInput, contextualRelevance = 0.5): Promise<IngestResult> {
    requireUtterance(utterance, "ingest");
    const t = this.instant(now, "ingest");
    const c = requireFinite(contextualRelevance, "ingest: contextual relevance C");
    if (c < 0 || c > 1) throw new RangeError(`ingest: contextual relevance C must be in [0, 1], got ${c}`);
    const analysis = await this.analyzer.analyze(utterance);
    const memory = await this.store.add({
      text: analysis.text,
      event: analysis.event,
      emotion: analysis.emotion,
      hashtags: [...analysis.hashtags],
      emotionalIntensity: analysis.intensity,
      contextualRelevance: c,
      createdAt: t,
    });
    return { analysis, memory };
  }

  /** The gated strategy's α for a query: 0.5 if the analyzer's E(query) ≥ 0.6, else 1 (docs/spec.md §5). */
  async gate(query: string): Promise<{ alpha: number; analysis: Analysis }> {
    const analysis = await this.analyzer.analyze(query);
    return { alpha: gateAlpha(analysis.intensity), analysis };
  }

  /** One context line per memory: "event (emotion: …)". */
  static contextLines(results: readonly RetrievalResult[]): string[] {
    if (results.length === 0) return [NO_MEMORIES_LINE];
    return results.map((r) => `${r.memory.event} (emotion: ${r.memory.emotion})`);
  }

  /**
   * Answer a message: retrieve the top 3 memories with the gate (reinforcing them at `now` once the
   * LLM has replied; a failed call reinforces nothing),
   * list them as context and ask the LLM with the style prompt as system prompt (docs/spec.md §6).
   */
  async respond(input: string, now?: TimeInput): Promise<AgentReply> {
    requireUtterance(input, "respond");
    const t = this.instant(now, "respond");
    const { alpha, analysis } = await this.gate(input);
    // Reinforced only once the reply exists: a failed LLM call leaves the memories as they were.
    const retrieved = await this.store.retrieve(input, {
      topK: RESPOND_TOP_K,
      now: t,
      reinforce: false,
      alpha,
      queryIntensity: analysis.intensity,
    });
    const context = PersodeAgent.contextLines(retrieved);
    const system = this.systemPrompt;
    const user = [
      `Memories of ${this.preferences.name} that may be relevant:`,
      ...context.map((l) => `- ${l}`),
      "",
      `${this.preferences.name} says:`,
      input.trim(),
    ].join("\n");
    const reply = await this.llm.complete(system, user, this.temperature, false);
    for (const r of retrieved) r.memory.recall(t);
    return { reply, retrieved, context, alpha, queryAnalysis: analysis, system, user };
  }

  /**
   * Write a journal entry (docs/spec.md §6): ingest the utterance, retrieve top-K with the gate without
   * reinforcing, keep as related the retrieved memories that are not the new episode and have
   * similarity < 0.7, then compose the diary (template, or the LLM when a real one is configured)
   * and the image prompt.
   */
  async createJournal(utterance: string, topK: number = JOURNAL_TOP_K, now?: TimeInput): Promise<JournalEntry> {
    requireUtterance(utterance, "createJournal");
    if (!Number.isInteger(topK) || topK < 0)
      throw new RangeError(`createJournal: topK must be a non-negative integer, got ${describe(topK)}`);
    const t = this.instant(now, "createJournal");
    const { analysis, memory } = await this.ingest(utterance, t);
    const alpha = gateAlpha(analysis.intensity);
    const results = await this.store.retrieve(analysis.text, { topK, now: t, reinforce: false, alpha, queryIntensity: analysis.intensity });
    const retrieved = results.map((r) => journalMemory(r, r.memory.id !== memory.id && r.similarity < RELATED_SIMILARITY_CEILING));
    const relatedEvents = retrieved.filter((r) => r.related).map((r) => r.event);
    const { diary, source } = await this.writeDiary(analysis, relatedEvents);
    return {
      date: utcDay(t),
      createdAt: isoUtc(t),
      title: analysis.title,
      diary,
      diarySource: source,
      visualPrompt: buildVisualPrompt(this.preferences, analysis),
      analysis,
      memoryId: memory.id,
      alpha,
      retrieved,
      relatedEvents,
    };
  }

  private async writeDiary(analysis: Analysis, relatedEvents: string[]): Promise<{ diary: string; source: "template" | "llm" }> {
    if (!this.llm.offline) {
      const { system, user } = buildDiaryPrompt(this.preferences, analysis, relatedEvents);
      try {
        const body = (await this.llm.complete(system, user, this.temperature, false)).trim();
        if (body.length > 0) {
          const tags = analysis.hashtags.join(" ");
          return { diary: tags.length > 0 ? `${body}\n\n${tags}` : body, source: "llm" };
        }
        this.logger?.warn(`[persode] LLM "${this.llm.name}" returned an empty diary; using the offline template`);
      } catch (error) {
        this.logger?.warn(`[persode] LLM diary failed (${(error as Error)?.message ?? String(error)}); using the offline template`);
      }
    }
    return { diary: composeDiary(analysis, relatedEvents), source: "template" };
  }

  /** Render a journal entry's image with the LLM's image endpoint (needs a configured API key). */
  async renderImage(entry: Pick<JournalEntry, "visualPrompt">): Promise<GeneratedImage> {
    if (typeof this.llm.generateImage !== "function") {
      throw new Error(
        `renderImage: the LLM "${this.llm.name}" cannot generate images; set OPENAI_API_KEY or PERSODE_LLM_API_KEY (see createLlm)`,
      );
    }
    return this.llm.generateImage(entry.visualPrompt);
  }
}
