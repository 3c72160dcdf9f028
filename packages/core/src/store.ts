import { constants as bufferConstants } from "node:buffer";
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { DAY_MS, describe, writeFileAtomicExplained } from "@persode/util";
import type { Embedder } from "./embedders/embedder.js";
import { blasNorm } from "./embedders/blas-dot.js";
import { HashingEmbedder } from "./embedders/hashing.js";
import { DECAY_RATE_PER_DAY, SHORT_TERM_WINDOW_DAYS } from "./forgetting.js";
import { Memory, type MemoryInit } from "./memory.js";
import { requireFinite } from "./numeric.js";
import { NEAR_TIE_EPSILON, RankingContext, type RankingQuery, type StoreColumns } from "./ranking.js";
import { DEFAULT_PROTECTION, DEFAULT_WEIGHTS, strength, validateProtection, validateWeights, type ScoringWeights } from "./scorer.js";
import type { RetrievalStrategy } from "./strategies/strategy.js";
import { rankChecked } from "./strategies/checked-rank.js";
import { toEpochMs, type TimeInput } from "./time.js";

/** The last pending save per resolved path: each save() waits for the one before it (last call wins). */
const pendingSaves = new Map<string, Promise<void>>();

/** Options of `retrieve` (docs/spec.md §5). */
export interface RetrieveOptions {
  /** How many memories to return (3). */
  topK?: number;
  /** Retrieval time (default: the current time). */
  now?: TimeInput;
  /** Recall every returned memory at `now` (true). */
  reinforce?: boolean;
  /** Use the query similarity as C′ (true); else the stored C. */
  useQueryRelevanceAsContext?: boolean;
  /** Similarity weight α override (default: the store's α, 0.5). */
  alpha?: number;
  /** Analyzer E of the query, if already known (for strategies that gate on it). */
  queryIntensity?: number;
}

/** One retrieved memory with the scores that ranked it. */
export interface RetrievalResult {
  memory: Memory;
  /** Index of the memory in the store (insertion order). */
  index: number;
  similarity: number;
  salience: number;
  /** Eq. 1 strength S at `now`, with C′. */
  retention: number;
  /** α·sim + (1 − α)·salience with the α that ranked it (NaN for a strategy that does not fuse). */
  fused: number;
  shortTerm: boolean;
}

/** Store construction options; defaults are the paper's. */
export interface MemoryStoreOptions {
  embedder?: Embedder;
  /** Default similarity weight α (0.5). */
  alpha?: number;
  weights?: ScoringWeights;
  /** Consolidation protection γ (0.9). */
  gamma?: number;
  lambda?: number;
}

const FORMAT = "persode-memory-store";
const FORMAT_VERSION = 1;

/**
 * Largest embedding dimension a store accepts (64 Ki; today's text embedders have 256 … 4 096): a saved store declaring more is refused
 * before anything is allocated.
 */
export const MAX_STORE_DIM = 65_536;

/** Largest store file `MemoryStore.load` reads: the longest string JavaScript can hold. */
const MAX_STORE_FILE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * The memory store and Memory Selection Block (paper §4.2, docs/spec.md §5): holds memories with their
 * embeddings in typed columns and ranks the whole store per query by fused similarity and salience.
 */
export class MemoryStore {
  readonly embedder: Embedder;
  readonly alpha: number;
  readonly weights: ScoringWeights;
  readonly gamma: number;
  readonly lambda: number;
  private readonly mems: Memory[] = [];
  private vectors: Float64Array;
  private norms: Float64Array;
  private E: Float64Array;
  private C: Float64Array;
  private created: Float64Array;
  private capacity = 0;
  private nextId = 1;
  private readonly ids = new Set<string>();

  constructor(opts: MemoryStoreOptions = {}) {
    this.embedder = opts.embedder ?? new HashingEmbedder();
    const dim = this.embedder.dim;
    if (!Number.isInteger(dim) || dim < 1 || dim > MAX_STORE_DIM)
      throw new RangeError(`MemoryStore: the embedder's dim must be an integer in 1 … ${MAX_STORE_DIM}, got ${describe(dim)}`);
    this.alpha = validateAlpha(opts.alpha ?? 0.5);
    this.weights = Object.freeze({ ...validateWeights(opts.weights ?? DEFAULT_WEIGHTS) });
    this.gamma = validateProtection(opts.gamma ?? DEFAULT_PROTECTION);
    this.lambda = requireFinite(opts.lambda ?? DECAY_RATE_PER_DAY, "decay rate λ");
    if (this.lambda < 0) throw new RangeError(`decay rate λ must be ≥ 0, got ${this.lambda}`);
    this.vectors = new Float64Array(0);
    this.norms = this.E = this.C = this.created = new Float64Array(0);
  }

  /** Number of memories. */
  get size(): number {
    return this.mems.length;
  }

  /** The memories, in insertion order. */
  get memories(): readonly Memory[] {
    return this.mems;
  }

  /** Embed the text and store a new memory. */
  async add(init: MemoryInit): Promise<Memory> {
    if (init === null || typeof init !== "object") throw new TypeError("MemoryStore.add: expected a memory object");
    if (typeof init.text !== "string") throw new TypeError(`MemoryStore.add: text must be a string, got ${describe(init.text)}`);
    return this.addEmbedded(init, await this.embedder.embed(init.text));
  }

  /** Store a memory whose embedding was computed already (e.g. in one batch for a benchmark). */
  addEmbedded(init: MemoryInit, embedding: ArrayLike<number>): Memory {
    if (embedding.length !== this.embedder.dim) {
      throw new RangeError(
        `MemoryStore: embedding has ${embedding.length} dimensions, the embedder "${this.embedder.id}" has ${this.embedder.dim}`,
      );
    }
    // Automatic ids skip ids already taken explicitly (an explicit "m2" must not collide with the 2nd auto id).
    if (init.id == null) while (this.ids.has(`m${this.nextId}`)) this.nextId++;
    const id = init.id ?? `m${this.nextId}`;
    if (this.ids.has(id)) throw new Error(`MemoryStore: a memory with id "${id}" already exists`);
    const m = new Memory(init, id);
    this.nextId++;
    this.ensureCapacity(this.mems.length + 1);
    const i = this.mems.length;
    const dim = this.embedder.dim;
    for (let j = 0; j < dim; j++) {
      const v = embedding[j];
      // the message is only built for a bad value: building it for every element cost more than the copy
      this.vectors[i * dim + j] = typeof v === "number" && Number.isFinite(v) ? v : requireFinite(v, `embedding[${j}] of memory ${id}`);
    }
    this.norms[i] = blasNorm(this.vectors, dim, i * dim);
    this.E[i] = m.emotionalIntensity;
    this.C[i] = m.contextualRelevance;
    this.created[i] = m.createdAtMs;
    this.mems.push(m);
    this.ids.add(id);
    return m;
  }

  /** The embedding of memory `index` (a copy). */
  embeddingAt(index: number): Float64Array {
    const dim = this.embedder.dim;
    return this.vectors.slice(index * dim, (index + 1) * dim);
  }

  /** Typed column view for strategies; recall counts and decay clocks are read fresh. */
  columns(): StoreColumns {
    const n = this.mems.length;
    const recallCount = new Float64Array(n);
    const decayFromMs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const m = this.mems[i]!;
      recallCount[i] = m.recallCount;
      decayFromMs[i] = m.lastRecalledMs ?? m.createdAtMs;
    }
    const dim = this.embedder.dim;
    return {
      size: n,
      dim,
      vectors: this.vectors.subarray(0, n * dim),
      norms: this.norms.subarray(0, n),
      emotionalIntensity: this.E.subarray(0, n),
      contextualRelevance: this.C.subarray(0, n),
      recallCount,
      createdAtMs: this.created.subarray(0, n),
      decayFromMs,
      texts: this.mems.map((m) => m.text),
    };
  }

  /** A ranking context for a query vector, for strategies and benchmarks. */
  context(query: RankingQuery, now: TimeInput, columns: StoreColumns = this.columns()): RankingContext {
    return new RankingContext(columns, query, toEpochMs(now, "now"), {
      weights: this.weights,
      gamma: this.gamma,
      lambda: this.lambda,
      alpha: this.alpha,
      // a neural model's floats differ between CPUs in the last bits: its near-ties are recorded (docs/reproducibility.md)
      tieEpsilon: this.embedder.model ? NEAR_TIE_EPSILON : 0,
    });
  }

  /** Retrieve the top-K memories for a text query (embeds the query once). */
  async retrieve(query: string, opts: RetrieveOptions = {}): Promise<RetrievalResult[]> {
    if (typeof query !== "string") throw new TypeError(`retrieve: query must be a string, got ${describe(query)}`);
    return this.retrieveByVector(query, await this.embedder.embed(query, "query"), opts);
  }

  /** Retrieve with a precomputed query embedding (docs/spec.md §5). */
  retrieveByVector(queryText: string, vector: Float64Array, opts: RetrieveOptions = {}): RetrievalResult[] {
    const topK = validateTopK(opts.topK ?? 3);
    const alpha = validateAlpha(opts.alpha ?? this.alpha);
    const useQR = opts.useQueryRelevanceAsContext ?? true;
    const nowMs = toEpochMs(opts.now ?? Date.now(), "now");
    const ctx = this.context({ text: queryText, vector, intensity: opts.queryIntensity }, nowMs);
    const order = ctx.fusedOrder(alpha, useQR);
    return this.results(ctx, order.subarray(0, Math.min(topK, order.length)), alpha, useQR, opts.reinforce ?? true);
  }

  /**
   * Retrieve the top-K memories with a named strategy (e.g. the gated agent strategy). Results carry
   * the similarity, the salience and fused score the strategy ranked by (fused is NaN for strategies
   * that do not fuse, such as recency-only).
   */
  async retrieveWith(
    strategy: RetrievalStrategy,
    query: string,
    opts: Omit<RetrieveOptions, "alpha" | "useQueryRelevanceAsContext"> = {},
  ): Promise<RetrievalResult[]> {
    if (typeof query !== "string") throw new TypeError(`retrieveWith: query must be a string, got ${describe(query)}`);
    const topK = validateTopK(opts.topK ?? 3);
    const nowMs = toEpochMs(opts.now ?? Date.now(), "now");
    const ctx = this.context({ text: query, vector: await this.embedder.embed(query, "query"), intensity: opts.queryIntensity }, nowMs);
    const order = rankChecked(strategy, ctx);
    // Report the scores the strategy ranked by; a strategy that does not fuse gets fused = NaN.
    const f = strategy.fusion?.(ctx) ?? { alpha: Number.NaN, useQueryRelevance: true };
    return this.results(ctx, order.subarray(0, Math.min(topK, order.length)), f.alpha, f.useQueryRelevance, opts.reinforce ?? true);
  }

  private results(ctx: RankingContext, top: Int32Array, alpha: number, useQR: boolean, reinforce: boolean): RetrievalResult[] {
    const sim = ctx.similarity();
    const sal = ctx.salience(useQR);
    const cols = ctx.columns;
    const out: RetrievalResult[] = [];
    for (const i of top) {
      const m = this.mems[i]!;
      const decayAge = Math.max(0, (ctx.nowMs - cols.decayFromMs[i]!) / DAY_MS);
      out.push({
        memory: m,
        index: i,
        similarity: sim[i]!,
        salience: sal[i]!,
        retention: strength(sal[i]!, decayAge, this.gamma, this.lambda),
        fused: alpha * sim[i]! + (1 - alpha) * sal[i]!,
        shortTerm: (ctx.nowMs - m.createdAtMs) / DAY_MS <= SHORT_TERM_WINDOW_DAYS,
      });
    }
    if (reinforce) for (const r of out) r.memory.recall(ctx.nowMs);
    return out;
  }

  /** Short-term memories (age ≤ window days) at `now`, newest first. */
  recent(now: TimeInput, windowDays: number = SHORT_TERM_WINDOW_DAYS): Memory[] {
    const t = toEpochMs(now, "now");
    requireFinite(windowDays, "window");
    return this.mems
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => Math.max(0, (t - m.createdAtMs) / DAY_MS) <= windowDays)
      .sort((a, b) => b.m.createdAtMs - a.m.createdAtMs || a.i - b.i)
      .map(({ m }) => m);
  }

  /** The store as JSON: parameters, memories and embeddings (lossless). */
  toJSON(): object {
    return {
      format: FORMAT,
      version: FORMAT_VERSION,
      embedder: { id: this.embedder.id, dim: this.embedder.dim },
      alpha: this.alpha,
      weights: { ...this.weights },
      gamma: this.gamma,
      lambda: this.lambda,
      memories: this.mems.map((m, i) => ({ ...m.toJSON(), embedding: Array.from(this.embeddingAt(i)) })),
    };
  }

  /**
   * Save atomically (temp file + rename): a failed save never clobbers the previous file. The store
   * is serialised when save() is called, and saves to one path complete in call order within a
   * process, so the last call's snapshot is what stays on disk. Across processes each save is still
   * atomic, but whichever process renames last wins. A refused write (a folder or a file in the way,
   * no permission) is a WriteError naming the path and the fix.
   */
  save(path: string): Promise<void> {
    const data = JSON.stringify(this.toJSON());
    const key = resolve(path);
    const previous = pendingSaves.get(key) ?? Promise.resolve();
    const write = () => writeFileAtomicExplained(path, data);
    const done = previous.then(write, write); // after the previous save to this path, whether it succeeded or not
    pendingSaves.set(key, done);
    const forget = () => {
      if (pendingSaves.get(key) === done) pendingSaves.delete(key);
    };
    done.then(forget, forget);
    return done;
  }

  /** Rebuild a store from `toJSON()` output; errors name the bad path. */
  static fromJSON(data: unknown, opts: { embedder?: Embedder; source?: string } = {}): MemoryStore {
    const src = opts.source ?? "store";
    if (data === null || typeof data !== "object" || Array.isArray(data)) throw new TypeError(`${src}: expected a JSON object`);
    const o = data as Record<string, unknown>;
    if (o.format !== FORMAT)
      throw new TypeError(`${src}: not a Persode memory store (format is ${describe(o.format)}, expected "${FORMAT}")`);
    if (o.version !== FORMAT_VERSION)
      throw new TypeError(`${src}: unsupported store version ${describe(o.version)} (this library reads version ${FORMAT_VERSION})`);
    const saved = o.embedder as { id?: unknown; dim?: unknown } | undefined;
    // A size read from a file is bounded before anything is allocated for it.
    if (
      saved?.dim !== undefined &&
      !(Number.isInteger(saved.dim) && (saved.dim as number) >= 1 && (saved.dim as number) <= MAX_STORE_DIM)
    ) {
      throw new RangeError(
        `${src}: embedder.dim: expected an integer in 1 … ${MAX_STORE_DIM}, got ${describe(saved.dim)}; the file is corrupt or not a store this library wrote`,
      );
    }
    const embedder = opts.embedder ?? new HashingEmbedder((saved?.dim as number | undefined) ?? 256);
    if (saved?.id !== embedder.id) {
      throw new Error(`${src}: saved with embedder "${String(saved?.id)}" but loading with "${embedder.id}"; pass the matching embedder`);
    }
    // The saved parameters are required: a missing one must not silently become a default.
    for (const k of ["alpha", "gamma", "lambda"]) {
      if (typeof o[k] !== "number" || !Number.isFinite(o[k]))
        throw new TypeError(`${src}: ${k}: expected a finite number, got ${describe(o[k])}`);
    }
    if (o.weights === null || typeof o.weights !== "object")
      throw new TypeError(`${src}: weights: expected an object {emotion, recall, context}, got ${describe(o.weights)}`);
    let store: MemoryStore;
    try {
      store = new MemoryStore({
        embedder,
        alpha: o.alpha as number,
        weights: o.weights as ScoringWeights,
        gamma: o.gamma as number,
        lambda: o.lambda as number,
      });
    } catch (e) {
      throw new RangeError(`${src}: invalid store parameters: ${(e as Error).message}`);
    }
    if (!Array.isArray(o.memories)) throw new TypeError(`${src}: memories must be an array`);
    o.memories.forEach((mj: unknown, i: number) => {
      const where = `${src}: memories[${i}]`;
      const m = Memory.fromJSON(mj, where);
      const emb = (mj as { embedding?: unknown }).embedding;
      if (!Array.isArray(emb) || emb.length !== embedder.dim || emb.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
        throw new TypeError(`${where}.embedding: expected ${embedder.dim} finite numbers`);
      }
      if (store.ids.has(m.id)) throw new Error(`${where}.id: duplicate memory id "${m.id}"`);
      store.addEmbedded(
        {
          id: m.id,
          text: m.text,
          event: m.event,
          emotion: m.emotion,
          hashtags: [...m.hashtags],
          emotionalIntensity: m.emotionalIntensity,
          contextualRelevance: m.contextualRelevance,
          recallCount: m.recallCount,
          createdAt: m.createdAtMs,
          lastRecalled: m.lastRecalledMs,
        },
        emb as number[],
      );
    });
    return store;
  }

  /** Load a saved store; a corrupt file gives an error naming the file and what is wrong. */
  static async load(path: string, opts: { embedder?: Embedder } = {}): Promise<MemoryStore> {
    const bytes = (await stat(path)).size;
    if (bytes > MAX_STORE_FILE_BYTES) {
      throw new RangeError(
        `${path}: ${bytes} bytes, more than the ${MAX_STORE_FILE_BYTES} bytes a store file can have (the longest string JavaScript can hold); it is not a store this library wrote`,
      );
    }
    const text = await readFile(path, "utf8");
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new SyntaxError(
        `${path}: not valid JSON (${(e as Error).message}); the file may be truncated or corrupt — restore it from a backup or delete it`,
      );
    }
    return MemoryStore.fromJSON(data, { ...opts, source: path });
  }

  private ensureCapacity(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(16, this.capacity * 2, n);
    const dim = this.embedder.dim;
    const grow = (a: Float64Array, size: number) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.vectors = grow(this.vectors, cap * dim);
    this.norms = grow(this.norms, cap);
    this.E = grow(this.E, cap);
    this.C = grow(this.C, cap);
    this.created = grow(this.created, cap);
    this.capacity = cap;
  }
}

function validateAlpha(alpha: number): number {
  requireFinite(alpha, "α");
  if (alpha < 0 || alpha > 1) throw new RangeError(`α must be in [0, 1], got ${alpha}`);
  return alpha;
}

/** topK must be a non-negative integer: a negative or fractional one would silently slice the wrong number of results. */
function validateTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 0) throw new RangeError(`retrieve: topK must be a non-negative integer, got ${describe(topK)}`);
  return topK;
}

// Strategies from plugins run in the same process: no one may swap the methods the benchmarks build stores with.
Object.freeze(MemoryStore.prototype);
