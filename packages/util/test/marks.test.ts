import { describe, expect, it } from "vitest";
import { StampedMarks } from "../src/marks.js";

describe("StampedMarks", () => {
  it("starts every pass with nothing marked, and keeps a pass's marks when it grows", () => {
    const m = new StampedMarks();
    const a = m.next(4);
    expect(m.marks.length).toBeGreaterThanOrEqual(4);
    m.marks[2] = a;
    expect(m.marks[2]).toBe(a);
    const b = m.next(4);
    expect(b).not.toBe(a);
    expect([0, 1, 2, 3].filter((i) => m.marks[i] === b)).toEqual([]);
    m.marks[1] = b;
    const grown = m.cover(1000);
    expect(grown.length).toBeGreaterThan(1000);
    expect(grown[1]).toBe(b);
    expect(m.marks).toBe(grown);
  });

  it("clears its marks when the stamp wraps, so no old mark matches a new pass", () => {
    const m = new StampedMarks();
    const first = m.next(2);
    m.marks[0] = first;
    (m as unknown as { stamp: number }).stamp = 0x7fffffff;
    m.marks[1] = 0x7fffffff;
    const after = m.next(2);
    expect(after).toBe(1);
    expect([m.marks[0], m.marks[1]]).toEqual([0, 0]);
  });
});
