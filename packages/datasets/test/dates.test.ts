import { describe, expect, it } from "vitest";
import { formatIsoUtc, parseLocomoDateTime } from "../src/index.js";

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
    for (const bad of [
      "13:00 pm on 1 May, 2023",
      "1:60 pm on 1 May, 2023",
      "1:00 pm on 31 April, 2023",
      "1:00 pm on 1 Mai, 2023",
      "2023-05-01",
      "",
    ]) {
      expect(parseLocomoDateTime(bad), bad).toBeUndefined();
    }
  });
});

describe("ISO-8601 rendering", () => {
  it("formats as UTC ISO", () => {
    expect(formatIsoUtc(Date.UTC(2025, 5, 30, 12))).toBe("2025-06-30T12:00:00.000Z");
  });
});
