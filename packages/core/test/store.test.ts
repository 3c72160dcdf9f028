import { describe, expect, it } from "vitest";
import {
  cosine,
  DAY_MS,
  HashingEmbedder,
  Memory,
  MemoryStore,
  salience,
  Scorer,
  strength,
  toEpochMs,
  type RetrievalResult,
} from "../src/index.js";
import { clip } from "../src/numeric.js";

const NOW = "2025-01-24T12:00:00Z";
const nowMs = toEpochMs(NOW);
const daysAgo = (d: number) => nowMs - d * DAY_MS;

/** A small store with overlapping vocabularies, so similarities are varied and some are negative. */
async function demoStore(opts: ConstructorParameters<typeof MemoryStore>[0] = {}): Promise<MemoryStore> {
  const store = new MemoryStore(opts);
  const rows: [string, number, number, number, number][] = [
    // text, E, C, n, age (days)
    ["I celebrated my graduation ceremony with my family", 0.92, 0.6, 2, 38],
    ["Had a wonderful family dinner with delicious meat", 0.8, 0.5, 0, 3],
    ["A car splashed puddle water on my favorite outfit", 0.88, 0.55, 1, 4],
    ["Took the bus to work, nothing special", 0.15, 0.25, 0, 1],
    ["Walked in the park at sunset with my dog", 0.5, 0.4, 0, 12],
    ["Argued with my best friend about the dinner plans", 0.75, 0.5, 0, 20],
    ["", 0.2, 0.3, 0, 2],
  ];
  for (const [text, E, C, n, age] of rows)
    await store.add({ text, emotionalIntensity: E, contextualRelevance: C, recallCount: n, createdAt: daysAgo(age) });
  return store;
}

/** The docs/spec.md §5 scores of every memory, computed from the primitives, then a stable sort. */
function expected(store: MemoryStore, q: Float64Array, alpha: number, useQR: boolean, at = nowMs) {
  const rows = store.memories.map((m, i) => {
    const sim = cosine(q, store.embeddingAt(i));
    const C = useQR ? clip(sim) : m.contextualRelevance;
    const k = salience(m.emotionalIntensity, m.recallCount, C);
    return { i, sim, k, S: strength(k, m.decayAgeDays(at)), fused: alpha * sim + (1 - alpha) * k };
  });
  return [...rows].sort((a, b) => b.fused - a.fused);
}

const summary = (rs: RetrievalResult[]) =>
  rs.map((r) => ({ i: r.index, sim: r.similarity, k: r.salience, S: r.retention, fused: r.fused }));

describe("MemoryStore.retrieve: the Memory Selection Block (docs/spec.md §5)", () => {
  it("fused = α·sim + (1 − α)·salience with C′ = clip(sim), default α 0.5, stable descending", async () => {
    const store = await demoStore();
    expect(store.alpha).toBe(0.5);
    for (const q of ["my family dinner", "graduation", "car water outfit", "park"]) {
      const vec = await store.embedder.embed(q);
      const got = await store.retrieve(q, { topK: store.size, now: NOW, reinforce: false });
      expect(summary(got)).toEqual(expected(store, vec, 0.5, true).map(({ i, sim, k, S, fused }) => ({ i, sim, k, S, fused })));
    }
  });

  it("a negative similarity is clipped to 0 before it stands in for C", async () => {
    const store = new MemoryStore();
    const q = await store.embedder.embed("sunny beach holiday");
    const m = store.addEmbedded(
      { text: "opposite", emotionalIntensity: 0.7, contextualRelevance: 0.9, recallCount: 1, createdAt: daysAgo(2) },
      q.map((x) => -x),
    );
    const [r] = await store.retrieve("sunny beach holiday", { topK: 1, now: NOW, reinforce: false });
    expect(r!.similarity).toBeCloseTo(-1, 15);
    expect(r!.salience).toBe(salience(0.7, 1, 0)); // C′ = clip(−1) = 0, not the stored 0.9
    expect(r!.fused).toBe(0.5 * r!.similarity + 0.5 * salience(0.7, 1, 0));
    expect(r!.memory).toBe(m);
  });

  it("α override, and useQueryRelevanceAsContext = false uses the stored C", async () => {
    const store = await demoStore();
    const q = "family dinner";
    const vec = await store.embedder.embed(q);
    for (const alpha of [0, 0.2, 1]) {
      const got = await store.retrieve(q, { topK: store.size, now: NOW, reinforce: false, alpha });
      expect(summary(got)).toEqual(expected(store, vec, alpha, true).map(({ i, sim, k, S, fused }) => ({ i, sim, k, S, fused })));
    }
    const stored = await store.retrieve(q, { topK: store.size, now: NOW, reinforce: false, useQueryRelevanceAsContext: false });
    expect(summary(stored)).toEqual(expected(store, vec, 0.5, false).map(({ i, sim, k, S, fused }) => ({ i, sim, k, S, fused })));
    const m0 = store.memories[0]!;
    expect(stored.find((r) => r.index === 0)!.salience).toBe(salience(m0.emotionalIntensity, m0.recallCount, m0.contextualRelevance));
  });

  it("topK: at most K results, all of them when K ≥ size, none for 0; bad K is an error", async () => {
    const store = await demoStore();
    const all = await store.retrieve("dinner", { topK: 100, now: NOW, reinforce: false });
    expect(all).toHaveLength(store.size);
    const top3 = await store.retrieve("dinner", { now: NOW, reinforce: false });
    expect(top3.map((r) => r.index)).toEqual(all.slice(0, 3).map((r) => r.index));
    expect(await store.retrieve("dinner", { topK: 0, now: NOW })).toEqual([]);
    await expect(store.retrieve("dinner", { topK: -1, now: NOW })).rejects.toThrow(/topK must be a non-negative integer, got -1/);
    await expect(store.retrieve("dinner", { topK: 1.5, now: NOW })).rejects.toThrow(/topK/);
    await expect(store.retrieve("dinner", { alpha: 1.5, now: NOW })).rejects.toThrow(/α must be in \[0, 1\], got 1.5/);
    await expect(store.retrieve("dinner", { alpha: Number.NaN, now: NOW })).rejects.toThrow(/α must be a finite number, got NaN/);
    await expect(store.retrieve(7 as unknown as string, { now: NOW })).rejects.toThrow(/query must be a string, got 7/);
    await expect(store.retrieve("dinner", { now: "2025-13-01" })).rejects.toThrow(/now: "2025-13-01" is not a valid date/);
    await expect(new MemoryStore().retrieve("anything", { now: NOW })).resolves.toEqual([]);
  });

  it("reports short-term membership at `now` (age ≤ 6 d)", async () => {
    const store = await demoStore();
    const all = await store.retrieve("dinner", { topK: 100, now: NOW, reinforce: false });
    for (const r of all) expect(r.shortTerm).toBe(r.memory.ageDays(NOW) <= 6);
    expect(all.some((r) => r.shortTerm) && all.some((r) => !r.shortTerm)).toBe(true);
  });
});

describe("stable tie order and the Exp. 3 salience check", () => {
  it("identical texts keep insertion order under similarity only", async () => {
    const store = new MemoryStore();
    for (const E of [0.1, 0.9, 0.5, 0.7]) await store.add({ text: "a walk by the river", emotionalIntensity: E, createdAt: daysAgo(1) });
    const rs = await store.retrieve("river walk", { topK: 4, alpha: 1, now: NOW, reinforce: false });
    expect(rs.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(new Set(rs.map((r) => r.similarity)).size).toBe(1);
  });

  it("neutral (E .1, C .3) then significant (E .9, C .6), same text: similarity keeps order, fused α .5 puts the significant one first", async () => {
    const store = new MemoryStore();
    await store.add({
      id: "neutral",
      text: "we had dinner at the old place",
      emotionalIntensity: 0.1,
      contextualRelevance: 0.3,
      createdAt: daysAgo(10),
    });
    await store.add({
      id: "significant",
      text: "we had dinner at the old place",
      emotionalIntensity: 0.9,
      contextualRelevance: 0.6,
      createdAt: daysAgo(10),
    });
    const q = "dinner at the old place";
    const sim = await store.retrieve(q, { topK: 2, alpha: 1, now: NOW, reinforce: false });
    expect(sim.map((r) => r.memory.id)).toEqual(["neutral", "significant"]);
    const fused = await store.retrieve(q, { topK: 2, alpha: 0.5, now: NOW, reinforce: false });
    expect(fused.map((r) => r.memory.id)).toEqual(["significant", "neutral"]);
  });
});

describe("reinforcement on retrieval (docs/spec.md §1, §5)", () => {
  it("each returned memory: n += 1, last_recalled = now, created_at untouched; the decay clock restarts", async () => {
    const store = await demoStore();
    const before = store.memories.map((m) => ({ n: m.recallCount, last: m.lastRecalledMs, created: m.createdAtMs }));
    const scorer = new Scorer();
    const S0 = store.memories.map((m) => scorer.score(m, m.decayAgeDays(NOW)).strength);
    const got = await store.retrieve("family dinner graduation", { topK: 2, now: NOW });
    const hit = new Set(got.map((r) => r.index));
    expect(hit.size).toBe(2);
    store.memories.forEach((m, i) => {
      expect(m.createdAtMs).toBe(before[i]!.created);
      if (hit.has(i)) {
        expect(m.recallCount).toBe(before[i]!.n + 1);
        expect(m.lastRecalledMs).toBe(nowMs);
        expect(m.decayAgeDays(NOW)).toBe(0);
        // retention at the same `now` goes up: the clock restarted and R grew
        expect(scorer.score(m, m.decayAgeDays(NOW)).strength).toBeGreaterThan(S0[i]!);
      } else {
        expect(m.recallCount).toBe(before[i]!.n);
        expect(m.lastRecalledMs).toBe(before[i]!.last);
      }
    });
    // the results report the scores from before the recall
    for (const r of got) expect(r.retention).toBeLessThan(strength(r.salience, 0));
    // and a second look at the same moment sees the higher retention
    const again = await store.retrieve("family dinner graduation", { topK: store.size, now: NOW, reinforce: false });
    for (const r of got) expect(again.find((x) => x.index === r.index)!.retention).toBeGreaterThan(r.retention);
  });

  it("reinforce = false changes nothing", async () => {
    const store = await demoStore();
    const snap = JSON.stringify(store.toJSON());
    await store.retrieve("family dinner", { topK: 3, now: NOW, reinforce: false });
    expect(JSON.stringify(store.toJSON())).toBe(snap);
  });
});

describe("recent(now, window)", () => {
  it("returns memories with age ≤ window, newest first, ties in insertion order", async () => {
    const store = new MemoryStore();
    const ages = [7, 6, 0.5, 3, 3, 6.000001, 0];
    ages.forEach((age, i) =>
      store.addEmbedded({ id: `r${i}`, text: `t${i}`, emotionalIntensity: 0.5, createdAt: daysAgo(age) }, new Float64Array(256)),
    );
    expect(store.recent(NOW).map((m) => m.id)).toEqual(["r6", "r2", "r3", "r4", "r1"]);
    expect(store.recent(NOW, 0.5).map((m) => m.id)).toEqual(["r6", "r2"]);
    expect(store.recent(NOW, 30).map((m) => m.id)).toEqual(["r6", "r2", "r3", "r4", "r1", "r5", "r0"]);
    expect(() => store.recent(NOW, Number.NaN)).toThrow(/window must be a finite number/);
    expect(() => store.recent("yesterday")).toThrow(/now: "yesterday"/);
  });
});

describe("adding memories", () => {
  it("assigns ids m1, m2, … and never collides with an explicit id", async () => {
    const store = new MemoryStore();
    const a = await store.add({ id: "m2", text: "explicit", emotionalIntensity: 0.5, createdAt: NOW });
    const b = await store.add({ text: "auto", emotionalIntensity: 0.5, createdAt: NOW });
    const c = await store.add({ text: "auto", emotionalIntensity: 0.5, createdAt: NOW });
    expect([a.id, b.id, c.id]).toEqual(["m2", "m3", "m4"]);
    expect(new Set(store.memories.map((m) => m.id)).size).toBe(3);
    await expect(store.add({ id: "m3", text: "dup", emotionalIntensity: 0.5, createdAt: NOW })).rejects.toThrow(
      /a memory with id "m3" already exists/,
    );
  });

  it("rejects bad input clearly and stores nothing", async () => {
    const store = new MemoryStore();
    await expect(store.add({ text: 5 as unknown as string, emotionalIntensity: 0.5, createdAt: NOW })).rejects.toThrow(
      /text must be a string, got 5/,
    );
    await expect(store.add({ text: "x", emotionalIntensity: Number.NaN, createdAt: NOW })).rejects.toThrow(
      /emotional intensity E must be a finite number, got NaN/,
    );
    await expect(store.add({ text: "x", emotionalIntensity: 0.5, createdAt: "2025-13-01" })).rejects.toThrow(
      /created_at: "2025-13-01" is not a valid date/,
    );
    await expect(store.add({ text: "x", emotionalIntensity: 0.5, createdAt: "yesterday" })).rejects.toThrow(
      /created_at: "yesterday" is not an ISO-8601 date-time/,
    );
    expect(() => store.addEmbedded({ text: "x", emotionalIntensity: 0.5, createdAt: NOW }, new Float64Array(3))).toThrow(
      /embedding has 3 dimensions, the embedder "hashing-md5-256" has 256/,
    );
    const nanVec = new Float64Array(256);
    nanVec[9] = Number.NaN;
    expect(() => store.addEmbedded({ text: "x", emotionalIntensity: 0.5, createdAt: NOW }, nanVec)).toThrow(
      /embedding\[9\] of memory m1 must be a finite number, got NaN/,
    );
    expect(store.size).toBe(0);
  });

  it("validates its parameters", () => {
    expect(() => new MemoryStore({ alpha: -0.1 })).toThrow(/α must be in \[0, 1\]/);
    expect(() => new MemoryStore({ gamma: 1.5 })).toThrow(/protection γ must be in \[0, 1\], got 1.5/);
    expect(() => new MemoryStore({ weights: { emotion: 0, recall: 0, context: 0 } })).toThrow(/weights must not all be 0/);
    expect(() => new MemoryStore({ lambda: -1 })).toThrow(/decay rate λ must be ≥ 0, got -1/);
    expect(() => new MemoryStore({ lambda: Number.POSITIVE_INFINITY })).toThrow(/decay rate λ must be a finite number/);
  });

  it("memories keep their clipped E and C, and the store's columns mirror them", async () => {
    const store = new MemoryStore({ embedder: new HashingEmbedder(32) });
    await store.add({ text: "loud", emotionalIntensity: 1.3, contextualRelevance: -1, createdAt: NOW });
    const cols = store.columns();
    expect([cols.emotionalIntensity[0], cols.contextualRelevance[0], cols.dim, cols.size]).toEqual([1, 0, 32, 1]);
    expect(store.memories[0]).toBeInstanceOf(Memory);
  });
});
