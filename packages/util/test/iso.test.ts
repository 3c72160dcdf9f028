import { describe, expect, it } from "vitest";
import { parseIsoDateTime, parseIsoInstant } from "../src/index.js";

describe("ISO-8601 date-times", () => {
  it("treats a value without a zone as UTC and applies offsets", () => {
    expect(parseIsoDateTime("2025-03-02T19:30:00")).toBe(Date.UTC(2025, 2, 2, 19, 30));
    expect(parseIsoDateTime("2025-03-02T19:30:00+00:00")).toBe(Date.UTC(2025, 2, 2, 19, 30));
    expect(parseIsoDateTime("2025-03-02T19:30:00Z")).toBe(Date.UTC(2025, 2, 2, 19, 30));
    expect(parseIsoDateTime("2025-03-02T19:30:00+09:00")).toBe(Date.UTC(2025, 2, 2, 10, 30));
    expect(parseIsoDateTime("2025-03-02T19:30-0130")).toBe(Date.UTC(2025, 2, 2, 21, 0));
    expect(parseIsoDateTime("2025-03-02 19:30")).toBe(Date.UTC(2025, 2, 2, 19, 30));
    expect(parseIsoDateTime("2025-03-02")).toBe(Date.UTC(2025, 2, 2));
    expect(parseIsoDateTime("2025-03-02T19:30:00.25Z")).toBe(Date.UTC(2025, 2, 2, 19, 30, 0, 250));
  });
  it("rejects invalid dates instead of rolling them over", () => {
    for (const bad of [
      "2025-02-29T00:00:00",
      "2025-13-01",
      "2025-04-31",
      "2025-03-02T24:00",
      "2025-03-02T19:61",
      "March 2, 2025",
      "2025-03-02Z",
      "2025-03-02T19:30+25:00",
      "",
    ]) {
      expect(parseIsoDateTime(bad), bad).toBeUndefined();
    }
    expect(parseIsoDateTime("2024-02-29T00:00:00")).toBe(Date.UTC(2024, 1, 29));
  });
});

describe("parseIsoInstant (the reasons behind a rejection)", () => {
  it("tells a syntax error from an impossible field", () => {
    expect(parseIsoInstant("yesterday")).toEqual({ ok: false, syntax: true, problem: "not an ISO-8601 date-time" });
    expect(parseIsoInstant("2025-1-4")).toMatchObject({ ok: false, syntax: true });
    expect(parseIsoInstant("2025-13-01")).toEqual({ ok: false, syntax: false, problem: "month 13 does not exist" });
    expect(parseIsoInstant("2025-02-30")).toMatchObject({ syntax: false, problem: "2025-02 has 28 days, so day 30 does not exist" });
    expect(parseIsoInstant("2025-01-24T24:00")).toMatchObject({ problem: "hour 24 is out of range 00-23" });
    expect(parseIsoInstant("2025-01-24T12:00:00+25:00")).toMatchObject({ problem: "zone offset +25:00 is out of range" });
    expect(parseIsoInstant("2025-03-02Z")).toMatchObject({ syntax: false, problem: "a zone needs a time of day" });
  });

  it("reads fractions after a point or a comma, truncated to milliseconds like Date.parse", () => {
    const base = Date.UTC(2025, 2, 2, 19, 30);
    expect(parseIsoDateTime("2025-03-02T19:30:00,5Z")).toBe(base + 500);
    expect(parseIsoDateTime("2025-03-02T19:30:00.1239Z")).toBe(base + 123);
    expect(parseIsoDateTime("2025-03-02T19:30:00.1239Z")).toBe(Date.parse("2025-03-02T19:30:00.1239Z"));
    expect(parseIsoDateTime("2025-03-02T19:30:00.999999999999Z")).toBe(base + 999);
  });
});
