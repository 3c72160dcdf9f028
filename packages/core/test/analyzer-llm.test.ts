import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LexiconAnalyzer } from "../src/analyzer.js";
import { LlmAnalyzer, type AnalyzerFallback } from "../src/analyzer-llm.js";
import { OfflineLlm, type Llm } from "../src/llm/llm.js";
import { OpenAiLlm } from "../src/llm/openai.js";
import { chatReply, MockLlmServer, sendJson } from "./mock-llm-server.js";

const UTTERANCE = "  A car splashed puddle water on me and completely ruined my favorite outfit!  ";
const lexicon = new LexiconAnalyzer();

/** A scripted LLM that records its calls. */
function scripted(reply: string | Error): Llm & { calls: { system: string; user: string; temperature?: number; jsonMode?: boolean }[] } {
  const calls: { system: string; user: string; temperature?: number; jsonMode?: boolean }[] = [];
  return {
    name: "scripted",
    offline: false,
    calls,
    async complete(system, user, temperature, jsonMode) {
      calls.push({ system, user, temperature, jsonMode });
      if (reply instanceof Error) throw reply;
      return reply;
    },
  };
}

function recorder() {
  const fallbacks: AnalyzerFallback[] = [];
  const warnings: string[] = [];
  return { fallbacks, warnings, onFallback: (f: AnalyzerFallback) => fallbacks.push(f), logger: { warn: (m: string) => warnings.push(m) } };
}

const good = {
  event: "car splashed puddle ruined outfit",
  emotion: "Angry",
  intensity: 0.87654,
  valence: -1,
  hashtags: ["#Puddle", "Outfit", "#Puddle"],
  title: "Puddle Disaster",
};

describe("LLM analyzer", () => {
  it("uses a valid LLM answer, asking in JSON mode", async () => {
    const llm = scripted(JSON.stringify(good));
    const rec = recorder();
    const a = await new LlmAnalyzer({ llm, ...rec }).analyze(UTTERANCE);
    expect(a).toEqual({
      text: UTTERANCE.trim(),
      event: "car splashed puddle ruined outfit",
      emotion: "angry",
      intensity: 0.877,
      valence: -1,
      hashtags: ["#Puddle", "#Outfit"],
      title: "Puddle Disaster",
      significant: true,
    });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.jsonMode).toBe(true);
    expect(llm.calls[0]!.temperature).toBe(0);
    expect(llm.calls[0]!.user).toContain(UTTERANCE.trim());
    expect(llm.calls[0]!.system).toMatch(/"joyful".*"neutral"/);
    expect(rec.fallbacks).toHaveLength(0);
  });

  it("accepts a fenced JSON reply and derives a missing valence from the lexicon", async () => {
    const { valence: _omit, ...rest } = good;
    const a = await new LlmAnalyzer({
      llm: scripted("```json\n" + JSON.stringify({ ...rest, emotion: "content", intensity: 0.3 }) + "\n```"),
    }).analyze("x");
    expect(a.emotion).toBe("content");
    expect(a.valence).toBe(1);
    expect(a.significant).toBe(false);
  });

  it("falls back to the lexicon on a transport error, observably", async () => {
    const rec = recorder();
    const analyzer = new LlmAnalyzer({ llm: scripted(new Error("socket hang up")), ...rec });
    const a = await analyzer.analyze(UTTERANCE);
    expect(a).toEqual(lexicon.analyzeSync(UTTERANCE));
    expect(rec.fallbacks.map((f) => f.reason)).toEqual(["transport"]);
    expect(rec.fallbacks[0]!.message).toContain("socket hang up");
    expect(rec.warnings).toHaveLength(1);
    expect(rec.warnings[0]).toMatch(/fell back to the lexicon \(transport\)/);
    expect(analyzer.fallbackCounts).toEqual({ transport: 1, parse: 0, schema: 0 });
  });

  it("falls back on a reply that is not JSON", async () => {
    const rec = recorder();
    const a = await new LlmAnalyzer({ llm: scripted("Sure! The emotion is anger."), ...rec }).analyze(UTTERANCE);
    expect(a).toEqual(lexicon.analyzeSync(UTTERANCE));
    expect(rec.fallbacks.map((f) => f.reason)).toEqual(["parse"]);
    expect(rec.fallbacks[0]!.raw).toBe("Sure! The emotion is anger.");
  });

  it("falls back on every schema violation", async () => {
    const bad: unknown[] = [
      [],
      { ...good, emotion: "furious-ish" },
      { ...good, intensity: 1.5 },
      { ...good, intensity: "high" },
      { ...good, valence: 2 },
      { ...good, hashtags: "#Puddle" },
      { ...good, hashtags: ["#two words"] },
      { ...good, event: "" },
      { ...good, title: undefined },
    ];
    for (const reply of bad) {
      const rec = recorder();
      const a = await new LlmAnalyzer({ llm: scripted(JSON.stringify(reply)), ...rec }).analyze(UTTERANCE);
      expect(a, JSON.stringify(reply)).toEqual(lexicon.analyzeSync(UTTERANCE));
      expect(
        rec.fallbacks.map((f) => f.reason),
        JSON.stringify(reply),
      ).toEqual(["schema"]);
    }
  });

  it("with the offline stub ({} in JSON mode) equals the lexicon analyzer", async () => {
    const rec = recorder();
    const analyzer = new LlmAnalyzer({ llm: new OfflineLlm(), ...rec });
    for (const text of ["I was scolded by my mom for spending all my allowance, I feel regretful.", "went for a walk"]) {
      expect(await analyzer.analyze(text)).toEqual(lexicon.analyzeSync(text));
    }
    expect(rec.fallbacks.map((f) => f.reason)).toEqual(["schema", "schema"]);
  });

  it("rejects non-string text instead of falling back", async () => {
    const rec = recorder();
    await expect(new LlmAnalyzer({ llm: scripted("{}"), ...rec }).analyze(42 as unknown as string)).rejects.toThrow(
      /text must be a string/,
    );
    expect(rec.fallbacks).toHaveLength(0);
    expect(() => new LlmAnalyzer({} as never)).toThrow(/options.llm must be an Llm/);
  });
});

describe("LLM analyzer over HTTP", () => {
  const server = new MockLlmServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it("uses the served analysis, and falls back when the server fails", async () => {
    const rec = recorder();
    const analyzer = new LlmAnalyzer({ llm: new OpenAiLlm({ apiKey: "k", baseUrl: server.baseUrl, timeoutMs: 5_000 }), ...rec });
    server.handler = (_req, res) => sendJson(res, 200, chatReply(JSON.stringify(good)));
    expect((await analyzer.analyze(UTTERANCE)).title).toBe("Puddle Disaster");
    expect(JSON.parse(server.seen[0]!.body).response_format).toEqual({ type: "json_object" });
    server.handler = (_req, res) => sendJson(res, 503, { error: "maintenance" });
    expect(await analyzer.analyze(UTTERANCE)).toEqual(lexicon.analyzeSync(UTTERANCE));
    expect(rec.fallbacks.map((f) => f.reason)).toEqual(["transport"]);
    expect(rec.fallbacks[0]!.message).toMatch(/HTTP 503/);
  });
});
