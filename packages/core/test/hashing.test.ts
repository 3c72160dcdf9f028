import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cosine, createEmbedder, embedderNames, HashingEmbedder, registerEmbedder } from "../src/index.js";
import { hashingTokens, hashToken } from "../src/embedders/hashing.js";
import { prng, randInt } from "./prng.js";

/** docs/spec.md §4 written out with BigInt: h = MD5 as a 128-bit big-endian integer, index = h mod dim, sign from ⌊h/256⌋. */
function specBucket(token: string, dim: number): { index: number; sign: 1 | -1 } {
  const h = BigInt("0x" + createHash("md5").update(Buffer.from(token, "utf8")).digest("hex"));
  return { index: Number(h % BigInt(dim)), sign: (h / 256n) % 2n === 0n ? 1 : -1 };
}

/** The expected embedding from docs/spec.md §4: signed counts, then L2-normalised. */
function specEmbedding(text: string, dim: number): Float64Array {
  const v = new Float64Array(dim);
  for (const tok of text.toLowerCase().match(/[a-z0-9']+/g) ?? []) {
    const { index, sign } = specBucket(tok, dim);
    v[index]! += sign;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? v.map((x) => x / norm) : v;
}

describe("hashing embedder (docs/spec.md §4)", () => {
  it("docs/spec.md §4 test vectors, dim 256", () => {
    expect(hashToken("hello", 256)).toEqual({ index: 146, sign: -1 });
    expect(hashToken("graduation", 256)).toEqual({ index: 214, sign: 1 });
    expect(hashToken("i'm", 256)).toEqual({ index: 233, sign: 1 });
    const e = new HashingEmbedder();
    expect(e.dim).toBe(256);
    const v = e.embedSync("hello");
    expect(v[146]).toBe(-1);
    expect(v.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0)).toBe(1);
    expect(e.embedSync("Graduation")[214]).toBe(1);
    expect(e.embedSync("I'm")[233]).toBe(1);
  });

  it("docs/spec.md §4 test vectors, dim 300 (signs do not depend on dim)", () => {
    expect(hashToken("hello", 300)).toEqual({ index: 94, sign: -1 });
    expect(hashToken("graduation", 300)).toEqual({ index: 146, sign: 1 });
    expect(hashToken("i'm", 300)).toEqual({ index: 217, sign: 1 });
  });

  it("any dim matches the BigInt definition", () => {
    const rand = prng(7);
    const words = ["hello", "graduation", "i'm", "dog", "2025", "o'clock", "x", "persode", "memory", "ü"];
    for (const dim of [1, 2, 7, 16, 255, 256, 257, 300, 384, 1000, 4096, 65_537]) {
      for (const w of words) expect(hashToken(w, dim), `${w} @ ${dim}`).toEqual(specBucket(w, dim));
      for (let i = 0; i < 20; i++) {
        const w = Array.from({ length: randInt(rand, 1, 9) }, () => "abcdefghijklmnopqrstuvwxyz0123456789'"[randInt(rand, 0, 36)]).join("");
        expect(hashToken(w, dim)).toEqual(specBucket(w, dim));
      }
    }
  });

  it("counts repeats, normalises to unit length, and is deterministic", () => {
    const e = new HashingEmbedder();
    const v = e.embedSync("hello hello graduation");
    // bucket 146 holds −2, bucket 214 holds +1; norm √5
    expect(v[146]).toBe(-2 / Math.sqrt(5));
    expect(v[214]).toBe(1 / Math.sqrt(5));
    for (const text of ["hello hello graduation", "The quick brown fox, the lazy dog; 42 times!", "a a a a b"]) {
      const u = e.embedSync(text);
      expect(Math.hypot(...u)).toBeCloseTo(1, 14);
      expect(Array.from(u)).toEqual(Array.from(specEmbedding(text, 256)));
      expect(Array.from(new HashingEmbedder().embedSync(text))).toEqual(Array.from(u));
    }
    const e300 = new HashingEmbedder(300);
    expect(e300.id).toBe("hashing-md5-300");
    expect(Array.from(e300.embedSync("Dogs, cats & I'm fine"))).toEqual(Array.from(specEmbedding("Dogs, cats & I'm fine", 300)));
  });

  it("text without tokens gives the zero vector (no NaN)", () => {
    const e = new HashingEmbedder();
    for (const t of ["", "   ", "!!! ... ???", "—é—"]) {
      const v = e.embedSync(t);
      expect(v).toHaveLength(256);
      expect(v.every((x) => x === 0)).toBe(true);
    }
    // signed counts can cancel: with one bucket, hello (−1) + graduation (+1) = 0
    expect(new HashingEmbedder(1).embedSync("hello graduation")[0]).toBe(0);
  });

  it("tokenises [a-z0-9']+ on the lowercased text", () => {
    expect(hashingTokens("Hello, WORLD! I'm 25 years_old; café")).toEqual(["hello", "world", "i'm", "25", "years", "old", "caf"]);
    expect(hashingTokens("")).toEqual([]);
    const e = new HashingEmbedder();
    expect(Array.from(e.embedSync("HELLO"))).toEqual(Array.from(e.embedSync("hello")));
    expect(Array.from(e.embedSync("hello!!!"))).toEqual(Array.from(e.embedSync("hello")));
  });

  it("the one-pass scan finds exactly the regular expression's tokens, in batches and alone", async () => {
    // code units the lowercasing turns into [a-z0-9'] (İ → i + U+0307, the Kelvin sign → k), ones it does not (ß, ’),
    // surrogate pairs, digits and apostrophes at the edges of a text
    const texts = [
      "İstanbul KELVIN \u212a ßtraße don’t 'quoted' ''",
      "'start and end'",
      "9am—10pm; x2 (ÀÉÎ) 😀emoji😀 tab\tnew\nline",
      "a",
      "",
      "ÜBER über Σίσυφος ΣΊΣΥΦΟΣ",
    ];
    const rand = prng(11);
    const alphabet = "aZ0'’ -İKßé😀\u212a.";
    for (let i = 0; i < 200; i++)
      texts.push(Array.from({ length: randInt(rand, 0, 30) }, () => alphabet[randInt(rand, 0, alphabet.length - 1)]).join(""));
    for (const dim of [7, 256]) {
      const e = new HashingEmbedder(dim);
      const batch = await e.embedBatch(texts);
      texts.forEach((t, k) => {
        const want = Array.from(specEmbedding(t, dim));
        expect(Array.from(e.embedSync(t)), t).toEqual(want);
        expect(Array.from(batch[k]!), t).toEqual(want);
        expect(batch[k]).toHaveLength(dim);
      });
      // each text's vector is its own: writing into one leaves the others as they were
      batch[0]!.fill(9);
      expect(Array.from(batch[1]!)).toEqual(Array.from(specEmbedding(texts[1]!, dim)));
    }
  });

  it("embed and embedBatch agree with embedSync; bad input is rejected", async () => {
    const e = new HashingEmbedder(64);
    expect(Array.from(await e.embed("a b c"))).toEqual(Array.from(e.embedSync("a b c")));
    const batch = await e.embedBatch(["x", "y z"]);
    expect(batch.map((v) => Array.from(v))).toEqual([Array.from(e.embedSync("x")), Array.from(e.embedSync("y z"))]);
    expect(() => e.embedSync(3 as unknown as string)).toThrow(/text must be a string, got number/);
    expect(() => new HashingEmbedder(0)).toThrow(/dim must be a positive integer, got 0/);
    expect(() => new HashingEmbedder(2.5)).toThrow(/positive integer/);
  });
});

describe("cosine (docs/spec.md §4)", () => {
  it("is 0 when either norm is 0", () => {
    const z = new Float64Array(4);
    const v = Float64Array.from([1, 2, 3, 4]);
    expect(cosine(z, v)).toBe(0);
    expect(cosine(v, z)).toBe(0);
    expect(cosine(z, z)).toBe(0);
  });

  it("is dot / (‖a‖·‖b‖)", () => {
    const a = Float64Array.from([1, 0, 0]);
    const b = Float64Array.from([1, 1, 0]);
    expect(cosine(a, b)).toBeCloseTo(1 / Math.SQRT2, 15);
    expect(cosine(a, Float64Array.from([-3, 0, 0]))).toBe(-1);
    const rand = prng(3);
    for (let t = 0; t < 20; t++) {
      const x = Array.from({ length: 37 }, () => rand() - 0.5);
      const y = Array.from({ length: 37 }, () => rand() - 0.5);
      const naive = x.reduce((s, xi, i) => s + xi * y[i]!, 0) / (Math.hypot(...x) * Math.hypot(...y));
      expect(cosine(x, y)).toBeCloseTo(naive, 13);
    }
    const e = new HashingEmbedder();
    expect(cosine(e.embedSync("the dog barked"), e.embedSync("the dog barked"))).toBeCloseTo(1, 15);
  });

  it("rejects a dimension mismatch", () => {
    expect(() => cosine([1, 2], [1, 2, 3])).toThrow(/dimension mismatch \(2 vs 3\)/);
  });
});

describe("embedder registry", () => {
  it("builds the hashing embedder by name with options", async () => {
    expect(embedderNames()).toEqual(expect.arrayContaining(["hashing", "minilm"]));
    const e = await createEmbedder("hashing", { dim: 300 });
    expect(e.dim).toBe(300);
    expect(e.id).toBe("hashing-md5-300");
    expect((await createEmbedder("hashing")).dim).toBe(256);
  });

  it("unknown names and duplicate registrations are clear errors", async () => {
    await expect(createEmbedder("word2vec")).rejects.toThrow(/unknown embedder "word2vec"; known embedders: hashing, minilm/);
    expect(() => registerEmbedder({ name: "hashing", description: "dup", create: async () => new HashingEmbedder() })).toThrow(
      /embedder "hashing" is already registered/,
    );
  });
});
