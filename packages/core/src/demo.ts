/**
 * `pnpm demo`: a fully offline, deterministic walk through Persode — onboarding, a few days of
 * utterances turned into memories, a reply with gated memory context, and a journal entry —
 * printed as readable text. Fixed clock, hashing embedder, lexicon analyzer, offline LLM stub.
 */
import { pathToFileURL } from "node:url";
import { DAY_MS } from "@persode/util";
import { PersodeAgent } from "./agent.js";
import { journalToMarkdown } from "./journal.js";
import { OfflineLlm } from "./llm/llm.js";
import { descriptorString, preferencesFromProfile, stylePrompt } from "./onboarding.js";

/** The demo's fixed "now". */
export const DEMO_NOW = "2025-03-14T20:00:00Z";

/** The demo's onboarding profile (snake_case, the scenario.json shape). */
export const DEMO_PROFILE = {
  name: "Hana",
  age: 22,
  glasses: true,
  fashion_style: "cozy streetwear",
  hair: "shoulder-length brown hair",
  background_theme: "seaside town",
  background_style: "pastel",
  conversation_style: "friendly",
  response_length: "concise",
  personality: "empathetic",
  extra_tags: ["holding a film camera"],
} as const;

/** The demo's diary utterances and how many days before DEMO_NOW each was said. */
export const DEMO_HISTORY: readonly { daysAgo: number; text: string }[] = [
  { daysAgo: 12, text: "We celebrated my sister's graduation with a huge family dinner, I was so proud of her!" },
  { daysAgo: 5, text: "Spent a calm Sunday morning reading in the park with a warm coffee." },
  { daysAgo: 3, text: "I failed my driving test again and I was crying in the car afterwards." },
  { daysAgo: 1, text: "My manager criticised my report in front of the whole team, I'm furious!" },
];

/** The demo's chat message and journal utterance (said at DEMO_NOW). */
export const DEMO_MESSAGE = "I keep worrying about the driving test, I'm so nervous about trying again.";
export const DEMO_JOURNAL_UTTERANCE = "I finally passed my driving test today and I'm so happy!";

/** Run the demo and return its printed text (deterministic: the same string on every run). */
export async function runDemo(): Promise<string> {
  const out: string[] = [];
  const nowMs = Date.parse(DEMO_NOW);
  const prefs = preferencesFromProfile({ ...DEMO_PROFILE, extra_tags: [...DEMO_PROFILE.extra_tags] });
  const agent = new PersodeAgent({ preferences: prefs, llm: new OfflineLlm(), clock: () => nowMs });

  out.push("# Persode demo (offline, deterministic)", "");
  out.push(`Clock fixed at ${DEMO_NOW}; hashing embedder, lexicon analyzer, offline LLM stub.`, "");
  out.push("## 1. Onboarding", "");
  out.push(`Style prompt: ${stylePrompt(prefs)}`, "");
  out.push(`Visual descriptors: ${descriptorString(prefs)}`, "");

  out.push("## 2. Ingesting utterances", "");
  for (const h of DEMO_HISTORY) {
    const at = nowMs - h.daysAgo * DAY_MS;
    const { analysis, memory } = await agent.ingest(h.text, at);
    out.push(`- [${new Date(at).toISOString().slice(0, 10)}] ${memory.id} "${h.text}"`);
    out.push(
      `    → emotion ${analysis.emotion}, E = ${analysis.intensity}${analysis.significant ? " (significant)" : ""}, event "${analysis.event}", ${analysis.hashtags.join(" ")}`,
    );
  }
  out.push("");

  out.push("## 3. Responding", "");
  const r = await agent.respond(DEMO_MESSAGE);
  out.push(`User: ${DEMO_MESSAGE}`);
  out.push(`Gate: query E = ${r.queryAnalysis.intensity} → α = ${r.alpha}`);
  out.push("Memory context:");
  for (const [i, line] of r.context.entries()) {
    const res = r.retrieved[i];
    out.push(
      `  - ${line}${res ? `  [${res.memory.id}, sim ${res.similarity.toFixed(3)}, fused ${res.fused.toFixed(3)}, recalled ${res.memory.recallCount}×]` : ""}`,
    );
  }
  out.push(`Agent: ${r.reply}`, "");

  out.push("## 4. Journal entry", "");
  const entry = await agent.createJournal(DEMO_JOURNAL_UTTERANCE);
  out.push(journalToMarkdown(entry));
  out.push(`(store now holds ${agent.store.size} memories)`);
  return out.join("\n") + "\n";
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  runDemo().then(
    (text) => process.stdout.write(text),
    (err: unknown) => {
      process.stderr.write(`persode demo failed: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
