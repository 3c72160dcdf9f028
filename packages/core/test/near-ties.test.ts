// Near-ties of rankings over a neural model's vectors (docs/reproducibility.md): recorded where adjacent
// scores differ by at most the store's threshold, never for exact embedders, never for orders that read no
// embedding (salience-only), and the order itself is the plain stable descending order either way.
import { describe, expect, it } from "vitest";
import {
  HashingEmbedder,
  MemoryStore,
  NEAR_TIE_EPSILON,
  RankingContext,
  descendingOrder,
  nearTiePositions,
  strategies,
  type Embedder,
} from "../src/index.js";

const columns = (vectors: number[][]) => {
  const dim = vectors[0]!.length;
  const flat = Float64Array.from(vectors.flat());
  const norms = Float64Array.from(vectors, (v) => Math.hypot(...v));
  const n = vectors.length;
  const zeros = () => new Float64Array(n);
  return {
    size: n,
    dim,
    vectors: flat,
    norms,
    emotionalIntensity: zeros().fill(0.5),
    contextualRelevance: zeros(),
    recallCount: zeros(),
    createdAtMs: zeros(),
    decayFromMs: zeros(),
  };
};

const params = (tieEpsilon: number) => ({
  weights: { emotion: 1, recall: 1, context: 1 },
  gamma: 1,
  lambda: 0.231,
  alpha: 0.5,
  tieEpsilon,
});

describe("near-tie positions", () => {
  it("finds adjacent scores within eps, leaving out exact ties (index order on every machine)", () => {
    const scores = [0.5, 0.9, 0.5 + 5e-7, 0.1, 0.1, 0.1 - 2e-7];
    const order = descendingOrder(scores);
    expect(Array.from(order)).toEqual([1, 2, 0, 3, 4, 5]);
    expect(Array.from(nearTiePositions(order, scores, 1e-6))).toEqual([1, 4]);
    expect(Array.from(nearTiePositions(order, scores, 1e-7))).toEqual([]);
  });

  it("are recorded by RankingContext.order when the store has a threshold, and only then", () => {
    // memory 1 and 2 point in almost the same direction: their cosines to the query differ by < 1e-6
    const cols = columns([
      [1, 0],
      [0.6, 0.8],
      [0.6 + 1e-7, 0.8],
    ]);
    const q = { text: "q", vector: Float64Array.from([0.6, 0.8]), intensity: 0.2 };
    const model = new RankingContext(cols, q, 0, params(NEAR_TIE_EPSILON));
    const exact = new RankingContext(cols, q, 0, params(0));
    const om = model.fusedOrder(1);
    const oe = exact.fusedOrder(1);
    expect(Array.from(om)).toEqual(Array.from(oe));
    expect(Array.from(model.nearTies(om) ?? [])).toEqual([0]);
    expect(exact.nearTies(oe)).toBeUndefined();
    // salience-only reads no embedding: exact on every CPU, so nothing is recorded (its E are all equal here)
    expect(model.nearTies(model.fusedOrder(0, false))).toBeUndefined();
    expect(model.nearTies(model.order([1, 1, 1], false))).toBeUndefined();
  });

  it("a store sets the threshold from its embedder: model weights yes, hashing no", async () => {
    const hashing = new HashingEmbedder();
    const fakeModel: Embedder = {
      ...hashing,
      name: "fake",
      id: "fake",
      dim: hashing.dim,
      model: { id: "x/fake", revision: "r", dtype: "fp32" },
      embed: (t) => hashing.embed(t),
      embedBatch: (t) => hashing.embedBatch(t),
    };
    for (const [embedder, eps] of [
      [hashing, 0],
      [fakeModel, NEAR_TIE_EPSILON],
    ] as const) {
      const store = new MemoryStore({ embedder });
      for (const createdAt of ["2024-01-01", "2024-01-02"])
        await store.add({
          text: "walked the dog",
          event: "walk",
          emotion: "calm",
          hashtags: [],
          emotionalIntensity: 0.3,
          contextualRelevance: 0.5,
          recallCount: 0,
          createdAt,
        });
      const ctx = store.context({ text: "dog", vector: await embedder.embed("dog") }, "2024-01-03");
      expect(ctx.params.tieEpsilon).toBe(eps);
      const sim = strategies().find((s) => s.key === "similarity-only")!;
      const order = sim.rank(ctx);
      // identical texts tie exactly: index order everywhere, so nothing is recorded, for either store
      expect(Array.from(order)).toEqual([0, 1]);
      expect(ctx.nearTies(order)).toBeUndefined();
    }
  });
});
