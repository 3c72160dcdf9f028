// A seeded RankingGroup for the ranking-loop tests: few words per text, so many memories tie (often at similarity 0)
// and ties must come out by index.
import { HashingEmbedder } from "@persode/core";
import seedrandom from "seedrandom";
import type { RankingGroup } from "../src/ranking-loop.js";

const words = ["rain", "coffee", "sister", "exam", "beach", "train", "angry", "happy", "late", "dog", "lost", "keys"];
const embedder = new HashingEmbedder();

/** `memories` memories and `queries` queries from `seed`; each memory's E from `intensity`, which may draw from the same stream. */
export function randomGroup(seed: string, memories: number, queries: number, intensity: (r: () => number) => number): RankingGroup {
  const r = seedrandom(seed);
  const text = () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => words[Math.floor(r() * words.length)]).join(" ");
  const texts = Array.from({ length: memories }, text);
  const qs = Array.from({ length: queries }, text);
  return {
    memories: texts.map((t, i) => ({
      text: t,
      emotionalIntensity: intensity(r),
      contextualRelevance: 0.5,
      createdAt: 1_700_000_000_000 + Math.floor(r() * 5) * 86_400_000 + i,
    })),
    vectors: texts.map((t) => embedder.embedSync(t)),
    nowMs: 1_700_000_000_000 + 10 * 86_400_000,
    queries: qs.map((q, i) => ({ text: q, vector: embedder.embedSync(q), intensity: i % 2 === 0 ? 0.9 : 0.1 })),
  };
}
