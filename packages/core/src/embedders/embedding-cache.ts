import { createHash, hash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { writeFileAtomic } from "@persode/util";
import type { EmbedRole, Embedder, EmbedderModel } from "./embedder.js";

/**
 * Persistent embedding cache: text -> vector for one exact embedder (its `id`), so re-runs embed
 * nothing twice (issue 6). Layout: `<root>/<id slug>-<id hash>/` holding append-only segment files
 * `*.seg`. Each process appends only to its own segment, so concurrent runs never interleave bytes;
 * every record carries a CRC32, so a truncated or damaged record is dropped and recomputed, never
 * trusted. Vectors are stored as float64, bit-identical to what the embedder returned.
 *
 * Segment format (little-endian): magic "PERSODE-EMB\0", u32 version, u32 dim, u32 id byte length,
 * id (UTF-8), u32 CRC32 of the header so far; then fixed-size records:
 * sha256(text) (32 bytes), dim × f64, u32 CRC32 of key + vector.
 */

const MAGIC = Buffer.from("PERSODE-EMB\0", "latin1");
const VERSION = 1;
const KEY_BYTES = 32;
/** Segments at open above which they are merged into one. */
const COMPACT_AT = 16;
/** Segments modified more recently than this may belong to a live writer and are never merged away. */
const COMPACT_MIN_AGE_MS = 10 * 60 * 1000;

/** Counters describing what the cache did (for logs and tests). */
export interface EmbeddingCacheStats {
  /** Valid entries loaded from disk at open. */
  loaded: number;
  /** Lookups answered from the cache. */
  hits: number;
  /** Lookups that had to be computed. */
  misses: number;
  /** Damaged or truncated records (and unreadable segments) skipped at open. */
  corrupt: number;
  /** Entries appended to this process's segment. */
  written: number;
}

/** The cache key of one text: SHA-256 of its UTF-8 bytes. */
export function textKey(text: string): Buffer {
  return hash("sha256", text, "buffer");
}

/** textKey(text) as hex, the in-memory map's key (one-shot sha256 of the UTF-8 bytes, straight to hex). */
function textKeyHex(text: string): string {
  return hash("sha256", text, "hex");
}

/**
 * The cache folder name of an embedder id: a readable slug plus a hash of the full id.
 * @internal exported for tests only: test/embedding-cache.test.ts checks the folder naming directly.
 */
export function cacheFolderName(embedderId: string): string {
  const slug = embedderId.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
  const h = createHash("sha256").update(embedderId, "utf8").digest("hex").slice(0, 16);
  return `${slug}-${h}`;
}

function segmentHeader(embedderId: string, dim: number): Buffer {
  const id = Buffer.from(embedderId, "utf8");
  const head = Buffer.alloc(MAGIC.length + 12 + id.length + 4);
  MAGIC.copy(head, 0);
  let o = MAGIC.length;
  head.writeUInt32LE(VERSION, o);
  head.writeUInt32LE(dim, o + 4);
  head.writeUInt32LE(id.length, o + 8);
  o += 12;
  id.copy(head, o);
  o += id.length;
  head.writeUInt32LE(crc32(head.subarray(0, o)), o);
  return head;
}

/** A fresh, unique segment file name; names sort by creation time. */
function newSegmentName(): string {
  return `${Date.now()}-${process.pid}-${randomBytes(4).toString("hex")}.seg`;
}

function recordSize(dim: number): number {
  return KEY_BYTES + 8 * dim + 4;
}

function encodeRecord(key: Buffer, vec: Float64Array, out: Buffer, at: number): void {
  key.copy(out, at);
  let o = at + KEY_BYTES;
  for (let i = 0; i < vec.length; i++, o += 8) out.writeDoubleLE(vec[i]!, o);
  out.writeUInt32LE(crc32(out.subarray(at, o)), o);
}

/** Result of parsing one segment: its valid entries and how many records were bad. */
interface ParsedSegment {
  entries: [string, Float64Array][];
  corrupt: number;
}

/** Parse a segment buffer; a wrong header makes the whole segment unusable (counted as one corrupt unit). */
function parseSegment(buf: Buffer, embedderId: string, dim: number): ParsedSegment {
  const header = segmentHeader(embedderId, dim);
  if (buf.length < header.length || !buf.subarray(0, header.length).equals(header)) {
    return { entries: [], corrupt: 1 };
  }
  const size = recordSize(dim);
  const entries: [string, Float64Array][] = [];
  let corrupt = 0;
  let o = header.length;
  for (; o + size <= buf.length; o += size) {
    const body = buf.subarray(o, o + size - 4);
    if (crc32(body) !== buf.readUInt32LE(o + size - 4)) {
      corrupt++;
      continue;
    }
    const vec = new Float64Array(dim);
    let finite = true;
    for (let i = 0, p = o + KEY_BYTES; i < dim; i++, p += 8) {
      const x = buf.readDoubleLE(p);
      if (!Number.isFinite(x)) finite = false;
      vec[i] = x;
    }
    if (!finite) {
      corrupt++;
      continue;
    }
    entries.push([buf.toString("hex", o, o + KEY_BYTES), vec]);
  }
  if (o < buf.length) corrupt++; // truncated tail (a write cut short)
  return { entries, corrupt };
}

/** The on-disk cache of one embedder's vectors; open with `EmbeddingCache.open`. */
export class EmbeddingCache {
  readonly dir: string;
  readonly embedderId: string;
  readonly dim: number;
  readonly stats: EmbeddingCacheStats = { loaded: 0, hits: 0, misses: 0, corrupt: 0, written: 0 };
  private readonly map = new Map<string, Float64Array>();
  private segmentName: string | null = null;
  private writeChain: Promise<void> = Promise.resolve();

  private constructor(dir: string, embedderId: string, dim: number) {
    this.dir = dir;
    this.embedderId = embedderId;
    this.dim = dim;
  }

  /** Open (creating if needed) the cache of `embedderId` under `root`, loading every valid entry. */
  static async open(root: string, embedderId: string, dim: number): Promise<EmbeddingCache> {
    const cache = await EmbeddingCache.openLazily(root, embedderId, dim);
    await cache.ready();
    return cache;
  }

  /**
   * Open (creating if needed) the cache of `embedderId` under `root`; its entries are loaded on first use (`ready()`,
   * which every lookup through CachedEmbedder awaits), so a run that embeds nothing never reads them.
   */
  static async openLazily(root: string, embedderId: string, dim: number): Promise<EmbeddingCache> {
    if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`EmbeddingCache: dim must be a positive integer, got ${dim}`);
    if (!embedderId) throw new Error("EmbeddingCache: embedderId must be a non-empty string");
    const cache = new EmbeddingCache(join(root, cacheFolderName(embedderId)), embedderId, dim);
    try {
      await mkdir(cache.dir, { recursive: true });
    } catch (e) {
      throw new Error(`embedding cache: cannot create ${cache.dir} (${(e as Error).message}); set PERSODE_DATA_DIR to a writable folder`);
    }
    return cache;
  }

  private loading?: Promise<void>;
  private loaded = false;

  /** Load every valid entry, once (a load that fails is tried again by the next call). */
  async ready(): Promise<void> {
    this.loading ??= this.load().catch((e: unknown) => {
      this.loading = undefined;
      throw e;
    });
    await this.loading;
  }

  /**
   * The state of the stored vectors: every segment's name, inode, size and times, after pending writes. Any change to
   * what a lookup can return (a record appended, a segment merged, replaced or removed) changes it.
   */
  async identity(): Promise<string> {
    await this.writeChain;
    const names = await this.segmentNames();
    const parts: string[] = [];
    for (const n of names) {
      try {
        const st = await stat(join(this.dir, n));
        parts.push(`${n}:${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
      } catch {
        parts.push(`${n}:gone`);
      }
    }
    return parts.join("\n");
  }

  private async segmentNames(): Promise<string[]> {
    return (await readdir(this.dir)).filter((n) => n.endsWith(".seg")).sort();
  }

  private async load(): Promise<void> {
    const names = await this.segmentNames();
    const loadedNames: string[] = [];
    for (const name of names) {
      let buf: Buffer;
      try {
        buf = await readFile(join(this.dir, name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") continue; // merged away by a concurrent compaction
        throw e;
      }
      const seg = parseSegment(buf, this.embedderId, this.dim);
      this.stats.corrupt += seg.corrupt;
      for (const [k, v] of seg.entries) this.map.set(k, v);
      loadedNames.push(name);
    }
    this.stats.loaded = this.map.size;
    this.loaded = true;
    if (loadedNames.length > COMPACT_AT) await this.compact(loadedNames);
  }

  /** Merge old segments into one (temp file + rename), then delete the merged ones. */
  private async compact(names: string[]): Promise<void> {
    const now = Date.now();
    const old: string[] = [];
    for (const n of names) {
      try {
        if (now - (await stat(join(this.dir, n))).mtimeMs >= COMPACT_MIN_AGE_MS) old.push(n);
      } catch {
        // already gone
      }
    }
    if (old.length < 2) return;
    const header = segmentHeader(this.embedderId, this.dim);
    const size = recordSize(this.dim);
    const out = Buffer.alloc(header.length + size * this.map.size);
    header.copy(out, 0);
    let o = header.length;
    for (const [k, v] of [...this.map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      encodeRecord(Buffer.from(k, "hex"), v, out, o);
      o += size;
    }
    // The temporary name does not end in ".seg", so a concurrent open never reads a half-written merge.
    await writeFileAtomic(join(this.dir, newSegmentName()), out);
    for (const n of old) await unlink(join(this.dir, n)).catch(() => undefined);
  }

  /** Number of entries in memory. */
  get size(): number {
    return this.map.size;
  }

  /** The cached vector of `text` (a fresh copy), or undefined. Counts a hit or a miss. */
  get(text: string): Float64Array | undefined {
    if (!this.loaded) throw new Error("EmbeddingCache: entries not loaded yet; await ready() first");
    const v = this.map.get(textKeyHex(text));
    if (v) {
      this.stats.hits++;
      return v.slice();
    }
    this.stats.misses++;
    return undefined;
  }

  /** Store vectors (in memory and appended to this process's segment); resolves once written. */
  async putMany(entries: readonly (readonly [string, Float64Array])[]): Promise<void> {
    await this.ready();
    const fresh: [Buffer, Float64Array][] = [];
    const seen = new Set<string>();
    // Validate everything first, so a bad entry leaves the cache exactly as it was.
    for (const [text, vec] of entries) {
      if (typeof text !== "string") throw new TypeError(`EmbeddingCache: texts must be strings, got ${typeof text}`);
      if (vec.length !== this.dim) throw new RangeError(`EmbeddingCache: vector of dim ${vec.length} for a cache of dim ${this.dim}`);
      for (let i = 0; i < vec.length; i++) {
        if (!Number.isFinite(vec[i]!))
          throw new RangeError(`EmbeddingCache: non-finite value at index ${i} for text ${JSON.stringify(text.slice(0, 40))}`);
      }
    }
    for (const [text, vec] of entries) {
      const key = textKey(text);
      const hex = key.toString("hex");
      if (seen.has(hex)) continue;
      seen.add(hex);
      this.map.set(hex, vec.slice());
      fresh.push([key, vec]);
    }
    if (fresh.length === 0) return;
    const size = recordSize(this.dim);
    const buf = Buffer.alloc(size * fresh.length);
    fresh.forEach(([k, v], i) => encodeRecord(k, v, buf, i * size));
    const job = this.writeChain.then(() => this.append(buf).then(() => void (this.stats.written += fresh.length)));
    this.writeChain = job.catch(() => undefined);
    await job;
  }

  /**
   * Append records to this process's segment, opened per write (no descriptor is held between
   * calls); a new or emptied segment gets its header first.
   */
  private async append(records: Buffer): Promise<void> {
    const header = segmentHeader(this.embedderId, this.dim);
    this.segmentName ??= newSegmentName();
    let fh = await open(join(this.dir, this.segmentName), "a");
    try {
      let size = (await fh.stat()).size;
      if (size !== 0 && (size < header.length || (size - header.length) % recordSize(this.dim) !== 0)) {
        // A torn earlier write left a partial record; appending after it would misalign, and so lose,
        // every later record. Continue in a fresh segment instead (the torn tail is dropped at open).
        await fh.close();
        this.segmentName = newSegmentName();
        fh = await open(join(this.dir, this.segmentName), "a");
        size = 0;
      }
      const buf = size === 0 ? Buffer.concat([header, records]) : records;
      let off = 0;
      while (off < buf.length) off += (await fh.write(buf, off, buf.length - off)).bytesWritten;
    } finally {
      await fh.close();
    }
  }

  /** Wait for pending writes (nothing stays open between writes). */
  async close(): Promise<void> {
    await this.writeChain;
  }
}

/**
 * An embedder that answers from an `EmbeddingCache` and computes (in one batch) only the texts it
 * has not seen, storing them; name, id, dim and prefixes are the wrapped embedder's. The cache keys on
 * (embedder id — the weights' fingerprint — and the exact model input: the role's prefix + the text), so a
 * query and a document share an entry only when the model sees the same input (always, for a model without
 * prefixes such as all-MiniLM-L6-v2, whose keys are the text's as before roles existed).
 */
export class CachedEmbedder implements Embedder {
  readonly name: string;
  readonly id: string;
  readonly dim: number;
  readonly model?: EmbedderModel;
  readonly prefixes?: Readonly<Record<EmbedRole, string>>;

  constructor(
    readonly inner: Embedder,
    readonly cache: EmbeddingCache,
  ) {
    if (cache.embedderId !== inner.id || cache.dim !== inner.dim) {
      throw new Error(
        `CachedEmbedder: cache is for "${cache.embedderId}" (dim ${cache.dim}) but the embedder is "${inner.id}" (dim ${inner.dim})`,
      );
    }
    this.name = inner.name;
    this.id = inner.id;
    this.dim = inner.dim;
    if (inner.model) this.model = inner.model;
    if (inner.prefixes) this.prefixes = inner.prefixes;
  }

  async embed(text: string, role: EmbedRole = "document"): Promise<Float64Array> {
    return (await this.embedBatch([text], role))[0]!;
  }

  async embedBatch(texts: readonly string[], role: EmbedRole = "document"): Promise<Float64Array[]> {
    if (role !== "query" && role !== "document")
      throw new RangeError(`CachedEmbedder: role must be "query" or "document", got ${String(role)}`);
    const prefix = this.prefixes?.[role] ?? "";
    await this.cache.ready();
    const out: (Float64Array | undefined)[] = texts.map((t) => {
      if (typeof t !== "string") throw new TypeError(`CachedEmbedder: texts must be strings, got ${typeof t}`);
      return this.cache.get(prefix + t);
    });
    const missing: string[] = [];
    const seen = new Set<string>();
    texts.forEach((t, i) => {
      if (out[i] === undefined && !seen.has(t)) {
        seen.add(t);
        missing.push(t);
      }
    });
    if (missing.length > 0) {
      const vecs = await this.inner.embedBatch(missing, role);
      if (!Array.isArray(vecs) || vecs.length !== missing.length) {
        throw new Error(
          `CachedEmbedder: embedder "${this.inner.id}" returned ${Array.isArray(vecs) ? vecs.length : typeof vecs} vectors for ${missing.length} texts; nothing was cached`,
        );
      }
      const byText = new Map<string, Float64Array>();
      missing.forEach((t, i) => byText.set(t, vecs[i]!));
      await this.cache.putMany(missing.map((t, i) => [prefix + t, vecs[i]!] as const));
      texts.forEach((t, i) => {
        if (out[i] === undefined) out[i] = byText.get(t)!.slice();
      });
    }
    return out as Float64Array[];
  }

  /** Flush the cache and release the wrapped embedder. */
  async dispose(): Promise<void> {
    await this.cache.close();
    await this.inner.dispose?.();
  }
}
