import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "@persode/core";

/** Package identity recorded in every results file. */
export const PACKAGE = { name: "@persode/benchmarks", version: "0.1.0" } as const;

/** The default seed of the harness's own bootstrap CIs (the EpiRec evaluator's seed). */
export const DEFAULT_SEED = 20260713;

/** Resamples of the harness's own bootstrap CIs. */
export const DEFAULT_SAMPLES = 2000;

/** Write a results file atomically (temp file + rename): never a partial file. */
export const writeAtomic = writeFileAtomic;

/** Serialize a results object: two-space indent, trailing newline (byte-stable). */
export function formatJson(obj: unknown): string {
  return JSON.stringify(obj, null, 2) + "\n";
}

/** Read a previous results file if it exists and parses (for merging runs of other embedders). */
export async function readPrevious(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const j = JSON.parse(text) as unknown;
    return j && typeof j === "object" && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
  } catch {
    throw new Error(`${path}: the existing results file is not valid JSON; delete it or choose another --out folder`);
  }
}

/**
 * Merge one embedder's run into `runs` of a previous file: the other embedders' runs are kept,
 * "hashing" first and the rest alphabetically, so the file is the same whatever order runs happen in.
 */
export function mergeRuns(previous: Record<string, unknown> | undefined, embedder: string, run: unknown): Record<string, unknown> {
  const runs: Record<string, unknown> = { ...((previous?.runs as Record<string, unknown>) ?? {}) };
  runs[embedder] = run;
  const keys = Object.keys(runs).sort((a, b) => (a === "hashing" ? -1 : b === "hashing" ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, runs[k]]));
}

/**
 * The previous results file if a new run may be merged into it: same data (benchmark.data_sha256)
 * and same bootstrap seed and samples, since the file's one `bootstrap` block describes every run's
 * CIs. Otherwise undefined: the new run replaces the file's runs.
 */
export function mergeablePrevious(
  previous: Record<string, unknown> | undefined,
  dataSha256: string,
  bootstrap: { seed: number; samples: number },
): Record<string, unknown> | undefined {
  const b = previous?.bootstrap as { seed?: unknown; samples?: unknown } | undefined;
  const sameData = (previous?.benchmark as { data_sha256?: unknown } | undefined)?.data_sha256 === dataSha256;
  return sameData && b?.seed === bootstrap.seed && b?.samples === bootstrap.samples ? previous : undefined;
}

/** The `meta` block closing every results file: package, version, seed, embedders, command, input data hash. */
export function meta(seed: number, embedders: string[], target: string, dataSha256: string): Record<string, unknown> {
  return { package: PACKAGE.name, version: PACKAGE.version, seed, embedders, generated_by: `pnpm bench ${target}`, data_sha256: dataSha256 };
}

/**
 * Builds a rankings JSONL file as bytes: one line per query, each ending in a full ranking written
 * as a JSON array with Python's `json.dumps` spacing (", "), so files diff cleanly against the
 * reference's. Ids are encoded once (`encodeIds`) and copied byte by byte, so writing millions of
 * ranked ids makes no strings at all.
 */
export class RankingsWriter {
  private buf = new Uint8Array(1 << 20);
  private len = 0;
  /** The last ranking written and where its array bytes sit, so a repeated (query-independent) ranking is one memmove. */
  private last?: { order: Int32Array; ids: EncodedIds; from: number; to: number };

  /** The ids of one store as JSON strings (`"D1:3"`), encoded once into one byte pool for `line()`. */
  static encodeIds(ids: readonly string[]): EncodedIds {
    const encoded = ids.map((id) => Buffer.from(JSON.stringify(id), "utf8"));
    const pool = Buffer.concat(encoded);
    const start = new Int32Array(ids.length + 1);
    encoded.forEach((b, i) => (start[i + 1] = start[i]! + b.length));
    return { pool, start };
  }

  /** Append `prefix` + the ranking as a JSON array + `suffix` + "\n". */
  line(prefix: string, order: Int32Array, ids: EncodedIds, suffix = "}"): void {
    this.text(prefix);
    const last = this.last;
    if (last && last.order === order && last.ids === ids) {
      const n = last.to - last.from;
      this.ensure(n);
      this.buf.copyWithin(this.len, last.from, last.to);
      this.last = { order, ids, from: this.len, to: this.len + n };
      this.len += n;
      this.text(suffix + "\n");
      return;
    }
    const { pool, start } = ids;
    let size = 2 + Math.max(0, order.length - 1) * 2;
    for (let r = 0; r < order.length; r++) size += start[order[r]! + 1]! - start[order[r]!]!;
    this.ensure(size);
    const buf = this.buf;
    let len = this.len;
    buf[len++] = 0x5b; // [
    for (let r = 0; r < order.length; r++) {
      if (r > 0) {
        buf[len++] = 0x2c; // ,
        buf[len++] = 0x20;
      }
      const i = order[r]!;
      for (let k = start[i]!, end = start[i + 1]!; k < end; k++) buf[len++] = pool[k]!;
    }
    buf[len++] = 0x5d; // ]
    this.last = { order, ids, from: this.len, to: len };
    this.len = len;
    this.text(suffix + "\n");
  }

  /** The file's bytes so far. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  private text(s: string): void {
    this.ensure(s.length * 3);
    this.len += Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.length).write(s, this.len, "utf8");
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

/** A store's ids as JSON-string bytes: id i is pool[start[i] .. start[i + 1]). */
export interface EncodedIds {
  pool: Uint8Array;
  start: Int32Array;
}

/** The identity of the vector space a run used (name, exact model id, dimension), recorded with every run. */
export function describeEmbedder(e: { name: string; id: string; dim: number }): { name: string; id: string; dim: number } {
  return { name: e.name, id: e.id, dim: e.dim };
}
