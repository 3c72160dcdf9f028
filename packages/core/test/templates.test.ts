import { describe, expect, it } from "vitest";
import { LexiconAnalyzer } from "../src/analyzer.js";
import { defaultLexicon } from "../src/lexicon.js";
import { descriptorString, preferencesFromProfile, visualDescriptors } from "../src/onboarding.js";
import {
  buildDiaryPrompt,
  composeDiary,
  diaryCloser,
  diaryOpener,
  DIARY_OPENERS,
  LINGER_THRESHOLD,
  type DiaryEpisode,
} from "../src/templates/diary.js";
import { buildImagePromptRequest, buildVisualPrompt, COMPOSITION_CUE, MOOD_CUES, moodCue } from "../src/templates/visual.js";
import { scenarioJson } from "./shared-fixtures.js";

const fixture = scenarioJson() as {
  exp4: { utterances: string[]; profiles: Record<string, unknown>[]; default_art_style: string };
};
const analyzer = new LexiconAnalyzer();
const profiles = fixture.exp4.profiles.map((p) => preferencesFromProfile(p, fixture.exp4.default_art_style));

describe("visual template", () => {
  it("contains every descriptor for both profiles and both Exp. 4 utterances (24/24)", () => {
    let checked = 0;
    let present = 0;
    for (const utterance of fixture.exp4.utterances) {
      const analysis = analyzer.analyzeSync(utterance);
      const prompts = profiles.map((p) => buildVisualPrompt(p, analysis));
      profiles.forEach((p, i) => {
        for (const d of visualDescriptors(p)) {
          checked++;
          if (prompts[i]!.toLowerCase().includes(d.toLowerCase())) present++;
        }
      });
      expect(prompts[0]).not.toBe(prompts[1]);
      const cue = moodCue(analysis.emotion);
      for (const prompt of prompts) {
        expect(prompt).toContain(cue);
        expect(prompt).toContain(analysis.event);
        expect(prompt).toContain(analysis.emotion);
        expect(prompt).toContain(COMPOSITION_CUE);
      }
    }
    expect(checked).toBe(24);
    expect(present).toBe(24);
  });

  it("starts with the descriptor string and accepts preferences, a list or a string alike", () => {
    const analysis = analyzer.analyzeSync(fixture.exp4.utterances[1]!);
    const p = profiles[0]!;
    const fromPrefs = buildVisualPrompt(p, analysis);
    expect(fromPrefs.startsWith(descriptorString(p) + ", ")).toBe(true);
    expect(buildVisualPrompt(visualDescriptors(p), analysis)).toBe(fromPrefs);
    expect(buildVisualPrompt(descriptorString(p), analysis)).toBe(fromPrefs);
  });

  it("has one distinct mood cue per lexicon emotion, neutral for unknown ones", () => {
    const emotions = defaultLexicon().emotions.map((e) => e.emotion);
    expect(Object.keys(MOOD_CUES).sort()).toEqual([...emotions].sort());
    expect(new Set(emotions.map(moodCue)).size).toBe(emotions.length);
    expect(moodCue("bewildered")).toBe(MOOD_CUES.neutral);
    expect(moodCue("JOYFUL")).toBe(MOOD_CUES.joyful);
  });

  it("rejects a missing event or empty descriptors", () => {
    expect(() => buildVisualPrompt(profiles[0]!, { event: "", emotion: "sad" })).toThrow(/event must be a non-empty string/);
    expect(() => buildVisualPrompt([], { event: "x", emotion: "sad" })).toThrow(/descriptor list must not be empty/);
    expect(() => buildVisualPrompt("  ", { event: "x", emotion: "sad" })).toThrow(/must not be empty/);
  });

  it("builds a few-shot image-prompt request ending with the new case", () => {
    const analysis = analyzer.analyzeSync(fixture.exp4.utterances[0]!);
    const { system, user } = buildImagePromptRequest(profiles[1]!, analysis);
    expect(system).toMatch(/image generator/);
    expect(user.match(/^Example \d/gm)).toHaveLength(2);
    const tail = user.slice(user.lastIndexOf("Now yours"));
    expect(tail).toContain(descriptorString(profiles[1]!));
    expect(tail).toContain(analysis.event);
    expect(tail).toContain(moodCue(analysis.emotion));
    expect(tail.trimEnd().endsWith("Prompt:")).toBe(true);
    expect(buildImagePromptRequest(profiles[1]!, analysis, []).user.startsWith("Now yours")).toBe(true);
  });
});

const episode = (over: Partial<DiaryEpisode> = {}): DiaryEpisode => ({
  event: "lost wallet bus",
  emotion: "sad",
  intensity: 0.5,
  valence: -1,
  hashtags: ["#Wallet", "#Sad"],
  ...over,
});

describe("diary composer", () => {
  it("opens by emotion and closes by valence", () => {
    for (const emotion of Object.keys(DIARY_OPENERS)) {
      expect(composeDiary(episode({ emotion })).startsWith(diaryOpener(emotion))).toBe(true);
    }
    expect(diaryOpener("unheard-of")).toBe(DIARY_OPENERS.neutral);
    const closers = [1, 0, -1].map((v) => diaryCloser(v));
    expect(new Set(closers).size).toBe(3);
    for (const v of [1, 0, -1]) {
      const body = composeDiary(episode({ valence: v })).split("\n\n")[0]!;
      expect(body.endsWith(diaryCloser(v))).toBe(true);
    }
    expect(diaryCloser(0.4)).toBe(diaryCloser(1));
  });

  it("mentions the event and adds the lingering sentence exactly when E ≥ 0.7", () => {
    const low = composeDiary(episode({ intensity: 0.699 }));
    const edge = composeDiary(episode({ intensity: LINGER_THRESHOLD }));
    const high = composeDiary(episode({ intensity: 0.95 }));
    expect(low).toContain("lost wallet bus");
    expect(low).not.toMatch(/still lingers/);
    expect(edge).toMatch(/still lingers/);
    expect(high).toMatch(/still lingers/);
    expect(high.split(/(?<=\.)\s+/).length).toBe(low.split(/(?<=\.)\s+/).length + 1);
  });

  it("recalls only the first related event, and nothing without one", () => {
    const withRelated = composeDiary(episode(), ["missed train station", "late rent"]);
    expect(withRelated).toContain("reminded me of missed train station.");
    expect(withRelated).not.toContain("late rent");
    expect(composeDiary(episode(), [])).not.toMatch(/reminded me/);
    expect(composeDiary(episode(), ["  "])).not.toMatch(/reminded me/);
  });

  it("ends with the hashtags after a blank line", () => {
    const text = composeDiary(episode({ hashtags: ["#One", "#Two", "#Sad"] }));
    const [body, tags, ...rest] = text.split("\n\n");
    expect(rest).toHaveLength(0);
    expect(body).not.toContain("#");
    expect(tags).toBe("#One #Two #Sad");
    expect(composeDiary(episode({ hashtags: [] }))).not.toContain("\n");
  });

  it("validates the episode", () => {
    expect(() => composeDiary(episode({ event: "" }))).toThrow(/event must be a non-empty string/);
    expect(() => composeDiary(episode({ intensity: Number.NaN }))).toThrow(/intensity must be a finite number/);
    expect(() => composeDiary(episode(), "x" as unknown as string[])).toThrow(/relatedEvents must be an array/);
  });

  it("builds an LLM instruction prompt with the style, the episode and the related events", () => {
    const prefs = profiles[0]!;
    const { system, user } = buildDiaryPrompt(prefs, episode(), ["missed train station"]);
    expect(system).toContain("Mina");
    expect(system).toMatch(/first person/);
    expect(system).toMatch(/Do not add hashtags/);
    expect(user).toContain("lost wallet bus");
    expect(user).toContain("sad");
    expect(user).toContain("missed train station");
    expect(buildDiaryPrompt(prefs, episode()).user).toMatch(/related memories: none/);
  });
});
