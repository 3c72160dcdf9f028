import { describe, expect, it } from "vitest";
import { formatIsoUtc, parseIsoDateTime, parseLocomoDateTime } from "../src/index.js";

describe("LoCoMo session times (UTC)", () => {
  it("parses the published form", () => {
    expect(parseLocomoDateTime("1:56 pm on 8 May, 2023")).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseLocomoDateTime("9:32 am on 8 February, 2023")).toBe(Date.UTC(2023, 1, 8, 9, 32));
  });
  it("maps 12 am to midnight and 12 pm to noon", () => {
    expect(parseLocomoDateTime("12:05 am on 1 January, 2024")).toBe(Date.UTC(2024, 0, 1, 0, 5));
    expect(parseLocomoDateTime("12:05 pm on 1 January, 2024")).toBe(Date.UTC(2024, 0, 1, 12, 5));
  });
  it("rejects impossible or malformed times", () => {
    for (const bad of ["13:00 pm on 1 May, 2023", "1:60 pm on 1 May, 2023", "1:00 pm on 31 April, 2023", "1:00 pm on 1 Mai, 2023", "2023-05-01", ""]) {
      expect(parseLocomoDateTime(bad), bad).toBeUndefined();
    }
  });
});

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
    for (const bad of ["2025-02-29T00:00:00", "2025-13-01", "2025-04-31", "2025-03-02T24:00", "2025-03-02T19:61", "March 2, 2025", "2025-03-02Z", "2025-03-02T19:30+25:00", ""]) {
      expect(parseIsoDateTime(bad), bad).toBeUndefined();
    }
    expect(parseIsoDateTime("2024-02-29T00:00:00")).toBe(Date.UTC(2024, 1, 29));
  });
  it("formats as UTC ISO", () => {
    expect(formatIsoUtc(Date.UTC(2025, 5, 30, 12))).toBe("2025-06-30T12:00:00.000Z");
  });
});
