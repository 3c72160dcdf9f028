import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { DatasetFormatError, EMOBANK, loadEmoBank, parseEmoBank, resolveDataset, sha256Hex } from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

const enc = (s: string) => new TextEncoder().encode(s);

function formatError(csv: string): DatasetFormatError {
  try {
    parseEmoBank(enc(csv));
  } catch (e) {
    if (e instanceof DatasetFormatError) return e;
    throw e;
  }
  throw new Error("expected a DatasetFormatError");
}

describe("EmoBank (pinned file)", () => {
  it("pins the JULIELab commit and CC BY-SA 4.0", () => {
    expect(EMOBANK.url).toBe(
      "https://raw.githubusercontent.com/JULIELab/EmoBank/248ce2a43e165a66d31aeaed83cff9641d6654e0/corpus/emobank.csv",
    );
    expect(EMOBANK.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(EMOBANK.license).toBe("CC BY-SA 4.0");
    expect(Object.isFrozen(EMOBANK)).toBe(true);
  });

  it("loads 10,062 sentences with the authors' split, every score on 1–5, verified sha256", async () => {
    const f = await resolveDataset(EMOBANK, pinnedDataOptions());
    expect(sha256Hex(f.bytes)).toBe(EMOBANK.sha256);
    const d = await loadEmoBank(pinnedDataOptions());
    expect(d.sha256).toBe(EMOBANK.sha256);
    expect(d.sentences).toHaveLength(10062);
    const count = (s: string) => d.sentences.filter((x) => x.split === s).length;
    expect([count("train"), count("dev"), count("test")]).toEqual([8062, 1000, 1000]);
    for (const s of d.sentences) for (const v of [s.valence, s.arousal, s.dominance]) expect(v >= 1 && v <= 5).toBe(true);
    // The first data row, with its CSV-escaped quote.
    expect(d.sentences[0]).toEqual({
      id: "110CYL068_1036_1079",
      split: "train",
      valence: 3,
      arousal: 3,
      dominance: 3.2,
      text: 'Remember what she said in my last letter? "',
    });
  });

  it("reads every row as csv-parse's column records read with Number (the well-formed file's fast path)", async () => {
    const f = await resolveDataset(EMOBANK, pinnedDataOptions());
    const rows = parse(Buffer.from(f.bytes), { bom: true, columns: true }) as Record<string, string>[];
    const expected = rows.map((r) => ({
      id: r.id,
      split: r.split,
      valence: Number(r.V),
      arousal: Number(r.A),
      dominance: Number(r.D),
      text: r.text,
    }));
    expect(parseEmoBank(f.bytes).sentences).toEqual(expected);
  });
});

describe("parseEmoBank errors", () => {
  const header = "id,split,V,A,D,text\n";
  it("parses a small valid file", () => {
    const d = parseEmoBank(enc(header + 'a,train,3.0,2.5,3,"Hello, world"\nb,test,1,5,4.2,Bye\n'));
    expect(d.sentences.map((s) => [s.id, s.split, s.valence, s.arousal, s.text])).toEqual([
      ["a", "train", 3, 2.5, "Hello, world"],
      ["b", "test", 1, 5, "Bye"],
    ]);
  });
  it("names the line and field of every bad row", () => {
    const e = formatError(header + "a,train,3,3,3,ok\nb,validation,3,3,3,x\nc,dev,6,3,3,y\nd,dev,3,abc,3,z\na,test,3,3,3,dup\ne,dev,3\n");
    expect(e.issues.map((i) => i.where)).toEqual([
      "emobank.csv:3 (split)",
      "emobank.csv:4 (V)",
      "emobank.csv:5 (A)",
      "emobank.csv:6",
      "emobank.csv:7",
    ]);
    expect(e.message).toContain('unknown split "validation"; expected one of train, dev, test');
    expect(e.message).toContain("V (valence) must be on the 1–5 scale");
    expect(e.message).toContain('duplicate id "a"');
    expect(e.message).toContain("expected 6 fields, found 3");
  });
  it("reports the one bad row of an otherwise good file, with its line", () => {
    const good = Array.from({ length: 50 }, (_, i) => `r${i},train,3,3,3,ok ${i}\n`).join("");
    for (const [row, where, message] of [
      ["x,train,3,3,5.5,bad", "emobank.csv:52 (D)", "D (dominance) must be on the 1–5 scale"],
      ["x,train,3,3,3", "emobank.csv:52", "expected 6 fields, found 5"],
      ["r7,test,3,3,3,again", "emobank.csv:52", 'duplicate id "r7"'],
      [",dev,3,3,3,no id", "emobank.csv:52 (id)", "id must not be empty"],
    ] as const) {
      const e = formatError(header + good + row + "\n" + "last,dev,2,2,2,end\n");
      expect(e.issues).toEqual([{ where, message }]);
    }
  });
  it("rejects a wrong header and broken CSV with the file name", () => {
    expect(formatError("id,text\n1,x\n").message).toContain("emobank.csv:1: expected the header id,split,V,A,D,text, found id,text");
    expect(formatError(header + 'a,train,3,3,3,"unclosed\n').message).toMatch(/emobank\.csv(:\d+)?: not valid CSV/);
  });
});
