/**
 * The visual (image) template (paper §4.3, docs/spec.md §6): the user's descriptor string, the episode's
 * event and emotion, a fixed mood cue for that emotion (lighting + mood words) and composition
 * words. Also a few-shot request for an LLM that writes image prompts.
 */
import { descriptorString } from "../onboarding.js";
import type { Preferences } from "../onboarding.js";

/** The part of an analysis the visual template uses. */
export interface VisualEpisode {
  event: string;
  emotion: string;
}

/**
 * One fixed mood cue per lexicon emotion (incl. neutral): lighting, palette and mood words.
 * @internal exported for tests only: test/templates.test.ts checks one mood cue per emotion.
 */
export const MOOD_CUES: Readonly<Record<string, string>> = Object.freeze({
  joyful: "warm golden-hour sunlight, bright cheerful colors, uplifting mood",
  content: "soft diffused daylight, gentle pastel tones, calm and cozy mood",
  sad: "dim overcast light, muted blue-gray palette, quiet melancholic mood",
  angry: "harsh high-contrast light, deep red and charcoal tones, tense stormy mood",
  anxious: "cold flickering light, desaturated greens, uneasy restless mood",
  reflective: "low evening glow, amber and violet tones, pensive contemplative mood",
  surprised: "sudden bright highlights, vivid saturated accents, startled dynamic mood",
  neutral: "even natural lighting, balanced neutral tones, everyday mood",
});

/**
 * Composition words closing every image prompt.
 * @internal exported for tests only: test/templates.test.ts.
 */
export const COMPOSITION_CUE = "character centered in a medium shot, clean composition, illustrated diary page, highly detailed";

/** The mood cue for an emotion (case-insensitive); unknown emotions get the neutral cue. */
export function moodCue(emotion: string): string {
  if (typeof emotion !== "string")
    throw new TypeError(`moodCue: emotion must be a string, got ${emotion === null ? "null" : typeof emotion}`);
  const key = emotion.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(MOOD_CUES, key) ? MOOD_CUES[key]! : MOOD_CUES.neutral!;
}

function episodeParts(episode: VisualEpisode, where: string): { event: string; emotion: string } {
  if (episode === null || typeof episode !== "object") throw new TypeError(`${where}: episode must be an object with event and emotion`);
  const { event, emotion } = episode;
  if (typeof event !== "string" || event.trim().length === 0)
    throw new TypeError(`${where}: episode.event must be a non-empty string, got ${JSON.stringify(event)}`);
  if (typeof emotion !== "string" || emotion.trim().length === 0)
    throw new TypeError(`${where}: episode.emotion must be a non-empty string, got ${JSON.stringify(emotion)}`);
  return { event: event.trim(), emotion: emotion.trim().toLowerCase() };
}

function subjectString(subject: Preferences | readonly string[] | string, where: string): string {
  if (typeof subject === "string") {
    if (subject.trim().length === 0) throw new RangeError(`${where}: the descriptor string must not be empty`);
    return subject.trim();
  }
  if (Array.isArray(subject)) {
    subject.forEach((d, i) => {
      if (typeof d !== "string" || d.trim().length === 0)
        throw new TypeError(`${where}: descriptor ${i} must be a non-empty string, got ${JSON.stringify(d)}`);
    });
    if (subject.length === 0) throw new RangeError(`${where}: the descriptor list must not be empty`);
  } else if (subject === null || typeof subject !== "object") {
    throw new TypeError(`${where}: expected Preferences, a descriptor list or a descriptor string`);
  }
  return descriptorString(subject as Preferences | readonly string[]);
}

/**
 * The image prompt (docs/spec.md §6): "{descriptors}, scene of {event}, feeling {emotion}, {mood cue},
 * {composition}". `subject` is Preferences, their descriptor list, or a ready descriptor string.
 */
export function buildVisualPrompt(subject: Preferences | readonly string[] | string, episode: VisualEpisode): string {
  const descriptors = subjectString(subject, "buildVisualPrompt");
  const { event, emotion } = episodeParts(episode, "buildVisualPrompt");
  return `${descriptors}, scene of ${event}, feeling ${emotion}, ${moodCue(emotion)}, ${COMPOSITION_CUE}`;
}

/** One worked example for the image-prompt LLM. */
interface ImagePromptExample {
  descriptors: string;
  event: string;
  emotion: string;
  prompt: string;
}

/** Built-in few-shot examples (own wording) showing the expected shape of an image prompt. */
const IMAGE_PROMPT_EXAMPLES: readonly ImagePromptExample[] = Object.freeze([
  {
    descriptors: "watercolor storybook art, a 34-year-old character, curly red hair, no glasses, casual fashion, cozy home background",
    event: "baked bread first time kitchen",
    emotion: "joyful",
    prompt:
      "watercolor storybook art, a 34-year-old character, curly red hair, no glasses, casual fashion, cozy home background, pulling " +
      "a first homemade loaf out of the oven in a small kitchen, flour on the sleeves, proud grin, warm golden-hour sunlight, bright " +
      "cheerful colors, uplifting mood, character centered in a medium shot",
  },
  {
    descriptors:
      "soft anime illustration, a 19-year-old character, long black hair, wearing glasses, street fashion, rainy city background",
    event: "missed last train station alone",
    emotion: "anxious",
    prompt:
      "soft anime illustration, a 19-year-old character, long black hair, wearing glasses, street fashion, rainy city background, " +
      "standing alone on an empty platform as the last train pulls away, clutching a phone, cold flickering light, desaturated " +
      "greens, uneasy restless mood, character centered in a medium shot",
  },
]);

/**
 * A few-shot request for an LLM that writes image prompts: a system instruction and a user
 * message with worked examples, then the new case. Send it with `llm.complete(system, user)`.
 */
export function buildImagePromptRequest(
  subject: Preferences | readonly string[] | string,
  episode: VisualEpisode,
  examples: readonly ImagePromptExample[] = IMAGE_PROMPT_EXAMPLES,
): { system: string; user: string } {
  const descriptors = subjectString(subject, "buildImagePromptRequest");
  const { event, emotion } = episodeParts(episode, "buildImagePromptRequest");
  const system = [
    "You turn a diary episode into a single prompt for an image generator.",
    "Start with the character descriptors exactly as given, then describe one concrete scene of the episode,",
    "then the lighting and mood that match the emotion, then the framing.",
    "Answer with the prompt only: one line, comma-separated phrases, no quotes, no explanations.",
  ].join(" ");
  const shots = examples.map(
    (ex, i) => `Example ${i + 1}\nDescriptors: ${ex.descriptors}\nEpisode: ${ex.event}\nEmotion: ${ex.emotion}\nPrompt: ${ex.prompt}`,
  );
  const task = `Now yours\nDescriptors: ${descriptors}\nEpisode: ${event}\nEmotion: ${emotion}\nMood cue to include: ${moodCue(emotion)}\nPrompt:`;
  return { system, user: [...shots, task].join("\n\n") };
}
