import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CachedEmbedder, EmbeddingCache, cacheFolderName, textKey } from "../src/embedders/embedding-cache.js";
import type { Embedder } from "../src/embedders/embedder.js";
import { HashingEmbedder } from "../src/embedders/hashing.js";

/** A deterministic embedder that records which texts it was asked to compute. */
class CountingEmbedder implements Embedder {
  readonly name = "counting";
  readonly id: string;
  readonly dim: number;
  readonly computed: string[] = [];
  private readonly h: HashingEmbedder;
  constructor(dim = 16, id = `counting-${dim}`) {
    this.dim = dim;
    this.id = id;
    this.h = new HashingEmbedder(dim);
  }
  async embed(text: string): Promise<Float64Array> {
    return (await this.embedBatch([text]))[0]!;
  }
  async embedBatch(texts: readonly string[]): Promise<Float64Array[]> {
    this.computed.push(...texts);
    return texts.map((t) => this.h.embedSync(t));
  }
}

const TEXTS = ["alpha beta", "gamma", "delta epsilon zeta", "eta theta", "iota"];
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "persode-embcache-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function cached(inner: CountingEmbedder): Promise<CachedEmbedder> {
  return new CachedEmbedder(inner, await EmbeddingCache.open(root, inner.id, inner.dim));
}

function segments(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".seg"))
    .sort();
}

describe("EmbeddingCache + CachedEmbedder", () => {
  it("computes misses once, answers hits from memory and from disk on the next run", async () => {
    const inner1 = new CountingEmbedder();
    const e1 = await cached(inner1);
    const a = await e1.embedBatch([...TEXTS, TEXTS[0]!]);
    expect(inner1.computed).toEqual(TEXTS); // the duplicate is computed once
    expect(Array.from(a[5]!)).toEqual(Array.from(a[0]!));
    await e1.embedBatch(TEXTS);
    expect(inner1.computed).toEqual(TEXTS);
    await e1.dispose();

    const inner2 = new CountingEmbedder();
    const e2 = await cached(inner2);
    expect(e2.cache.stats.loaded).toBe(TEXTS.length);
    const b = await e2.embedBatch(TEXTS);
    expect(inner2.computed).toEqual([]);
    expect(e2.cache.stats).toMatchObject({ hits: TEXTS.length, misses: 0, corrupt: 0, written: 0 });
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    // A run with only hits creates no new segment.
    expect(segments(e2.cache.dir)).toHaveLength(1);
    await e2.dispose();
  });

  it("hands out copies, so callers cannot alter cached vectors", async () => {
    const e = await cached(new CountingEmbedder());
    const [v] = await e.embedBatch(["gamma"]);
    const expected = Array.from(v!);
    v!.fill(7);
    expect(Array.from((await e.embedBatch(["gamma"]))[0]!)).toEqual(expected);
    await e.dispose();
  });

  it("keeps separate caches per embedder id and refuses a mismatched cache", async () => {
    const a = new CountingEmbedder(16, "model-a");
    const b = new CountingEmbedder(16, "model-b");
    const ea = await cached(a);
    await ea.embedBatch(TEXTS);
    await ea.dispose();
    const eb = await cached(b);
    await eb.embedBatch(TEXTS);
    expect(b.computed).toEqual(TEXTS);
    expect(eb.cache.dir).not.toBe(ea.cache.dir);
    await eb.dispose();
    const wrongDim = await EmbeddingCache.open(root, "model-a", 8);
    expect(() => new CachedEmbedder(a, wrongDim)).toThrow(/dim 8/);
    expect(cacheFolderName("minilm:Xenova/all-MiniLM-L6-v2@main")).toMatch(/^minilm_Xenova_all-MiniLM-L6-v2_main-[0-9a-f]{16}$/);
  });

  it("drops a damaged record and recomputes only that text", async () => {
    const e1 = await cached(new CountingEmbedder());
    const fresh = await e1.embedBatch(TEXTS);
    await e1.dispose();
    const [seg] = segments(e1.cache.dir);
    const file = join(e1.cache.dir, seg!);
    const buf = readFileSync(file);
    const recordSize = 32 + 8 * 16 + 4;
    const headerSize = buf.length - recordSize * TEXTS.length;
    buf[headerSize + 2 * recordSize + 40]! ^= 0x01; // one bit inside the third record's vector
    writeFileSync(file, buf);

    const inner = new CountingEmbedder();
    const e2 = await cached(inner);
    expect(e2.cache.stats).toMatchObject({ loaded: TEXTS.length - 1, corrupt: 1 });
    const again = await e2.embedBatch(TEXTS);
    expect(inner.computed).toEqual([TEXTS[2]]);
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(again[i]!)).toEqual(Array.from(fresh[i]!));
    await e2.dispose();
  });

  it("ignores a truncated tail and an unreadable segment", async () => {
    const e1 = await cached(new CountingEmbedder());
    await e1.embedBatch(TEXTS);
    await e1.dispose();
    const [seg] = segments(e1.cache.dir);
    const file = join(e1.cache.dir, seg!);
    truncateSync(file, readFileSync(file).length - 10); // a write cut short
    writeFileSync(join(e1.cache.dir, "0-garbage.seg"), "not a segment");

    const inner = new CountingEmbedder();
    const e2 = await cached(inner);
    expect(e2.cache.stats).toMatchObject({ loaded: TEXTS.length - 1, corrupt: 2 });
    await e2.embedBatch(TEXTS);
    expect(inner.computed).toEqual([TEXTS[TEXTS.length - 1]]);
    await e2.dispose();
  });

  it("does not trust a segment written for another embedder id or dimension", async () => {
    const e1 = await cached(new CountingEmbedder(16, "x"));
    await e1.embedBatch(TEXTS);
    await e1.dispose();
    const foreign = await EmbeddingCache.open(root, "y", 16);
    const [seg] = segments(e1.cache.dir);
    writeFileSync(join(foreign.dir, seg!), readFileSync(join(e1.cache.dir, seg!)));
    const reopened = await EmbeddingCache.open(root, "y", 16);
    expect(reopened.stats).toMatchObject({ loaded: 0, corrupt: 1 });
  });

  it("merges many old segments into one without losing entries", async () => {
    const all: string[] = [];
    for (let i = 0; i < 18; i++) {
      const e = await cached(new CountingEmbedder());
      const texts = [`text ${i}`, `shared`];
      all.push(texts[0]!);
      await e.embedBatch(texts);
      await e.dispose();
    }
    const dir = join(root, cacheFolderName("counting-16"));
    expect(segments(dir).length).toBe(18);
    const old = new Date(Date.now() - 3600_000);
    for (const s of segments(dir)) utimesSync(join(dir, s), old, old);
    const c = await EmbeddingCache.open(root, "counting-16", 16);
    expect(c.stats.loaded).toBe(19);
    expect(segments(dir)).toHaveLength(1);
    const inner = new CountingEmbedder();
    const e = await cached(inner);
    expect(e.cache.stats).toMatchObject({ loaded: 19, corrupt: 0 });
    await e.embedBatch([...all, "shared"]);
    expect(inner.computed).toEqual([]);
    await e.dispose();
  });

  it("keeps recent segments (possibly a live writer's) when merging", async () => {
    for (let i = 0; i < 17; i++) {
      const e = await cached(new CountingEmbedder());
      await e.embedBatch([`t${i}`]);
      await e.dispose();
    }
    const dir = join(root, cacheFolderName("counting-16"));
    const names = segments(dir);
    const old = new Date(Date.now() - 3600_000);
    for (const s of names.slice(0, 10)) utimesSync(join(dir, s), old, old);
    await EmbeddingCache.open(root, "counting-16", 16);
    const after = segments(dir);
    for (const s of names.slice(10)) expect(after).toContain(s);
    for (const s of names.slice(0, 10)) expect(after).not.toContain(s);
    expect((await EmbeddingCache.open(root, "counting-16", 16)).stats.loaded).toBe(17);
  });

  it("stays consistent when two caches write the same folder concurrently", async () => {
    const a = await cached(new CountingEmbedder());
    const b = await cached(new CountingEmbedder());
    const textsA = Array.from({ length: 200 }, (_, i) => `a ${i} common ${i % 50}`);
    const textsB = Array.from({ length: 200 }, (_, i) => `b ${i} common ${i % 50}`);
    await Promise.all([...textsA.map((t) => a.embed(t)), ...textsB.map((t) => b.embed(t)), a.embedBatch(textsB.slice(0, 50))]);
    await a.dispose();
    await b.dispose();
    const inner = new CountingEmbedder();
    const c = await cached(inner);
    expect(c.cache.stats).toMatchObject({ loaded: 400, corrupt: 0 });
    await c.embedBatch([...textsA, ...textsB]);
    expect(inner.computed).toEqual([]);
    await c.dispose();
  });

  it("rejects invalid vectors instead of caching them", async () => {
    const c = await EmbeddingCache.open(root, "v", 2);
    await expect(c.putMany([["x", new Float64Array([1, Number.NaN])]])).rejects.toThrow(/non-finite/);
    await expect(c.putMany([["x", new Float64Array([1, 2, 3])]])).rejects.toThrow(/dim 3/);
    // A bad entry anywhere in a batch leaves the whole batch out, in memory as on disk.
    await expect(
      c.putMany([
        ["ok", new Float64Array([1, 2])],
        ["bad", new Float64Array([Infinity, 0])],
      ]),
    ).rejects.toThrow(/non-finite/);
    expect(c.size).toBe(0);
    expect(c.get("ok")).toBeUndefined();
    expect(c.stats.written).toBe(0);
    expect(textKey("x").length).toBe(32);
  });

  it("keys a text by the SHA-256 of its UTF-8 bytes, as segments written before were keyed", async () => {
    const texts = ["x", "", "Café — naïve 😀", "line\nbreak", "a".repeat(1000)];
    for (const t of texts) expect(textKey(t).equals(createHash("sha256").update(Buffer.from(t, "utf8")).digest()), t).toBe(true);
    const c = await EmbeddingCache.open(root, "toy", 2);
    await c.putMany(texts.map((t, i) => [t, new Float64Array([i, -i])] as const));
    const again = await EmbeddingCache.open(root, "toy", 2);
    texts.forEach((t, i) => expect(Array.from(again.get(t)!), t).toEqual([i, -i]));
  });

  it("refuses, without caching anything, an inner embedder that returns the wrong number of vectors", async () => {
    const inner = new CountingEmbedder();
    inner.embedBatch = async (texts) => texts.slice(1).map(() => new Float64Array(16));
    const e = await cached(inner);
    await expect(e.embedBatch(["a", "b"])).rejects.toThrow(/returned 1 vectors for 2 texts/);
    expect(e.cache.size).toBe(0);
  });

  it("keeps appending readable records after a torn write left a partial record in its segment", async () => {
    const c = await EmbeddingCache.open(root, "v", 2);
    await c.putMany([["first", new Float64Array([1, 2])]]);
    const [seg] = segments(c.dir);
    writeFileSync(join(c.dir, seg!), Buffer.from([1, 2, 3, 4, 5]), { flag: "a" }); // a write cut short
    await c.putMany([["second", new Float64Array([3, 4])]]);
    await c.close();
    const reopened = await EmbeddingCache.open(root, "v", 2);
    expect(reopened.stats).toMatchObject({ loaded: 2, corrupt: 1 });
    expect(Array.from(reopened.get("second")!)).toEqual([3, 4]);
  });

  it("leaves no temporary file behind after merging segments", async () => {
    for (let i = 0; i < 17; i++) {
      const c = await EmbeddingCache.open(root, "v", 2);
      await c.putMany([[`t${i}`, new Float64Array([i, 1])]]);
    }
    const dir = join(root, cacheFolderName("v"));
    const old = new Date(Date.now() - 3600_000);
    for (const s of segments(dir)) utimesSync(join(dir, s), old, old);
    expect((await EmbeddingCache.open(root, "v", 2)).stats.loaded).toBe(17);
    expect(readdirSync(dir)).toEqual(segments(dir));
    expect(segments(dir)).toHaveLength(1);
  });
});

describe("EmbeddingCache across processes", () => {
  const dist = fileURLToPath(new URL("../dist/embedders/embedding-cache.js", import.meta.url));

  it("merges the entries two concurrent processes wrote (needs the built dist)", async () => {
    expect(existsSync(dist), `build first: pnpm --filter @persode/core build (missing ${dist})`).toBe(true);
    const child = (tag: string): Promise<number> =>
      new Promise((resolveRun, reject) => {
        const script = `
          const { EmbeddingCache } = await import(${JSON.stringify(dist)});
          const c = await EmbeddingCache.open(${JSON.stringify(root)}, "proc", 4);
          for (let i = 0; i < 300; i++) {
            const t = i % 3 === 0 ? "shared " + i : ${JSON.stringify(tag)} + " " + i;
            await c.putMany([[t, new Float64Array([i, i + 0.5, -i, 1 / (i + 1)])]]);
          }
          await c.close();`;
        const p = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        p.stderr.on("data", (d) => (err += d));
        p.on("error", reject);
        p.on("close", (code) => (code === 0 ? resolveRun(code) : reject(new Error(`child ${tag} exited ${code}: ${err}`))));
      });
    await Promise.all([child("p1"), child("p2")]);
    const c = await EmbeddingCache.open(root, "proc", 4);
    expect(c.stats).toMatchObject({ loaded: 100 + 200 + 200, corrupt: 0 });
    expect(Array.from(c.get("p1 7")!)).toEqual([7, 7.5, -7, 1 / 8]);
    expect(Array.from(c.get("shared 9")!)).toEqual([9, 9.5, -9, 1 / 10]);
    expect(segments(c.dir)).toHaveLength(2);
  });
});
