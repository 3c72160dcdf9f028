import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  decay,
  DECAY_RATE_PER_DAY,
  halfLifeDays,
  isShortTerm,
  Memory,
  recallStrength,
  SHORT_TERM_WINDOW_DAYS,
} from "../src/index.js";

/** Published Exp. 1 numbers of the reference implementation (copied from /work/shared/reference). */
const exp1 = JSON.parse(readFileSync(new URL("./fixtures/exp1_forgetting_curve.json", import.meta.url), "utf8")) as {
  lambda_per_day: number;
  retention_at_6_days: number;
  half_life_days: number;
  retention_samples: Record<string, number>;
};

describe("Ebbinghaus decay calibration (docs/spec.md §1)", () => {
  it("λ = ln 4 / 6, as published", () => {
    expect(DECAY_RATE_PER_DAY).toBe(Math.log(4) / 6);
    expect(DECAY_RATE_PER_DAY).toBe(exp1.lambda_per_day);
    expect(DECAY_RATE_PER_DAY).toBeCloseTo(0.231049, 6);
  });

  it("d(6 d) = 0.25 and the half-life is 3 d", () => {
    expect(decay(6)).toBe(0.25);
    expect(decay(6)).toBe(exp1.retention_at_6_days);
    expect(decay(3)).toBe(0.5);
    expect(halfLifeDays()).toBe(3);
    expect(halfLifeDays()).toBe(exp1.half_life_days);
    expect(decay(0)).toBe(1);
  });

  it("reproduces every published retention sample bit for bit", () => {
    for (const [age, d] of Object.entries(exp1.retention_samples)) expect(decay(Number(age)), `d(${age})`).toBe(d);
  });

  it("is e^(−λ·Δt): multiplicative over consecutive intervals and monotone", () => {
    for (const [a, b] of [[1, 2], [2.5, 4], [10, 0.25]] as const) {
      expect(decay(a + b)).toBeCloseTo(decay(a) * decay(b), 14);
    }
    let prev = Infinity;
    for (let t = 0; t <= 60; t += 0.5) {
      const d = decay(t);
      expect(d).toBeLessThan(prev);
      prev = d;
    }
  });

  it("clamps a negative age to 0 (d = 1) and honours a custom λ", () => {
    expect(decay(-3)).toBe(1);
    expect(decay(-1e-9)).toBe(1);
    expect(decay(2, 0)).toBe(1);
    expect(decay(2, 0.5)).toBe(Math.exp(-1));
    expect(halfLifeDays(Math.LN2)).toBe(1);
  });

  it("rejects a non-finite age instead of returning NaN", () => {
    expect(() => decay(Number.NaN)).toThrow(/age \(days\) must be a finite number, got NaN/);
    expect(() => isShortTerm(Number.NaN)).toThrow(/finite/);
  });
});

describe("short-term window and recall strength", () => {
  it("short-term iff age ≤ 6 d (inclusive boundary)", () => {
    expect(SHORT_TERM_WINDOW_DAYS).toBe(6);
    expect(isShortTerm(0)).toBe(true);
    expect(isShortTerm(6)).toBe(true);
    expect(isShortTerm(6 + 1 / 86_400_000)).toBe(false);
    expect(isShortTerm(7)).toBe(false);
    expect(isShortTerm(7, 7)).toBe(true);
  });

  it("a memory exactly 6 d old is short-term, one millisecond older is not", () => {
    const now = Date.UTC(2025, 0, 24, 12);
    const six = new Memory({ text: "x", emotionalIntensity: 0.5, createdAt: now - 6 * DAY_MS });
    const older = new Memory({ text: "x", emotionalIntensity: 0.5, createdAt: now - 6 * DAY_MS - 1 });
    expect(six.ageDays(now)).toBe(6);
    expect(six.isShortTerm(now)).toBe(true);
    expect(older.isShortTerm(now)).toBe(false);
  });

  it("R = n / (n + 5)", () => {
    for (const n of [0, 1, 3, 5, 12]) expect(recallStrength(n)).toBe(n / (n + 5));
    expect(recallStrength(5)).toBe(0.5);
  });
});

describe("Memory (docs/spec.md §1)", () => {
  const now = "2025-01-24T12:00:00Z";

  it("clips E and C to [0, 1] and defaults C = 0.5, n = 0", () => {
    const m = new Memory({ text: "t", emotionalIntensity: 1.4, contextualRelevance: -0.2, createdAt: now });
    expect(m.emotionalIntensity).toBe(1);
    expect(m.contextualRelevance).toBe(0);
    const d = new Memory({ text: "t", emotionalIntensity: 0.3, createdAt: now });
    expect(d.contextualRelevance).toBe(0.5);
    expect(d.recallCount).toBe(0);
    expect(d.lastRecalled).toBeNull();
  });

  it("age and decay age: the clock restarts at last_recalled; created_at never changes on recall", () => {
    const m = new Memory({ text: "t", emotionalIntensity: 0.3, createdAt: "2025-01-14T12:00:00", recallCount: 2 });
    expect(m.ageDays(now)).toBe(10);
    expect(m.decayAgeDays(now)).toBe(10);
    const created = m.createdAtMs;
    m.recall("2025-01-20T12:00:00Z");
    expect(m.recallCount).toBe(3);
    expect(m.lastRecalled?.toISOString()).toBe("2025-01-20T12:00:00.000Z");
    expect(m.createdAtMs).toBe(created);
    expect(m.ageDays(now)).toBe(10);
    expect(m.decayAgeDays(now)).toBe(4);
    // age is never negative
    expect(m.ageDays("2025-01-01T00:00:00Z")).toBe(0);
  });

  it("rejects bad input with a clear error", () => {
    expect(() => new Memory({ text: "t", emotionalIntensity: Number.NaN, createdAt: now })).toThrow(/emotional intensity E must be a finite number, got NaN/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, contextualRelevance: Number.POSITIVE_INFINITY, createdAt: now })).toThrow(
      /contextual relevance C must be a finite number, got Infinity/,
    );
    expect(() => new Memory({ text: 42 as unknown as string, emotionalIntensity: 0.5, createdAt: now })).toThrow(/memory text must be a string, got 42/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, createdAt: "2025-13-01" })).toThrow(/created_at: "2025-13-01" is not a valid date/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, createdAt: "yesterday" })).toThrow(/created_at: "yesterday" is not an ISO-8601/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, recallCount: -1, createdAt: now })).toThrow(/recall count must be a non-negative integer/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, recallCount: 1.5, createdAt: now })).toThrow(/non-negative integer, got 1.5/);
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, createdAt: now, lastRecalled: "2025-02-30" })).toThrow(/last_recalled/);
  });

  it("toJSON / fromJSON is lossless", () => {
    const m = new Memory({
      id: "abc",
      text: "I celebrated my graduation!",
      event: "celebrated graduation",
      emotion: "joyful",
      hashtags: ["#Graduation", "#Joyful"],
      emotionalIntensity: 0.93,
      contextualRelevance: 0.1 + 0.2, // 0.30000000000000004 must survive
      recallCount: 4,
      createdAt: Date.UTC(2025, 0, 3, 8, 15, 30, 250),
      lastRecalled: "2025-01-10T01:02:03",
    });
    const back = Memory.fromJSON(JSON.parse(JSON.stringify(m)));
    expect(back.toJSON()).toEqual(m.toJSON());
    expect(back.contextualRelevance).toBe(0.1 + 0.2);
    expect(back.createdAtMs).toBe(m.createdAtMs);
    expect(back.lastRecalledMs).toBe(Date.UTC(2025, 0, 10, 1, 2, 3));
  });
});
