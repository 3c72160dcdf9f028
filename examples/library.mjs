// The README's library sample ("The library"), runnable as it is: `node examples/library.mjs` in this
// repository (the root package links @persode/core), or `node library.mjs` in any folder where the
// packages are installed (`pnpm pack:library`, then npm install the two tarballs, as the README says).
import { PersodeAgent, MemoryStore, HashingEmbedder, createPreferences, createLlm, journalToMarkdown } from "@persode/core";

const preferences = createPreferences({                                    // onboarding (paper §3.1)
  name: "Mina", age: 21, glasses: false, fashionStyle: "oversized hoodie", hair: "short black hair",
  backgroundTheme: "a rainy city street", backgroundStyle: "soft watercolour",
});
const agent = new PersodeAgent({ preferences, llm: createLlm() });
await agent.ingest("I celebrated my graduation today!", "2025-01-20T10:00:00Z");
const { reply } = await agent.respond("I miss my classmates");            // gated retrieval, reinforcing
console.log(reply);
const entry = await agent.createJournal("A car splashed puddle water on my favorite outfit!");
console.log(journalToMarkdown(entry));                                      // diary + image prompt

const store = new MemoryStore({ embedder: new HashingEmbedder() });         // α 0.5, weights (1,1,1), γ 0.9
await store.add({ text: "Lost my dog", emotionalIntensity: 0.95, createdAt: "2025-01-01" });
const top = await store.retrieve("I miss my pet", { topK: 3, now: "2025-01-24" });
console.log(top.map((r) => `${r.memory.text} (fused ${r.fused.toFixed(3)})`));
await store.save("memories.json");                                          // atomic; MemoryStore.load()
