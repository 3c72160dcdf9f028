import { afterEach, describe, expect, it } from "vitest";
import {
  BUILTIN_STRATEGIES,
  DAY_MS,
  descendingOrder,
  topOrder,
  permutationProblem,
  rankChecked,
  StrategyRankingError,
  fused,
  fusedStrategy,
  gateAlpha,
  gated,
  gateFires,
  getStrategy,
  LexiconAnalyzer,
  MemoryStore,
  recencyOnly,
  registerStrategy,
  salience,
  salienceOnly,
  similarityOnly,
  strategies,
  toEpochMs,
  unregisterStrategy,
  type RankingContext,
  type RetrievalStrategy,
} from "../src/index.js";
import { prng, randInt } from "./prng.js";
import { scenarioJson } from "./shared-fixtures.js";

interface Scenario {
  reference_now: string;
  memories: {
    event: string;
    text: string;
    emotion: string;
    emotional_intensity: number;
    contextual_relevance: number;
    recall_count: number;
    age_days: number;
    hashtags: string[];
  }[];
  probes: { target: string; plain: string; vague: string }[];
}
const scenario = scenarioJson() as Scenario;
const NOW = toEpochMs(scenario.reference_now);

async function scenarioStore(): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const m of scenario.memories) {
    await store.add({
      text: m.text,
      event: m.event,
      emotion: m.emotion,
      hashtags: m.hashtags,
      emotionalIntensity: m.emotional_intensity,
      contextualRelevance: m.contextual_relevance,
      recallCount: m.recall_count,
      createdAt: NOW - m.age_days * DAY_MS,
    });
  }
  return store;
}

async function contextFor(store: MemoryStore, text: string, intensity?: number): Promise<RankingContext> {
  return store.context({ text, vector: await store.embedder.embed(text), intensity }, NOW);
}

/** Stable descending order of a score array, via Array#sort (stable since ES2019). */
const naiveOrder = (s: ArrayLike<number>) => Array.from(s, (_, i) => i).sort((a, b) => s[b]! - s[a]!);

const probes = scenario.probes.flatMap((p) => [p.plain, p.vague]);
const analyzer = new LexiconAnalyzer();

describe("the emotion gate (docs/spec.md §5)", () => {
  it("gateAlpha: 0.5 iff E ≥ 0.6, else 1", () => {
    expect(gateAlpha(0.6)).toBe(0.5);
    expect(gateAlpha(0.95)).toBe(0.5);
    expect(gateAlpha(0.5999999)).toBe(1);
    expect(gateAlpha(0.2)).toBe(1);
    expect(gateFires(0.6)).toBe(true);
    expect(gateFires(0.59)).toBe(false);
    expect(gateAlpha(0.3, { threshold: 0.3, fusedAlpha: 0.25 })).toBe(0.25);
  });

  it("the gated strategy equals similarity-only for calm queries and fused for emotional ones", async () => {
    const store = await scenarioStore();
    let calm = 0;
    let emotional = 0;
    let distinguishing = 0;
    for (const q of probes) {
      const ctx = await contextFor(store, q);
      const E = analyzer.analyzeSync(q).intensity;
      expect(ctx.queryIntensity()).toBe(E);
      const g = Array.from(gated.rank(ctx));
      const sim = Array.from(similarityOnly.rank(ctx));
      const fus = Array.from(fused.rank(ctx));
      if (sim.join() !== fus.join()) distinguishing++;
      if (E >= 0.6) {
        emotional++;
        expect(g, q).toEqual(fus);
      } else {
        calm++;
        expect(g, q).toEqual(sim);
      }
    }
    // the check is only meaningful if both branches occur and the two rankings differ
    expect(calm).toBeGreaterThan(0);
    expect(emotional).toBeGreaterThan(0);
    expect(distinguishing).toBeGreaterThan(0);
  });

  it("a known query intensity overrides the analyzer", async () => {
    const store = await scenarioStore();
    const q = "How was my commute on the bus?"; // analyzer E 0.2 → calm
    const forced = await contextFor(store, q, 0.9);
    expect(forced.queryIntensity()).toBe(0.9);
    expect(Array.from(gated.rank(forced))).toEqual(Array.from(fused.rank(forced)));
    expect(Array.from(fused.rank(forced))).not.toEqual(Array.from(similarityOnly.rank(forced)));
  });
});

describe("built-in strategies", () => {
  it("similarity-only ranks by cosine alone; fused by α 0.5 with C′ = clip(sim)", async () => {
    const store = await scenarioStore();
    for (const q of probes.slice(0, 8)) {
      const ctx = await contextFor(store, q);
      const sim = ctx.similarity();
      expect(Array.from(similarityOnly.rank(ctx))).toEqual(naiveOrder(sim));
      const f = store.memories.map(
        (m, i) => 0.5 * sim[i]! + 0.5 * salience(m.emotionalIntensity, m.recallCount, Math.min(1, Math.max(0, sim[i]!))),
      );
      expect(Array.from(fused.rank(ctx))).toEqual(naiveOrder(f));
      const f3 = store.memories.map(
        (m, i) => 0.3 * sim[i]! + 0.7 * salience(m.emotionalIntensity, m.recallCount, Math.min(1, Math.max(0, sim[i]!))),
      );
      expect(Array.from(fusedStrategy(0.3, "fused α .3", "fused-03").rank(ctx))).toEqual(naiveOrder(f3));
    }
    expect(() => fusedStrategy(1.2)).toThrow(/α must be in \[0, 1\], got 1.2/);
    expect(() => fusedStrategy(Number.NaN)).toThrow(/α must be in \[0, 1\]/);
  });

  it("recency-only: newest first, ties in insertion order, the query ignored", async () => {
    const store = new MemoryStore();
    const ages = [5, 1, 9, 1, 0.25, 5];
    for (const [i, age] of ages.entries())
      await store.add({ text: `note ${i} about the dog`, emotionalIntensity: 0.5, createdAt: NOW - age * DAY_MS });
    store.memories[2]!.recall(NOW); // recalling restarts the decay clock but does not make a memory newer
    const a = Array.from(recencyOnly.rank(await contextFor(store, "dog")));
    const b = Array.from(recencyOnly.rank(await contextFor(store, "something else entirely")));
    expect(a).toEqual([4, 1, 3, 0, 5, 2]);
    expect(b).toEqual(a);
    expect(recencyOnly.queryIndependent).toBe(true);
  });

  it("salience-only: Eq. 1 salience with the stored C, identical for every query", async () => {
    const store = await scenarioStore();
    const k = store.memories.map((m) => salience(m.emotionalIntensity, m.recallCount, m.contextualRelevance));
    const want = naiveOrder(k);
    for (const q of probes) expect(Array.from(salienceOnly.rank(await contextFor(store, q)))).toEqual(want);
    expect(salienceOnly.queryIndependent).toBe(true);
  });

  it("store.retrieveWith ranks with the strategy and reinforces the returned memories", async () => {
    const store = await scenarioStore();
    const q = "I'm feeling really happy about a big achievement today"; // E 0.85 + 0.06 = 0.91 → fused
    const order = Array.from(fused.rank(await contextFor(store, q)));
    const rs = await store.retrieveWith(gated, q, { topK: 3, now: NOW });
    expect(rs.map((r) => r.index)).toEqual(order.slice(0, 3));
    for (const r of rs) expect(r.memory.lastRecalledMs).toBe(NOW);
  });

  it("store.retrieveWith reports the scores each strategy ranked by", async () => {
    const calm = "How was my commute on the bus?"; // no emotion keyword: E 0.2, the gate picks α = 1
    const sim = await (await scenarioStore()).retrieveWith(similarityOnly, calm, { topK: 10, now: NOW, reinforce: false });
    for (const r of sim) expect(r.fused).toBe(r.similarity);
    const gatedCalm = await (await scenarioStore()).retrieveWith(gated, calm, { topK: 10, now: NOW, reinforce: false });
    expect(gatedCalm.map((r) => r.fused)).toEqual(sim.map((r) => r.fused));
    const sal = await (await scenarioStore()).retrieveWith(salienceOnly, calm, { topK: 10, now: NOW, reinforce: false });
    for (const r of sal) {
      expect(r.salience).toBe(salience(r.memory.emotionalIntensity, r.memory.recallCount, r.memory.contextualRelevance));
      expect(r.fused).toBe(r.salience);
    }
    const rec = await (await scenarioStore()).retrieveWith(recencyOnly, calm, { topK: 3, now: NOW, reinforce: false });
    for (const r of rec) expect(r.fused).toBeNaN();
  });
});

it("store.retrieveWith rejects a bad topK or query like retrieve does, instead of slicing the wrong count", async () => {
  const store = await scenarioStore();
  for (const topK of [-1, 1.5, Number.NaN]) {
    await expect(store.retrieveWith(similarityOnly, "bus", { topK, now: NOW })).rejects.toThrow(/topK must be a non-negative integer/);
    await expect(store.retrieve("bus", { topK, now: NOW })).rejects.toThrow(/topK must be a non-negative integer/);
  }
  await expect(store.retrieveWith(similarityOnly, 42 as unknown as string, { now: NOW })).rejects.toThrow(/query must be a string/);
  expect(store.memories.every((m) => m.lastRecalledMs === null)).toBe(true);
});

describe("strategy registry", () => {
  afterEach(() => {
    unregisterStrategy("test strategy");
  });

  it("lists the five built-ins in table order and finds them by key or slug", () => {
    expect(
      strategies()
        .slice(0, 5)
        .map((s) => s.key),
    ).toEqual(["recency-only", "similarity-only", "salience-only", "fused (Persode)", "gated (Persode)"]);
    expect(BUILTIN_STRATEGIES).toHaveLength(5);
    expect(getStrategy("gated_persode")).toBe(gated);
    expect(getStrategy("fused (Persode)")).toBe(fused);
    expect(getStrategy("salience-only")).toBe(salienceOnly);
  });

  it("register / unregister a strategy; duplicates, bad slugs and unknown names are clear errors", () => {
    const s: RetrievalStrategy = {
      key: "test strategy",
      slug: "test_strategy",
      description: "reverse insertion order",
      rank: (ctx) => Int32Array.from({ length: ctx.size }, (_, i) => ctx.size - 1 - i),
    };
    registerStrategy(s);
    expect(getStrategy("test_strategy")).toBe(s);
    expect(strategies().at(-1)).toBe(s);
    expect(() => registerStrategy({ ...s, slug: "other" })).toThrow(
      /a strategy with key "test strategy" or slug "other" is already registered/,
    );
    expect(() => registerStrategy({ ...s, key: "another", slug: "fused_persode" })).toThrow(/already registered/);
    expect(() => registerStrategy({ ...s, key: "x", slug: "Bad Slug" })).toThrow(/slug "Bad Slug" must match \[a-z0-9_-\]\+/);
    expect(() => registerStrategy({ key: "y", slug: "y" } as unknown as RetrievalStrategy)).toThrow(
      /expected an object with key, slug and rank\(\)/,
    );
    expect(unregisterStrategy("test strategy")).toBe(true);
    expect(unregisterStrategy("test strategy")).toBe(false);
    expect(() => getStrategy("test_strategy")).toThrow(
      /unknown strategy "test_strategy"; known: recency-only, similarity-only, salience-only, fused_persode, gated_persode/,
    );
  });
});

describe("descendingOrder", () => {
  it("equals a naive stable sort on random data with many ties", () => {
    const rand = prng(42);
    for (const n of [0, 1, 2, 15, 16, 17, 31, 33, 100, 257, 1000, 4099]) {
      for (const distinct of [1, 3, 10, 1_000_000]) {
        const s = Float64Array.from({ length: n }, () => randInt(rand, 0, distinct - 1) / 7 - 0.3);
        expect(Array.from(descendingOrder(s)), `n=${n} distinct=${distinct}`).toEqual(naiveOrder(s));
      }
    }
  });

  it("equals a naive stable sort on scores crowding around 0 over many orders of magnitude (decay products), with ties", () => {
    // MemoryBank- and Generative-Agents-like scores: ±e^(−t) down to 1e-300, exact zeros, repeated values, a few large
    // ones; most of them share the bucket of 0 under the linear map, which the sort then skips for the float-bits map
    const rand = prng(7);
    for (const n of [17, 100, 419, 602, 2000]) {
      for (const zeros of [0, 0.1, 0.5, 0.95]) {
        const s = Float64Array.from({ length: n }, (_, i) => {
          const r = rand();
          if (r < zeros) return 0;
          if (i % 11 === 0) return 0.25; // a repeated value
          const v = Math.exp(-rand() * 690) * (rand() < 0.3 ? -1 : 1);
          return rand() < 0.05 ? v * 1e290 : v;
        });
        expect(Array.from(descendingOrder(s)), `n=${n} zeros=${zeros}`).toEqual(naiveOrder(s));
      }
    }
  });

  it("treats −0 and +0 as a tie and handles infinities", () => {
    expect(Array.from(descendingOrder([0, -0, 0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]))).toEqual([4, 0, 1, 2, 3]);
  });
});

describe("topOrder", () => {
  it("is the first k of descendingOrder on random data with many ties, ±0 and infinities, for every k", () => {
    const rand = prng(7);
    const special = [0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const n of [0, 1, 2, 5, 6, 17, 100, 603]) {
      for (const distinct of [1, 2, 5, 40, 1_000_000]) {
        const s = Float64Array.from({ length: n }, () =>
          rand() < 0.1 ? special[randInt(rand, 0, 3)]! : randInt(rand, 0, distinct - 1) / 7 - 0.3,
        );
        const full = Array.from(descendingOrder(s));
        for (const k of [0, 1, 3, 5, 10, n, n + 4]) {
          expect(Array.from(topOrder(s, k)), `n=${n} distinct=${distinct} k=${k}`).toEqual(full.slice(0, k));
        }
      }
    }
  });

  it("refuses a NaN score anywhere, even past the top k", () => {
    expect(() => topOrder([0.9, 0.8, 0.1, NaN], 2)).toThrow(/topOrder: score 3 of 4 is NaN/);
  });
});

describe("NaN never decides an order", () => {
  it("descendingOrder refuses a NaN score, naming its index (it used to rank 0.1 above 0.9)", () => {
    expect(() => descendingOrder([0.1, NaN, 0.9, 0.5, 0.7])).toThrow(/descendingOrder: score 1 of 5 is NaN/);
    expect(() => descendingOrder(Float64Array.of(NaN))).toThrow(RangeError);
    expect(Array.from(descendingOrder([0.1, 0.3, 0.9, 0.5, 0.7]))).toEqual([2, 4, 3, 1, 0]);
  });
});

describe("rankChecked: every strategy's ranking is a permutation of the store", () => {
  const size = 5;
  const zeros = () => new Float64Array(size);
  const columns = {
    size,
    dim: 1,
    vectors: zeros(),
    norms: zeros(),
    emotionalIntensity: zeros(),
    contextualRelevance: zeros(),
    recallCount: zeros(),
    createdAtMs: zeros(),
    decayFromMs: zeros(),
  };
  const ctx = new MemoryStore().context({ text: "where did I leave the keys", vector: new Float64Array(1), intensity: 0 }, 0, columns);
  const strategy = (rank: (c: RankingContext) => unknown): RetrievalStrategy => ({
    key: "probe strategy",
    slug: "probe",
    description: "test",
    rank: rank as RetrievalStrategy["rank"],
  });
  const cases: Array<[string, unknown, RegExp]> = [
    ["a duplicate index", Int32Array.of(0, 1, 1, 3, 4), /memory index 1 appears twice \(again at position 2\)/],
    ["a short ranking", Int32Array.of(0, 1, 2, 3), /returned 4 indices for a store of 5 memories/],
    ["a long ranking", Int32Array.of(0, 1, 2, 3, 4, 0), /returned 6 indices for a store of 5 memories/],
    ["an index past the end", Int32Array.of(0, 1, 2, 3, 5), /position 4 holds 5, not a memory index in 0 … 4/],
    ["a negative index", Int32Array.of(0, 1, -1, 3, 4), /position 2 holds -1/],
    ["a huge index", [0, 1, 2, 3, 2 ** 33], /position 4 holds 8589934592/],
    ["a fractional index", [0, 1, 2.5, 3, 4], /position 2 holds 2.5/],
    ["not an array", null, /returned null, not an Int32Array/],
  ];
  for (const [name, order, says] of cases) {
    it(`refuses ${name}, naming the strategy and the query`, () => {
      let err: unknown;
      try {
        rankChecked(
          strategy(() => order),
          ctx,
        );
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StrategyRankingError);
      expect((err as Error).message).toMatch(/^strategy "probe strategy" on query "where did I leave the keys": /);
      expect((err as Error).message).toMatch(says);
      expect(permutationProblem(order, size)).not.toBeNull();
    });
  }

  it("accepts permutations of any size in a row, and still refuses a repeat after them", () => {
    for (const n of [600, 3, 5, 1, 40])
      expect(
        permutationProblem(
          Int32Array.from({ length: n }, (_, i) => n - 1 - i),
          n,
        ),
      ).toBeNull();
    expect(permutationProblem(Int32Array.of(2, 0, 2), 3)).toMatch(/memory index 2 appears twice \(again at position 2\)/);
    expect(permutationProblem(Int32Array.of(1, 0, 2), 3)).toBeNull();
  });

  it("wraps an error thrown inside rank(), e.g. a NaN score", () => {
    expect(() =>
      rankChecked(
        strategy(() => descendingOrder([0.1, NaN, 0.9, 0.5, 0.7])),
        ctx,
      ),
    ).toThrow(/^strategy "probe strategy" on query "where did I leave the keys": rank\(\) failed: descendingOrder: score 1 of 5 is NaN/);
  });

  it("passes a permutation through (a plugin's as a copy it cannot change later); a plain array of integers becomes an Int32Array", () => {
    const order = Int32Array.of(4, 3, 2, 1, 0);
    const checked = rankChecked(
      strategy(() => order),
      ctx,
    );
    expect(checked).toEqual(order);
    order[0] = 0;
    expect(checked[0]).toBe(4);
    const shipped = recencyOnly.rank(ctx);
    expect(rankChecked(recencyOnly, ctx)).toBe(shipped);
    expect(
      rankChecked(
        strategy(() => [1, 0, 2, 4, 3]),
        ctx,
      ),
    ).toEqual(Int32Array.of(1, 0, 2, 4, 3));
  });

  it("store.retrieveWith validates too", async () => {
    const store = new MemoryStore();
    for (const text of ["keys on the table", "lunch with Mia", "a long walk"])
      await store.add({ text, emotionalIntensity: 0.3, createdAt: "2025-01-01" });
    await expect(
      store.retrieveWith(
        strategy(() => Int32Array.of(0, 0, 1)),
        "keys",
        { now: "2025-01-02" },
      ),
    ).rejects.toThrow(/strategy "probe strategy" on query "keys": memory index 0 appears twice/);
    expect(store.memories.every((m) => m.recallCount === 0)).toBe(true);
  });
});

describe("a precomputed query similarity (RankingQuery.similarity)", () => {
  it("is used as given: every strategy ranks as with the similarity computed, and a wrong length is refused", async () => {
    const store = await scenarioStore();
    const text = probes[0]!;
    const vector = await store.embedder.embed(text);
    const computed = store.context({ text, vector }, NOW);
    const shared = store.context({ text, vector, similarity: computed.similarity() }, NOW);
    expect(shared.similarity()).toBe(computed.similarity()); // the very array, not a recomputation
    for (const s of strategies()) expect(Array.from(s.rank(shared)), s.key).toEqual(Array.from(s.rank(computed)));
    // a planted similarity decides the similarity-only order, which shows it is read and not recomputed
    const planted = new Float64Array(store.size).map((_, i) => i);
    const order = getStrategy("similarity-only").rank(store.context({ text, vector, similarity: planted }, NOW));
    expect(Array.from(order)).toEqual(Array.from(planted, (_, i) => store.size - 1 - i));
    expect(() => store.context({ text, vector, similarity: new Float64Array(store.size + 1) }, NOW)).toThrow(
      /precomputed similarity has 11 values, the store has 10 memories/,
    );
  });
});
