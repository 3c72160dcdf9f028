import { describe, expect, it } from "vitest";
import { DAY_MS, isoUtc, toEpochMs } from "../src/index.js";

describe("instants (docs/spec.md §1: timestamps without a zone are UTC)", () => {
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
    expect(toEpochMs(new Date(utc))).toBe(utc);
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
