import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { DAY_MS, HashingEmbedder, MAX_STORE_DIM, MemoryStore, toEpochMs, type Embedder } from "../src/index.js";
import { prng } from "./prng.js";

// Failure injection for the atomic-save tests: the store writes through node:fs/promises.
const inject = vi.hoisted(() => ({ renameFailures: 0, writeFailures: 0 }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (inject.renameFailures > 0) {
        inject.renameFailures--;
        throw Object.assign(new Error(`EXDEV: simulated rename failure, rename '${from}' -> '${to}'`), { code: "EXDEV" });
      }
      return real.rename(from, to);
    },
    writeFile: async (path: string, data: string | Uint8Array, options?: Parameters<typeof real.writeFile>[2]) => {
      if (inject.writeFailures > 0) {
        inject.writeFailures--;
        await real.writeFile(path, data.slice(0, Math.floor(data.length / 2)), options); // a partial temp file…
        throw Object.assign(new Error(`ENOSPC: simulated full disk, write '${path}'`), { code: "ENOSPC" });
      }
      return real.writeFile(path, data, options);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), "persode-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  inject.renameFailures = 0;
  inject.writeFailures = 0;
});

const NOW = "2025-01-24T12:00:00Z";
const nowMs = toEpochMs(NOW);

/** A fake dense embedder with arbitrary float64 values, so bit-exact round trips are really tested. */
class DenseEmbedder implements Embedder {
  readonly name = "dense-test";
  readonly dim = 24;
  readonly id = "dense-test-24";
  async embed(text: string): Promise<Float64Array> {
    let seed = 17;
    for (const ch of text) seed = (Math.imul(seed, 131) + ch.codePointAt(0)!) >>> 0;
    const r = prng(seed);
    return Float64Array.from({ length: this.dim }, () => (r() - 0.5) * 2 ** Math.floor(r() * 20 - 10));
  }
  async embedBatch(texts: readonly string[]): Promise<Float64Array[]> {
    return Promise.all(texts.map((t) => this.embed(t)));
  }
}

async function sampleStore(embedder: Embedder = new HashingEmbedder(300)): Promise<MemoryStore> {
  const store = new MemoryStore({ embedder, alpha: 0.3, weights: { emotion: 2, recall: 1, context: 0.5 }, gamma: 0.7, lambda: 0.2 });
  await store.add({
    text: "I celebrated my graduation ceremony!",
    event: "graduation",
    emotion: "joyful",
    hashtags: ["#Graduation", "#Joyful"],
    emotionalIntensity: 0.93,
    contextualRelevance: 0.1 + 0.2,
    recallCount: 2,
    createdAt: nowMs - 38 * DAY_MS + 123,
    lastRecalled: "2025-01-10T08:30:00",
  });
  await store.add({
    id: "custom-id",
    text: "Took the bus to work, nothing special.",
    emotionalIntensity: 0.2,
    createdAt: "2025-01-23T07:15:00+02:00",
  });
  await store.add({ text: "", emotionalIntensity: 1 / 3, contextualRelevance: 2 / 3, createdAt: nowMs - 2.5 * DAY_MS });
  await store.add({
    text: 'ünïcödé text — with emoji 🎉 and "quotes"\n',
    emotion: "surprised",
    emotionalIntensity: 0.6,
    createdAt: nowMs - DAY_MS / 3,
  });
  await store.retrieve("graduation ceremony", { topK: 2, now: "2025-01-20T00:00:00Z" }); // recall some
  return store;
}

function expectSameStore(a: MemoryStore, b: MemoryStore): void {
  expect(b.size).toBe(a.size);
  expect(b.embedder.id).toBe(a.embedder.id);
  expect([b.alpha, b.weights, b.gamma, b.lambda]).toEqual([a.alpha, a.weights, a.gamma, a.lambda]);
  a.memories.forEach((m, i) => {
    const n = b.memories[i]!;
    expect(n.toJSON()).toEqual(m.toJSON());
    expect([n.id, n.text, n.event, n.emotion, [...n.hashtags]]).toEqual([m.id, m.text, m.event, m.emotion, [...m.hashtags]]);
    expect(Object.is(n.emotionalIntensity, m.emotionalIntensity) && Object.is(n.contextualRelevance, m.contextualRelevance)).toBe(true);
    expect([n.recallCount, n.createdAtMs, n.lastRecalledMs]).toEqual([m.recallCount, m.createdAtMs, m.lastRecalledMs]);
    const ea = a.embeddingAt(i);
    const eb = b.embeddingAt(i);
    expect(eb.length).toBe(ea.length);
    for (let j = 0; j < ea.length; j++) if (!Object.is(ea[j], eb[j])) throw new Error(`memory ${i} embedding[${j}]: ${eb[j]} ≠ ${ea[j]}`);
  });
}

const tempLeftovers = () => readdirSync(dir).filter((f) => f.includes(".tmp"));

describe("save / load round trip (docs/spec.md §1: lossless)", () => {
  it("hashing store: ids, texts, E, C, n, created_at, last_recalled, embeddings and parameters", async () => {
    const store = await sampleStore();
    expect(store.memories.some((m) => m.lastRecalledMs !== null && m.recallCount > 0)).toBe(true);
    const file = join(dir, "nested", "deeper", "hashing.json");
    await store.save(file);
    const loaded = await MemoryStore.load(file); // embedder rebuilt from the saved dim
    expectSameStore(store, loaded);
    expect(loaded.embedder.dim).toBe(300);
    // the loaded store retrieves exactly like the original
    const opts = { topK: 4, now: NOW, reinforce: false };
    expect((await loaded.retrieve("bus to work", opts)).map((r) => [r.index, r.fused, r.retention])).toEqual(
      (await store.retrieve("bus to work", opts)).map((r) => [r.index, r.fused, r.retention]),
    );
    // and saving it again reproduces the file byte for byte
    const again = join(dir, "again.json");
    await loaded.save(again);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(file, "utf8"));
    expect(tempLeftovers()).toEqual([]);
  });

  it("dense store with arbitrary float64 values (the loader is given the embedder)", async () => {
    const store = await sampleStore(new DenseEmbedder());
    const file = join(dir, "dense.json");
    await store.save(file);
    expectSameStore(store, await MemoryStore.load(file, { embedder: new DenseEmbedder() }));
  });

  it("new ids continue after a load without colliding", async () => {
    const store = await sampleStore();
    const file = join(dir, "ids.json");
    await store.save(file);
    const loaded = await MemoryStore.load(file);
    const m = await loaded.add({ text: "later", emotionalIntensity: 0.5, createdAt: NOW });
    expect(store.memories.map((x) => x.id)).not.toContain(m.id);
  });
});

describe("saving is atomic", () => {
  it("a failing rename leaves the previous file byte-identical and no temp file", async () => {
    const file = join(dir, "atomic-rename.json");
    const store = await sampleStore();
    await store.save(file);
    const good = readFileSync(file);
    await store.add({ text: "a change that must not land", emotionalIntensity: 0.9, createdAt: NOW });
    inject.renameFailures = 1;
    await expect(store.save(file)).rejects.toThrow(/EXDEV: simulated rename failure/);
    expect(readFileSync(file).equals(good)).toBe(true);
    expect(tempLeftovers()).toEqual([]);
    // once the fault is gone, the save goes through
    await store.save(file);
    expect((await MemoryStore.load(file)).size).toBe(store.size);
  });

  it("a failing write (disk full mid-write) leaves the previous file byte-identical and no temp file", async () => {
    const file = join(dir, "atomic-write.json");
    const store = await sampleStore();
    await store.save(file);
    const good = readFileSync(file);
    await store.add({ text: "another change", emotionalIntensity: 0.4, createdAt: NOW });
    inject.writeFailures = 1;
    await expect(store.save(file)).rejects.toThrow(/ENOSPC/);
    expect(readFileSync(file).equals(good)).toBe(true);
    expect(tempLeftovers()).toEqual([]);
  });
});

describe("saves to one path complete in call order (last call wins)", () => {
  it("save(); add(); save() leaves the newer snapshot on disk, every time", async () => {
    const store = new MemoryStore();
    const file = join(dir, "ordered.json");
    for (let i = 0; i < 40; i++) {
      const first = store.save(file);
      await store.add({ id: `n${i}`, text: `memory number ${i}`, emotionalIntensity: 0.5, createdAt: "2025-01-01" });
      const second = store.save(file);
      await Promise.all([first, second]);
      const saved = JSON.parse(readFileSync(file, "utf8")) as { memories: { id: string }[] };
      expect(saved.memories.length, `round ${i}`).toBe(i + 1);
    }
  });

  it("many concurrent saves: the last call's snapshot wins; a failed save does not block the next", async () => {
    const store = new MemoryStore();
    const file = join(dir, "burst.json");
    const saves: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      await store.add({ id: `b${i}`, text: `burst ${i}`, emotionalIntensity: 0.2, createdAt: "2025-01-01" });
      if (i === 10) inject.renameFailures = 1;
      saves.push(store.save(file));
    }
    const outcomes = await Promise.allSettled(saves);
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(1);
    expect((JSON.parse(readFileSync(file, "utf8")) as { memories: unknown[] }).memories).toHaveLength(20);
  });
});

describe("save() to a path that cannot be written: the path and the fix", () => {
  it("a folder in the way (EISDIR), a file in the way (ENOTDIR), no permission (EACCES)", async () => {
    const store = new MemoryStore();
    await store.add({ text: "one memory", emotionalIntensity: 0.5, createdAt: "2025-01-01" });
    const folder = mkdtempSync(join(dir, "folder-"));
    await expect(store.save(folder)).rejects.toThrow(
      new RegExp(`cannot write ${folder}: (it is a folder|a folder of that name is in the way)`),
    );
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    await expect(store.save(join(file, "store.json"))).rejects.toThrow(
      `cannot write ${join(file, "store.json")}: ${file} is a file, not a folder`,
    );
    if (process.getuid?.() !== 0) {
      const locked = mkdtempSync(join(dir, "locked-"));
      chmodSync(locked, 0o500);
      await expect(store.save(join(locked, "s.json"))).rejects.toThrow(/permission denied; choose a location you can write to/);
      chmodSync(locked, 0o700);
    }
  });
});

describe("add() and load() agree on E and C outside [0, 1]: both clip (docs/spec.md §1)", () => {
  it("clips on add, and a saved file with out-of-range values loads clipped", async () => {
    const store = new MemoryStore();
    const added = await store.add({
      id: "hi",
      text: "too intense",
      emotionalIntensity: 1.5,
      contextualRelevance: -0.25,
      createdAt: "2025-01-01",
    });
    expect([added.emotionalIntensity, added.contextualRelevance]).toEqual([1, 0]);
    const o = store.toJSON() as { memories: Record<string, unknown>[] };
    o.memories[0]!.emotional_intensity = 1.5;
    o.memories[0]!.contextual_relevance = -0.25;
    const file = join(dir, "out-of-range.json");
    writeFileSync(file, JSON.stringify(o));
    const loaded = await MemoryStore.load(file);
    expect([loaded.memories[0]!.emotionalIntensity, loaded.memories[0]!.contextualRelevance]).toEqual([1, 0]);
  });
});

describe("loading bad files: clear errors, files untouched", () => {
  async function goodJSON(): Promise<Record<string, unknown> & { memories: Record<string, unknown>[] }> {
    return JSON.parse(JSON.stringify((await sampleStore(new HashingEmbedder())).toJSON()));
  }

  /** Write `content`, expect load to fail with `message`, and check the file was not modified. */
  async function expectLoadError(name: string, content: string, message: RegExp, embedder?: Embedder): Promise<void> {
    const file = join(dir, name);
    writeFileSync(file, content);
    const before = statSync(file).mtimeMs;
    await expect(MemoryStore.load(file, { embedder })).rejects.toThrow(message);
    expect(readFileSync(file, "utf8")).toBe(content);
    expect(statSync(file).mtimeMs).toBe(before);
  }

  it("truncated, empty and garbage files name the file and say it is not valid JSON", async () => {
    const full = JSON.stringify(await goodJSON());
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const [name, content] of [
      ["truncated.json", full.slice(0, Math.floor(full.length * 0.6))],
      ["empty.json", ""],
      ["garbage.json", "\u0000\u0001 not json"],
    ] as const) {
      await expectLoadError(name, content, new RegExp(`^${esc(join(dir, name))}: not valid JSON .*truncated or corrupt`));
    }
  });

  it("a missing file is an error naming the path", async () => {
    await expect(MemoryStore.load(join(dir, "nope.json"))).rejects.toThrow(/ENOENT.*nope\.json/);
  });

  it("the wrong embedder is a clear error", async () => {
    const content = JSON.stringify(await goodJSON());
    await expectLoadError(
      "wrong-embedder.json",
      content,
      /saved with embedder "hashing-md5-256" but loading with "hashing-md5-300"; pass the matching embedder/,
      new HashingEmbedder(300),
    );
    await expectLoadError(
      "wrong-embedder2.json",
      content,
      /saved with embedder "hashing-md5-256" but loading with "dense-test-24"/,
      new DenseEmbedder(),
    );
  });

  it("schema errors name the path inside the file", async () => {
    const cases: [string, (o: Awaited<ReturnType<typeof goodJSON>>) => void, RegExp][] = [
      [
        "bad-month",
        (o) => (o.memories[2]!.created_at = "2025-13-01"),
        /memories\[2\]\.created_at: "2025-13-01" is not a valid date \(month 13 does not exist\)/,
      ],
      ["bad-day", (o) => (o.memories[1]!.created_at = "2025-02-30T10:00:00Z"), /memories\[1\]\.created_at: .*2025-02 has 28 days/],
      [
        "words-date",
        (o) => (o.memories[2]!.created_at = "yesterday"),
        /memories\[2\]\.created_at: "yesterday" is not an ISO-8601 date-time/,
      ],
      ["bad-recalled", (o) => (o.memories[0]!.last_recalled = 42), /memories\[0\]\.last_recalled: expected a string or null, got 42/],
      [
        "nan-E",
        (o) => (o.memories[1]!.emotional_intensity = null),
        /memories\[1\]\.emotional_intensity: expected a finite number, got null/,
      ],
      ["frac-n", (o) => (o.memories[3]!.recall_count = 1.5), /memories\[3\]\.recall_count: expected a non-negative integer, got 1.5/],
      ["text", (o) => (o.memories[0]!.text = 7), /memories\[0\]\.text: expected a string, got 7/],
      ["hashtags", (o) => (o.memories[0]!.hashtags = "#A"), /memories\[0\]\.hashtags: expected an array of strings/],
      ["embedding-len", (o) => (o.memories[2]!.embedding = [1, 2]), /memories\[2\]\.embedding: expected 256 finite numbers/],
      [
        "embedding-null",
        (o) => ((o.memories[2]!.embedding as unknown[])[5] = null),
        /memories\[2\]\.embedding: expected 256 finite numbers/,
      ],
      ["dup-id", (o) => (o.memories[3]!.id = o.memories[0]!.id), /memories\[3\]\.id: duplicate memory id "m1"/],
      ["no-memories", (o) => delete (o as Record<string, unknown>).memories, /memories must be an array/],
      ["no-alpha", (o) => delete o.alpha, /: alpha: expected a finite number, got undefined/],
      ["bad-gamma", (o) => (o.gamma = 3), /invalid store parameters: protection γ must be in \[0, 1\], got 3/],
      [
        "bad-weights",
        (o) => (o.weights = { emotion: -1, recall: 1, context: 1 }),
        /invalid store parameters: weight emotion must be ≥ 0, got -1/,
      ],
      ["no-weights", (o) => delete o.weights, /: weights: expected an object/],
      ["neg-lambda", (o) => (o.lambda = -0.5), /invalid store parameters: decay rate λ must be ≥ 0/],
      ["format", (o) => (o.format = "something-else"), /not a Persode memory store \(format is "something-else"/],
      ["version", (o) => (o.version = 2), /unsupported store version 2 \(this library reads version 1\)/],
    ];
    for (const [name, mutate, message] of cases) {
      const o = await goodJSON();
      mutate(o);
      const file = join(dir, `${name}.json`);
      await expectLoadError(`${name}.json`, JSON.stringify(o), message);
      // every message starts with the file it is about
      await expect(MemoryStore.load(file)).rejects.toThrow(file);
    }
  });

  it("a top-level array or null is rejected", async () => {
    await expectLoadError("array.json", "[]", /expected a JSON object/);
    await expectLoadError("null.json", "null", /expected a JSON object/);
  });
});

describe("sizes read from a store file are bounded before anything is allocated", () => {
  const dir = mkdtempSync(join(tmpdir(), "persode-store-bounds-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, data: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(data));
    return path;
  };
  const header = {
    format: "persode-memory-store",
    version: 1,
    alpha: 0.5,
    gamma: 0.5,
    lambda: 0.1,
    weights: { emotion: 1, recall: 1, context: 1 },
    memories: [],
  };

  it("a 200-byte file declaring a 10⁹-dimensional embedder is refused, naming the bound (it used to allocate 12 GB)", async () => {
    for (const dim of [1e9, MAX_STORE_DIM + 1, 0, -3, 2.5, "256"]) {
      const path = file("huge.json", { ...header, embedder: { id: `hashing-md5-${dim}`, dim } });
      expect(readFileSync(path).length).toBeLessThan(260);
      await expect(MemoryStore.load(path)).rejects.toThrow(`embedder.dim: expected an integer in 1 … ${MAX_STORE_DIM}`);
    }
  });

  it("a store's embedder dimension has the same bound; the largest allowed one works", async () => {
    const wide = { id: "wide", dim: 1e9, embed: async () => new Float64Array(0) } as unknown as Embedder;
    expect(() => new MemoryStore({ embedder: wide })).toThrow(
      `the embedder's dim must be an integer in 1 … ${MAX_STORE_DIM}, got 1000000000`,
    );
    const store = new MemoryStore({ embedder: new HashingEmbedder(MAX_STORE_DIM) });
    await store.add({ text: "the widest store still loads", emotionalIntensity: 0.5, createdAt: "2025-01-01" });
    const path = join(dir, "widest.json");
    await store.save(path);
    const loaded = await MemoryStore.load(path);
    expect(loaded.size).toBe(1);
    expect(loaded.embedder.dim).toBe(MAX_STORE_DIM);
  });
});
