// rankGroups' RankingGroup.memoryIntensity: one group's store, built once, ranked again with other memory E (Exp. 7 reranks
// each store once per emotion estimator) gives exactly the orders of a store built with those E.
import { HashingEmbedder, fused, gated, similarityOnly, type MemoryInit } from "@persode/core";
import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { rankGroups, type RankingGroup } from "../src/ranking-loop.js";
import { randomGroup } from "./random-groups.js";

const embedder = new HashingEmbedder();
const strats = [similarityOnly, fused, gated];
const group = (seed: string, memories: number, queries: number) => randomGroup(seed, memories, queries, () => 0);

function orders(groups: readonly RankingGroup[], top?: number): number[][] {
  const out: number[][] = [];
  rankGroups(groups, embedder, strats, { ranking: (_q, _s, order) => void out.push(Array.from(order)) }, undefined, top ? { top } : {});
  return out;
}

describe("rankGroups with memoryIntensity", () => {
  it("ranks one store, built once, with each E as a store built with that E would", () => {
    const groups = [group("a", 60, 12), group("b", 7, 5)];
    for (const [i, seed] of ["e1", "e2", "e3"].entries()) {
      const r = seedrandom(seed);
      const E = groups.map((g) => Float64Array.from(g.memories, () => Math.floor(r() * 5) / 4));
      const withE = groups.map((g, gi) => ({ ...g, memoryIntensity: E[gi]! }));
      // fresh memories arrays with E in them: stores built from scratch
      const rebuilt = groups.map((g, gi) => ({
        ...g,
        memories: g.memories.map((m, mi): MemoryInit => ({ ...m, emotionalIntensity: E[gi]![mi]! })),
      }));
      for (const top of [undefined, 3]) expect(orders(withE, top), `E set ${i}, top ${top}`).toEqual(orders(rebuilt, top));
    }
    // and the memories' own E again, after the reruns
    const fresh = groups.map((g) => ({ ...g, memories: g.memories.map((m) => ({ ...m })) }));
    expect(orders(groups)).toEqual(orders(fresh));
  });

  it("refuses an E outside [0, 1] or of the wrong length, naming the memory", () => {
    const g = group("c", 4, 1);
    expect(() => orders([{ ...g, memoryIntensity: [0.1, 0.2, 1.5, 0] }])).toThrow(
      /memoryIntensity\[2\] .* is 1\.5; an emotional intensity E is in \[0, 1\]/,
    );
    expect(() => orders([{ ...g, memoryIntensity: [0.1, Number.NaN, 0, 0] }])).toThrow(/memoryIntensity\[1\]/);
    expect(() => orders([{ ...g, memoryIntensity: [0.1] }])).toThrow(/memoryIntensity has 1 values, the group has 4 memories/);
  });
});
