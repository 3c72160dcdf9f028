/**
 * The diary (text) template (paper §4.3, docs/spec.md §6): an offline composer that writes a short
 * first-person entry from an episode analysis and the events of related memories, and the
 * instruction prompt that asks an LLM for the same entry.
 */
import { stylePrompt } from "../onboarding.js";
import type { Preferences } from "../onboarding.js";

/** The part of an analysis the diary template uses. */
export interface DiaryEpisode {
  event: string;
  emotion: string;
  /** Emotional intensity E in [0, 1]. */
  intensity: number;
  /** -1, 0 or +1. */
  valence: number;
  hashtags: readonly string[];
}

/**
 * E at or above which the entry says the feeling has not faded yet (docs/spec.md §6: E ≥ 0.7).
 * @internal exported for tests only: test/templates.test.ts checks the threshold against docs/spec.md §6.
 */
export const LINGER_THRESHOLD = 0.7;

/**
 * Opening sentence per lexicon emotion (incl. neutral; unknown emotions use neutral's).
 * @internal exported for tests only: test/templates.test.ts checks one opener per emotion.
 */
export const DIARY_OPENERS: Readonly<Record<string, string>> = Object.freeze({
  joyful: "What a bright day this turned out to be.",
  content: "Today moved at an easy, gentle pace.",
  sad: "Today sat heavy on my heart.",
  angry: "I'm still a little worked up as I write this.",
  anxious: "My thoughts wouldn't settle down today.",
  reflective: "Today left me turning things over in my head.",
  surprised: "I really did not see today coming.",
  neutral: "Just a quick note to remember today by.",
});

/** Closing sentence per valence (+1, 0, -1). */
const DIARY_CLOSERS: Readonly<Record<string, string>> = Object.freeze({
  "1": "I want to hold on to this feeling for a while.",
  "0": "I'll see where this thought takes me tomorrow.",
  "-1": "Tomorrow is a fresh page, and I'll try to be gentle with myself.",
});

/**
 * The opener for an emotion (case-insensitive, neutral's for unknown emotions).
 * @internal exported for tests only: test/templates.test.ts.
 */
export function diaryOpener(emotion: string): string {
  const key = String(emotion).trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(DIARY_OPENERS, key) ? DIARY_OPENERS[key]! : DIARY_OPENERS.neutral!;
}

/**
 * The closer for a valence: its sign picks the positive, neutral or negative sentence.
 * @internal exported for tests only: test/templates.test.ts.
 */
export function diaryCloser(valence: number): string {
  if (typeof valence !== "number" || Number.isNaN(valence))
    throw new TypeError(`diaryCloser: valence must be a number (-1, 0 or 1), got ${String(valence)}`);
  return DIARY_CLOSERS[String(Math.sign(valence) || 0)]!;
}

function checkEpisode(episode: DiaryEpisode, where: string): void {
  if (episode === null || typeof episode !== "object") throw new TypeError(`${where}: episode must be an analysis object`);
  if (typeof episode.event !== "string" || episode.event.trim().length === 0)
    throw new TypeError(`${where}: episode.event must be a non-empty string, got ${JSON.stringify(episode.event)}`);
  if (typeof episode.emotion !== "string") throw new TypeError(`${where}: episode.emotion must be a string`);
  if (typeof episode.intensity !== "number" || !Number.isFinite(episode.intensity))
    throw new TypeError(`${where}: episode.intensity must be a finite number, got ${String(episode.intensity)}`);
  if (!Array.isArray(episode.hashtags) || episode.hashtags.some((h) => typeof h !== "string"))
    throw new TypeError(`${where}: episode.hashtags must be an array of strings`);
}

function checkRelated(relatedEvents: readonly string[], where: string): string[] {
  if (!Array.isArray(relatedEvents)) throw new TypeError(`${where}: relatedEvents must be an array of event strings`);
  return relatedEvents
    .map((e, i) => {
      if (typeof e !== "string") throw new TypeError(`${where}: relatedEvents[${i}] must be a string, got ${typeof e}`);
      return e.trim();
    })
    .filter((e) => e.length > 0);
}

/**
 * The offline diary (docs/spec.md §6): opener by emotion; a sentence about the event; a "still lingers"
 * sentence when E ≥ 0.7; a reminder of the first related event when there is one; a closer by
 * valence; then a blank line and the hashtags (omitted, with the blank line, when there are none).
 */
export function composeDiary(episode: DiaryEpisode, relatedEvents: readonly string[] = []): string {
  checkEpisode(episode, "composeDiary");
  const related = checkRelated(relatedEvents, "composeDiary");
  const sentences = [diaryOpener(episode.emotion), `The moment that stayed with me: ${episode.event.trim()}.`];
  if (episode.intensity >= LINGER_THRESHOLD) sentences.push("Hours later, the feeling still lingers with me.");
  if (related.length > 0) sentences.push(`Somehow it reminded me of ${related[0]}.`);
  sentences.push(diaryCloser(episode.valence));
  const body = sentences.join(" ");
  return episode.hashtags.length > 0 ? `${body}\n\n${episode.hashtags.join(" ")}` : body;
}

/**
 * The instruction prompt asking an LLM for the diary body (system = the user's chat style plus
 * the writing brief; user = the episode facts). The caller appends the hashtags itself.
 */
export function buildDiaryPrompt(
  prefs: Preferences,
  episode: DiaryEpisode,
  relatedEvents: readonly string[] = [],
): { system: string; user: string } {
  checkEpisode(episode, "buildDiaryPrompt");
  const related = checkRelated(relatedEvents, "buildDiaryPrompt");
  const system = [
    stylePrompt(prefs),
    `Now write ${prefs.name}'s diary entry for today in the first person, as if ${prefs.name} wrote it.`,
    "Keep it to three to six sentences of plain prose: what happened, how it felt,",
    "and, if an earlier memory is given, one sentence connecting today to it.",
    "Do not invent names, places or facts that are not given. Do not add hashtags, a title or a date.",
  ].join(" ");
  const lines = [
    `Episode: ${episode.event.trim()}`,
    `Emotion: ${episode.emotion} (intensity ${episode.intensity} on a 0-1 scale)`,
    related.length > 0 ? `Earlier related memories: ${related.join("; ")}` : "Earlier related memories: none",
    "Diary entry:",
  ];
  return { system, user: lines.join("\n") };
}
