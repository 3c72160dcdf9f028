import { describe, expect, it } from "vitest";
import { Memory } from "../src/index.js";

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
    expect(() => new Memory({ text: "t", emotionalIntensity: Number.NaN, createdAt: now })).toThrow(
      /emotional intensity E must be a finite number, got NaN/,
    );
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, contextualRelevance: Number.POSITIVE_INFINITY, createdAt: now })).toThrow(
      /contextual relevance C must be a finite number, got Infinity/,
    );
    expect(() => new Memory({ text: 42 as unknown as string, emotionalIntensity: 0.5, createdAt: now })).toThrow(
      /memory text must be a string, got 42/,
    );
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, createdAt: "2025-13-01" })).toThrow(
      /created_at: "2025-13-01" is not a valid date/,
    );
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, createdAt: "yesterday" })).toThrow(
      /created_at: "yesterday" is not an ISO-8601/,
    );
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, recallCount: -1, createdAt: now })).toThrow(
      /recall count must be a non-negative integer/,
    );
    expect(() => new Memory({ text: "t", emotionalIntensity: 0.5, recallCount: 1.5, createdAt: now })).toThrow(
      /non-negative integer, got 1.5/,
    );
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
