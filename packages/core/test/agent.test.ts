import { describe, expect, it } from "vitest";
import { PersodeAgent, NO_MEMORIES_LINE, RELATED_SIMILARITY_CEILING } from "../src/agent.js";
import { LexiconAnalyzer } from "../src/analyzer.js";
import { cosine } from "../src/embedders/embedder.js";
import { HashingEmbedder } from "../src/embedders/hashing.js";
import { journalToMarkdown } from "../src/journal.js";
import type { Llm } from "../src/llm/llm.js";
import { preferencesFromProfile, stylePrompt, visualDescriptors } from "../src/onboarding.js";
import { MemoryStore } from "../src/store.js";
import { gateAlpha } from "../src/strategies/gated.js";
import { composeDiary } from "../src/templates/diary.js";
import { buildVisualPrompt } from "../src/templates/visual.js";
import { runDemo } from "../src/demo.js";
import { scenarioJson } from "./shared-fixtures.js";

const fixture = scenarioJson() as {
  exp4: { utterances: string[]; profiles: Record<string, unknown>[]; default_art_style: string };
};
const mina = preferencesFromProfile(fixture.exp4.profiles[0]!, fixture.exp4.default_art_style);
const NOW = Date.parse("2025-01-24T12:00:00Z");
const DAY = 86_400_000;
const analyzer = new LexiconAnalyzer();

const SEEDS: { text: string; daysAgo: number }[] = [
  { text: "My mom scolded me for coming home late and I felt really sad about it.", daysAgo: 20 },
  { text: "I bought a new outfit for the school festival and everyone loved it!", daysAgo: 9 },
  { text: "Rain ruined our picnic plans so we stayed in and watched movies.", daysAgo: 4 },
  { text: "Went to the library after class to return some books.", daysAgo: 2 },
];

/** A recording LLM; `offline` decides whether the agent treats it as a real backend. */
function recordingLlm(offline: boolean, reply: string | Error = "scripted reply") {
  const calls: { system: string; user: string; temperature?: number; jsonMode?: boolean }[] = [];
  const llm: Llm = {
    name: "recording",
    offline,
    async complete(system, user, temperature, jsonMode) {
      calls.push({ system, user, temperature, jsonMode });
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
  return { llm, calls };
}

async function seededAgent(llm?: Llm) {
  const agent = new PersodeAgent({ preferences: mina, llm, clock: () => NOW });
  for (const s of SEEDS) await agent.ingest(s.text, NOW - s.daysAgo * DAY);
  return agent;
}

describe("ingest", () => {
  it("analyses the utterance and stores it as a memory at now with C = 0.5", async () => {
    const agent = new PersodeAgent({ preferences: mina });
    const text = fixture.exp4.utterances[1]!;
    const { analysis, memory } = await agent.ingest(text, "2025-01-20T08:00:00Z");
    expect(analysis).toEqual(analyzer.analyzeSync(text));
    expect(agent.store.size).toBe(1);
    expect(memory.text).toBe(analysis.text);
    expect(memory.event).toBe(analysis.event);
    expect(memory.emotion).toBe(analysis.emotion);
    expect([...memory.hashtags]).toEqual(analysis.hashtags);
    expect(memory.emotionalIntensity).toBe(analysis.intensity);
    expect(memory.contextualRelevance).toBe(0.5);
    expect(memory.recallCount).toBe(0);
    expect(memory.createdAt.toISOString()).toBe("2025-01-20T08:00:00.000Z");
    const second = await agent.ingest("Had toast for breakfast.", NOW, 0.9);
    expect(second.memory.contextualRelevance).toBe(0.9);
  });

  it("rejects bad input clearly", async () => {
    const agent = new PersodeAgent({ preferences: mina });
    await expect(agent.ingest(7 as unknown as string, NOW)).rejects.toThrow(/utterance must be a string/);
    await expect(agent.ingest("   ", NOW)).rejects.toThrow(/utterance is empty/);
    await expect(agent.ingest("hello", "yesterday-ish")).rejects.toThrow(/not an ISO-8601 date-time/);
    await expect(agent.ingest("hello", new Date(Number.NaN))).rejects.toThrow(/not a valid date/);
    await expect(agent.ingest("hello", NOW, 1.5)).rejects.toThrow(/contextual relevance C must be in \[0, 1\]/);
    expect(agent.store.size).toBe(0);
  });
});

describe("construction", () => {
  it("defaults to hashing + lexicon + offline stub and validates its preferences", () => {
    const agent = new PersodeAgent({ preferences: mina });
    expect(agent.store.embedder.id).toBe("hashing-md5-256");
    expect(agent.analyzer).toBeInstanceOf(LexiconAnalyzer);
    expect(agent.llm.offline).toBe(true);
    expect(agent.systemPrompt).toBe(stylePrompt(mina));
    expect(() => new PersodeAgent({ preferences: { ...mina, age: -1 } })).toThrow(/"age" must be a positive integer/);
  });

  it("refuses a store and a different embedder together", () => {
    const store = new MemoryStore({ embedder: new HashingEmbedder(256) });
    expect(() => new PersodeAgent({ preferences: mina, store, embedder: new HashingEmbedder(128) })).toThrow(/pass only one of them/);
    expect(new PersodeAgent({ preferences: mina, store, embedder: store.embedder }).store).toBe(store);
    expect(new PersodeAgent({ preferences: mina, embedder: new HashingEmbedder(64) }).store.embedder.dim).toBe(64);
  });
});

describe("respond", () => {
  it("says there are no memories yet on an empty store", async () => {
    const { llm, calls } = recordingLlm(false);
    const agent = new PersodeAgent({ preferences: mina, llm });
    const r = await agent.respond("hi, how are you?", NOW);
    expect(r.reply).toBe("scripted reply");
    expect(r.context).toEqual([NO_MEMORIES_LINE]);
    expect(calls[0]!.user).toContain(NO_MEMORIES_LINE);
  });

  it("gives the top 3 memories as context lines, with the style prompt as system prompt", async () => {
    const { llm, calls } = recordingLlm(false);
    const agent = await seededAgent(llm);
    const input = "My mom scolded me again today.";
    const r = await agent.respond(input, NOW);
    expect(r.retrieved).toHaveLength(3);
    expect(r.context).toEqual(r.retrieved.map((x) => `${x.memory.event} (emotion: ${x.memory.emotion})`));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.system).toBe(stylePrompt(mina));
    expect(calls[0]!.jsonMode).toBe(false);
    for (const line of r.context) expect(calls[0]!.user).toContain(`- ${line}`);
    expect(calls[0]!.user.trimEnd().endsWith(input)).toBe(true);
    // the most similar memory comes first for a calm query (α = 1)
    expect(r.alpha).toBe(gateAlpha(analyzer.analyzeSync(input).intensity));
    expect(r.retrieved[0]!.memory.text).toBe(SEEDS[0]!.text);
  });

  it("reinforces nothing when the LLM call fails", async () => {
    const { llm } = recordingLlm(false, new Error("upstream 503"));
    const agent = await seededAgent(llm);
    const before = agent.store.memories.map((m) => [m.recallCount, m.lastRecalledMs]);
    await expect(agent.respond("I keep thinking about the rain and the picnic", NOW + 3_600_000)).rejects.toThrow(/upstream 503/);
    expect(agent.store.memories.map((m) => [m.recallCount, m.lastRecalledMs])).toEqual(before);
  });

  it("reinforces exactly the memories it returned", async () => {
    const agent = await seededAgent();
    const later = NOW + 3_600_000;
    const r = await agent.respond("I keep thinking about the rain and the picnic", later);
    const returned = new Set(r.retrieved.map((x) => x.memory.id));
    for (const m of agent.store.memories) {
      if (returned.has(m.id)) {
        expect(m.recallCount).toBe(1);
        expect(m.lastRecalled?.getTime()).toBe(later);
      } else {
        expect(m.recallCount).toBe(0);
        expect(m.lastRecalled).toBeNull();
      }
    }
    expect(r.reply).toContain("I keep thinking about the rain and the picnic");
  });

  it("gates: α = 0.5 for an emotional message, 1 for a calm one", async () => {
    const agent = await seededAgent();
    const hot = "I am SO furious, they completely ruined everything!";
    const calm = "I went to the library.";
    expect(analyzer.analyzeSync(hot).intensity).toBeGreaterThanOrEqual(0.6);
    expect(analyzer.analyzeSync(calm).intensity).toBeLessThan(0.6);
    expect((await agent.respond(hot, NOW)).alpha).toBe(0.5);
    expect((await agent.respond(calm, NOW)).alpha).toBe(1);
  });

  it("uses the clock when now is omitted", async () => {
    const agent = await seededAgent();
    const r = await agent.respond("library books");
    expect(r.retrieved[0]!.memory.lastRecalled?.getTime()).toBe(NOW);
  });
});

describe("createJournal", () => {
  it("stores the episode, recalls without reinforcing, and never names the new episode", async () => {
    for (const utterance of fixture.exp4.utterances) {
      const agent = await seededAgent();
      const entry = await agent.createJournal(utterance, 2, NOW);
      const analysis = analyzer.analyzeSync(utterance);
      expect(agent.store.size).toBe(SEEDS.length + 1);
      for (const m of agent.store.memories) {
        expect(m.recallCount).toBe(0);
        expect(m.lastRecalled).toBeNull();
      }
      expect(entry.date).toBe("2025-01-24");
      expect(entry.title).toBe(analysis.title);
      expect(entry.analysis).toEqual(analysis);
      expect(entry.alpha).toBe(gateAlpha(analysis.intensity));
      expect(entry.retrieved).toHaveLength(2);
      expect(entry.retrieved[0]!.id).toBe(entry.memoryId); // the episode itself ranks first…
      expect(entry.retrieved[0]!.related).toBe(false); // …and is never "related"
      for (const r of entry.retrieved) {
        expect(r.related).toBe(r.id !== entry.memoryId && r.similarity < RELATED_SIMILARITY_CEILING);
      }
      expect(entry.relatedEvents).not.toContain(analysis.event);
      expect(entry.relatedEvents.length).toBeGreaterThan(0);
      expect(entry.diary).toBe(composeDiary(analysis, entry.relatedEvents));
      expect(entry.diary).toContain(`reminded me of ${entry.relatedEvents[0]}`);
      expect(entry.diary).not.toContain(`reminded me of ${analysis.event}`);
      expect(entry.diarySource).toBe("template");
      expect(entry.visualPrompt).toBe(buildVisualPrompt(mina, analysis));
      for (const d of visualDescriptors(mina)) expect(entry.visualPrompt).toContain(d);
      expect(JSON.parse(JSON.stringify(entry))).toEqual(entry);
    }
  });

  it("does not recall an earlier copy of the same episode (similarity ≥ 0.7)", async () => {
    const agent = new PersodeAgent({ preferences: mina, clock: () => NOW });
    const utterance = fixture.exp4.utterances[0]!;
    await agent.ingest(utterance, NOW - 2 * DAY);
    const entry = await agent.createJournal(utterance, 2, NOW);
    expect(entry.retrieved).toHaveLength(2);
    expect(entry.retrieved.every((r) => !r.related)).toBe(true);
    expect(entry.relatedEvents).toEqual([]);
    expect(entry.diary).not.toMatch(/reminded me/);
  });

  it("keeps a related memory only when its similarity is below 0.7", async () => {
    const emb = new HashingEmbedder();
    const agent = new PersodeAgent({ preferences: mina, clock: () => NOW });
    const near = "A car splashed puddle water on me and ruined my favorite outfit";
    const far = "Our teacher announced the exam schedule for next week";
    await agent.ingest(near, NOW - DAY);
    await agent.ingest(far, NOW - DAY);
    const utterance = fixture.exp4.utterances[1]!;
    const nearSim = cosine(emb.embedSync(utterance), emb.embedSync(near));
    expect(nearSim).toBeGreaterThanOrEqual(0.7);
    const entry = await agent.createJournal(utterance, 3, NOW);
    const nearRow = entry.retrieved.find((r) => r.text === near)!;
    expect(nearRow.related).toBe(false);
    expect(entry.relatedEvents).not.toContain(nearRow.event);
  });

  it("writes the diary with a real LLM and appends the hashtags", async () => {
    const { llm, calls } = recordingLlm(false, "  Today a car soaked my outfit. I was so mad.  ");
    const agent = await seededAgent(llm);
    const entry = await agent.createJournal(fixture.exp4.utterances[1]!, 2, NOW);
    expect(entry.diarySource).toBe("llm");
    expect(entry.diary).toBe(`Today a car soaked my outfit. I was so mad.\n\n${entry.analysis.hashtags.join(" ")}`);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.system).toContain(stylePrompt(mina));
    for (const ev of entry.relatedEvents) expect(calls[0]!.user).toContain(ev);
  });

  it("falls back to the template when the LLM diary fails, with a warning", async () => {
    const { llm } = recordingLlm(false, new Error("HTTP 500"));
    const warnings: string[] = [];
    const agent = new PersodeAgent({ preferences: mina, llm, clock: () => NOW, logger: { warn: (m) => warnings.push(m) } });
    const entry = await agent.createJournal(fixture.exp4.utterances[0]!);
    expect(entry.diarySource).toBe("template");
    expect(entry.diary).toBe(composeDiary(entry.analysis, entry.relatedEvents));
    expect(warnings.join("\n")).toMatch(/LLM diary failed \(HTTP 500\)/);
  });

  it("renders Markdown, validates input, and refuses images without an image backend", async () => {
    const agent = await seededAgent();
    const entry = await agent.createJournal(fixture.exp4.utterances[0]!, 2, "2025-01-24T23:59:59Z");
    expect(entry.date).toBe("2025-01-24");
    const md = journalToMarkdown(entry);
    expect(md).toContain(entry.visualPrompt);
    expect(md).toContain(entry.diary);
    await expect(agent.createJournal("x", -1, NOW)).rejects.toThrow(/topK must be a non-negative integer/);
    await expect(agent.createJournal(null as unknown as string, 2, NOW)).rejects.toThrow(/utterance must be a string/);
    await expect(agent.renderImage(entry)).rejects.toThrow(/cannot generate images/);
  });
});

describe("demo", () => {
  it("is deterministic and walks through every step", async () => {
    const a = await runDemo();
    const b = await runDemo();
    expect(a).toBe(b);
    for (const heading of [
      "## 1. Onboarding",
      "## 2. Ingesting utterances",
      "## 3. Responding",
      "## 4. Journal entry",
      "### Image prompt",
    ]) {
      expect(a).toContain(heading);
    }
  });
});
