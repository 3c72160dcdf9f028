import { describe, expect, it } from "vitest";
import { RankingsWriter, lineEnd } from "../src/rankings-writer.js";

/** The line as the reference writes it: Python's json.dumps spacing, one JSON string per ranked id. */
const expectedLine = (prefix: string, order: ArrayLike<number>, ids: readonly string[], suffix: string) =>
  `${prefix}[${Array.from(order, (i) => JSON.stringify(ids[i]!)).join(", ")}]${suffix}\n`;

function shuffled(n: number, seed: number): Int32Array {
  const o = Int32Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [o[i], o[j]] = [o[j]!, o[i]!];
  }
  return o;
}

describe("RankingsWriter", () => {
  it("writes every line byte for byte as JSON with ', ' spacing, for ids of every width (1 to 40 bytes, non-ASCII, escapes)", () => {
    const idSets = [
      ["D1:3", "D12:34", "D1:1", "D30:102"], // LoCoMo-like, 3 words with the separator
      ["a", "b", "c"], // 1 word
      ["ep-001", "ep-002", "ep-010"], // 2 words
      ["é", "日本語の記憶", 'quote"d', "back\\slash", "tab\there", "x".repeat(40)], // multi-byte, escapes, wide
      [], // an empty store
    ];
    const writer = new RankingsWriter(64); // tiny: growing is exercised
    let expected = "";
    for (let round = 0; round < 30; round++) {
      for (const [k, ids] of idSets.entries()) {
        const enc = RankingsWriter.encodeIds(ids);
        const order = shuffled(ids.length, round * 7 + k + 1);
        const prefix = `{"q": ${round}, "é": "${k}", "ranked": `;
        const suffix = round % 3 === 0 ? lineEnd(Int32Array.of(0, 2)) : "}";
        writer.line(prefix, order, enc, suffix);
        expected += expectedLine(prefix, order, ids, suffix);
        // a truncated order (the first two) too
        const top = order.subarray(0, Math.min(2, order.length));
        writer.line("{", top, enc);
        expected += expectedLine("{", top, ids, "}");
      }
    }
    expect(Buffer.from(writer.bytes()).toString("utf8")).toBe(expected);
  });

  it("repeats a shared (query-independent) order by copying its bytes, with the same result", () => {
    const ids = Array.from({ length: 700 }, (_, i) => `D${1 + (i % 31)}:${i}`);
    const enc = RankingsWriter.encodeIds(ids);
    const order = shuffled(ids.length, 99);
    const writer = new RankingsWriter(1000);
    let expected = "";
    for (let q = 0; q < 20; q++) {
      writer.line(`{"q": ${q}, "r": `, order, enc);
      expected += expectedLine(`{"q": ${q}, "r": `, order, ids, "}");
    }
    expect(Buffer.from(writer.bytes()).toString("utf8")).toBe(expected);
  });

  it("with a depth, writes each ranking's first `depth` ids (all of a shorter one), repeated orders included, and counts them", () => {
    const ids = Array.from({ length: 300 }, (_, i) => `D${1 + (i % 19)}:${i}`);
    const small = ["a", "b", "c"];
    const enc = RankingsWriter.encodeIds(ids);
    const encSmall = RankingsWriter.encodeIds(small);
    const full = new RankingsWriter(64);
    const top = new RankingsWriter(64, 100);
    let expected = "";
    for (let q = 0; q < 10; q++) {
      const order = q % 4 === 3 ? shuffled(ids.length, 5) : shuffled(ids.length, q + 1); // q = 3 and 7 repeat one order
      for (const w of [full, top]) w.line(`{"q": ${q}, "r": `, order, enc);
      expected += expectedLine(`{"q": ${q}, "r": `, order.subarray(0, 100), ids, "}");
    }
    const o = shuffled(small.length, 3);
    for (const w of [full, top]) w.line('{"r": ', o, encSmall);
    expected += expectedLine('{"r": ', o, small, "}");
    const text = Buffer.from(top.bytes()).toString("utf8");
    expect(text).toBe(expected);
    // every line is the full line's ranking cut to its first 100
    const cut = Buffer.from(full.bytes()).toString("utf8").trimEnd().split("\n");
    text
      .trimEnd()
      .split("\n")
      .forEach((l, i) => expect((JSON.parse(l) as { r: string[] }).r).toEqual((JSON.parse(cut[i]!) as { r: string[] }).r.slice(0, 100)));
    expect(top.counts()).toEqual({ lines: 11, idsPerLine: { min: 3, max: 100 } });
    expect(full.counts()).toEqual({ lines: 11, idsPerLine: { min: 3, max: 300 } });
    expect(new RankingsWriter().counts()).toEqual({ lines: 0, idsPerLine: { min: 0, max: 0 } });
    expect(top.written(300)).toBe(100);
    expect(top.written(3)).toBe(3);
    expect(full.written(300)).toBe(300);
  });

  it("refuses a depth that is not a positive integer", () => {
    for (const d of [0, -1, 2.5, NaN]) expect(() => new RankingsWriter(64, d)).toThrow(/depth must be a positive integer or Infinity/);
  });
});

describe("lineEnd", () => {
  it("records near-ties, keeping only the positions a line of `written` ids reaches (the last: tied with the first unwritten)", () => {
    expect(lineEnd(undefined)).toBe("}");
    expect(lineEnd(Int32Array.of())).toBe("}");
    expect(lineEnd(Int32Array.of(0, 99, 100, 250))).toBe(', "near_ties": [0, 99, 100, 250]}');
    expect(lineEnd(Int32Array.of(0, 99, 100, 250), 100)).toBe(', "near_ties": [0, 99]}');
    expect(lineEnd(Int32Array.of(100, 250), 100)).toBe("}");
  });
});
