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
import { referenceJson } from "./shared-fixtures.js";

/** Published Exp. 1 numbers of the reference implementation (packages/benchmarks/test/fixtures/reference/). */
const exp1 = referenceJson("exp1_forgetting_curve.json") as {
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
    for (const [a, b] of [
      [1, 2],
      [2.5, 4],
      [10, 0.25],
    ] as const) {
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
