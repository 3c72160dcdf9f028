import { cpSync, existsSync, mkdirSync, mkdtempSync, copyFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TransformersEmbedder,
  ModelUnavailableError,
  createTransformersEmbedder,
  loadTransformersEmbedder,
  meanPoolNormalize,
  poolVectors,
  transformersOptionsFromEnv,
  requiredModelFiles,
  resolveModelSource,
} from "../src/embedders/transformers.js";
import { CachedEmbedder } from "../src/embedders/embedding-cache.js";
import { createEmbedder, embedderNames } from "../src/embedders/registry.js";
import { tinyBertFiles, tinyBertWeights, writeTinyBertModel } from "../src/embedders/tiny-bert.js";
import { describeWithTransformers, HAS_TRANSFORMERS, itWithTransformers } from "./optional-peer.js";
import { maxAbsDiff, norm, tinyModelFixture, type TinyModelFixture } from "./transformers-helpers.js";

const TEXTS = [
  "I went home.",
  "Today my dog and I went for a long walk after school, and I felt very happy and proud.",
  "",
  "Zebras quietly xylophone!",
  "we talked about the trip with my sister at dinner",
  "tired",
];

let fx: TinyModelFixture;
let emb: TransformersEmbedder;

beforeAll(async () => {
  fx = await tinyModelFixture();
  if (!HAS_TRANSFORMERS) return; // the blocks that use `emb` are skipped (optional-peer.ts)
  emb = await loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache") });
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

describeWithTransformers("TransformersEmbedder through transformers.js on the tiny model", () => {
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
    const other = await loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: join(fx.root, "cache") });
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
    const small = await loadTransformersEmbedder({
      model: fx.info.modelId,
      modelDir: fx.modelRoot,
      modelCacheDir: join(fx.root, "cache"),
      batchSize: 2,
    });
    try {
      const a = await small.embedBatch(TEXTS);
      const b = await emb.embedBatch(TEXTS);
      for (let i = 0; i < TEXTS.length; i++) expect(maxAbsDiff(a[i]!, b[i]!)).toBeLessThan(1e-6);
    } finally {
      await small.dispose();
    }
  });

  it("truncates texts to maxLength tokens", async () => {
    const short = await loadTransformersEmbedder({
      model: fx.info.modelId,
      modelDir: fx.modelRoot,
      modelCacheDir: join(fx.root, "cache"),
      maxLength: 6,
    });
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
      const e = await loadTransformersEmbedder({
        model: other.info.modelId,
        modelDir: other.modelRoot,
        modelCacheDir: join(other.root, "cache"),
      });
      expect(e.id).not.toBe(emb.id);
      expect(e.id).toContain(other.info.modelId);
      expect(e.id).toContain("fp32");
      await e.dispose();
    } finally {
      other.cleanup();
    }
  });

  it("rejects bad options and non-string texts with clear errors", async () => {
    await expect(loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, dtype: "fp64" })).rejects.toThrow(
      /unknown model dtype "fp64".*fp32/,
    );
    await expect(loadTransformersEmbedder({ model: "../etc", modelDir: fx.modelRoot })).rejects.toThrow(/not valid/);
    await expect(loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(emb.embedBatch(["ok", 3 as unknown as string])).rejects.toThrow(/texts\[1\] must be a string/);
  });
});

describe("pooling, prefixes and roles", () => {
  it("[CLS] pooling takes the first row; without normalisation the vector keeps its norm", () => {
    // batch 2, seq 2, dim 2; the second text's second position is padding.
    const hidden = [3, 4, 1, 1, 0, 2, 9, 9];
    const mask = [1, 1, 1, 0];
    expect(poolVectors(hidden, mask, 2, 2, 2, "cls", true).map((v) => Array.from(v))).toEqual([
      [0.6, 0.8],
      [0, 1],
    ]);
    expect(poolVectors(hidden, mask, 2, 2, 2, "cls", false).map((v) => Array.from(v))).toEqual([
      [3, 4],
      [0, 2],
    ]);
    expect(poolVectors(hidden, mask, 2, 2, 2, "mean", false).map((v) => Array.from(v))).toEqual([
      [2, 2.5],
      [0, 2],
    ]);
  });

  itWithTransformers("a role's prefix is prepended to the text before tokenisation; no prefix means both roles agree", async () => {
    const e5like = await loadTransformersEmbedder({
      model: fx.info.modelId,
      modelDir: fx.modelRoot,
      prefixes: { query: "query: ", document: "passage: " },
    });
    try {
      const t = TEXTS[1]!;
      const [q] = await e5like.embedBatch([t], "query");
      const [d] = await e5like.embedBatch([t], "document");
      expect(Array.from(q!)).toEqual(Array.from((await emb.embedBatch(["query: " + t]))[0]!));
      expect(Array.from(d!)).toEqual(Array.from((await emb.embedBatch(["passage: " + t]))[0]!));
      expect(maxAbsDiff(q!, d!)).toBeGreaterThan(1e-4);
      expect(Array.from(await emb.embed(t, "query"))).toEqual(Array.from(await emb.embed(t, "document")));
      expect((await e5like.wordPieces([t], "query"))[0]).toBeGreaterThan((await emb.wordPieces([t]))[0]!);
      await expect(e5like.embedBatch([t], "summary" as "query")).rejects.toThrow(/role must be "query" or "document"/);
    } finally {
      await e5like.dispose();
    }
  });

  itWithTransformers(
    "the id names a pooling other than mean; a declared fingerprint is used as given, a malformed one refused",
    async () => {
      const cls = await loadTransformersEmbedder({
        model: fx.info.modelId,
        modelDir: fx.modelRoot,
        pooling: "cls",
        name: "tiny-cls",
        fingerprint: "0123456789abcdef",
      });
      try {
        expect(cls.id).toBe(`tiny-cls:${fx.info.modelId}@main:fp32:len256:0123456789abcdef:d32:cls`);
        expect(emb.id).toMatch(/^minilm:persode\/tiny-bert@main:fp32:len256:[0-9a-f]{16}:d32$/);
      } finally {
        await cls.dispose();
      }
      await expect(loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, fingerprint: "xyz" })).rejects.toThrow(
        /fingerprint must be 16/,
      );
    },
  );

  itWithTransformers("the embedding cache keys on the model input: each role its own entry when prefixes differ", async () => {
    const cacheDir = join(fx.root, "emb-roles");
    const opts = { model: fx.info.modelId, modelDir: fx.modelRoot, cacheDir };
    const settings = { prefixes: { query: "query: ", document: "passage: " } };
    const first = await createTransformersEmbedder(opts, {}, settings);
    const q = await first.embedBatch(TEXTS, "query");
    const d = await first.embedBatch(TEXTS, "document");
    expect(first.cache.stats).toMatchObject({ misses: 2 * TEXTS.length, written: 2 * TEXTS.length });
    await first.dispose();
    const second = await createTransformersEmbedder(opts, {}, settings);
    expect(Array.from((await second.embedBatch(TEXTS, "query"))[3]!)).toEqual(Array.from(q[3]!));
    expect(Array.from((await second.embedBatch(TEXTS, "document"))[3]!)).toEqual(Array.from(d[3]!));
    expect(second.cache.stats).toMatchObject({ hits: 2 * TEXTS.length, misses: 0 });
    await second.dispose();
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

describeWithTransformers("registry and cache wiring", () => {
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
    // The entries are read on first use, not when the embedder is built (a fully replayed run never reads them).
    expect(second.cache.stats.loaded).toBe(0);
    const b = await second.embedBatch(TEXTS);
    expect(second.cache.stats.loaded).toBe(TEXTS.length);
    expect(second.cache.stats).toMatchObject({ hits: TEXTS.length, misses: 0, written: 0 });
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    const direct = await emb.embedBatch(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(direct[i]!));
    await second.dispose();
  });

  it("starts the model session only for a text the cache does not have", async () => {
    // a copy of the model whose weights are replaced after the first run: cached texts need no session at all
    const root = join(fx.root, "lazy-session");
    cpSync(fx.modelRoot, root, { recursive: true });
    const opts = { model: fx.info.modelId, modelDir: root, cacheDir: join(fx.root, "emb-lazy"), fingerprint: "0123456789abcdef" };
    const first = await createTransformersEmbedder(opts);
    const a = await first.embedBatch(TEXTS);
    await first.dispose();
    writeFileSync(join(root, ...fx.info.modelId.split("/"), "onnx", "model.onnx"), "not an onnx graph");
    const second = await createTransformersEmbedder(opts);
    const b = await second.embedBatch(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    await expect(second.embedBatch(["a text no run has embedded"])).rejects.toThrow(ModelUnavailableError);
    await second.dispose();
  });

  it("takes PERSODE_MODEL_DIR and PERSODE_DATA_DIR from the environment", async () => {
    const dataDir = join(fx.root, "data-dir");
    const env = { PERSODE_MODEL_DIR: fx.modelRoot, PERSODE_DATA_DIR: dataDir };
    const e = await createTransformersEmbedder({ model: fx.info.modelId }, env);
    await e.embed("hello there");
    expect(e.cache.dir.startsWith(join(dataDir, "embeddings"))).toBe(true);
    await e.dispose();
    expect(transformersOptionsFromEnv(env)).toMatchObject({ modelDir: fx.modelRoot, modelCacheDir: join(dataDir, "models") });
  });
});

describe("model resolution: local folders only, one provisioning path", () => {
  it("fails at once with the model, the folders searched and how to fix it (pnpm model fetch), never downloading", async () => {
    const empty = mkdtempSync(join(tmpdir(), "persode-empty-"));
    try {
      const env = { PERSODE_MODEL_DIR: empty, PERSODE_DATA_DIR: join(empty, "data") };
      const err = await createTransformersEmbedder({}, env).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ModelUnavailableError);
      const msg = (err as Error).message;
      expect(msg).toContain('"Xenova/all-MiniLM-L6-v2"');
      expect(msg).toContain("pnpm model fetch");
      expect(msg).toContain(join(empty, "Xenova", "all-MiniLM-L6-v2"));
      expect(msg).toContain(join(empty, "data", "models", "Xenova", "all-MiniLM-L6-v2"));
      expect(msg).toContain("onnx/model.onnx");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("names the missing files of an incomplete model folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-partial-"));
    try {
      mkdirSync(join(dir, "acme", "m"), { recursive: true });
      copyFileSync(join(fx.info.modelDir, "config.json"), join(dir, "acme", "m", "config.json"));
      expect(() => resolveModelSource({ model: "acme/m", dtype: "fp32", modelDir: dir, modelCacheDir: join(dir, "c") })).toThrow(
        /missing tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx/,
      );
      expect(requiredModelFiles("q8")).toContain("onnx/model_quantized.onnx");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  itWithTransformers("prefers the PERSODE_MODEL_DIR folder over a cached download of the same id", async () => {
    const other = await tinyModelFixture(3);
    try {
      // The cache holds a different model under the same id; the local folder must win.
      const e = await loadTransformersEmbedder({ model: fx.info.modelId, modelDir: fx.modelRoot, modelCacheDir: other.modelRoot });
      expect(e.source.kind).toBe("local");
      expect(e.id).toBe(emb.id);
      await e.dispose();
      const c = await loadTransformersEmbedder({ model: fx.info.modelId, modelCacheDir: other.modelRoot });
      expect(c.source.kind).toBe("cached");
      expect(c.id).not.toBe(emb.id);
      await c.dispose();
    } finally {
      other.cleanup();
    }
  });
});

describe("writeTinyBertModel", () => {
  itWithTransformers("writes the folder layout transformers.js expects", async () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-tiny-"));
    try {
      const info = await writeTinyBertModel(dir, { modelId: "acme/tiny", hiddenSize: 8 });
      expect(info).toMatchObject({ modelId: "acme/tiny", modelDir: join(dir, "acme", "tiny"), hiddenSize: 8 });
      for (const f of requiredModelFiles("fp32")) expect(existsSync(join(info.modelDir, f))).toBe(true);
      const e = await TransformersEmbedder.load({ model: "acme/tiny", modelDir: dir, modelCacheDir: join(dir, "c") });
      expect(e.dim).toBe(8);
      expect((await e.embed("hello")).length).toBe(8);
      await e.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
