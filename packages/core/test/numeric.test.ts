import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clip, DAY_MS, isoUtc, pyRound, requireFinite, toDate, toEpochMs } from "../src/index.js";

interface PyRoundFixture {
  python: string;
  cases: [number, number, number][];
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/pyround-cases.json", import.meta.url), "utf8")) as PyRoundFixture;

/** The naive rounding the SPEC warns against, to prove the tie cases below actually discriminate. */
const naive = (x: number, n: number) => Number(x.toFixed(n));

describe("pyRound (Python round(x, n): exact binary value, ties to even)", () => {
  it("matches the SPEC's examples, which Number(x.toFixed(n)) gets wrong", () => {
    expect(pyRound(0.03125, 4)).toBe(0.0312);
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.675 is 2.67499999… in binary: not a tie at all
    expect(pyRound(0.5)).toBe(0);
    expect(pyRound(1.5)).toBe(2);
    expect(pyRound(2.5)).toBe(2);
    // the toFixed shortcut rounds the exact ties up, so these checks can fail
    expect(naive(0.03125, 4)).not.toBe(pyRound(0.03125, 4));
    expect(naive(0.125, 2)).not.toBe(pyRound(0.125, 2));
  });

  it("rounds negatives symmetrically and keeps the sign of zero", () => {
    expect(pyRound(-0.5)).toBe(-0);
    expect(Object.is(pyRound(-0.5), -0)).toBe(true);
    expect(pyRound(-1.5)).toBe(-2);
    expect(pyRound(-2.5)).toBe(-2);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
    expect(pyRound(-2.675, 2)).toBe(-2.67);
    expect(pyRound(-0.03125, 4)).toBe(-0.0312);
    expect(Object.is(pyRound(-0.0004, 3), -0)).toBe(true);
  });

  it("passes non-finite values through and rejects bad digit counts", () => {
    expect(pyRound(Number.NaN, 2)).toBeNaN();
    expect(pyRound(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
    expect(() => pyRound(1.5, -1)).toThrow(/digits must be an integer in \[0, 20\], got -1/);
    expect(() => pyRound(1.5, 1.5)).toThrow(RangeError);
    expect(() => pyRound(1.5, 21)).toThrow(/digits/);
  });

  it(`agrees with CPython ${fixture.python} on ${fixture.cases.length} generated cases (fixtures/pyround-cases.json)`, () => {
    expect(fixture.cases.length).toBeGreaterThan(300);
    const mismatches: string[] = [];
    let naiveMismatches = 0;
    for (const [x, n, expected] of fixture.cases) {
      const got = pyRound(x, n);
      if (!Object.is(got, expected)) mismatches.push(`round(${x}, ${n}): python ${expected}, pyRound ${got}`);
      if (naive(x, n) !== expected) naiveMismatches++;
    }
    expect(mismatches).toEqual([]);
    // The fixture really exercises ties: the toFixed shortcut fails on a good share of it.
    expect(naiveMismatches).toBeGreaterThan(30);
  });
});

describe("clip and requireFinite", () => {
  it("clips to [0, 1] by default and to any range", () => {
    expect(clip(-0.2)).toBe(0);
    expect(clip(1.7)).toBe(1);
    expect(clip(0.37)).toBe(0.37);
    expect(clip(5, -1, 3)).toBe(3);
  });

  it("names the quantity and the bad value", () => {
    expect(requireFinite(0.5, "E")).toBe(0.5);
    expect(() => requireFinite(Number.NaN, "E")).toThrow("E must be a finite number, got NaN");
    expect(() => requireFinite(Number.POSITIVE_INFINITY, "E")).toThrow("E must be a finite number, got Infinity");
    expect(() => requireFinite("0.5", "E")).toThrow('E must be a finite number, got "0.5"');
    expect(() => requireFinite(undefined, "E")).toThrow("got undefined");
  });
});

describe("instants (SPEC §1: timestamps without a zone are UTC)", () => {
  it("reads zone-less ISO strings as UTC", () => {
    const utc = Date.UTC(2025, 0, 24, 12, 0, 0);
    expect(toEpochMs("2025-01-24T12:00:00")).toBe(utc);
    expect(toEpochMs("2025-01-24 12:00:00")).toBe(utc);
    expect(toEpochMs("2025-01-24T12:00")).toBe(utc);
    expect(toEpochMs("2025-01-24T12:00:00Z")).toBe(utc);
    expect(toEpochMs("2025-01-24T12:00:00+00:00")).toBe(utc);
    expect(toEpochMs("2025-01-24")).toBe(Date.UTC(2025, 0, 24));
    expect(toEpochMs("2025-01-24T14:30:00+02:30")).toBe(utc);
    expect(toEpochMs("2025-01-24T09:00:00-0300")).toBe(utc);
    expect(toEpochMs(utc)).toBe(utc);
    expect(toDate(new Date(utc)).getTime()).toBe(utc);
  });

  it("renders UTC with a +00:00 suffix and round-trips", () => {
    const ms = Date.UTC(2025, 0, 24, 12, 0, 0);
    expect(isoUtc(ms)).toBe("2025-01-24T12:00:00+00:00");
    expect(isoUtc(ms + 123)).toBe("2025-01-24T12:00:00.123+00:00");
    expect(toEpochMs(isoUtc(ms + 123))).toBe(ms + 123);
    expect(DAY_MS).toBe(86_400 * 1000);
  });

  it("rejects malformed and impossible dates instead of rolling them over", () => {
    expect(() => toEpochMs("2025-13-01", "created_at")).toThrow(/created_at: "2025-13-01" is not a valid date \(month 13/);
    expect(() => toEpochMs("yesterday", "created_at")).toThrow(/created_at: "yesterday" is not an ISO-8601 date-time/);
    expect(() => toEpochMs("2025-02-30")).toThrow(/2025-02 has 28 days, so day 30 does not exist/);
    expect(() => toEpochMs("2025-02-29")).toThrow(/has 28 days/);
    expect(toEpochMs("2024-02-29")).toBe(Date.UTC(2024, 1, 29)); // a leap day is fine
    expect(() => toEpochMs("2025-04-31T10:00:00Z")).toThrow(/has 30 days/);
    expect(() => toEpochMs("2025-01-24T24:00:00Z")).toThrow(/hour 24/);
    expect(() => toEpochMs("2025-01-24T12:60:00Z")).toThrow(/minute 60/);
    expect(() => toEpochMs("2025-01-24T12:00:61Z")).toThrow(/second 61/);
    expect(() => toEpochMs("2025-01-24T12:00:00+25:00")).toThrow(/zone offset/);
    expect(() => toEpochMs("2025-1-4")).toThrow(/ISO-8601/);
    expect(() => toEpochMs("")).toThrow(/ISO-8601/);
  });

  it("rejects non-finite numbers, invalid Dates and other types", () => {
    expect(() => toEpochMs(Number.NaN, "now")).toThrow(/now: NaN is not a valid date/);
    expect(() => toEpochMs(Number.POSITIVE_INFINITY, "now")).toThrow(/not a valid date/);
    expect(() => toEpochMs(1e17, "now")).toThrow(/not a valid date/);
    expect(() => toEpochMs(new Date("nope"), "now")).toThrow(/Invalid Date/);
    expect(() => toEpochMs(null as unknown as string, "now")).toThrow(TypeError);
    expect(() => toEpochMs({} as unknown as string, "now")).toThrow(/must be a Date, an ISO-8601 string or epoch milliseconds/);
  });
});
