// rankGroups' { top } option: the first k of every strategy's full order, for the strategies that rank by
// their fused score; refused for any other strategy.
import { HashingEmbedder, bm25, fused, gated, similarityOnly } from "@persode/core";
import { describe, expect, it } from "vitest";
import { rankGroups } from "../src/ranking-loop.js";
import { randomGroup } from "./random-groups.js";

const group = (seed: string, memories: number, queries: number) => randomGroup(seed, memories, queries, (r) => Math.floor(r() * 4) / 4);

describe("rankGroups { top }", () => {
  it("hands over exactly the first k of each full order (similarity-only, fused, gated), ties included", () => {
    const groups = [group("a", 60, 12), group("b", 7, 5)];
    const strats = [similarityOnly, fused, gated];
    const embedder = new HashingEmbedder();
    for (const k of [1, 5, 10]) {
      const full: number[][] = [];
      const top: number[][] = [];
      rankGroups(groups, embedder, strats, { ranking: (_q, _s, order) => void full.push(Array.from(order)) });
      rankGroups(groups, embedder, strats, { ranking: (_q, _s, order) => void top.push(Array.from(order)) }, undefined, { top: k });
      expect(top.length).toBe(full.length);
      top.forEach((t, i) => expect(t, `ranking ${i}, k = ${k}`).toEqual(full[i]!.slice(0, k)));
    }
  });

  it("refuses a strategy that does not rank by a fused score, and a k that is not a positive integer", () => {
    const groups = [group("c", 5, 1)];
    const embedder = new HashingEmbedder();
    expect(() => rankGroups(groups, embedder, [similarityOnly, bm25], { ranking: () => {} }, undefined, { top: 5 })).toThrow(
      /strategy "bm25" does not rank by a fused score/,
    );
    expect(() => rankGroups(groups, embedder, [similarityOnly], { ranking: () => {} }, undefined, { top: 0 })).toThrow(/positive integer/);
  });
});
