import type { Exp4File } from "@persode/results";
import { join } from "node:path";
import {
  LexiconAnalyzer,
  PersodeAgent,
  buildVisualPrompt,
  journalToMarkdown,
  moodCue,
  preferencesFromProfile,
  toEpochMs,
  visualDescriptors,
  type Embedder,
} from "@persode/core";
import { perRunFile } from "@persode/results";
import { meta, scenarioProvenance, writeAtomic, writeResult } from "../result-records.js";
import { loadScenario, scenarioStore, type Scenario } from "../scenario.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";

/**
 * Exp. 4 — dual-template generation (paper §4.3): for both utterances and both onboarding profiles,
 * every visual descriptor must appear in the image prompt, the two profiles' prompts must differ and
 * share the emotion's mood cue; then each profile's agent (seeded with the scenario memories) writes
 * journal entries at reference_now.
 */
export async function runExp4(scenario: Scenario, embedder: Embedder): Promise<{ json: Omit<Exp4File, "meta">; markdown: string }> {
  const analyzer = new LexiconAnalyzer();
  const { utterances, profiles, default_art_style } = scenario.exp4;
  const cases = [];
  let present = 0;
  let total = 0;
  const promptsByUtterance = new Map<string, string[]>();
  for (const utterance of utterances) {
    const a = analyzer.analyzeSync(utterance);
    for (const profile of profiles) {
      const prefs = preferencesFromProfile(profile, default_art_style);
      const prompt = buildVisualPrompt(prefs, a);
      const lower = prompt.toLowerCase();
      const descriptors = visualDescriptors(prefs).map((text) => ({ text, present: lower.includes(text.toLowerCase()) }));
      present += descriptors.filter((d) => d.present).length;
      total += descriptors.length;
      promptsByUtterance.set(utterance, [...(promptsByUtterance.get(utterance) ?? []), prompt]);
      cases.push({
        profile: profile.label,
        utterance,
        emotion: a.emotion,
        mood_cue: moodCue(a.emotion),
        descriptors,
        image_prompt: prompt,
      });
    }
  }
  const prompts = [...promptsByUtterance.values()];
  const profilesDiffer = prompts.every((ps) => new Set(ps).size === ps.length);
  const sharedMoodCue = cases.every((c) => c.image_prompt.includes(c.mood_cue));

  const nowMs = toEpochMs(scenario.reference_now);
  const journals = [];
  const md: string[] = [`# Exp. 4 — journal entries at ${scenario.reference_now}`, ""];
  const memoryVectors = await embedder.embedBatch(scenario.memories.map((m) => m.text)); // once, shared by both profiles' stores
  for (const profile of profiles) {
    const store = await scenarioStore(embedder, scenario, memoryVectors);
    const agent = new PersodeAgent({ preferences: preferencesFromProfile(profile, default_art_style), store, embedder });
    md.push(`## ${profile.label}`, "");
    for (const utterance of utterances) {
      const entry = await agent.createJournal(utterance, 2, nowMs);
      journals.push({
        profile: profile.label,
        utterance,
        entry: {
          date: entry.date,
          title: entry.title,
          diary: entry.diary,
          visual_prompt: entry.visualPrompt,
          emotion: entry.analysis.emotion,
          intensity: entry.analysis.intensity,
          hashtags: entry.analysis.hashtags,
          related: entry.relatedEvents,
        },
      });
      md.push(`> ${utterance}`, "", journalToMarkdown(entry), "");
    }
  }
  return {
    json: {
      reference_now: scenario.reference_now,
      personalization: { descriptor_coverage: { present, total }, profiles_differ: profilesDiffer, shared_mood_cue: sharedMoodCue, cases },
      journals,
    },
    markdown:
      md
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trimEnd() + "\n",
  };
}

export const exp4: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp4,
  async run(ctx) {
    const { json, markdown } = await runExp4(loadScenario(), await ctx.embedder());
    const file = perRunFile("exp4", ctx.runKey);
    const mdFile = perRunFile("exp4", ctx.runKey, ".md");
    await writeResult(join(ctx.out, file), "exp4", {
      ...json,
      meta: meta(ctx.seed, [ctx.runKey], ctx.target, loadScenario().sha256, { datasets: scenarioProvenance(loadScenario().sha256) }),
    });
    await writeAtomic(join(ctx.out, mdFile), markdown);
    const p = json.personalization as {
      descriptor_coverage: { present: number; total: number };
      profiles_differ: boolean;
      shared_mood_cue: boolean;
    };
    return {
      files: [file, mdFile],
      summary: [
        ["descriptors in image prompts", `${p.descriptor_coverage.present}/${p.descriptor_coverage.total}`],
        ["profiles differ / share mood cue", `${p.profiles_differ} / ${p.shared_mood_cue}`],
        ["journal entries", String((json.journals as unknown[]).length)],
      ],
    };
  },
};
