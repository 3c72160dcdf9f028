// A plugin can add strategies, never replace or remove one Persode ships (by key or by slug, in
// either registry), and what its rank() receives is its own: whatever it mutates (store columns,
// similarity, salience, cached orders, the query), every shipped strategy ranks exactly as before.
import { afterEach, describe, expect, it } from "vitest";
import {
  BUILTIN_STRATEGIES,
  EXTENDED_STRATEGIES,
  MemoryStore,
  RankingContext,
  extendedStrategies,
  rankChecked,
  registerExtendedStrategy,
  registerStrategy,
  strategies,
  unregisterExtendedStrategy,
  unregisterStrategy,
  type RetrievalStrategy,
} from "../src/index.js";

const SHIPPED = [...BUILTIN_STRATEGIES, ...EXTENDED_STRATEGIES];
const reverse: RetrievalStrategy["rank"] = (ctx) => Int32Array.from({ length: ctx.size }, (_, i) => ctx.size - 1 - i);
const plugin = (key: string, slug: string, rank = reverse): RetrievalStrategy => ({ key, slug, description: "a plugin", rank });

afterEach(() => {
  for (const key of ["plugin a", "plugin b", "mutator"]) {
    unregisterStrategy(key);
    unregisterExtendedStrategy(key);
  }
});

describe("a plugin cannot replace or remove a shipped strategy", () => {
  for (const s of SHIPPED) {
    it(`${s.key}: by key or by slug, in either registry`, () => {
      for (const register of [registerStrategy, registerExtendedStrategy]) {
        expect(() => register(plugin(s.key, "my_own_slug"))).toThrow(`belongs to the shipped strategy "${s.key}"`);
        expect(() => register(plugin("my own key", s.slug))).toThrow(`belongs to the shipped strategy "${s.key}"`);
        expect(() => register({ ...s })).toThrow(/already registered/);
      }
      expect(() => (BUILTIN_STRATEGIES.includes(s) ? unregisterStrategy : unregisterExtendedStrategy)(s.key)).toThrow(
        /ships with Persode and cannot be unregistered/,
      );
      expect(() => {
        (s as { rank: unknown }).rank = reverse;
      }).toThrow(TypeError);
    });
  }

  it("nor another plugin's, across the two registries; the tables keep every shipped strategy once", () => {
    registerStrategy(plugin("plugin a", "plugin_a"));
    expect(() => registerExtendedStrategy(plugin("plugin a", "other"))).toThrow(/already registered/);
    expect(() => registerStrategy(plugin("plugin b", "plugin_a"))).toThrow(/already registered/);
    registerExtendedStrategy(plugin("plugin b", "plugin_b"));
    expect(() => registerStrategy(plugin("other", "plugin_b"))).toThrow(/already registered/);
    expect(strategies().map((s) => s.key)).toEqual([...BUILTIN_STRATEGIES.map((s) => s.key), "plugin a"]);
    expect(extendedStrategies().map((s) => s.key)).toEqual([
      ...BUILTIN_STRATEGIES.map((s) => s.key),
      "plugin a",
      ...EXTENDED_STRATEGIES.map((s) => s.key),
      "plugin b",
    ]);
    expect(unregisterStrategy("plugin a")).toBe(true);
    registerStrategy(plugin("plugin a", "plugin_a")); // its names are free again
  });

  it("the methods every strategy ranks with cannot be swapped", () => {
    expect(Object.isFrozen(RankingContext.prototype)).toBe(true);
    expect(Object.isFrozen(MemoryStore.prototype)).toBe(true);
  });
});

describe("what a plugin's rank() receives is read-only to everyone else", () => {
  async function store(): Promise<MemoryStore> {
    const s = new MemoryStore();
    const texts = [
      "lost my dog in the park",
      "lunch with Mia at noon",
      "a long walk by the river",
      "the dog came home",
      "keys on the kitchen table",
      "argued with my brother",
      "won the chess game",
      "rain all day",
    ];
    for (const [i, text] of texts.entries()) await s.add({ text, emotionalIntensity: (i % 4) / 4, createdAt: Date.UTC(2025, 0, 1 + i) });
    return s;
  }

  /** Every shipped strategy's ranking of each query, through rankChecked, with `before` ranked first on the same context. */
  async function rankAll(s: MemoryStore, before?: RetrievalStrategy): Promise<string> {
    const columns = s.columns();
    const out: number[][] = [];
    for (const text of ["where is the dog", "lunch", "what made me angry"]) {
      const ctx = s.context({ text, vector: await s.embedder.embed(text) }, Date.UTC(2025, 1, 1), columns);
      if (before) rankChecked(before, ctx);
      for (const strategy of SHIPPED) out.push(Array.from(rankChecked(strategy, ctx)));
      if (before) rankChecked(before, ctx);
    }
    return JSON.stringify(out);
  }

  it("a plugin that writes over columns, similarity, salience, cached orders and the query changes no shipped ranking", async () => {
    const s = await store();
    const reference = await rankAll(s);
    const columnsBefore = JSON.stringify(Object.entries(s.columns()).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)]));
    let calls = 0;
    const mutator = plugin("mutator", "mutator", (ctx) => {
      calls++;
      const c = ctx.columns;
      for (const a of [c.vectors, c.norms, c.emotionalIntensity, c.contextualRelevance, c.recallCount, c.createdAtMs, c.decayFromMs])
        a.fill(calls);
      ctx.similarity().fill(-1);
      ctx.salience(true).fill(7);
      ctx.salience(false).fill(7);
      ctx.fusedOrder(0.5).reverse();
      ctx.fusedOrder(0.5, false).reverse();
      ctx.recencyOrder().reverse();
      ctx.query.vector.fill(3);
      for (const [k, v] of [
        ["size", 2],
        ["columns", null],
        ["nowMs", 0],
      ] as const) {
        try {
          (ctx as unknown as Record<string, unknown>)[k] = v;
        } catch {
          // read-only, as it should be
        }
      }
      try {
        (c.texts as string[]).reverse();
      } catch {
        // frozen
      }
      return reverse(ctx);
    });
    registerStrategy(mutator);
    expect(await rankAll(s, mutator)).toBe(reference);
    expect(calls).toBe(6);
    expect(JSON.stringify(Object.entries(s.columns()).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)]))).toBe(columnsBefore);
  });
});
