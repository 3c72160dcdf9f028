import { describe, expect, it } from "vitest";
import { pyRound } from "@persode/util";
import {
  DAY_MS,
  decay,
  DECAY_RATE_PER_DAY,
  DEFAULT_PROTECTION,
  DEFAULT_WEIGHTS,
  Memory,
  rankByStrength,
  salience,
  Scorer,
  strength,
  toEpochMs,
  validateProtection,
  validateWeights,
  type ScoringWeights,
} from "../src/index.js";
import { referenceJson, scenarioJson } from "./shared-fixtures.js";

interface ScenarioMemory {
  event: string;
  text: string;
  emotion: string;
  emotional_intensity: number;
  contextual_relevance: number;
  recall_count: number;
  age_days: number;
  hashtags: string[];
}
interface Scenario {
  reference_now: string;
  memories: ScenarioMemory[];
  exp1_profiles: { label: string; emotional_intensity: number; contextual_relevance: number; recall_count: number }[];
  exp2_weightings: { label: string; w_emotion: number; w_recall: number; w_context: number }[];
}
const scenario = scenarioJson() as Scenario;
const exp2 = referenceJson("exp2_memory_scoring.json") as {
  reference_now: string;
  rankings: Record<string, { event: string; S: number }[]>;
};
const exp1 = referenceJson("exp1_forgetting_curve.json") as { strength_at_30_days: Record<string, number> };

const now = toEpochMs(scenario.reference_now);

/** Eq. 1 written out independently of the library, for comparison. */
function eq1(E: number, n: number, C: number, w: ScoringWeights, gamma: number, ageDays: number) {
  const k = (w.emotion * E + w.recall * (n / (n + 5)) + w.context * C) / (w.emotion + w.recall + w.context);
  return { k, S: Math.exp(-(Math.log(4) / 6) * (1 - gamma * k) * ageDays) * k };
}

describe("Eq. 1 with consolidation (docs/spec.md §2)", () => {
  it("defaults: weights (1, 1, 1), γ = 0.9, λ = ln 4 / 6", () => {
    const s = new Scorer();
    expect(s.weights).toEqual({ emotion: 1, recall: 1, context: 1 });
    expect(DEFAULT_WEIGHTS).toEqual({ emotion: 1, recall: 1, context: 1 });
    expect(s.gamma).toBe(0.9);
    expect(DEFAULT_PROTECTION).toBe(0.9);
    expect(s.lambda).toBe(DECAY_RATE_PER_DAY);
  });

  it("k and S follow the formula for a grid of inputs and weights", () => {
    const weights: ScoringWeights[] = [
      { emotion: 1, recall: 1, context: 1 },
      { emotion: 3, recall: 1, context: 1 },
      { emotion: 0, recall: 2, context: 0.5 },
    ];
    for (const w of weights) {
      for (const gamma of [0, 0.5, 0.9, 1]) {
        const scorer = new Scorer({ weights: w, gamma });
        for (const [E, n, C, age] of [
          [0.95, 3, 0.7, 30],
          [0.15, 0, 0.25, 30],
          [0.5, 1, 0.4, 2.5],
          [1, 10, 1, 0],
          [0, 0, 0, 9],
        ] as const) {
          const m = { emotionalIntensity: E, recallCount: n, contextualRelevance: C };
          const got = scorer.score(m, age);
          const want = eq1(E, n, C, w, gamma, age);
          expect(got.salience).toBeCloseTo(want.k, 15);
          expect(got.strength).toBeCloseTo(want.S, 15);
          expect(got.salience).toBe(salience(E, n, C, w));
          expect(got.strength).toBe(strength(got.salience, age, gamma));
        }
      }
    }
  });

  it("γ = 0 is plain forgetting: S = d(age)·k exactly", () => {
    const k = salience(0.8, 2, 0.6);
    for (const age of [0, 1, 6, 17.25]) expect(strength(k, age, 0)).toBe(decay(age) * k);
  });

  it("salient memories forget more slowly (λ_eff = λ·(1 − γ·k))", () => {
    const hi = salience(0.95, 3, 0.7);
    const lo = salience(0.15, 0, 0.25);
    // S/k is the retention; the salient memory keeps more of its own strength at every age
    for (const age of [1, 6, 30]) expect(strength(hi, age) / hi).toBeGreaterThan(strength(lo, age) / lo);
    // and its retention is exactly d(age)^(1 − γk)
    expect(strength(hi, 10) / hi).toBeCloseTo(Math.pow(decay(10), 1 - 0.9 * hi), 14);
    // a negative decay age counts as 0
    expect(strength(hi, -2)).toBe(hi);
  });

  it("Exp. 1: S at 30 d for the high-emotion and neutral profiles, and their ratio, as published", () => {
    const scorer = new Scorer();
    const byLabel = Object.fromEntries(scenario.exp1_profiles.map((p) => [p.emotional_intensity, p]));
    const hi = byLabel[0.95]!;
    const lo = byLabel[0.15]!;
    expect([hi.contextual_relevance, hi.recall_count, lo.contextual_relevance, lo.recall_count]).toEqual([0.7, 3, 0.25, 0]);
    const S = (p: typeof hi) =>
      scorer.score(
        { emotionalIntensity: p.emotional_intensity, contextualRelevance: p.contextual_relevance, recallCount: p.recall_count },
        30,
      ).strength;
    // published (exp1_forgetting_curve.json): 0.0444, 0.0003, ratio 148.6
    expect(pyRound(S(hi), 4)).toBe(0.0444);
    expect(pyRound(S(lo), 4)).toBe(0.0003);
    expect(pyRound(S(hi) / S(lo), 1)).toBe(148.6);
    expect(exp1.strength_at_30_days).toEqual({ "high_emotion_E0.95": 0.0444, "neutral_E0.15": 0.0003, ratio: 148.6 });
  });

  it("query relevance replaces the stored C and is clipped to [0, 1]", () => {
    const scorer = new Scorer();
    const m = { emotionalIntensity: 0.6, recallCount: 2, contextualRelevance: 0.3 };
    const withC = (C: number) => scorer.score({ ...m, contextualRelevance: C }, 4);
    expect(scorer.score(m, 4, 0.8)).toEqual(withC(0.8));
    expect(scorer.score(m, 4, 0.8)).not.toEqual(scorer.score(m, 4));
    expect(scorer.score(m, 4, 1.7)).toEqual(withC(1));
    expect(scorer.score(m, 4, -0.4)).toEqual(withC(0));
    expect(scorer.score(m, 4)).toEqual(withC(0.3));
    expect(() => scorer.score(m, 4, Number.NaN)).toThrow(/query relevance must be a finite number, got NaN/);
    expect(() => scorer.score(m, Number.POSITIVE_INFINITY)).toThrow(/decay age must be a finite number/);
  });
});

describe("Exp. 2: rankings under four weightings reproduce the published reference exactly", () => {
  const memories = scenario.memories.map(
    (s, i) =>
      new Memory(
        {
          text: s.text,
          event: s.event,
          emotion: s.emotion,
          hashtags: s.hashtags,
          emotionalIntensity: s.emotional_intensity,
          contextualRelevance: s.contextual_relevance,
          recallCount: s.recall_count,
          createdAt: now - s.age_days * DAY_MS,
        },
        `s${i}`,
      ),
  );

  it("uses the same reference clock as the scenario", () => {
    expect(toEpochMs(exp2.reference_now)).toBe(now);
    expect(memories).toHaveLength(10);
    expect(scenario.exp2_weightings.map((w) => w.label).sort()).toEqual(Object.keys(exp2.rankings).sort());
  });

  for (const w of scenario.exp2_weightings) {
    it(w.label, () => {
      const scorer = new Scorer({ weights: { emotion: w.w_emotion, recall: w.w_recall, context: w.w_context } });
      const S = memories.map((m) => scorer.score(m, m.decayAgeDays(now)).strength);
      const order = rankByStrength(S, (x) => x);
      const got = order.map((i) => ({ event: memories[i]!.event, S: pyRound(S[i]!, 4) }));
      expect(got).toEqual(exp2.rankings[w.label]);
    });
  }
});

describe("rankByStrength", () => {
  it("is descending and stable (ties keep insertion order)", () => {
    const s = [0.2, 0.5, 0.2, 0.9, 0.5, 0.2];
    expect(rankByStrength(s, (x) => x)).toEqual([3, 1, 4, 0, 2, 5]);
  });

  it("rejects a non-finite strength instead of producing an arbitrary order", () => {
    expect(() => rankByStrength([0.1, Number.NaN], (x) => x)).toThrow(/strength of item 1 must be a finite number, got NaN/);
  });
});

describe("weights and γ validation (clear errors)", () => {
  const ok = { emotion: 1, recall: 1, context: 1 };
  const cases: [Partial<Record<keyof ScoringWeights, number>>, RegExp][] = [
    [{ emotion: -1 }, /weight emotion must be ≥ 0, got -1/],
    [{ recall: -0.5 }, /weight recall must be ≥ 0, got -0.5/],
    [{ context: Number.NaN }, /weight context must be a finite number, got NaN/],
    [{ emotion: Number.POSITIVE_INFINITY }, /weight emotion must be a finite number, got Infinity/],
    [{ emotion: 0, recall: 0, context: 0 }, /weights must not all be 0/],
  ];
  for (const [patch, msg] of cases) {
    it(`rejects ${JSON.stringify(patch).replace(/null/g, "NaN/Infinity")}`, () => {
      const w = { ...ok, ...patch };
      expect(() => validateWeights(w)).toThrow(msg);
      expect(() => new Scorer({ weights: w })).toThrow(msg);
    });
  }

  it("rejects a missing weight and a non-object", () => {
    expect(() => validateWeights({ emotion: 1, recall: 1 } as ScoringWeights)).toThrow(
      /weight context must be a finite number, got undefined/,
    );
    expect(() => validateWeights(null as unknown as ScoringWeights)).toThrow(/weights must be an object/);
  });

  it("accepts zero weights as long as one is positive", () => {
    expect(validateWeights({ emotion: 0, recall: 0, context: 2 })).toEqual({ emotion: 0, recall: 0, context: 2 });
  });

  it("γ must lie in [0, 1]", () => {
    expect(validateProtection(0)).toBe(0);
    expect(validateProtection(1)).toBe(1);
    expect(() => validateProtection(1.01)).toThrow(/protection γ must be in \[0, 1\], got 1.01/);
    expect(() => validateProtection(-0.1)).toThrow(/protection γ must be in \[0, 1\], got -0.1/);
    expect(() => validateProtection(Number.NaN)).toThrow(/protection γ must be a finite number, got NaN/);
    expect(() => new Scorer({ gamma: 2 })).toThrow(/protection γ/);
    expect(() => new Scorer({ gamma: Number.POSITIVE_INFINITY })).toThrow(/finite/);
    expect(() => new Scorer({ lambda: -1 })).toThrow(/decay rate λ must be ≥ 0/);
  });
});
