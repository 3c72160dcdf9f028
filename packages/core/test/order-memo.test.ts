// Orders computed once and shared where the scores are the same: CombSUM's order for the gated hybrid when
// its gate does not fire, and the similarity-only order of a query ranked again over the same precomputed
// similarity (Exp. 7's reruns). Shared orders must equal a fresh sort, near-ties included.
import { describe, expect, it } from "vitest";
import { MemoryStore, combSum, combSumScores, descendingOrder, gatedHybrid, similarityOnly, type Embedder } from "../src/index.js";
import { prng } from "./prng.js";

const now = "2025-02-01T00:00:00Z";
const texts = ["dog park rain", "rain rain exam", "graduation dinner", "dog dog", "bus to the park", "pasta dinner friend", "exam stress"];

async function store(embedder?: Embedder): Promise<MemoryStore> {
  const s = new MemoryStore(embedder ? { embedder } : {});
  const r = prng(3);
  for (let i = 0; i < texts.length; i++)
    await s.add({ text: texts[i]!, emotionalIntensity: r(), contextualRelevance: r(), createdAt: Date.UTC(2025, 0, 1) + i * 3_600_000 });
  return s;
}

describe("memoised orders", () => {
  it("the gated hybrid returns CombSUM's own order when the gate does not fire, and its fused order when it does", async () => {
    const s = await store();
    const calm = s.context({ text: "dog park", vector: await s.embedder.embed("dog park"), intensity: 0.1 }, now);
    const c = combSum.rank(calm);
    expect(gatedHybrid.rank(calm)).toBe(c);
    expect(Array.from(c)).toEqual(Array.from(descendingOrder(combSumScores(calm))));
    const intense = s.context({ text: "dog park", vector: await s.embedder.embed("dog park"), intensity: 0.9 }, now);
    expect(gatedHybrid.rank(intense)).not.toBe(combSum.rank(intense));
  });

  it("similarity-only over the same precomputed similarity reuses the order, near-ties included; a new array sorts again", async () => {
    // a model embedder (near-ties recorded) whose vectors make two memories score within 1e-6
    const base = new Float64Array([1, 0, 0]);
    const vecs: Record<string, Float64Array> = Object.fromEntries(
      texts.map((t, i) => [t, new Float64Array([1, i === 1 ? 1e-4 + 1e-12 : i === 0 ? 1e-4 : 0.1 * i, 0.3])]),
    );
    const embedder: Embedder = {
      name: "fake-model",
      id: "fake-model-3",
      dim: 3,
      model: { id: "fake/model", revision: "r", dtype: "fp32" },
      embed: async (t) => vecs[t] ?? base,
      embedBatch: async (ts) => ts.map((t) => vecs[t] ?? base),
    };
    const s = await store(embedder);
    const first = s.context({ text: "q", vector: base }, now);
    const sim = first.similarity();
    const o1 = similarityOnly.rank(first);
    const ties = first.nearTies(o1);
    expect(ties).toBeDefined();
    const again = s.context({ text: "q", vector: base, similarity: sim }, now);
    const o2 = similarityOnly.rank(again);
    expect(o2).toBe(o1);
    expect(again.nearTies(o2)).toEqual(ties);
    const fresh = s.context({ text: "q", vector: base, similarity: Float64Array.from(sim) }, now);
    const o3 = similarityOnly.rank(fresh);
    expect(o3).not.toBe(o1);
    expect(Array.from(o3)).toEqual(Array.from(o1));
    expect(Array.from(o1)).toEqual(Array.from(descendingOrder(sim)));
  });

  it("similarity-only's top k over the same precomputed similarity is shared per k, and is the first k of a fresh sort", async () => {
    const s = await store();
    const q = { text: "dog park", vector: await s.embedder.embed("dog park") };
    const first = s.context({ ...q, intensity: 0.1 }, now);
    const sim = first.similarity();
    const t3 = first.fusedTop(1, true, 3);
    expect(Array.from(t3)).toEqual(Array.from(descendingOrder(sim)).slice(0, 3));
    // a rerun over the same array (Exp. 7 reruns with other E) gets the same top, whatever else the context holds
    const again = s.context({ ...q, intensity: 0.9, similarity: sim }, now);
    expect(again.fusedTop(1, true, 3)).toBe(t3);
    expect(Array.from(again.fusedTop(1, true, 2))).toEqual(Array.from(t3).slice(0, 2));
    expect(again.fusedTop(0.5, true, 3)).not.toBe(t3);
    const fresh = s.context({ ...q, similarity: Float64Array.from(sim) }, now);
    const f3 = fresh.fusedTop(1, true, 3);
    expect(f3).not.toBe(t3);
    expect(Array.from(f3)).toEqual(Array.from(t3));
  });

  it("fusedTop is the first k of the fused scores' full order, whether or not the salience was computed before", async () => {
    const s = await store();
    const q = { text: "dog park dinner", vector: await s.embedder.embed("dog park dinner") };
    for (const alpha of [0, 0.3, 0.5])
      for (const useQR of [true, false])
        for (const salienceFirst of [false, true]) {
          const ctx = s.context(q, now);
          if (salienceFirst) ctx.salience(useQR);
          const want = Array.from(descendingOrder(s.context(q, now).fused(alpha, useQR))).slice(0, 4);
          expect(Array.from(ctx.fusedTop(alpha, useQR, 4)), `α ${alpha}, C′ ${useQR}, salience first ${salienceFirst}`).toEqual(want);
        }
  });
});
