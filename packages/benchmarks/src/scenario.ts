import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { MemoryStore, toEpochMs, type Embedder, type MemoryInit } from "@persode/core";
import { DAY_MS } from "@persode/util";

/** One hand-labelled scenario memory (scenario.json). */
export interface ScenarioMemory {
  event: string;
  text: string;
  emotion: string;
  emotional_intensity: number;
  contextual_relevance: number;
  recall_count: number;
  age_days: number;
  hashtags: string[];
}

/** One scenario probe: a target memory (by event) in two phrasings. */
export interface ScenarioProbe {
  target: string;
  category: string;
  plain: string;
  vague: string;
}

/** An Exp. 4 onboarding profile as stored in scenario.json (snake_case). */
type ScenarioProfile = Record<string, unknown> & { label: string };

/** The Exp. 1–4 scenario (data file `data/scenario.json`). */
export interface Scenario {
  reference_now: string;
  memories: ScenarioMemory[];
  probes: ScenarioProbe[];
  categories: Record<string, string>;
  exp4: { utterances: string[]; profiles: ScenarioProfile[]; default_art_style: string };
  exp1_profiles: { label: string; emotional_intensity: number; contextual_relevance: number; recall_count: number }[];
  exp2_weightings: { label: string; w_emotion: number; w_recall: number; w_context: number }[];
  /** sha256 of the scenario file's bytes (recorded in every Exp. 1–4 results file). */
  sha256: string;
}

let cached: Scenario | undefined;

/** The shipped scenario, loaded once. */
export function loadScenario(): Scenario {
  if (!cached) {
    const url = new URL("../data/scenario.json", import.meta.url);
    const bytes = readFileSync(url);
    const s = JSON.parse(bytes.toString("utf8")) as Scenario;
    if (!Array.isArray(s.memories) || !Array.isArray(s.probes) || typeof s.reference_now !== "string") {
      throw new Error(`${url.pathname}: not a Persode scenario file (memories, probes and reference_now are required)`);
    }
    cached = { ...s, sha256: createHash("sha256").update(bytes).digest("hex") };
  }
  return cached;
}

/** The scenario memory as a store entry: stored E, C, n; created_at = reference_now − age. */
export function scenarioMemoryInit(m: ScenarioMemory, nowMs: number): MemoryInit {
  return {
    id: m.event,
    text: m.text,
    event: m.event,
    emotion: m.emotion,
    hashtags: m.hashtags,
    emotionalIntensity: m.emotional_intensity,
    contextualRelevance: m.contextual_relevance,
    recallCount: m.recall_count,
    createdAt: nowMs - m.age_days * DAY_MS,
  };
}

/** A fresh store holding the ten scenario memories (pass `vectors` to reuse their embeddings). */
export async function scenarioStore(
  embedder: Embedder,
  scenario: Scenario = loadScenario(),
  vectors?: readonly Float64Array[],
): Promise<MemoryStore> {
  const nowMs = toEpochMs(scenario.reference_now);
  const store = new MemoryStore({ embedder });
  const vecs = vectors ?? (await embedder.embedBatch(scenario.memories.map((m) => m.text)));
  scenario.memories.forEach((m, i) => store.addEmbedded(scenarioMemoryInit(m, nowMs), vecs[i]!));
  return store;
}
