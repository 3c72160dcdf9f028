import { describe } from "@persode/util";
import { isShortTerm, SHORT_TERM_WINDOW_DAYS } from "./forgetting.js";
import { clip, requireFinite } from "./numeric.js";
import { daysBetween, isoUtc, toEpochMs, type TimeInput } from "./time.js";

/** What it takes to create a memory (docs/spec.md §1). E and C are clipped to [0, 1]. */
export interface MemoryInit {
  id?: string;
  text: string;
  event?: string;
  emotion?: string;
  hashtags?: string[];
  /** E, emotional intensity. */
  emotionalIntensity: number;
  /** C, contextual relevance (default 0.5). */
  contextualRelevance?: number;
  /** n, times recalled (default 0). */
  recallCount?: number;
  createdAt: TimeInput;
  lastRecalled?: TimeInput | null;
}

/** The JSON form of a memory, snake_case like the paper's data files. */
export interface MemoryJSON {
  id: string;
  text: string;
  event: string;
  emotion: string;
  hashtags: string[];
  emotional_intensity: number;
  contextual_relevance: number;
  recall_count: number;
  created_at: string;
  last_recalled: string | null;
}

/**
 * One episodic memory (paper §4.2): text, event, emotion, hashtags, E, C, recall count n,
 * created_at and last_recalled. The decay clock runs from last_recalled when set.
 */
export class Memory {
  readonly id: string;
  readonly text: string;
  readonly event: string;
  readonly emotion: string;
  readonly hashtags: readonly string[];
  readonly emotionalIntensity: number;
  readonly contextualRelevance: number;
  private _recallCount: number;
  private readonly _createdAtMs: number;
  private _lastRecalledMs: number | null;

  constructor(init: MemoryInit, fallbackId = "m0") {
    if (init === null || typeof init !== "object") throw new TypeError("memory: expected an object");
    if (typeof init.text !== "string") throw new TypeError(`memory text must be a string, got ${describe(init.text)}`);
    this.id = init.id ?? fallbackId;
    if (typeof this.id !== "string" || this.id === "")
      throw new TypeError(`memory id must be a non-empty string, got ${describe(this.id)}`);
    this.text = init.text;
    this.event = init.event ?? init.text;
    this.emotion = init.emotion ?? "neutral";
    if (typeof this.event !== "string") throw new TypeError(`memory event must be a string, got ${describe(init.event)}`);
    if (typeof this.emotion !== "string") throw new TypeError(`memory emotion must be a string, got ${describe(init.emotion)}`);
    const tags = init.hashtags ?? [];
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) throw new TypeError("memory hashtags must be an array of strings");
    this.hashtags = Object.freeze([...tags]);
    this.emotionalIntensity = clip(requireFinite(init.emotionalIntensity, `memory ${this.id}: emotional intensity E`));
    this.contextualRelevance = clip(requireFinite(init.contextualRelevance ?? 0.5, `memory ${this.id}: contextual relevance C`));
    const n = requireFinite(init.recallCount ?? 0, `memory ${this.id}: recall count`);
    if (n < 0 || !Number.isInteger(n)) throw new RangeError(`memory ${this.id}: recall count must be a non-negative integer, got ${n}`);
    this._recallCount = n;
    this._createdAtMs = toEpochMs(init.createdAt, `memory ${this.id}: created_at`);
    this._lastRecalledMs = init.lastRecalled == null ? null : toEpochMs(init.lastRecalled, `memory ${this.id}: last_recalled`);
  }

  /** n, the number of times this memory was recalled. */
  get recallCount(): number {
    return this._recallCount;
  }
  get createdAtMs(): number {
    return this._createdAtMs;
  }
  get createdAt(): Date {
    return new Date(this._createdAtMs);
  }
  get lastRecalledMs(): number | null {
    return this._lastRecalledMs;
  }
  get lastRecalled(): Date | null {
    return this._lastRecalledMs === null ? null : new Date(this._lastRecalledMs);
  }

  /** Age in days at `now` (≥ 0). */
  ageDays(now: TimeInput): number {
    return Math.max(0, daysBetween(this._createdAtMs, toEpochMs(now, "now")));
  }

  /** Decay age in days: from last_recalled if set, else from created_at (≥ 0). */
  decayAgeDays(now: TimeInput): number {
    return Math.max(0, daysBetween(this._lastRecalledMs ?? this._createdAtMs, toEpochMs(now, "now")));
  }

  /** Whether the memory is inside the short-term window at `now`. */
  isShortTerm(now: TimeInput, windowDays: number = SHORT_TERM_WINDOW_DAYS): boolean {
    return isShortTerm(this.ageDays(now), windowDays);
  }

  /** Recall: n += 1 and last_recalled = now; created_at never changes (docs/spec.md §1). */
  recall(now: TimeInput): void {
    this._lastRecalledMs = toEpochMs(now, "recall time");
    this._recallCount += 1;
  }

  /** Lossless JSON form. */
  toJSON(): MemoryJSON {
    return {
      id: this.id,
      text: this.text,
      event: this.event,
      emotion: this.emotion,
      hashtags: [...this.hashtags],
      emotional_intensity: this.emotionalIntensity,
      contextual_relevance: this.contextualRelevance,
      recall_count: this._recallCount,
      created_at: isoUtc(this._createdAtMs),
      last_recalled: this._lastRecalledMs === null ? null : isoUtc(this._lastRecalledMs),
    };
  }

  /** Rebuild a memory from its JSON form (validated; errors name `where`). */
  static fromJSON(j: unknown, where = "memory"): Memory {
    if (j === null || typeof j !== "object" || Array.isArray(j)) throw new TypeError(`${where}: expected an object`);
    const o = j as Record<string, unknown>;
    const str = (k: string): string => {
      if (typeof o[k] !== "string") throw new TypeError(`${where}.${k}: expected a string, got ${describe(o[k])}`);
      return o[k] as string;
    };
    const num = (k: string): number => {
      if (typeof o[k] !== "number" || !Number.isFinite(o[k]))
        throw new TypeError(`${where}.${k}: expected a finite number, got ${describe(o[k])}`);
      return o[k] as number;
    };
    if (!Array.isArray(o.hashtags) || o.hashtags.some((t) => typeof t !== "string")) {
      throw new TypeError(`${where}.hashtags: expected an array of strings`);
    }
    if (o.last_recalled !== null && typeof o.last_recalled !== "string") {
      throw new TypeError(`${where}.last_recalled: expected a string or null, got ${describe(o.last_recalled)}`);
    }
    const e = num("emotional_intensity");
    const c = num("contextual_relevance");
    // E and C outside [0, 1] are clipped on construction (docs/spec.md §1), exactly as add() does.
    const n = num("recall_count");
    if (n < 0 || !Number.isInteger(n)) throw new RangeError(`${where}.recall_count: expected a non-negative integer, got ${n}`);
    // Parse the instants here so that a bad date names its path in the file.
    const createdAt = toEpochMs(str("created_at"), `${where}.created_at`);
    const lastRecalled = o.last_recalled === null ? null : toEpochMs(o.last_recalled as string, `${where}.last_recalled`);
    return new Memory({
      id: str("id"),
      text: str("text"),
      event: str("event"),
      emotion: str("emotion"),
      hashtags: o.hashtags as string[],
      emotionalIntensity: e,
      contextualRelevance: c,
      recallCount: n,
      createdAt,
      lastRecalled,
    });
  }
}
