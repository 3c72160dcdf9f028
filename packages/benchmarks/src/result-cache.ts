/**
 * The result cache of `pnpm bench` (issue 19): one experiment's run for one embedder is replayed instead of recomputed
 * when nothing it depends on changed — the code that computes it (the built packages, the lockfile and patches, Node),
 * the command line and PERSODE_* settings, the embedder's identity and its vector for every text the run embedded, and
 * every file of the results folder the run read. The files the run wrote are kept by sha256 and checked before they are
 * written back, so a damaged entry is recomputed (with a note), never replayed. `--no-cache` or PERSODE_RESULT_CACHE=0
 * recomputes everything; a run with --plugin, or from outside the workspace, is never cached.
 *
 * Layout under `<persodeCacheDir()>/result-cache/v1/`: `entries/<key>/<variant>.json` (what the run read, embedded and
 * wrote, and its report; one variant per state of the files it read, e.g. a fresh --out folder and a full one) and
 * `blobs/<sha256>` (file contents, shared by every entry that wrote the same bytes).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmbedRole, Embedder } from "@persode/core";
import { parseEnvFlag, persodeCacheDir, writeFileAtomic } from "@persode/util";
import type { RankingsDepth } from "./defaults.js";
import type { ExperimentContext, ExperimentReport } from "./experiments/experiment.js";
import { callerPath } from "./options.js";
import type { BenchValues } from "./usage.js";
import { observeReads, type FileRead } from "./read-log.js";

/** The entry format; a different one is a miss. */
const FORMAT = 1;
/** Entries kept, the most recently used first; blobs no kept entry names go with the rest. */
const KEEP_ENTRIES = 128;
/** The workspace packages whose code computes results (report only renders them). */
const COMPUTING_PACKAGES = ["benchmarks", "core", "datasets", "results", "util"] as const;
/** PERSODE_* variables that steer how a run is carried out, never what it computes (every other one is part of the key). */
const RUN_CONTROL_ENV = new Set([
  "PERSODE_RESULT_CACHE",
  "PERSODE_SUPERVISED",
  "PERSODE_THREADS",
  "PERSODE_PROGRESS",
  "PERSODE_DEBUG",
  "PERSODE_INTERRUPT_FILE",
  "PERSODE_DATA_DIR",
  // where bench:perf's thread-CPU probe reports (perf-phases.ts timeProcess): a new file for every timed process
  "PERSODE_THREAD_CPU_OUT",
]);
const ROLES: readonly EmbedRole[] = ["document", "query"];
/**
 * A blob's identity is trusted in place of its sha256 only when it last changed this long before it was hashed: a write
 * within the file system's timestamp granularity could otherwise leave the identity as it was.
 */
const VERIFIED_MIN_AGE_MS = 2000;

/** What identifies one experiment's run besides code and environment: everything `pnpm bench` passes it. */
export interface RunIdentity {
  experiment: string;
  runKey: string;
  target: string;
  paperFormat: boolean;
  seed: number;
  samples: number;
  rankingsDepth: RankingsDepth;
  /** The command line's options that reach the run (not --out or --no-cache). */
  options: Record<string, unknown>;
}

/** A file the run read from the results folder: its sha256 (null: absent), or only whether it existed. */
type ReadEntry = { file: string; sha256: string | null } | { file: string; exists: boolean };

interface Entry {
  format: number;
  key: string;
  run: RunIdentity;
  reads: ReadEntry[];
  /**
   * Neural embedders: the blob listing the texts embedded per role, the sha256 over every (role, text, vector), and the
   * state of the embedding cache (EmbeddingCache.identity) when those vectors were last seen in it.
   */
  embeddings?: { texts: string; sha256: string; store?: string };
  /**
   * Every file the run wrote: its blob's sha256 and size, and the blob's identity (inode, size, modification time) once
   * it was checked and had not changed for VERIFIED_MIN_AGE_MS, so later replays need not hash it again.
   */
  writes: { file: string; sha256: string; bytes: number; verified?: string }[];
  removed: string[];
  report: ExperimentReport;
}

/**
 * The RunIdentity of one experiment's run: what the runner passes it, and every command-line option that reaches it
 * (not --out or --no-cache); a --data file also by its identity, so one replaced or edited is a different input.
 */
export function runIdentity(
  experiment: string,
  ctx: Pick<ExperimentContext, "runKey" | "target" | "paperFormat">,
  run: { values: BenchValues; seed: number; samples: number; rankingsDepth: RankingsDepth },
): RunIdentity {
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(run.values)) if (v !== undefined && k !== "out" && k !== "no-cache") options[k] = v;
  if (typeof run.values.data === "string") {
    const path = callerPath(run.values.data);
    options.data = { path, file: identity(path, true) ?? null };
  }
  return {
    experiment,
    runKey: ctx.runKey,
    target: ctx.target,
    paperFormat: ctx.paperFormat,
    seed: run.seed,
    samples: run.samples,
    rankingsDepth: run.rankingsDepth,
    options,
  };
}

/** Whether `pnpm bench` caches results: on unless --no-cache or PERSODE_RESULT_CACHE=0 (checked up front, with the other flags). */
export function resultCacheEnabled(noCache: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noCache) return false;
  return env.PERSODE_RESULT_CACHE === undefined || parseEnvFlag("PERSODE_RESULT_CACHE", env.PERSODE_RESULT_CACHE);
}

/**
 * The sha256 of the code that computes results: every file of the computing packages' dist/ and package.json, the
 * lockfile, the patches, and the Node version and platform. Undefined outside a built pnpm workspace (then nothing is cached).
 */
function codeFingerprint(): string | undefined {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  if (!existsSync(join(root, "pnpm-workspace.yaml")) || !existsSync(join(root, "pnpm-lock.yaml"))) return undefined;
  const h = createHash("sha256");
  const add = (rel: string) =>
    h
      .update(`${rel}\0`)
      .update(readFileSync(join(root, rel)))
      .update("\0");
  add("pnpm-lock.yaml");
  for (const p of COMPUTING_PACKAGES) {
    const dist = join("packages", p, "dist");
    if (!existsSync(join(root, dist))) return undefined;
    add(join("packages", p, "package.json"));
    for (const f of filesUnder(root, dist)) add(f);
  }
  if (existsSync(join(root, "patches"))) for (const f of filesUnder(root, "patches")) add(f);
  h.update(`node ${process.version} ${process.platform} ${process.arch}`);
  return h.digest("hex");
}

/** Every file under `rel` (relative to `root`), sorted. */
function filesUnder(root: string, rel: string): string[] {
  const out: string[] = [];
  const walk = (r: string) => {
    const entries = readdirSync(join(root, r), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const c = join(r, e.name);
      if (e.isDirectory()) walk(c);
      else if (e.isFile()) out.push(c);
    }
  };
  walk(rel);
  return out;
}

/** JSON with object keys sorted, so equal values hash equal. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * A file's identity: it changes whenever the file is replaced or written (rename, in-place write). `follow`: of the file
 * a symlink names (a --data file), not of the link.
 */
function identity(path: string, follow = false): string | undefined {
  try {
    const s = follow ? statSync(path) : lstatSync(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return undefined;
  }
}

/** The identity of every file under `dir`, by path relative to it. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel === "" ? e.name : join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else out.set(r, identity(join(dir, r))!);
    }
  };
  walk("");
  return out;
}

/** A blob's identity for `writes[].verified` (not its change time: linking a blob into a results folder changes that), and when it last changed. */
function blobIdentity(path: string): { key: string; changedMs: number } | undefined {
  try {
    const s = lstatSync(path, { bigint: true });
    return { key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`, changedMs: Number(s.mtimeNs) / 1e6 };
  } catch {
    return undefined;
  }
}

/** Put the blob's bytes at `target`: a hard link (a copy across file systems) beside it, renamed over it. */
async function placeBlob(blob: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    try {
      await link(blob, tmp);
    } catch {
      await copyFile(blob, tmp);
    }
    await rename(tmp, target);
    // rename() does nothing when both names are links to one file (the target already is this blob): drop the extra name.
    await rm(tmp, { force: true });
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** The sha256 of a vector's bytes. */
function vectorSha256(v: Float64Array): string {
  return sha256(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
}

/** One (role, text, vector sha256) of the embeddings digest, as EmbeddingLog.summary() and embeddingDigest() both write it. */
function digestLine(role: EmbedRole, text: string, vector: string): string {
  return `${role}\0${text}\0${vector}\n`;
}

/** The vectors a neural embedder returned during a run, per role and text (first-seen order), by sha256 of their bytes. */
class EmbeddingLog {
  private readonly seen: Record<EmbedRole, Map<string, string>> = { document: new Map(), query: new Map() };
  /** Set when one text got two different vectors: such a run is not cached. */
  unstable = false;

  /** `e`, with every vector it returns logged (all else, including `instanceof`, is `e`'s). */
  wrap(e: Embedder): Embedder {
    const w = Object.create(e) as Embedder;
    const add = (role: EmbedRole, text: string, v: Float64Array) => {
      const h = vectorSha256(v);
      const m = this.seen[role];
      const before = m.get(text);
      if (before === undefined) m.set(text, h);
      else if (before !== h) this.unstable = true;
    };
    Object.defineProperties(w, {
      embed: {
        value: async (text: string, role: EmbedRole = "document") => {
          const v = await e.embed(text, role);
          add(role, text, v);
          return v;
        },
      },
      embedBatch: {
        value: async (texts: readonly string[], role: EmbedRole = "document") => {
          const vs = await e.embedBatch(texts, role);
          texts.forEach((t, i) => add(role, t, vs[i]!));
          return vs;
        },
      },
    });
    return w;
  }

  /** The texts per role (for the entry's blob) and the digest over every (role, text, vector). */
  summary(): { texts: Record<EmbedRole, string[]>; sha256: string } {
    const h = createHash("sha256");
    const texts = { document: [...this.seen.document.keys()], query: [...this.seen.query.keys()] };
    for (const role of ROLES) for (const [t, v] of this.seen[role]) h.update(digestLine(role, t, v));
    return { texts, sha256: h.digest("hex") };
  }
}

/** The digest EmbeddingLog.summary() gives for `texts`, from the vectors `e` returns for them now. */
async function embeddingDigest(e: Embedder, texts: Record<EmbedRole, string[]>): Promise<string> {
  const h = createHash("sha256");
  for (const role of ROLES) {
    const list = texts[role] ?? [];
    const vs = list.length > 0 ? await e.embedBatch(list, role) : [];
    list.forEach((t, i) => h.update(digestLine(role, t, vectorSha256(vs[i]!))));
  }
  return h.digest("hex");
}

/** The persistent embedding cache behind a cached neural embedder (CachedEmbedder's `cache`), if it has one. */
function embeddingStore(e: Embedder): { identity(): Promise<string> } | undefined {
  const c = (e as { cache?: { identity?: unknown } }).cache;
  return c && typeof c.identity === "function" ? (c as { identity(): Promise<string> }) : undefined;
}

/** Whether the embedder is the hashing one: an exact function of the text and the code, so its vectors need no check. */
function isHashing(e: Embedder): boolean {
  return e.name === "hashing" && e.model === undefined;
}

/** The result cache of one `pnpm bench` process. */
export class ResultCache {
  private recorded = 0;
  private readonly dir: string;

  private constructor(
    root: string,
    private readonly code: string,
    private readonly env: Record<string, string>,
  ) {
    this.dir = join(root, "result-cache", `v${FORMAT}`);
  }

  /** The cache, or undefined when results are not cached (disabled, a plugin loaded, not a built workspace). */
  static open(o: { enabled: boolean; plugins: boolean; env?: NodeJS.ProcessEnv }): ResultCache | undefined {
    if (!o.enabled || o.plugins) return undefined;
    const env = o.env ?? process.env;
    const code = codeFingerprint();
    if (code === undefined) return undefined;
    const settings: Record<string, string> = {};
    for (const k of Object.keys(env).sort()) if (k.startsWith("PERSODE_") && !RUN_CONTROL_ENV.has(k)) settings[k] = env[k]!;
    return new ResultCache(persodeCacheDir(env), code, settings);
  }

  /**
   * Run `compute` for one experiment and embedder into `ctx.out`, or replay its files from an entry with the same key
   * whose reads, embeddings and blobs all check out. Returns the report and whether it was replayed.
   */
  async run(
    label: string,
    ctx: ExperimentContext,
    run: RunIdentity,
    compute: (ctx: ExperimentContext) => Promise<ExperimentReport>,
  ): Promise<{ report: ExperimentReport; replayed: boolean }> {
    const embedder = await ctx.embedder();
    const key = sha256(
      stableJson({
        format: FORMAT,
        code: this.code,
        env: this.env,
        run,
        embedder: { name: embedder.name, id: embedder.id, dim: embedder.dim, model: embedder.model, prefixes: embedder.prefixes },
      }),
    );
    for (const variant of await this.variants(key)) {
      const replayed = await this.replay(label, key, variant, ctx.out, embedder);
      if (replayed) return { report: replayed, replayed: true };
    }
    const report = await this.record(key, run, ctx, embedder, compute);
    return { report, replayed: false };
  }

  private entryPath(key: string, variant: string): string {
    return join(this.dir, "entries", key, `${variant}.json`);
  }

  /** The variants stored for `key`, the most recently used first. */
  private async variants(key: string): Promise<string[]> {
    const dir = join(this.dir, "entries", key);
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith(".json"));
    } catch {
      return [];
    }
    const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
    return dated.map((d) => d.n.slice(0, -".json".length));
  }

  private blobPath(sha: string): string {
    return join(this.dir, "blobs", sha);
  }

  /** Replay one entry of `key` into `out` when everything it depends on checks out; the report, or undefined (then compute). */
  private async replay(
    label: string,
    key: string,
    variant: string,
    out: string,
    embedder: Embedder,
  ): Promise<ExperimentReport | undefined> {
    const path = this.entryPath(key, variant);
    let entry: Entry;
    try {
      entry = JSON.parse(await readFile(path, "utf8")) as Entry;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") this.damaged(key, `its entry cannot be read (${(e as Error).message})`);
      return undefined;
    }
    if (entry.format !== FORMAT || entry.key !== key) return undefined;
    // The files it read must be as they were (a different results folder, or one another run changed, is a plain miss).
    for (const r of entry.reads) {
      const file = join(out, r.file);
      if ("exists" in r) {
        if (existsSync(file) !== r.exists) return undefined;
        continue;
      }
      let now: string | null = null;
      try {
        now = sha256(Buffer.from(readFileSync(file, "utf8"), "utf8"));
      } catch {
        now = null;
      }
      if (now !== r.sha256) return undefined;
    }
    const blob = async (sha: string): Promise<Buffer | undefined> => {
      let b: Buffer;
      try {
        b = await readFile(this.blobPath(sha));
      } catch {
        this.damaged(key, `blob ${sha.slice(0, 12)} is missing`);
        return undefined;
      }
      if (sha256(b) !== sha) {
        this.damaged(key, `blob ${sha.slice(0, 12)} does not match its sha256`);
        return undefined;
      }
      return b;
    };
    if (entry.embeddings) {
      if (isHashing(embedder)) return undefined;
      const b = await blob(entry.embeddings.texts);
      if (b === undefined) return undefined;
      // The same vectors for every text the run embedded (an embedding cache recomputed on another CPU is a miss):
      // unchanged when the embedding cache's files are as they were when they were last checked, else checked one by one.
      const store = embeddingStore(embedder);
      if (store === undefined || entry.embeddings.store === undefined || (await store.identity()) !== entry.embeddings.store) {
        const texts = JSON.parse(b.toString("utf8")) as Record<EmbedRole, string[]>;
        if ((await embeddingDigest(embedder, texts)) !== entry.embeddings.sha256) return undefined;
        if (store !== undefined) {
          entry.embeddings.store = await store.identity();
          await writeFileAtomic(path, JSON.stringify(entry)).catch(() => undefined);
        }
      }
    } else if (!isHashing(embedder)) return undefined;
    // A blob whose identity is the one recorded after it was last hashed holds those bytes (a write in place changes
    // its modification time); any other is hashed now.
    let noted = false;
    for (const w of entry.writes) {
      const id = blobIdentity(this.blobPath(w.sha256));
      if (w.verified !== undefined && id?.key === w.verified) continue;
      if ((await blob(w.sha256)) === undefined) return undefined;
      // trusted from now on only if it had settled and did not change while it was hashed
      if (id !== undefined && Date.now() - id.changedMs >= VERIFIED_MIN_AGE_MS && blobIdentity(this.blobPath(w.sha256))?.key === id.key) {
        w.verified = id.key;
        noted = true;
      }
    }
    // Each file is linked to its blob (copied where links are not possible), then renamed into place: no bytes written.
    for (const w of entry.writes) await placeBlob(this.blobPath(w.sha256), join(out, w.file));
    for (const r of entry.removed) await rm(join(out, r), { force: true });
    if (noted) await writeFileAtomic(path, JSON.stringify(entry)).catch(() => undefined);
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    process.stderr.write(`${label}: replayed from the result cache (entry ${key.slice(0, 12)}); --no-cache recomputes\n`);
    return entry.report;
  }

  /** Compute, then store what the run read, embedded and wrote (a run that cannot be described is just not stored). */
  private async record(
    key: string,
    run: RunIdentity,
    ctx: ExperimentContext,
    embedder: Embedder,
    compute: (ctx: ExperimentContext) => Promise<ExperimentReport>,
  ): Promise<ExperimentReport> {
    const out = ctx.out;
    const before = snapshot(out);
    const reads = new Map<string, ReadEntry>();
    let cacheable = true;
    const onRead = (r: FileRead) => {
      const rel = relative(out, r.path);
      if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
        cacheable = false; // a file outside the results folder: not something a replay can check
        return;
      }
      // A file this run wrote itself is its own output, not an input.
      if (identity(r.path) !== before.get(rel)) return;
      if (reads.has(rel)) return;
      reads.set(
        rel,
        "exists" in r
          ? { file: rel, exists: r.exists }
          : { file: rel, sha256: r.text === undefined ? null : sha256(Buffer.from(r.text, "utf8")) },
      );
    };
    const log = isHashing(embedder) ? undefined : new EmbeddingLog();
    const wrapped = log ? log.wrap(embedder) : embedder;
    const report = await observeReads(onRead, () => compute({ ...ctx, embedder: async () => wrapped }));
    if (!cacheable || log?.unstable) return report;
    try {
      const after = snapshot(out);
      const writes: Entry["writes"] = [];
      for (const [rel, id] of [...after].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (before.get(rel) === id) continue;
        const bytes = readFileSync(join(out, rel));
        const sha = sha256(bytes);
        await this.storeBlob(sha, bytes);
        writes.push({ file: rel, sha256: sha, bytes: bytes.length });
      }
      const removed = [...before.keys()].filter((rel) => !after.has(rel)).sort();
      let embeddings: Entry["embeddings"];
      if (log) {
        const s = log.summary();
        const texts = Buffer.from(JSON.stringify(s.texts), "utf8");
        const sha = sha256(texts);
        await this.storeBlob(sha, texts);
        const store = embeddingStore(embedder);
        embeddings = { texts: sha, sha256: s.sha256, ...(store ? { store: await store.identity() } : {}) };
      }
      const sortedReads = [...reads.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      const entry: Entry = {
        format: FORMAT,
        key,
        run,
        reads: sortedReads,
        ...(embeddings ? { embeddings } : {}),
        writes,
        removed,
        report,
      };
      await writeFileAtomic(this.entryPath(key, sha256(stableJson(sortedReads)).slice(0, 16)), JSON.stringify(entry));
      this.recorded++;
    } catch (e) {
      process.stderr.write(`note: the result cache could not store this run (${(e as Error).message}); the results are unaffected\n`);
    }
    return report;
  }

  private async storeBlob(sha: string, bytes: Uint8Array): Promise<void> {
    const path = this.blobPath(sha);
    if (identity(path) !== undefined && sha256(readFileSync(path)) === sha) return;
    await writeFileAtomic(path, bytes);
  }

  private damaged(key: string, why: string): void {
    process.stderr.write(`note: result cache entry ${key.slice(0, 12)} is damaged (${why}); recomputing and storing it again\n`);
  }

  /** After a run that stored entries: keep the KEEP_ENTRIES most recently used, and the blobs they name. */
  async prune(): Promise<void> {
    if (this.recorded === 0) return;
    const entriesDir = join(this.dir, "entries");
    const all: { path: string; t: number }[] = [];
    for (const key of await readdir(entriesDir)) {
      const names = await readdir(join(entriesDir, key)).catch(() => [] as string[]);
      for (const n of names) {
        const path = join(entriesDir, key, n);
        all.push({ path, t: (await stat(path).catch(() => undefined))?.mtimeMs ?? 0 });
      }
      if (names.length === 0) await rm(join(entriesDir, key), { recursive: true, force: true });
    }
    all.sort((a, b) => b.t - a.t || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const { path } of all.slice(KEEP_ENTRIES)) await rm(path, { force: true });
    const keep = new Set<string>();
    for (const { path } of all.slice(0, KEEP_ENTRIES)) {
      try {
        const e = JSON.parse(await readFile(path, "utf8")) as Entry;
        for (const w of e.writes) keep.add(w.sha256);
        if (e.embeddings) keep.add(e.embeddings.texts);
      } catch {
        await rm(path, { force: true });
      }
    }
    for (const b of await readdir(join(this.dir, "blobs"))) if (!keep.has(b)) await rm(join(this.dir, "blobs", b), { force: true });
  }
}
