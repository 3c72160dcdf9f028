/**
 * The optional LLM backend of the Event-Emotion Analyzer (docs/spec.md §3, last bullet): the LLM is asked
 * for a JSON object with the lexicon analysis' fields; any failure — transport, parse or schema —
 * falls back to the lexicon analyzer, silently for the caller but reported to `onFallback`/`logger`.
 */
import { describe, pyRound } from "@persode/util";
import { LexiconAnalyzer } from "./analyzer.js";
import type { Analysis, EmotionAnalyzer } from "./analyzer.js";
import type { Llm } from "./llm/llm.js";
import { clip } from "./numeric.js";

/** Why an LLM analysis was discarded. */
export type AnalyzerFallbackReason = "transport" | "parse" | "schema";

/** What `onFallback` receives each time the lexicon result is used instead of the LLM's. */
export interface AnalyzerFallback {
  reason: AnalyzerFallbackReason;
  /** The analysed text (trimmed). */
  text: string;
  /** Human-readable cause. */
  message: string;
  /** The thrown error (transport, parse) when there is one. */
  error?: unknown;
  /** The raw LLM reply (parse, schema). */
  raw?: string;
}

/** Options of the LLM analyzer. */
export interface LlmAnalyzerOptions {
  /** The LLM to ask. */
  llm: Llm;
  /** The fallback (and the source of the allowed emotion labels); default: the shipped lexicon. */
  fallback?: LexiconAnalyzer;
  /** Sampling temperature (default 0, for repeatable labels). */
  temperature?: number;
  /** Called on every fallback. */
  onFallback?: (info: AnalyzerFallback) => void;
  /** Receives one warning line per fallback (e.g. `console`). */
  logger?: { warn(message: string): void };
}

class SchemaError extends Error {}

/**
 * An EmotionAnalyzer backed by an LLM in JSON mode, with the lexicon analyzer as fallback.
 * `text` is always the trimmed input and `significant` is recomputed as E ≥ 0.6.
 */
export class LlmAnalyzer implements EmotionAnalyzer {
  readonly llm: Llm;
  readonly fallback: LexiconAnalyzer;
  readonly temperature: number;
  /** How many analyses fell back to the lexicon, by reason. */
  readonly fallbackCounts: Record<AnalyzerFallbackReason, number> = { transport: 0, parse: 0, schema: 0 };
  private readonly onFallback: ((info: AnalyzerFallback) => void) | undefined;
  private readonly logger: { warn(message: string): void } | undefined;
  private readonly emotions: string[];
  private readonly valenceOf: Map<string, number>;

  constructor(options: LlmAnalyzerOptions) {
    if (options === null || typeof options !== "object" || !options.llm || typeof options.llm.complete !== "function") {
      throw new TypeError("LlmAnalyzer: options.llm must be an Llm (an object with complete(system, user, temperature, jsonMode))");
    }
    this.llm = options.llm;
    this.fallback = options.fallback ?? new LexiconAnalyzer();
    this.temperature = options.temperature ?? 0;
    this.onFallback = options.onFallback;
    this.logger = options.logger;
    this.emotions = this.fallback.lexicon.emotions.map((e) => e.emotion);
    this.valenceOf = new Map(this.fallback.lexicon.emotions.map((e) => [e.emotion, e.valence]));
  }

  /** The system prompt sent with every analysis (describes the JSON schema and the labels). */
  systemPrompt(): string {
    return [
      "You label short personal diary utterances. Reply with one JSON object and nothing else, with exactly these keys:",
      '"event": the key content words of what happened, lowercase, at most 8 words, no punctuation;',
      `"emotion": one of ${this.emotions.map((e) => `"${e}"`).join(", ")};`,
      '"intensity": how strongly the emotion is felt, a number from 0 to 1;',
      '"valence": 1 for pleasant, -1 for unpleasant, 0 for neither;',
      '"hashtags": up to 4 strings such as "#Graduation", each "#" followed by one capitalized word;',
      '"title": a short title of at most four capitalized words.',
    ].join(" ");
  }

  async analyze(input: string): Promise<Analysis> {
    if (typeof input !== "string") throw new TypeError(`LlmAnalyzer: text must be a string, got ${describe(input)}`);
    const text = input.trim();
    let raw: string;
    try {
      raw = await this.llm.complete(this.systemPrompt(), `Utterance: ${text}`, this.temperature, true);
    } catch (error) {
      return this.fall({ reason: "transport", text, message: `LLM call failed: ${(error as Error)?.message ?? String(error)}`, error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(stripFence(raw));
    } catch (error) {
      return this.fall({ reason: "parse", text, message: `LLM reply is not JSON: ${snippet(raw)}`, error, raw });
    }
    try {
      return this.validate(parsed, text);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      return this.fall({ reason: "schema", text, message: `LLM reply does not match the analysis schema: ${error.message}`, raw });
    }
  }

  private fall(info: AnalyzerFallback): Analysis {
    this.fallbackCounts[info.reason] += 1;
    this.logger?.warn(`[persode] LLM analyzer fell back to the lexicon (${info.reason}): ${info.message}`);
    this.onFallback?.(info);
    return this.fallback.analyzeSync(info.text);
  }

  /** Check the LLM's object field by field and build the Analysis. */
  private validate(x: unknown, text: string): Analysis {
    if (x === null || typeof x !== "object" || Array.isArray(x)) throw new SchemaError("expected a JSON object");
    const o = x as Record<string, unknown>;
    const str = (k: string): string => {
      const v = o[k];
      if (typeof v !== "string" || v.trim().length === 0) throw new SchemaError(`"${k}" must be a non-empty string, got ${describe(v)}`);
      return v.replace(/\s+/g, " ").trim();
    };
    const event = str("event");
    const emotion = str("emotion").toLowerCase();
    if (!this.emotions.includes(emotion))
      throw new SchemaError(`"emotion" must be one of ${this.emotions.join(", ")}, got ${describe(o.emotion)}`);
    const intensity = o.intensity;
    if (typeof intensity !== "number" || !Number.isFinite(intensity) || intensity < 0 || intensity > 1) {
      throw new SchemaError(`"intensity" must be a number in [0, 1], got ${describe(intensity)}`);
    }
    let valence = o.valence;
    if (valence === undefined) valence = this.valenceOf.get(emotion) ?? 0;
    if (valence !== -1 && valence !== 0 && valence !== 1) throw new SchemaError(`"valence" must be -1, 0 or 1, got ${describe(valence)}`);
    const tags = o.hashtags;
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) throw new SchemaError(`"hashtags" must be an array of strings`);
    const hashtags: string[] = [];
    for (const t of tags as string[]) {
      const word = t.trim().replace(/^#+/, "");
      if (!/^[A-Za-z0-9_']+$/.test(word)) throw new SchemaError(`hashtag ${describe(t)} must be "#" followed by one word`);
      const tag = "#" + word;
      if (!hashtags.includes(tag)) hashtags.push(tag);
    }
    const title = str("title");
    const E = pyRound(clip(intensity, 0, 1), 3);
    return { text, event, emotion, intensity: E, valence, hashtags, title, significant: E >= this.fallback.threshold };
  }
}

/** Remove a ```json … ``` fence some models wrap around JSON despite JSON mode. */
function stripFence(raw: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(raw);
  return m ? m[1]! : raw;
}

function snippet(raw: string): string {
  const flat = String(raw).replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 120 ? flat.slice(0, 120) + "…" : flat);
}
