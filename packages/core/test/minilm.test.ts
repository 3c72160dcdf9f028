import { existsSync, mkdirSync, mkdtempSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MiniLMEmbedder,
  ModelUnavailableError,
  createMiniLMEmbedder,
  loadMiniLM,
  meanPoolNormalize,
  miniLMOptionsFromEnv,
  requiredModelFiles,
  resolveModelSource,
} from "../src/embedders/minilm.js";
import { CachedEmbedder } from "../src/embedders/embedding-cache.js";
import { createEmbedder, embedderNames } from "../src/embedders/registry.js";
import { tinyBertFiles, tinyBertWeights, writeTinyBertModel } from "../src/embedders/tiny-bert.js";
import { fakeModelHost, maxAbsDiff, norm, tinyModelFixture, type TinyModelFixture } from "./minilm-helpers.js";

const TEXTS = [
  "I went home.",
  "Today my dog and I went for a long walk after school, and I felt very happy and proud.",
  "",
  "Zebras quietly xylophone!",
  "we talked about the trip with my sister at dinner",
  "tired",
];

let fx: TinyModelFixture;
let emb: MiniLMEmbedder;

beforeAll(async () => {
  fx = await tinyModelFixture();
  emb = await loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache"), offline: true });
});

afterAll(async () => {
  await emb?.dispose();
  fx?.cleanup();
});

describe("tiny BERT generator", () => {
  it("produces identical bytes for identical options and different weights for another seed", () => {
    const a = tinyBertFiles();
    const b = tinyBertFiles();
    expect([...a.keys()]).toEqual(["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]);
    for (const [k, v] of a) expect(Buffer.from(v).equals(Buffer.from(b.get(k)!))).toBe(true);
    const c = tinyBertFiles({ seed: 2 });
    expect(Buffer.from(c.get("onnx/model.onnx")!).equals(Buffer.from(a.get("onnx/model.onnx")!))).toBe(false);
    expect(Buffer.from(c.get("tokenizer.json")!).equals(Buffer.from(a.get("tokenizer.json")!))).toBe(true);
  });

  it("rejects a bad hidden size", () => {
    expect(() => tinyBertFiles({ hiddenSize: 0 })).toThrow(/hiddenSize/);
  });
});

describe("MiniLMEmbedder through transformers.js on the tiny model", () => {
  it("reads its dimension from the model and returns unit-norm float64 vectors", async () => {
    expect(emb.name).toBe("minilm");
    expect(emb.dim).toBe(fx.info.hiddenSize);
    expect(emb.source.kind).toBe("local");
    const vs = await emb.embedBatch(TEXTS);
    expect(vs).toHaveLength(TEXTS.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float64Array);
      expect(v.length).toBe(32);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-12);
    }
  });

  it("matches a forward pass computed by hand from the generated weights", async () => {
    // "i went home" -> [CLS] i went home [SEP], token type 0, mask 1; mean of tanh(x·W + b), then L2.
    const w = tinyBertWeights();
    const H = w.hiddenSize;
    const ids = ["[CLS]", "i", "went", "home", "[SEP]"].map((t) => w.vocab.indexOf(t));
    expect(ids.every((i) => i >= 0)).toBe(true);
    const mean = new Float64Array(H);
    for (const id of ids) {
      const x = new Float64Array(H);
      for (let d = 0; d < H; d++) x[d] = w.word[id * H + d]! + w.tokenType[d]! + w.mask[H + d]!;
      for (let j = 0; j < H; j++) {
        let s = w.bias[j]!;
        for (let d = 0; d < H; d++) s += x[d]! * w.dense[d * H + j]!;
        mean[j]! += Math.tanh(s) / ids.length;
      }
    }
    const n = norm(mean);
    const expected = Array.from(mean, (x) => x / n);
    const got = await emb.embed("I went home.".replace(".", ""));
    expect(maxAbsDiff(got, expected)).toBeLessThan(1e-5);
  });

  it("is deterministic across calls and across independent loads", async () => {
    const a = await emb.embedBatch(TEXTS);
    const b = await emb.embedBatch(TEXTS);
    const other = await loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache"), offline: true });
    try {
      const c = await other.embedBatch(TEXTS);
      expect(other.id).toBe(emb.id);
      for (let i = 0; i < TEXTS.length; i++) {
        expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
        expect(Array.from(c[i]!)).toEqual(Array.from(a[i]!));
      }
    } finally {
      await other.dispose();
    }
  });

  it("gives the same vectors in a padded batch as one by one, in input order", async () => {
    const batch = await emb.embedBatch(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      const single = await emb.embed(TEXTS[i]!);
      expect(maxAbsDiff(batch[i]!, single)).toBeLessThan(1e-6);
    }
    const reversed = await emb.embedBatch([...TEXTS].reverse());
    for (let i = 0; i < TEXTS.length; i++) expect(maxAbsDiff(reversed[TEXTS.length - 1 - i]!, batch[i]!)).toBeLessThan(1e-6);
    const distinct = new Set(batch.map((v) => Array.from(v.slice(0, 4)).join(",")));
    expect(distinct.size).toBe(TEXTS.length);
  });

  it("splits work into batches of batchSize without changing results", async () => {
    const small = await loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache"), offline: true, batchSize: 2 });
    try {
      const a = await small.embedBatch(TEXTS);
      const b = await emb.embedBatch(TEXTS);
      for (let i = 0; i < TEXTS.length; i++) expect(maxAbsDiff(a[i]!, b[i]!)).toBeLessThan(1e-6);
    } finally {
      await small.dispose();
    }
  });

  it("truncates texts to maxLength tokens", async () => {
    const short = await loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache"), offline: true, maxLength: 6 });
    try {
      const base = "we went home after school and";
      const [a, b] = await short.embedBatch([base, base + " talked about the party with friends"]);
      expect(maxAbsDiff(a!, b!)).toBeLessThan(1e-6);
      const [c, d] = await emb.embedBatch([base, base + " talked about the party with friends"]);
      expect(maxAbsDiff(c!, d!)).toBeGreaterThan(1e-3);
      expect(short.id).not.toBe(emb.id);
    } finally {
      await short.dispose();
    }
  });

  it("changes its id when the model files change", async () => {
    const other = await tinyModelFixture(2);
    try {
      const e = await loadMiniLM({ model: other.info.modelId, modelDir: other.modelRoot, modelCacheDir: join(other.root, "cache"), offline: true });
      expect(e.id).not.toBe(emb.id);
      expect(e.id).toContain(other.info.modelId);
      expect(e.id).toContain("fp32");
      await e.dispose();
    } finally {
      other.cleanup();
    }
  });

  it("rejects bad options and non-string texts with clear errors", async () => {
    await expect(loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, dtype: "fp64", offline: true })).rejects.toThrow(/unknown model dtype "fp64".*fp32/);
    await expect(loadMiniLM({ model: "../etc", modelDir: fx.modelRoot, offline: true })).rejects.toThrow(/not valid/);
    await expect(loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, offline: true, batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(emb.embedBatch(["ok", 3 as unknown as string])).rejects.toThrow(/texts\[1\] must be a string/);
  });
});

describe("meanPoolNormalize", () => {
  it("averages only unmasked positions, then L2-normalises", () => {
    // batch 2, seq 3, dim 2; the masked rows [100, 0] and [5, 0] must not count.
    const hidden = [3, 0, 1, 4, 100, 0, 0, 2, 5, 0, 0, 0];
    const mask = [1n, 1n, 0n, 1n, 0n, 0n];
    const [a, b] = meanPoolNormalize(hidden, mask, 2, 3, 2);
    expect(maxAbsDiff(a!, [Math.SQRT1_2, Math.SQRT1_2])).toBeLessThan(1e-15);
    expect(Array.from(b!)).toEqual([0, 1]);
    const [z] = meanPoolNormalize([0, 0], [1], 1, 1, 2);
    expect(Array.from(z!)).toEqual([0, 0]);
  });
});

describe("registry and cache wiring", () => {
  it("registers minilm next to hashing and builds a cached embedder", async () => {
    expect(embedderNames()).toEqual(expect.arrayContaining(["hashing", "minilm"]));
    const cacheDir = join(fx.root, "emb-registry");
    const opts = { model: fx.info.modelId, modelDir: fx.modelRoot, cacheDir, offline: true };
    const first = (await createEmbedder("minilm", opts)) as CachedEmbedder;
    expect(first).toBeInstanceOf(CachedEmbedder);
    expect(first.name).toBe("minilm");
    expect(first.dim).toBe(32);
    const a = await first.embedBatch(TEXTS);
    expect(first.cache.stats.misses).toBe(TEXTS.length);
    expect(first.cache.stats.written).toBe(TEXTS.length);
    await first.dispose();

    const second = (await createEmbedder("minilm", opts)) as CachedEmbedder;
    expect(second.id).toBe(first.id);
    expect(second.cache.stats.loaded).toBe(TEXTS.length);
    const b = await second.embedBatch(TEXTS);
    expect(second.cache.stats).toMatchObject({ hits: TEXTS.length, misses: 0, written: 0 });
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    const direct = await emb.embedBatch(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(direct[i]!));
    await second.dispose();
  });

  it("takes PERSODE_MODEL_DIR, PERSODE_OFFLINE and PERSODE_DATA_DIR from the environment", async () => {
    const dataDir = join(fx.root, "data-dir");
    const env = { PERSODE_MODEL_DIR: fx.modelRoot, PERSODE_OFFLINE: "1", PERSODE_DATA_DIR: dataDir };
    const e = await createMiniLMEmbedder({ model: fx.info.modelId }, env);
    await e.embed("hello there");
    expect(e.cache.dir.startsWith(join(dataDir, "embeddings"))).toBe(true);
    await e.dispose();
    expect(miniLMOptionsFromEnv(env)).toMatchObject({ offline: true, modelDir: fx.modelRoot, modelCacheDir: join(dataDir, "models") });
    expect(() => miniLMOptionsFromEnv({ PERSODE_OFFLINE: "maybe" })).toThrow(/PERSODE_OFFLINE="maybe" is not a boolean/);
    expect(miniLMOptionsFromEnv({ PERSODE_OFFLINE: "0" }).offline).toBe(false);
  });
});

describe("model resolution and the offline error", () => {
  it("fails at once offline with the model, the folders searched and how to fix it", async () => {
    const empty = mkdtempSync(join(tmpdir(), "persode-empty-"));
    try {
      const env = { PERSODE_MODEL_DIR: empty, PERSODE_OFFLINE: "1", PERSODE_DATA_DIR: join(empty, "data") };
      const err = await createMiniLMEmbedder({}, env).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ModelUnavailableError);
      const msg = (err as Error).message;
      expect(msg).toContain('"Xenova/all-MiniLM-L6-v2"');
      expect(msg).toContain("PERSODE_OFFLINE");
      expect(msg).toContain(join(empty, "Xenova", "all-MiniLM-L6-v2"));
      expect(msg).toContain(join(empty, "data", "models", "Xenova", "all-MiniLM-L6-v2"));
      expect(msg).toContain("onnx/model.onnx");
      // The caller's offline option alone is enough (an explicit env keeps a real ~/.cache download out of the test).
      await expect(createMiniLMEmbedder({ modelDir: empty, offline: true, cacheDir: join(empty, "emb") }, { PERSODE_DATA_DIR: join(empty, "data") })).rejects.toThrow(
        ModelUnavailableError,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("names the missing files of an incomplete model folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-partial-"));
    try {
      mkdirSync(join(dir, "acme", "m"), { recursive: true });
      copyFileSync(join(fx.info.modelDir, "config.json"), join(dir, "acme", "m", "config.json"));
      expect(() => resolveModelSource({ model: "acme/m", revision: "main", dtype: "fp32", modelDir: dir, modelCacheDir: join(dir, "c"), offline: true })).toThrow(
        /missing tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx/,
      );
      expect(resolveModelSource({ model: "acme/m", revision: "main", dtype: "fp32", modelDir: dir, modelCacheDir: join(dir, "c"), offline: false }).kind).toBe("remote");
      expect(requiredModelFiles("q8")).toContain("onnx/model_quantized.onnx");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("downloads on first use into the model cache, then loads from the cache offline", async () => {
    const host = await fakeModelHost(fx.modelRoot, "serve");
    const cacheRoot = mkdtempSync(join(tmpdir(), "persode-dl-"));
    try {
      const dl = await loadMiniLM({ model: fx.info.modelId, modelCacheDir: cacheRoot, remoteHost: host.url });
      expect(dl.source.kind).toBe("remote");
      expect(host.requests.some((r) => r.endsWith("/onnx/model.onnx"))).toBe(true);
      for (const f of requiredModelFiles("fp32")) expect(existsSync(join(cacheRoot, ...fx.info.modelId.split("/"), f))).toBe(true);
      const seen = host.requests.length;
      const cached = await loadMiniLM({ model: fx.info.modelId, modelCacheDir: cacheRoot, remoteHost: host.url, offline: true });
      expect(cached.source.kind).toBe("cached");
      expect(host.requests.length).toBe(seen);
      expect(cached.id).toBe(dl.id);
      expect(dl.id).toBe(emb.id);
      const [a, b, c] = [await dl.embed(TEXTS[1]!), await cached.embed(TEXTS[1]!), await emb.embed(TEXTS[1]!)];
      expect(Array.from(b)).toEqual(Array.from(a));
      expect(Array.from(c)).toEqual(Array.from(a));
      await dl.dispose();
      await cached.dispose();
    } finally {
      await host.close();
      rmSync(cacheRoot, { recursive: true, force: true });
    }
  });

  it("prefers the PERSODE_MODEL_DIR folder over a cached download of the same id", async () => {
    const other = await tinyModelFixture(3);
    try {
      // The cache holds a different model under the same id; the local folder must win.
      const e = await loadMiniLM({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: other.modelRoot, offline: true });
      expect(e.source.kind).toBe("local");
      expect(e.id).toBe(emb.id);
      await e.dispose();
      const c = await loadMiniLM({ model: fx.info.modelId, modelCacheDir: other.modelRoot, offline: true });
      expect(c.source.kind).toBe("cached");
      expect(c.id).not.toBe(emb.id);
      await c.dispose();
    } finally {
      other.cleanup();
    }
  });

  it("reports a host that does not have the model", async () => {
    const host = await fakeModelHost(fx.modelRoot, "404");
    const cacheRoot = mkdtempSync(join(tmpdir(), "persode-404-"));
    try {
      const err = await loadMiniLM({ model: "acme/missing", modelCacheDir: cacheRoot, remoteHost: host.url }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ModelUnavailableError);
      expect((err as Error).message).toMatch(/could not download embedding model "acme\/missing"/);
      expect((err as Error).message).toContain("PERSODE_MODEL_DIR");
    } finally {
      await host.close();
      rmSync(cacheRoot, { recursive: true, force: true });
    }
  });

  it("gives up on a host that never answers after fetchTimeoutMs", async () => {
    const host = await fakeModelHost(fx.modelRoot, "hang");
    const cacheRoot = mkdtempSync(join(tmpdir(), "persode-hang-"));
    try {
      const err = await loadMiniLM({ model: fx.info.modelId, modelCacheDir: cacheRoot, remoteHost: host.url, fetchTimeoutMs: 300 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ModelUnavailableError);
      expect((err as Error).message).toMatch(/no response from http:\/\/127\.0\.0\.1:\d+\/.* within 300 ms/);
      expect(host.requests.length).toBeGreaterThan(0);
    } finally {
      await host.close();
      rmSync(cacheRoot, { recursive: true, force: true });
    }
  });
});

describe("writeTinyBertModel", () => {
  it("writes the folder layout transformers.js expects", async () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-tiny-"));
    try {
      const info = await writeTinyBertModel(dir, { modelId: "acme/tiny", hiddenSize: 8 });
      expect(info).toMatchObject({ modelId: "acme/tiny", modelDir: join(dir, "acme", "tiny"), hiddenSize: 8 });
      for (const f of requiredModelFiles("fp32")) expect(existsSync(join(info.modelDir, f))).toBe(true);
      const e = await MiniLMEmbedder.load({ model: "acme/tiny", modelDir: dir, modelCacheDir: join(dir, "c"), offline: true });
      expect(e.dim).toBe(8);
      expect((await e.embed("hello")).length).toBe(8);
      await e.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
