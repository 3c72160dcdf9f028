import { describe, expect, it } from "vitest";
import {
  Bm25Index,
  BUILTIN_STRATEGIES,
  DAY_MS,
  EXTENDED_STRATEGIES,
  MemoryStore,
  bm25,
  bm25Tokens,
  combSum,
  extendedStrategies,
  getStrategy,
  gatedHybrid,
  generativeAgents,
  generativeAgentsScores,
  memoryBank,
  memoryBankRetention,
  minMax,
  mmr,
  mmrOrder,
  rrf,
  similarityOnly,
  strategies,
  registerExtendedStrategy,
  unregisterExtendedStrategy,
  type Embedder,
  type RankingContext,
} from "../src/index.js";

/** An embedder whose vectors the tests set by hand (embed() is never called). */
class HandEmbedder implements Embedder {
  readonly name = "hand";
  readonly id: string;
  constructor(readonly dim = 2) {
    this.id = `hand-${dim}`;
  }
  async embed(): Promise<Float64Array> {
    throw new Error("hand-set vectors only");
  }
  async embedBatch(): Promise<Float64Array[]> {
    throw new Error("hand-set vectors only");
  }
}

const NOW = Date.UTC(2025, 0, 31);
const HOUR = 3_600_000;

/**
 * The worked example: four memories, hand-set 2-D vectors, query vector (3, 1).
 * cos(q, ·) = 3/√10, 4/√20, 1/√10, 7/√50 → cosine order 3, 0, 1, 2.
 */
const MEMS = [
  { text: "the cat sat on the mat", v: [1, 0], E: 0.2, hoursAgo: 10, recalls: 0 },
  { text: "the dog sat", v: [1, 1], E: 0.9, hoursAgo: 2, recalls: 0 },
  { text: "cats and dogs", v: [0, 1], E: 0.5, hoursAgo: 30, recalls: 1 },
  { text: "a cat and a dog and a cat", v: [2, 1], E: 0.1, hoursAgo: 50, recalls: 2 },
];

function tinyStore(mems = MEMS): MemoryStore {
  const store = new MemoryStore({ embedder: new HandEmbedder(mems[0]?.v.length ?? 2) });
  mems.forEach((m, i) =>
    store.addEmbedded(
      {
        id: `m${i}`,
        text: m.text,
        emotionalIntensity: m.E,
        contextualRelevance: 0.5,
        recallCount: m.recalls,
        createdAt: NOW - m.hoursAgo * HOUR,
      },
      m.v,
    ),
  );
  return store;
}

function ctxOf(store: MemoryStore, text: string, q: number[], intensity = 0): RankingContext {
  return store.context({ text, vector: Float64Array.from(q), intensity }, NOW);
}

describe("BM25 (worked example)", () => {
  // N = 4, token counts 6, 3, 3, 8 → avgdl = 5. "cat" is in m0 and m3, "sat" in m0 and m1:
  // idf = ln(1 + (4 − 2 + 0.5)/(2 + 0.5)) = ln 2 for both. Length norms k1·(1 − b + b·dl/avgdl):
  // m0 1.2·(0.25 + 0.9) = 1.38, m1 1.2·(0.25 + 0.45) = 0.84, m3 1.2·(0.25 + 1.2) = 1.74.
  // Query "cat sat sat" (repetitions count): m0 = 3·ln2·2.2/2.38, m1 = 2·ln2·2.2/1.84,
  // m2 = 0 ("cats" ≠ "cat": no stemming), m3 = ln2·(2·2.2)/(2 + 1.74).
  const expected = [(3 * Math.LN2 * 2.2) / 2.38, (2 * Math.LN2 * 2.2) / 1.84, 0, (Math.LN2 * 4.4) / 3.74];

  it("scores match the hand computation to 1e-12", () => {
    const index = new Bm25Index(MEMS.map((m) => m.text));
    expect(index.avgdl).toBe(5);
    expect(index.idf("cat")).toBeCloseTo(Math.LN2, 15);
    expect(index.idf("mat")).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 15);
    expect(index.idf("zebra")).toBeUndefined();
    const s = index.scores("cat sat sat");
    expect(s.length).toBe(4);
    s.forEach((x, i) => expect(Math.abs(x - expected[i]!)).toBeLessThan(1e-12));
  });

  it("the tokenizer lower-cases and splits on anything but letters and digits", () => {
    expect(bm25Tokens("Caroline: I'm 25!  Café—ÉTÉ")).toEqual(["caroline", "i", "m", "25", "café", "été"]);
    expect(bm25Tokens("…")).toEqual([]);
    // Same query, other spelling: identical scores.
    const index = new Bm25Index(MEMS.map((m) => m.text));
    expect(Array.from(index.scores("CAT, sat; Sat?"))).toEqual(Array.from(index.scores("cat sat sat")));
  });

  it("the strategy ranks by score, ties (all-zero rows) in insertion order", () => {
    const store = tinyStore();
    expect(Array.from(bm25.rank(ctxOf(store, "cat sat sat", [3, 1])))).toEqual([0, 1, 3, 2]);
    expect(Array.from(bm25.rank(ctxOf(store, "no such words", [3, 1])))).toEqual([0, 1, 2, 3]);
  });

  it("rejects bad parameters and contexts without texts", () => {
    expect(() => new Bm25Index(["a"], { k1: -1 })).toThrow(/k1/);
    expect(() => new Bm25Index(["a"], { b: 2 })).toThrow(/b must be in/);
    const store = tinyStore();
    const { texts: _texts, ...bare } = store.columns();
    const ctx = store.context({ text: "cat", vector: Float64Array.from([1, 0]) }, NOW, bare);
    expect(() => bm25.rank(ctx)).toThrow(/texts/);
  });
});

describe("hybrid fusions", () => {
  // BM25 order 0, 1, 3, 2 (above); cosine order 3, 0, 1, 2.
  it("RRF (k = 60): 1/61 + 1/62 (m0) > 1/63 + 1/61 (m3) > 1/62 + 1/63 (m1) > 2/64 (m2)", () => {
    const ctx = ctxOf(tinyStore(), "cat sat sat", [3, 1]);
    expect(Array.from(similarityOnly.rank(ctx))).toEqual([3, 0, 1, 2]);
    expect(Array.from(rrf.rank(ctx))).toEqual([0, 3, 1, 2]);
  });

  it("CombSUM: min-max BM25 + min-max cosine puts m1 (0.862 + 0.858) above m3 (0.424 + 1)", () => {
    const ctx = ctxOf(tinyStore(), "cat sat sat", [3, 1]);
    expect(Array.from(combSum.rank(ctx))).toEqual([0, 1, 3, 2]);
  });

  it("min-max normalisation, with the constant case", () => {
    expect(Array.from(minMax([2, 4, 3]))).toEqual([0, 1, 0.5]);
    expect(Array.from(minMax([7, 7]))).toEqual([0, 0]);
    expect(Array.from(minMax([7, 7], 0.5))).toEqual([0.5, 0.5]);
  });

  it("the gated hybrid is CombSUM when the gate is closed and fuses salience when it fires", () => {
    const store = tinyStore();
    const closed = ctxOf(store, "cat sat sat", [3, 1], 0.59);
    expect(Array.from(gatedHybrid.rank(closed))).toEqual(Array.from(combSum.rank(closed)));
    const open = ctxOf(store, "cat sat sat", [3, 1], 0.6);
    const bm = new Bm25Index(MEMS.map((m) => m.text)).scores("cat sat sat");
    const cs = minMax(bm);
    const cos = minMax(open.similarity());
    const sal = open.salience(true);
    const fusedScores = MEMS.map((_, i) => 0.5 * ((cs[i]! + cos[i]!) / 2) + 0.5 * sal[i]!);
    const want = fusedScores
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.i);
    expect(Array.from(gatedHybrid.rank(open))).toEqual(want);
    // Salience (E 0.9 for m1) lifts m1 to the top once the gate fires.
    expect(want[0]).toBe(1);
  });
});

describe("Generative Agents", () => {
  it("min-max normalises recency (0.995^hours), importance (E) and relevance (cosine); equal weights", () => {
    const ctx = ctxOf(tinyStore(), "cat sat sat", [3, 1]);
    const g = generativeAgentsScores(ctx);
    // Importance: E = 0.2, 0.9, 0.5, 0.1 → (E − 0.1)/0.8.
    [0.125, 1, 0.5, 0].forEach((x, i) => expect(g.importance[i]).toBeCloseTo(x, 15));
    // Recency: 0.995^h for h = 10, 2, 30, 50 → newest (m1) 1, oldest (m3) 0.
    const raw = MEMS.map((m) => 0.995 ** m.hoursAgo);
    const lo = 0.995 ** 50;
    const hi = 0.995 ** 2;
    raw.forEach((r, i) => expect(g.recency[i]).toBeCloseTo((r - lo) / (hi - lo), 12));
    expect(g.recency[1]).toBe(1);
    expect(g.recency[3]).toBe(0);
    // Relevance: cosine 3/√10, 4/√20, 1/√10, 7/√50 → (c − 1/√10)/(7/√50 − 1/√10).
    const cosines = [3 / Math.sqrt(10), 4 / Math.sqrt(20), 1 / Math.sqrt(10), 7 / Math.sqrt(50)];
    cosines.forEach((c, i) => expect(g.relevance[i]).toBeCloseTo((c - cosines[2]!) / (cosines[3]! - cosines[2]!), 12));
    g.score.forEach((s, i) => expect(s).toBeCloseTo(g.recency[i]! + g.importance[i]! + g.relevance[i]!, 15));
    // m1: 1 + 1 + 0.858 ≈ 2.86; m0 ≈ 0.816 + 0.125 + 0.939 ≈ 1.88; m3: 0 + 0 + 1 = 1; m2 ≈ 0.387 + 0.5 + 0 ≈ 0.89.
    expect(Array.from(generativeAgents.rank(ctx))).toEqual([1, 0, 3, 2]);
  });

  it("a constant component normalises to 0.5 (the published code's convention)", () => {
    const same = MEMS.map((m) => ({ ...m, E: 0.4 }));
    const g = generativeAgentsScores(ctxOf(tinyStore(same), "x", [3, 1]));
    expect(Array.from(g.importance)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});

describe("MemoryBank", () => {
  it("weights cosine by retention e^(−t/S), t in days since last recall, S = 1 + recalls", () => {
    const mems = [
      { text: "a", v: [1, 0], E: 0, hoursAgo: 48, recalls: 0 }, // cos 1, R = e^−2
      { text: "b", v: [1, 1], E: 0, hoursAgo: 48, recalls: 3 }, // cos 1/√2, R = e^(−2/4)
      { text: "c", v: [1, 0.2], E: 0, hoursAgo: 0, recalls: 0 }, // cos 1/√1.04, R = 1
    ];
    const ctx = ctxOf(tinyStore(mems), "q", [1, 0]);
    const r = memoryBankRetention(ctx);
    expect(r[0]).toBeCloseTo(Math.exp(-2), 15);
    expect(r[1]).toBeCloseTo(Math.exp(-0.5), 15);
    expect(r[2]).toBe(1);
    // Scores: 0.135, 0.429, 0.981 → c, b, a.
    expect(Array.from(memoryBank.rank(ctx))).toEqual([2, 1, 0]);
    expect(r.length).toBe(3);
    expect(DAY_MS).toBe(24 * HOUR);
  });
});

describe("query-independent columns (RankingContext.storeValue)", () => {
  it("are computed once per store and time, shared by every query, and handed out as copies", () => {
    const store = tinyStore();
    const columns = store.columns();
    const at = (t: number, v: number[]) => store.context({ text: "q", vector: Float64Array.from(v), intensity: 0 }, t, columns);
    let calls = 0;
    const value = (ctx: RankingContext) => ctx.storeValue("test value", () => ++calls);
    expect([value(at(NOW, [3, 1])), value(at(NOW, [1, 0]))]).toEqual([1, 1]);
    // another time, another store's columns: computed again
    expect(value(at(NOW + HOUR, [3, 1]))).toBe(2);
    expect(value(store.context({ text: "q", vector: Float64Array.of(3, 1), intensity: 0 }, NOW))).toBe(3);

    // Generative Agents and MemoryBank rank two queries over shared columns as fresh stores would
    for (const v of [
      [3, 1],
      [1, 0],
      [0, 1],
    ]) {
      const fresh = () => tinyStore().context({ text: "q", vector: Float64Array.from(v), intensity: 0 }, NOW);
      expect(Array.from(generativeAgents.rank(at(NOW, v)))).toEqual(Array.from(generativeAgents.rank(fresh())));
      expect(Array.from(memoryBank.rank(at(NOW, v)))).toEqual(Array.from(memoryBank.rank(fresh())));
      expect(generativeAgentsScores(at(NOW, v))).toEqual(generativeAgentsScores(fresh()));
    }
    // a caller that writes into the returned columns changes nothing the next query reads
    const g = generativeAgentsScores(at(NOW, [3, 1]));
    const r = memoryBankRetention(at(NOW, [3, 1]));
    const before = [Array.from(generativeAgentsScores(at(NOW, [3, 1])).recency), Array.from(memoryBankRetention(at(NOW, [3, 1])))];
    g.recency.fill(7);
    g.importance.fill(7);
    r.fill(7);
    expect([Array.from(generativeAgentsScores(at(NOW, [3, 1])).recency), Array.from(memoryBankRetention(at(NOW, [3, 1])))]).toEqual(before);
  });
});

describe("MMR (λ = 0.5)", () => {
  // Query (1, 0); a = (1, 0.1) and b = (1, 0.12) are near-duplicates, c = (1, −0.5) points elsewhere.
  // cos(q,·): a 0.9950, b 0.9929, c 0.8944 → cosine order a, b, c.
  // Pick 1: a. Pick 2: b scores 0.5·0.9929 − 0.5·cos(a, b) = 0.5·0.9929 − 0.5·0.9998 < 0,
  // c scores 0.5·0.8944 − 0.5·cos(a, c) = 0.5·0.8944 − 0.5·0.8455 > 0 → c. Pick 3: b.
  const mems = [
    { text: "a", v: [1, 0.1], E: 0, hoursAgo: 1, recalls: 0 },
    { text: "b", v: [1, 0.12], E: 0, hoursAgo: 1, recalls: 0 },
    { text: "c", v: [1, -0.5], E: 0, hoursAgo: 1, recalls: 0 },
    { text: "d", v: [0, 1], E: 0, hoursAgo: 1, recalls: 0 },
  ];
  it("greedy picks trade relevance against redundancy", () => {
    const ctx = ctxOf(tinyStore(mems), "q", [1, 0]);
    expect(Array.from(similarityOnly.rank(ctx))).toEqual([0, 1, 2, 3]);
    expect(Array.from(mmr.rank(ctx))).toEqual([0, 2, 1, 3]);
    // λ = 1 is pure relevance; depth 1 keeps cosine order after the first pick.
    expect(Array.from(mmrOrder(ctx, { lambda: 1 }))).toEqual([0, 1, 2, 3]);
    expect(Array.from(mmrOrder(ctx, { depth: 1 }))).toEqual([0, 1, 2, 3]);
    // A pool of 2 never reaches c: a, b from the pool, then c, d in cosine order.
    expect(Array.from(mmrOrder(ctx, { pool: 2 }))).toEqual([0, 1, 2, 3]);
  });

  it("returns a permutation of the store", () => {
    const ctx = ctxOf(tinyStore(), "q", [3, 1]);
    expect([...mmr.rank(ctx)].sort()).toEqual([0, 1, 2, 3]);
  });

  it("sparse vectors (most components 0, as hashing's): the order of the definition, with a plain dense dot", () => {
    let s = 12345;
    const next = () => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), (s >>> 0) / 2 ** 32);
    const dim = 48;
    const sparse = () => Array.from({ length: dim }, () => (next() < 0.08 ? next() - 0.3 : 0));
    const memsSparse = Array.from({ length: 90 }, (_, i) => ({ text: `m${i}`, v: sparse(), E: 0, hoursAgo: 1, recalls: 0 }));
    const q = sparse().map((x, j) => (j < 6 ? x + 0.5 : x));
    const ctx = ctxOf(tinyStore(memsSparse), "q", q);
    // the definition written out: cosine with a dense left-to-right dot, greedy picks over the top-50 pool
    const cos = (a: number[], b: number[]) => {
      let d = 0;
      let na = 0;
      let nb = 0;
      for (let j = 0; j < dim; j++) d += a[j]! * b[j]!;
      for (let j = 0; j < dim; j++) na += a[j]! * a[j]!;
      for (let j = 0; j < dim; j++) nb += b[j]! * b[j]!;
      return na === 0 || nb === 0 ? 0 : d / (Math.sqrt(na) * Math.sqrt(nb));
    };
    const base = Array.from(similarityOnly.rank(ctx));
    const sim = ctx.similarity();
    const pool = base.slice(0, 50);
    const picked: number[] = [];
    for (let r = 0; r < 10; r++) {
      let best = -1;
      let bestScore = -Infinity;
      for (const c of pool) {
        if (picked.includes(c)) continue;
        const novelty = r === 0 ? 0 : Math.max(...picked.map((p) => cos(memsSparse[c]!.v, memsSparse[p]!.v)));
        const score = 0.5 * sim[c]! - 0.5 * novelty;
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      picked.push(best);
    }
    const expected = [...picked, ...base.filter((c) => !picked.includes(c))];
    expect(Array.from(mmr.rank(ctx))).toEqual(expected);
    expect(picked.slice(0, 10)).not.toEqual(base.slice(0, 10)); // novelty changed the order: the test reads the dots
  });
});

describe("the extended set", () => {
  it("keeps the paper's registry untouched and lists the paper's five first", () => {
    expect(strategies().map((s) => s.key)).toEqual(BUILTIN_STRATEGIES.map((s) => s.key));
    const ext = extendedStrategies().map((s) => s.key);
    expect(ext).toEqual([...BUILTIN_STRATEGIES, ...EXTENDED_STRATEGIES].map((s) => s.key));
    expect(new Set(extendedStrategies().map((s) => s.slug)).size).toBe(ext.length);
  });

  it("registers and removes extra strategies, rejecting duplicates", () => {
    const extra = { key: "extra", slug: "extra", description: "test", rank: (c: RankingContext) => c.recencyOrder() };
    registerExtendedStrategy(extra);
    try {
      expect(extendedStrategies().at(-1)!.key).toBe("extra");
      expect(() => registerExtendedStrategy(extra)).toThrow(/already registered/);
      expect(() => registerExtendedStrategy({ ...extra, key: "x2", slug: "similarity-only" })).toThrow(/already registered/);
    } finally {
      expect(unregisterExtendedStrategy("extra")).toBe(true);
    }
    expect(extendedStrategies().some((s) => s.key === "extra")).toBe(false);
  });

  it("getStrategy finds every shipped strategy by key or slug without adding it to the paper's registry", () => {
    for (const s of [...BUILTIN_STRATEGIES, ...EXTENDED_STRATEGIES]) {
      expect(getStrategy(s.key), s.key).toBe(s);
      expect(getStrategy(s.slug), s.slug).toBe(s);
    }
    expect(getStrategy("gated_hybrid")).toBe(gatedHybrid);
    expect(getStrategy("combsum (bm25 + cosine)")).toBe(combSum);
    expect(strategies().map((s) => s.key)).toEqual(BUILTIN_STRATEGIES.map((s) => s.key));
    expect(() => getStrategy("nope")).toThrow(
      'unknown strategy "nope"; known: recency-only, similarity-only, salience-only, fused_persode, gated_persode, ' +
        "bm25, rrf, combsum, generative_agents, memorybank, mmr, gated_hybrid",
    );
  });

  it("getStrategy finds a strategy registered into the extended set until it is removed", () => {
    const extra = { key: "extra lookup", slug: "extra_lookup", description: "test", rank: (c: RankingContext) => c.recencyOrder() };
    registerExtendedStrategy(extra);
    try {
      expect(getStrategy("extra_lookup")).toBe(extra);
      expect(getStrategy("extra lookup")).toBe(extra);
      expect(() => getStrategy("nope")).toThrow(/known: .*, gated_hybrid, extra_lookup$/);
    } finally {
      unregisterExtendedStrategy("extra lookup");
    }
    expect(() => getStrategy("extra_lookup")).toThrow(/unknown strategy "extra_lookup"/);
  });

  it("every extended strategy returns a permutation on the worked example", () => {
    const ctx = ctxOf(tinyStore(), "cat sat sat", [3, 1], 0.7);
    for (const s of extendedStrategies()) expect([...s.rank(ctx)].sort(), s.key).toEqual([0, 1, 2, 3]);
  });
});
