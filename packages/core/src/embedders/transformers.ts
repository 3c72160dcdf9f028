import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { persodeCacheDir } from "@persode/util";
import type { EmbedRole, Embedder, EmbedderModel } from "./embedder.js";
import { CachedEmbedder, EmbeddingCache } from "./embedding-cache.js";
import type { EmbedderOptions } from "./registry.js";

/**
 * The semantic embedders (docs/spec.md §4, issues 6 and 21): BERT-style sentence-transformers models
 * (all-MiniLM-L6-v2 by default; bge-small-en-v1.5, e5-small-v2 and any other declared model) run through
 * transformers.js / onnxruntime-node from a local folder, pooled and L2-normalised in float64.
 * transformers.js (an optional dependency) is imported only when a model is actually loaded, and only
 * after the model files are known to be on disk, so a missing model fails at once.
 */

/** The default model: the ONNX export of all-MiniLM-L6-v2 used by transformers.js (384-d). */
export const MINILM_DEFAULT_MODEL = "Xenova/all-MiniLM-L6-v2";

/** Weight variants transformers.js can load, with the ONNX file-name suffix each one uses. */
const DTYPE_SUFFIX: Readonly<Record<string, string>> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
};

/** Files a model folder must hold for the given dtype (paths relative to the model folder). */
export function requiredModelFiles(dtype: string): string[] {
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix === undefined) {
    throw new Error(`unknown model dtype "${dtype}"; use one of: ${Object.keys(DTYPE_SUFFIX).join(", ")}`);
  }
  return ["config.json", "tokenizer.json", "tokenizer_config.json", `onnx/model${suffix}.onnx`];
}

/** Options of the transformers.js embedder; every field has a default (all-MiniLM-L6-v2's). */
export interface TransformersEmbedderOptions {
  /** Model id, the folder name below modelDir or the model cache (default "Xenova/all-MiniLM-L6-v2"). */
  model?: string;
  /** Revision label recorded in the id (default "main"; the declaration's revision for a declared model). */
  revision?: string;
  /** Weight variant (default "fp32"; "q8" = the quantized export). */
  dtype?: string;
  /** Folder holding local model folders `<modelDir>/<model id>/` (PERSODE_MODEL_DIR). */
  modelDir?: string;
  /** The model cache `pnpm model fetch` fills (default `<persodeCacheDir()>/models`). */
  modelCacheDir?: string;
  /** Texts per inference batch (default 8: fastest on a 2-core CPU, measured with `pnpm bench:perf --embedding`). */
  batchSize?: number;
  /**
   * Word pieces per text, [CLS] and [SEP] included; longer inputs are truncated (default 256, sentence-transformers' limit for
   * all-MiniLM-L6-v2).
   */
  maxLength?: number;
  /** Short name of the embedder in results and progress lines (default "minilm"). */
  name?: string;
  /** "mean" (attention-masked mean, default) or "cls" (the first row of the last hidden state). */
  pooling?: Pooling;
  /** Divide the pooled vector by its L2 norm (default true). */
  normalize?: boolean;
  /** Text prepended to each input per role (default none), as the model's authors specify. */
  prefixes?: Partial<Record<EmbedRole, string>>;
  /**
   * The weights' content fingerprint (16 hex digits over config.json, tokenizer.json, tokenizer_config.json
   * and the ONNX file), when the folder was already verified byte for byte (a declared model after
   * `provisionModel`): the files are then not read a second time. Omitted: computed from the files.
   */
  fingerprint?: string;
}

/** How the last hidden state becomes one vector. */
export type Pooling = "mean" | "cls";

/** Thrown when the model is not on disk; the message says how to fix it. */
export class ModelUnavailableError extends Error {
  override readonly name = "ModelUnavailableError";
}

/** Where the model will be loaded from: a folder under PERSODE_MODEL_DIR, or the model cache. */
export type ModelSource = { readonly kind: "local"; readonly dir: string } | { readonly kind: "cached"; readonly dir: string };

/** Options taken from the environment: PERSODE_MODEL_DIR and PERSODE_DATA_DIR (for the model cache). */
export function transformersOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TransformersEmbedderOptions {
  const o: TransformersEmbedderOptions = { modelCacheDir: join(persodeCacheDir(env), "models") };
  if (env.PERSODE_MODEL_DIR) o.modelDir = env.PERSODE_MODEL_DIR;
  return o;
}

function modelFolder(root: string, model: string): string {
  return join(root, ...model.split("/"));
}

function missingFiles(dir: string, files: readonly string[]): string[] {
  return files.filter((f) => {
    try {
      return !statSync(join(dir, f)).isFile();
    } catch {
      return true;
    }
  });
}

function describe(dir: string, missing: string[]): string {
  if (!existsSync(dir)) return `${dir} (no such folder)`;
  return `${dir} (missing ${missing.join(", ")})`;
}

/**
 * Find the model folder on the local disk: a complete folder under modelDir, else the model cache
 * (`<cache>/models/<model id>/`, the folder `pnpm model fetch` fills). This embedder never downloads:
 * provisioning is @persode/datasets' `provisionModel` (`pnpm model fetch`), the one path that fetches and
 * verifies model files.
 */
export function resolveModelSource(o: { model: string; dtype: string; modelDir?: string; modelCacheDir: string }): ModelSource {
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(o.model) || o.model.split("/").some((p) => p === "." || p === "..")) {
    throw new Error(`model id "${o.model}" is not valid; expected "<owner>/<name>", e.g. "${MINILM_DEFAULT_MODEL}"`);
  }
  const files = requiredModelFiles(o.dtype);
  const searched: string[] = [];
  if (o.modelDir) {
    const dir = modelFolder(o.modelDir, o.model);
    const miss = missingFiles(dir, files);
    if (miss.length === 0) return { kind: "local", dir };
    searched.push(`PERSODE_MODEL_DIR: ${describe(dir, miss)}`);
  }
  const cached = modelFolder(o.modelCacheDir, o.model);
  const missCached = missingFiles(cached, files);
  if (missCached.length === 0) return { kind: "cached", dir: cached };
  searched.push(`model cache: ${describe(cached, missCached)}`);
  throw new ModelUnavailableError(
    `embedding model "${o.model}" (dtype ${o.dtype}) is not on this machine.\n` +
      `Searched:\n${searched.map((s) => `  - ${s}`).join("\n")}\n` +
      `To fix: run \`pnpm model fetch <name>\` (or \`provisionModel\` from @persode/datasets) to fetch and verify a declared model into the cache, ` +
      `or put the model files (${files.join(", ")}) in <folder>/${o.model}/ and set PERSODE_MODEL_DIR=<folder>.`,
  );
}

/**
 * The weights' content fingerprint: 16 hex digits of SHA-256 over the dtype's model files (names and bytes) in `dir`; the identity in
 * embedder ids and cache keys.
 */
export function modelFingerprint(dir: string, dtype = "fp32"): Promise<string> {
  return fingerprintFiles(dir, requiredModelFiles(dtype));
}

async function fingerprintFiles(dir: string, files: readonly string[]): Promise<string> {
  const h = createHash("sha256");
  for (const f of files) {
    h.update(f + "\0");
    await new Promise<void>((resolve, reject) => {
      createReadStream(join(dir, f))
        .on("data", (chunk) => h.update(chunk))
        .on("end", resolve)
        .on("error", reject);
    });
    h.update("\0");
  }
  return h.digest("hex").slice(0, 16);
}

/** Mean of the hidden states over positions with mask 1, then L2-normalised; all in float64. */
export function meanPoolNormalize(
  hidden: ArrayLike<number>,
  mask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
  dim: number,
): Float64Array[] {
  return poolVectors(hidden, mask, batch, seq, dim, "mean", true);
}

/**
 * Pool a [batch, seq, dim] last hidden state into one float64 vector per text: "mean" over positions with
 * mask 1 ([CLS] and [SEP] included), or "cls" (position 0); then, when `normalize`, divide by the L2 norm.
 */
export function poolVectors(
  hidden: ArrayLike<number>,
  mask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
  dim: number,
  pooling: Pooling,
  normalize: boolean,
): Float64Array[] {
  const out: Float64Array[] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Float64Array(dim);
    if (pooling === "cls") {
      const base = b * seq * dim;
      for (let d = 0; d < dim; d++) v[d] = hidden[base + d]!;
    } else {
      let count = 0;
      for (let s = 0; s < seq; s++) {
        if (Number(mask[b * seq + s]!) === 0) continue;
        count++;
        const base = (b * seq + s) * dim;
        for (let d = 0; d < dim; d++) v[d]! += hidden[base + d]!;
      }
      for (let d = 0; d < dim; d++) v[d] = v[d]! / Math.max(count, 1);
    }
    if (normalize) {
      let ss = 0;
      for (let d = 0; d < dim; d++) ss += v[d]! * v[d]!;
      if (ss > 0) {
        const norm = Math.sqrt(ss);
        for (let d = 0; d < dim; d++) v[d] = v[d]! / norm;
      }
    }
    out.push(v);
  }
  return out;
}

type Transformers = typeof import("@huggingface/transformers");
type Tokenizer = Awaited<ReturnType<Transformers["AutoTokenizer"]["from_pretrained"]>>;
type Model = Awaited<ReturnType<Transformers["AutoModel"]["from_pretrained"]>>;

/** transformers.js keeps its settings in one global object; loads are serialised so they cannot mix. */
let loadLock: Promise<unknown> = Promise.resolve();

/** How one loaded model embeds: its settings after defaults. */
interface EmbedSettings {
  batchSize: number;
  maxLength: number;
  pooling: Pooling;
  normalize: boolean;
  prefixes: Readonly<Record<EmbedRole, string>>;
}

/**
 * A BERT-style sentence embedder run through transformers.js / onnxruntime-node (docs/spec.md §4): role
 * prefix, tokenise, truncate at maxLength word pieces, run the ONNX graph, pool (mean or [CLS]) and
 * L2-normalise in float64. Build it with `loadTransformersEmbedder`; a declared model's settings come from
 * its declaration (@persode/datasets).
 */
export class TransformersEmbedder implements Embedder {
  readonly model: EmbedderModel;
  readonly prefixes: Readonly<Record<EmbedRole, string>>;

  private constructor(
    readonly name: string,
    readonly id: string,
    readonly dim: number,
    modelId: string,
    revision: string,
    dtype: string,
    readonly source: ModelSource,
    private readonly settings: EmbedSettings,
  ) {
    this.model = { id: modelId, revision, dtype };
    this.prefixes = settings.prefixes;
  }

  /** Find and load the model from the local disk; throws ModelUnavailableError with a fix when it is not there. */
  static async load(options: TransformersEmbedderOptions = {}): Promise<TransformersEmbedder> {
    const model = options.model ?? MINILM_DEFAULT_MODEL;
    const revision = options.revision ?? "main";
    const dtype = options.dtype ?? "fp32";
    const name = options.name ?? "minilm";
    const settings: EmbedSettings = {
      batchSize: options.batchSize ?? 8,
      maxLength: options.maxLength ?? 256,
      pooling: options.pooling ?? "mean",
      normalize: options.normalize ?? true,
      prefixes: Object.freeze({ query: options.prefixes?.query ?? "", document: options.prefixes?.document ?? "" }),
    };
    const modelCacheDir = resolve(options.modelCacheDir ?? join(persodeCacheDir(), "models"));
    const modelDir = options.modelDir ? resolve(options.modelDir) : undefined;
    for (const [k, v] of [
      ["batchSize", settings.batchSize],
      ["maxLength", settings.maxLength],
    ] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`TransformersEmbedder option ${k} must be a positive integer, got ${v}`);
    }
    if (settings.pooling !== "mean" && settings.pooling !== "cls")
      throw new RangeError(`TransformersEmbedder option pooling must be "mean" or "cls", got ${String(settings.pooling)}`);
    if (!/^[\w.-]+$/.test(name))
      throw new RangeError(`TransformersEmbedder option name must be a non-empty word (letters, digits, . _ -), got "${name}"`);
    if (options.fingerprint !== undefined && !/^[0-9a-f]{16}$/.test(options.fingerprint)) {
      throw new RangeError(`TransformersEmbedder option fingerprint must be 16 lower-case hex digits, got "${options.fingerprint}"`);
    }
    const source = resolveModelSource({ model, dtype, modelDir, modelCacheDir });
    const hidden = hiddenSize(model, source);
    requireTransformersInstalled();
    const fp = options.fingerprint ?? (await fingerprintFiles(source.dir, requiredModelFiles(dtype)));
    // all-MiniLM-L6-v2's id keeps the form of the paper's runs (mean pooling and normalisation are implied);
    // any other pooling or an unnormalised output is part of the vector space's identity.
    const variant = `${settings.pooling === "mean" ? "" : `:${settings.pooling}`}${settings.normalize ? "" : ":raw"}`;
    const id = `${name}:${model}@${revision}:${dtype}:len${settings.maxLength}:${fp}:d${hidden}${variant}`;
    return new TransformersEmbedder(name, id, hidden, model, revision, dtype, source, settings);
  }

  /**
   * The tokenizer, loaded on first use like the session: a run whose texts are all in the embedding cache never loads
   * transformers.js at all.
   */
  private tokenizer?: Promise<Tokenizer>;

  private loadedTokenizer(): Promise<Tokenizer> {
    if (!this.tokenizer) {
      this.tokenizer = this.load("tokenizer").then((r) => r.tokenizer!);
      this.tokenizer.catch(() => (this.tokenizer = undefined));
    }
    return this.tokenizer;
  }

  /**
   * The onnxruntime session, created on the first batch: a run whose texts are all in the embedding cache never
   * pays for it (≈ 0.4 s per model here).
   */
  private session?: Promise<Model>;

  private loadedSession(): Promise<Model> {
    if (!this.session) {
      this.session = this.load("session").then((r) => r.session!);
      // a failed load is not cached: the next batch tries again (and reports again)
      this.session.catch(() => (this.session = undefined));
    }
    return this.session;
  }

  /** Load one part of the model through loadFrom, after any load in progress (transformers.js' settings are global while one runs). */
  private load(part: "tokenizer" | "session"): ReturnType<typeof loadFrom> {
    const run = loadLock.then(() => loadFrom(this.model.id, this.model.dtype, this.source, part));
    loadLock = run.catch(() => undefined);
    return run;
  }

  async embed(text: string, role: EmbedRole = "document"): Promise<Float64Array> {
    return (await this.embedBatch([text], role))[0]!;
  }

  async embedBatch(texts: readonly string[], role: EmbedRole = "document"): Promise<Float64Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== "string") throw new TypeError(`TransformersEmbedder: texts[${i}] must be a string, got ${typeof t}`);
    });
    const prefix = this.prefixes[role];
    if (prefix === undefined) throw new RangeError(`TransformersEmbedder: role must be "query" or "document", got ${String(role)}`);
    // Similar lengths share a batch so little compute goes to padding; stable order by (length, index).
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
    const out = new Array<Float64Array>(texts.length);
    const { batchSize } = this.settings;
    for (let start = 0; start < order.length; start += batchSize) {
      const idx = order.slice(start, start + batchSize);
      const vecs = await this.runBatch(idx.map((i) => prefix + texts[i]!));
      idx.forEach((i, k) => (out[i] = vecs[k]!));
    }
    return out;
  }

  /** Word pieces of each text as the model sees it (role prefix, [CLS] and [SEP] included, after truncation). */
  async wordPieces(texts: readonly string[], role: EmbedRole = "document"): Promise<number[]> {
    const prefix = this.prefixes[role];
    const tokenizer = await this.loadedTokenizer();
    return texts.map((t) => {
      const enc = tokenizer([prefix + t], { truncation: true, max_length: this.settings.maxLength }) as Record<string, { dims: number[] }>;
      return enc.input_ids!.dims[1]!;
    });
  }

  private async runBatch(batch: string[]): Promise<Float64Array[]> {
    const tokenizer = await this.loadedTokenizer();
    const enc = tokenizer(batch, { padding: true, truncation: true, max_length: this.settings.maxLength }) as Record<
      string,
      { dims: number[]; data: ArrayLike<number | bigint> }
    >;
    const session = await this.loadedSession();
    const result = (await session(enc)) as Record<string, { dims: number[]; data: ArrayLike<number> } | undefined>;
    const hidden = result.last_hidden_state ?? result[Object.keys(result)[0]!];
    const mask = enc.attention_mask;
    if (!hidden || !mask || hidden.dims.length !== 3) {
      throw new Error(
        `model "${this.model.id}" did not return a [batch, sequence, hidden] output (got ${hidden ? `[${hidden.dims.join(", ")}]` : "nothing"})`,
      );
    }
    const [B, S, H] = hidden.dims as [number, number, number];
    if (H !== this.dim) throw new Error(`model "${this.model.id}" returned hidden size ${H}, but config.json says ${this.dim}`);
    if (B !== batch.length || mask.dims[1] !== S)
      throw new Error(`model "${this.model.id}" returned shape [${B}, ${S}, ${H}] for ${batch.length} texts`);
    return poolVectors(hidden.data, mask.data, B, S, H, this.settings.pooling, this.settings.normalize);
  }

  /** Release the onnxruntime session (if one was created). */
  async dispose(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session) await (await session).dispose();
  }
}

/** The error of a neural embedder without the optional dependency transformers.js: what is missing and how to add it. */
function missingTransformers(e: unknown): ModelUnavailableError {
  return new ModelUnavailableError(
    `neural embedders need the optional dependency @huggingface/transformers, which could not be loaded (${(e as Error).message}). ` +
      `To fix: add it beside @persode/core (\`pnpm add @huggingface/transformers@4.3.2\`), or use the hashing embedder.`,
    { cause: e },
  );
}

/**
 * Fail when transformers.js is not installed, without loading it (it is loaded on the first text to embed): building a
 * neural embedder without the optional dependency is the clear error, not its first batch.
 */
function requireTransformersInstalled(): void {
  try {
    import.meta.resolve("@huggingface/transformers");
  } catch (e) {
    throw missingTransformers(e);
  }
}

/** Import transformers.js, or explain that it is an optional dependency to add for neural embedders. */
async function importTransformers(): Promise<Transformers> {
  try {
    return await import("@huggingface/transformers");
  } catch (e) {
    throw missingTransformers(e);
  }
}

/**
 * Configure transformers.js to read only the given folder (no file cache, no network), load tokenizer and model, and restore its settings.
 */
async function loadFrom(
  model: string,
  dtype: string,
  source: ModelSource,
  part: "tokenizer" | "session",
): Promise<{ tokenizer?: Tokenizer; session?: Model }> {
  const t = await importTransformers();
  const env = t.env;
  const saved = {
    allowLocalModels: env.allowLocalModels,
    allowRemoteModels: env.allowRemoteModels,
    localModelPath: env.localModelPath,
    useFSCache: env.useFSCache,
  };
  // localModelPath + model id = the folder: strip the id's own path from the resolved folder.
  const root = source.dir.slice(0, source.dir.length - join(...model.split("/")).length);
  try {
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.useFSCache = false;
    env.localModelPath = root;
    if (part === "tokenizer") return { tokenizer: await t.AutoTokenizer.from_pretrained(model, { local_files_only: true }) };
    return { session: await t.AutoModel.from_pretrained(model, { local_files_only: true, dtype: dtype as "fp32", device: "cpu" }) };
  } catch (e) {
    const why = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    throw new ModelUnavailableError(
      `embedding model "${model}" in ${source.dir} could not be loaded: ${why}. Replace the folder with a complete copy of the model (\`pnpm model fetch <name>\`).`,
      { cause: e },
    );
  } finally {
    Object.assign(env, saved);
  }
}

/** The model's hidden size from its config.json (the vectors' dimension), validated. */
function hiddenSize(model: string, source: ModelSource): number {
  const file = join(source.dir, "config.json");
  let hidden: unknown;
  try {
    hidden = (JSON.parse(readFileSync(file, "utf8")) as { hidden_size?: unknown }).hidden_size;
  } catch (e) {
    throw new ModelUnavailableError(
      `embedding model "${model}": ${file} could not be read as JSON (${(e as Error).message}). Replace the folder with a complete copy of the model (\`pnpm model fetch <name>\`).`,
      { cause: e },
    );
  }
  if (typeof hidden !== "number" || !Number.isInteger(hidden) || hidden < 1) {
    throw new Error(`model "${model}" in ${source.dir}: config.json has no valid hidden_size (got ${String(hidden)})`);
  }
  return hidden;
}

/** Load a transformers.js embedder (see `TransformersEmbedder.load`). */
export function loadTransformersEmbedder(options: TransformersEmbedderOptions = {}): Promise<TransformersEmbedder> {
  return TransformersEmbedder.load(options);
}

/**
 * A registry factory for a transformers.js model: `settings` (pooling, prefixes, limit, name, …) fixed by
 * the caller (a model declaration), options from the caller, gaps filled from the environment
 * (PERSODE_MODEL_DIR, PERSODE_DATA_DIR), wrapped in the persistent embedding cache at `cacheDir`
 * (default `<persodeCacheDir()>/embeddings`).
 */
export async function createTransformersEmbedder(
  options: EmbedderOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  settings: TransformersEmbedderOptions = {},
): Promise<CachedEmbedder> {
  const o: TransformersEmbedderOptions = { ...transformersOptionsFromEnv(env), ...settings };
  if (options.model) o.model = options.model;
  if (options.dtype) o.dtype = options.dtype;
  if (options.revision) o.revision = options.revision;
  if (options.modelDir) o.modelDir = options.modelDir;
  if (options.fingerprint) o.fingerprint = options.fingerprint;
  const inner = await TransformersEmbedder.load(o);
  try {
    const cache = await EmbeddingCache.openLazily(options.cacheDir ?? join(persodeCacheDir(env), "embeddings"), inner.id, inner.dim);
    return new CachedEmbedder(inner, cache);
  } catch (e) {
    await inner.dispose();
    throw e;
  }
}
