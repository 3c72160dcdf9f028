/**
 * The journal entry the agent produces (paper §4.3, docs/spec.md §6): date, title, diary text, image
 * prompt, the episode's analysis and the memories retrieved for it — plain data, JSON-ready,
 * with a Markdown rendering for people.
 */
import type { Analysis } from "./analyzer.js";
import type { RetrievalResult } from "./store.js";
import { isoUtc, toEpochMs, type TimeInput } from "./time.js";

/** A retrieved memory as recorded in a journal entry. */
export interface JournalMemory {
  id: string;
  text: string;
  event: string;
  emotion: string;
  emotionalIntensity: number;
  createdAt: string;
  similarity: number;
  salience: number;
  retention: number;
  fused: number;
  shortTerm: boolean;
  /** True when the diary may draw on it: not the new episode itself and similarity < 0.7. */
  related: boolean;
}

/** One journal entry (docs/spec.md §6). */
export interface JournalEntry {
  /** The entry's day, UTC, "YYYY-MM-DD". */
  date: string;
  /** The instant the episode was recorded, ISO-8601 UTC. */
  createdAt: string;
  title: string;
  /** Diary text: body, blank line, hashtags. */
  diary: string;
  /** Whether the diary came from the offline template or the configured LLM. */
  diarySource: "template" | "llm";
  /** The image prompt from the visual template. */
  visualPrompt: string;
  /** The analysis of the utterance (the episode). */
  analysis: Analysis;
  /** Id of the memory stored for this episode. */
  memoryId: string;
  /** α the emotion gate chose for the retrieval (0.5 or 1). */
  alpha: number;
  /** The retrieved memories, in rank order (may include the new episode itself, marked unrelated). */
  retrieved: JournalMemory[];
  /** Events of the related memories, in rank order (what the diary may mention). */
  relatedEvents: string[];
}

/** The UTC calendar day of an instant, "YYYY-MM-DD". */
export function utcDay(now: TimeInput): string {
  return new Date(toEpochMs(now, "journal date")).toISOString().slice(0, 10);
}

/** A retrieval result as a plain JournalMemory record. */
export function journalMemory(r: RetrievalResult, related: boolean): JournalMemory {
  const m = r.memory;
  return {
    id: m.id,
    text: m.text,
    event: m.event,
    emotion: m.emotion,
    emotionalIntensity: m.emotionalIntensity,
    createdAt: isoUtc(m.createdAtMs),
    similarity: r.similarity,
    salience: r.salience,
    retention: r.retention,
    fused: r.fused,
    shortTerm: r.shortTerm,
    related,
  };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/** A readable Markdown rendering of a journal entry (for reports and the demo). */
export function journalToMarkdown(entry: JournalEntry): string {
  const a = entry.analysis;
  const lines = [
    `## ${entry.date} — ${entry.title}`,
    "",
    `> ${a.text}`,
    "",
    `*Emotion:* ${a.emotion} (E = ${a.intensity}, valence ${a.valence}${a.significant ? ", significant" : ""}) · *event:* ${a.event} · *gate α:* ${entry.alpha}`,
    "",
    `### Diary (${entry.diarySource})`,
    "",
    entry.diary,
    "",
    "### Image prompt",
    "",
    entry.visualPrompt,
    "",
    "### Retrieved memories",
    "",
  ];
  if (entry.retrieved.length === 0) lines.push("(none)");
  for (const r of entry.retrieved) {
    const tag = r.id === entry.memoryId ? "this episode" : r.related ? "related" : "too similar, not used";
    lines.push(`- ${r.event} (emotion: ${r.emotion}; sim ${fmt(r.similarity)}, fused ${fmt(r.fused)}; ${tag})`);
  }
  return lines.join("\n") + "\n";
}
