import { createHash } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fetchWithIdleTimeout, offlineFromEnv, persodeCacheDir, requireTimerMs } from "@persode/util";
import type { Embedder, EmbedderModel } from "./embedder.js";
import { CachedEmbedder, EmbeddingCache } from "./embedding-cache.js";
import type { EmbedderOptions } from "./registry.js";

/**
 * The semantic embedder (docs/spec.md §4, issue 6): a sentence-transformers model (all-MiniLM-L6-v2 by
 * default) run through transformers.js / onnxruntime-node, mean-pooled over real tokens and
 * L2-normalised in float64. transformers.js is imported only when a model is actually loaded, and
 * only after the model files are known to be reachable, so offline failures are immediate.
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

/** Options of the MiniLM embedder; every field has a default. */
export interface MiniLMOptions {
  /** Model id, a Hub id and the folder name below modelDir (default "Xenova/all-MiniLM-L6-v2"). */
  model?: string;
  /** Hub revision (branch, tag or commit) to download (default "main"). */
  revision?: string;
  /** Weight variant (default "fp32"; "q8" = the quantized export). */
  dtype?: string;
  /** Folder holding local model folders `<modelDir>/<model id>/` (PERSODE_MODEL_DIR); used offline. */
  modelDir?: string;
  /** Where downloaded models are cached (default `<persodeCacheDir()>/models`). */
  modelCacheDir?: string;
  /** Never download; fail at once when the model is not on disk (PERSODE_OFFLINE=1). */
  offline?: boolean;
  /** Texts per inference batch (default 8: fastest on a 2-core CPU, measured with `pnpm bench:perf --embedding`). */
  batchSize?: number;
  /** Token limit per text, longer texts are truncated (default 256, sentence-transformers' limit for this model). */
  maxLength?: number;
  /** Model host to download from (default HF_ENDPOINT or https://huggingface.co). */
  remoteHost?: string;
  /** Give up on a download request that shows no progress for this long (default 20000 ms). */
  fetchTimeoutMs?: number;
}

/** Thrown when the model can be neither found on disk nor downloaded; the message says how to fix it. */
export class ModelUnavailableError extends Error {
  override readonly name = "ModelUnavailableError";
}

/** Where the model will be loaded from. */
export type ModelSource =
  | { readonly kind: "local"; readonly dir: string }
  | { readonly kind: "cached"; readonly dir: string }
  | { readonly kind: "remote"; readonly dir: string };

/** MiniLM options taken from the environment: PERSODE_MODEL_DIR, PERSODE_OFFLINE, PERSODE_DATA_DIR, HF_ENDPOINT. */
export function miniLMOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MiniLMOptions {
  const o: MiniLMOptions = {
    offline: offlineFromEnv(env),
    modelCacheDir: join(persodeCacheDir(env), "models"),
  };
  if (env.PERSODE_MODEL_DIR) o.modelDir = env.PERSODE_MODEL_DIR;
  if (env.HF_ENDPOINT) o.remoteHost = env.HF_ENDPOINT;
  return o;
}

function modelFolder(root: string, model: string): string {
  return join(root, ...model.split("/"));
}

function cacheFolder(cacheRoot: string, model: string, revision: string): string {
  // transformers.js file-cache layout: <cache>/<model>/<file> for "main", <cache>/<model>/<revision>/<file> otherwise.
  return revision === "main" ? modelFolder(cacheRoot, model) : join(modelFolder(cacheRoot, model), revision);
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
 * Decide where the model comes from, touching only the local disk: a complete folder under
 * modelDir, else a complete earlier download in the cache, else a download (refused when offline).
 */
export function resolveModelSource(o: {
  model: string;
  revision: string;
  dtype: string;
  modelDir?: string;
  modelCacheDir: string;
  offline: boolean;
}): ModelSource {
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
  const cached = cacheFolder(o.modelCacheDir, o.model, o.revision);
  const missCached = missingFiles(cached, files);
  if (missCached.length === 0) return { kind: "cached", dir: cached };
  searched.push(`download cache: ${describe(cached, missCached)}`);
  if (o.offline) {
    const where = o.modelDir
      ? `in ${modelFolder(o.modelDir, o.model)}/`
      : `in <folder>/${o.model}/ and set PERSODE_MODEL_DIR=<folder>`;
    throw new ModelUnavailableError(
      `embedding model "${o.model}" (dtype ${o.dtype}) is not available offline (PERSODE_OFFLINE is set, so nothing is downloaded).\n` +
        `Searched:\n${searched.map((s) => `  - ${s}`).join("\n")}\n` +
        `To fix: put the model files (${files.join(", ")}) ${where} ` +
        `(from https://huggingface.co/${o.model}, or copy ${cached} from a machine that ran once online), ` +
        `or unset PERSODE_OFFLINE to download the model on first use.`,
    );
  }
  return { kind: "remote", dir: cached };
}

/** SHA-256 over the model's files (names and bytes): the model's content identity for cache keys. */
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
  const out: Float64Array[] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Float64Array(dim);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      if (Number(mask[b * seq + s]!) === 0) continue;
      count++;
      const base = (b * seq + s) * dim;
      for (let d = 0; d < dim; d++) v[d]! += hidden[base + d]!;
    }
    let ss = 0;
    for (let d = 0; d < dim; d++) {
      v[d] = v[d]! / Math.max(count, 1);
      ss += v[d]! * v[d]!;
    }
    if (ss > 0) {
      const norm = Math.sqrt(ss);
      for (let d = 0; d < dim; d++) v[d] = v[d]! / norm;
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

/** The MiniLM (or any BERT-style sentence-transformers) embedder; build it with `loadMiniLM`. */
export class MiniLMEmbedder implements Embedder {
  readonly name = "minilm";
  readonly model: EmbedderModel;

  private constructor(
    readonly id: string,
    readonly dim: number,
    modelId: string,
    revision: string,
    dtype: string,
    readonly source: ModelSource,
    private readonly tokenizer: Tokenizer,
    private readonly session: Model,
    private readonly batchSize: number,
    private readonly maxLength: number,
  ) {
    this.model = { id: modelId, revision, dtype };
  }

  /** Resolve, (download,) and load the model; throws ModelUnavailableError with a fix when it cannot. */
  static async load(options: MiniLMOptions = {}): Promise<MiniLMEmbedder> {
    const model = options.model ?? MINILM_DEFAULT_MODEL;
    const revision = options.revision ?? "main";
    const dtype = options.dtype ?? "fp32";
    const batchSize = options.batchSize ?? 8;
    const maxLength = options.maxLength ?? 256;
    const timeoutMs = options.fetchTimeoutMs ?? 20_000;
    const modelCacheDir = resolve(options.modelCacheDir ?? join(persodeCacheDir(), "models"));
    const modelDir = options.modelDir ? resolve(options.modelDir) : undefined;
    for (const [k, v] of [["batchSize", batchSize], ["maxLength", maxLength]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`MiniLM option ${k} must be a positive integer, got ${v}`);
    }
    requireTimerMs(timeoutMs, "MiniLM option fetchTimeoutMs");
    const source = resolveModelSource({ model, revision, dtype, modelDir, modelCacheDir, offline: options.offline ?? false });
    const run = loadLock.then(() => loadWith({ ...options, modelDir }, { model, revision, dtype, modelCacheDir, timeoutMs, source }));
    loadLock = run.catch(() => undefined);
    const { tokenizer, session, dir } = await run;
    const hidden = (session.config as { hidden_size?: unknown }).hidden_size;
    if (typeof hidden !== "number" || !Number.isInteger(hidden) || hidden < 1) {
      await session.dispose();
      throw new Error(`model "${model}" in ${dir}: config.json has no valid hidden_size (got ${String(hidden)})`);
    }
    const files = requiredModelFiles(dtype);
    const fp = await fingerprintFiles(dir, files);
    const id = `minilm:${model}@${revision}:${dtype}:len${maxLength}:${fp}:d${hidden}`;
    return new MiniLMEmbedder(id, hidden, model, revision, dtype, source, tokenizer, session, batchSize, maxLength);
  }

  async embed(text: string): Promise<Float64Array> {
    return (await this.embedBatch([text]))[0]!;
  }

  async embedBatch(texts: readonly string[]): Promise<Float64Array[]> {
    texts.forEach((t, i) => {
      if (typeof t !== "string") throw new TypeError(`MiniLMEmbedder: texts[${i}] must be a string, got ${typeof t}`);
    });
    // Similar lengths share a batch so little compute goes to padding; stable order by (length, index).
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
    const out = new Array<Float64Array>(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const idx = order.slice(start, start + this.batchSize);
      const vecs = await this.runBatch(idx.map((i) => texts[i]!));
      idx.forEach((i, k) => (out[i] = vecs[k]!));
    }
    return out;
  }

  private async runBatch(batch: string[]): Promise<Float64Array[]> {
    const enc = this.tokenizer(batch, { padding: true, truncation: true, max_length: this.maxLength }) as Record<string, { dims: number[]; data: ArrayLike<number | bigint> }>;
    const result = (await this.session(enc)) as Record<string, { dims: number[]; data: ArrayLike<number> } | undefined>;
    const hidden = result.last_hidden_state ?? result[Object.keys(result)[0]!];
    const mask = enc.attention_mask;
    if (!hidden || !mask || hidden.dims.length !== 3) {
      throw new Error(`model "${this.model.id}" did not return a [batch, sequence, hidden] output (got ${hidden ? `[${hidden.dims.join(", ")}]` : "nothing"})`);
    }
    const [B, S, H] = hidden.dims as [number, number, number];
    if (H !== this.dim) throw new Error(`model "${this.model.id}" returned hidden size ${H}, but config.json says ${this.dim}`);
    if (B !== batch.length || mask.dims[1] !== S) throw new Error(`model "${this.model.id}" returned shape [${B}, ${S}, ${H}] for ${batch.length} texts`);
    return meanPoolNormalize(hidden.data, mask.data, B, S, H);
  }

  /** Release the onnxruntime session. */
  async dispose(): Promise<void> {
    await this.session.dispose();
  }
}

/** Configure transformers.js for one load, load tokenizer and model, and restore its settings. */
async function loadWith(
  options: MiniLMOptions,
  o: { model: string; revision: string; dtype: string; modelCacheDir: string; timeoutMs: number; source: ModelSource },
): Promise<{ tokenizer: Tokenizer; session: Model; dir: string }> {
  const t: Transformers = await import("@huggingface/transformers");
  const env = t.env;
  const saved = {
    allowLocalModels: env.allowLocalModels,
    allowRemoteModels: env.allowRemoteModels,
    localModelPath: env.localModelPath,
    useFSCache: env.useFSCache,
    cacheDir: env.cacheDir,
    remoteHost: env.remoteHost,
    fetch: env.fetch,
  };
  const { source } = o;
  const common = { revision: o.revision, cache_dir: o.modelCacheDir };
  try {
    if (source.kind === "local") {
      // Only the given folder: no file cache (it is checked before local files) and no network.
      env.allowLocalModels = true;
      env.allowRemoteModels = false;
      env.useFSCache = false;
      env.localModelPath = options.modelDir!;
    } else {
      // Cached: served from the file cache (checked first), local_files_only forbids the network.
      // Remote: download into the file cache; never look in transformers.js's own models folder.
      env.allowLocalModels = source.kind === "cached";
      env.localModelPath = o.modelCacheDir;
      env.useFSCache = true;
      env.cacheDir = o.modelCacheDir;
      env.allowRemoteModels = source.kind === "remote";
      if (options.remoteHost) env.remoteHost = options.remoteHost.endsWith("/") ? options.remoteHost : options.remoteHost + "/";
      env.fetch = fetchWithIdleTimeout(saved.fetch as typeof fetch, o.timeoutMs);
    }
    const localOnly = source.kind !== "remote";
    const tokenizer = await t.AutoTokenizer.from_pretrained(o.model, { ...common, local_files_only: localOnly });
    const session = await t.AutoModel.from_pretrained(o.model, {
      ...common,
      local_files_only: localOnly,
      dtype: o.dtype as "fp32",
      device: "cpu",
    });
    if (source.kind === "remote") {
      const miss = missingFiles(source.dir, requiredModelFiles(o.dtype));
      if (miss.length > 0) throw new Error(`download finished but ${source.dir} lacks ${miss.join(", ")}`);
    }
    return { tokenizer, session, dir: source.dir };
  } catch (e) {
    const why = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    if (source.kind === "remote") {
      throw new ModelUnavailableError(
        `could not download embedding model "${o.model}" (revision ${o.revision}, dtype ${o.dtype}) from ${env.remoteHost}: ${why}\n` +
          `Searched first: ${options.modelDir ? `${modelFolder(options.modelDir, o.model)} (PERSODE_MODEL_DIR), ` : ""}${source.dir} (download cache).\n` +
          `To fix: check the network (or set HF_ENDPOINT to a reachable mirror), or place the model files ` +
          `(${requiredModelFiles(o.dtype).join(", ")}) in <folder>/${o.model}/ and set PERSODE_MODEL_DIR=<folder> (add PERSODE_OFFLINE=1 to never download).`,
        { cause: e },
      );
    }
    throw new ModelUnavailableError(`embedding model "${o.model}" in ${source.dir} could not be loaded: ${why}. Replace the folder with a complete copy of the model.`, { cause: e });
  } finally {
    Object.assign(env, saved);
  }
}

/** Load the MiniLM embedder (see `MiniLMEmbedder.load`). */
export function loadMiniLM(options: MiniLMOptions = {}): Promise<MiniLMEmbedder> {
  return MiniLMEmbedder.load(options);
}

/**
 * The registry's "minilm" factory: options from the caller, gaps filled from the environment
 * (PERSODE_MODEL_DIR, PERSODE_DATA_DIR, HF_ENDPOINT; offline when either the caller or
 * PERSODE_OFFLINE says so), wrapped in the persistent embedding cache at
 * `cacheDir` (default `<persodeCacheDir()>/embeddings`).
 */
export async function createMiniLMEmbedder(options: EmbedderOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<CachedEmbedder> {
  const fromEnv = miniLMOptionsFromEnv(env);
  const o: MiniLMOptions = { ...fromEnv, offline: Boolean(options.offline) || Boolean(fromEnv.offline) };
  if (options.model) o.model = options.model;
  if (options.dtype) o.dtype = options.dtype;
  if (options.revision) o.revision = options.revision;
  if (options.modelDir) o.modelDir = options.modelDir;
  const inner = await MiniLMEmbedder.load(o);
  try {
    const cache = await EmbeddingCache.open(options.cacheDir ?? join(persodeCacheDir(env), "embeddings"), inner.id, inner.dim);
    return new CachedEmbedder(inner, cache);
  } catch (e) {
    await inner.dispose();
    throw e;
  }
}
