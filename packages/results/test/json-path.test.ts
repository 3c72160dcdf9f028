import { describe, expect, it } from "vitest";
import { formatPath, parsePath, resolvePath } from "../src/json-path.js";

describe("json-path syntax", () => {
  it("writes bare keys with dots and quotes every other key", () => {
    expect(formatPath(["runs", "hashing", "strategies", "fused (Persode)", "evidence_recall@5"])).toBe('runs.hashing.strategies["fused (Persode)"]["evidence_recall@5"]');
    expect(formatPath(["alpha_curve", 9, "alpha"])).toBe("alpha_curve[9].alpha");
    expect(formatPath(["a\"b", "x·y"])).toBe('["a\\"b"]["x·y"]');
  });

  it("parses what it writes (round trip)", () => {
    const cases: Array<Array<string | number>> = [
      ["runs", "minilm", "strategies", "gated (Persode)", "ci95", "overall.r3", 1],
      ["strength_at_30_days", "high_emotion_E0.95"],
      ['quote " and \\ backslash', 0, "_x1"],
      ["reflective_recall3_by_band", "reflective_explicit·high", "recall"],
    ];
    for (const c of cases) expect(parsePath(formatPath(c))).toEqual(c);
  });

  it("rejects malformed paths with the column", () => {
    expect(() => parsePath("a..b")).toThrow(/column 3/);
    expect(() => parsePath('a["unterminated')).toThrow(/unterminated/);
    expect(() => parsePath("a[01]")).toThrow(/array index/);
    expect(() => parsePath("")).toThrow(/empty path/);
    expect(() => parsePath("9a")).toThrow(/bare key/);
  });

  it("resolves into objects and arrays, undefined when a step is missing", () => {
    const doc = { a: { "b c": [10, { d: 4 }] } };
    expect(resolvePath(doc, parsePath('a["b c"][1].d'))).toBe(4);
    expect(resolvePath(doc, parsePath('a["b c"][2]'))).toBeUndefined();
    expect(resolvePath(doc, parsePath("a.missing"))).toBeUndefined();
    expect(resolvePath(doc, parsePath("a.toString"))).toBeUndefined();
  });
});
