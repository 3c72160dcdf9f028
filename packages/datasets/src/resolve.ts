import { readFile } from "node:fs/promises";
import { join, resolve as resolvePath } from "node:path";
import { offlineFromEnv, persodeCacheDir, writeFileAtomic } from "@persode/util";
import { downloadVerified } from "./download.js";
import { DatasetError, DatasetIntegrityError, DatasetUnavailableError } from "./errors.js";
import { sha256Hex } from "./hash.js";
import { PINNED_DATASETS, datasetLabel, type PinnedDataset } from "./pinned.js";

/** How to find a pinned dataset; every field is optional and falls back to the environment, then to defaults. */
export interface ResolveOptions {
  /** Explicit file to use (else the dataset's env var, e.g. PERSODE_LOCOMO_PATH). */
  path?: string;
  /** Cache directory (else PERSODE_DATA_DIR, else the per-user cache from `persodeCacheDir`). */
  cacheDir?: string;
  /** Folder holding the pinned files by name (else PERSODE_DATA_MIRROR). */
  mirrorDir?: string;
  /** Forbid downloading (else PERSODE_OFFLINE, parsed like every Persode flag: 1/true/yes/on or 0/false/no/off). */
  offline?: boolean;
  /** Abort a download when no bytes arrive for this long; default 30 000 ms. */
  downloadTimeoutMs?: number;
  /** Download URL override (tests); the pinned sha256 still applies. */
  url?: string;
  /** Environment to read the PERSODE_* variables from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Show a download progress bar on stderr; default: only when stderr is a TTY. */
  progress?: boolean;
  /** Copy a verified explicit-path or mirror file into the cache so later runs find it; default true. */
  fillCache?: boolean;
}

/** A verified dataset file: where its bytes came from and the bytes themselves. */
export interface ResolvedFile {
  /** Absolute path of the file the bytes were read from (for a download: the cache file). */
  path: string;
  /** sha256 of `bytes` (always equal to the pinned one). */
  sha256: string;
  /** Which resolution step found it. */
  source: "path" | "cache" | "mirror" | "download";
  bytes: Buffer;
  /** Path of a verified copy in the cache, when one exists after this call. */
  cachePath?: string;
}

/** Default idle timeout for downloads. */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 30_000;

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v : undefined;
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new DatasetError(`Cannot read ${path}: ${(e as Error).message}`);
  }
}

/** Atomically place verified bytes at `dest` (temp file + rename). Returns false if the cache is not writable. */
async function storeVerified(dest: string, bytes: Buffer): Promise<boolean> {
  return writeFileAtomic(dest, bytes).then(
    () => true,
    () => false,
  );
}

/**
 * Find a pinned dataset and verify its sha256 (docs/spec.md §8). Order: explicit path (option or env var), the cache,
 * the mirror folder, a download (unless offline). Bytes that do not match are never returned and never cached;
 * a verified explicit/mirror file is copied into the cache so later runs find it there.
 */
export async function resolveDataset(ds: PinnedDataset, opts: ResolveOptions = {}): Promise<ResolvedFile> {
  const env = opts.env ?? process.env;
  const label = datasetLabel(ds);
  const offline = opts.offline ?? offlineFlag(env);
  const cacheDir = resolvePath(opts.cacheDir ?? persodeCacheDir(env));
  const cachePath = join(cacheDir, ds.fileName);
  const fillCache = opts.fillCache ?? true;
  const url = opts.url ?? ds.url;

  const fill = async (bytes: Buffer, from: string): Promise<string | undefined> => {
    if (resolvePath(from) === cachePath) return cachePath;
    const existing = await readIfExists(cachePath).catch(() => undefined);
    if (existing && sha256Hex(existing) === ds.sha256) return cachePath;
    if (!fillCache) return undefined;
    return (await storeVerified(cachePath, bytes)) ? cachePath : undefined;
  };

  // 1. Explicit path: the caller asked for this file, so a missing or mismatching file is an error.
  const explicitFromOption = nonEmpty(opts.path);
  const explicit = explicitFromOption ?? nonEmpty(env[ds.envPathVar]);
  if (explicit) {
    const how = explicitFromOption ? "the `path` option" : ds.envPathVar;
    const abs = resolvePath(explicit);
    const bytes = await readIfExists(abs);
    if (!bytes) {
      throw new DatasetUnavailableError(
        `${label}: ${how} names ${abs}, which does not exist. Point it at a copy of ${ds.fileName} ` +
          `(sha256 ${ds.sha256}) or unset it to use the cache, PERSODE_DATA_MIRROR or a download.`,
      );
    }
    const sha = sha256Hex(bytes);
    if (sha !== ds.sha256) {
      throw new DatasetIntegrityError(
        `${label}: ${abs} (from ${how}) has sha256 ${sha}, but the pinned release has ${ds.sha256}${sizeNote(ds, bytes)}. ` +
          `It was not used. Replace it with the pinned file from ${ds.url}.`,
        sha,
        ds.sha256,
      );
    }
    return withCache({ path: abs, sha256: sha, source: "path", bytes }, await fill(bytes, abs));
  }

  const looked: string[] = [`explicit path: not set (option \`path\` or ${ds.envPathVar})`];

  // 2. Cache. A mismatching cached file is ignored here and replaced by the next verified copy.
  const cached = await readIfExists(cachePath);
  if (cached) {
    const sha = sha256Hex(cached);
    if (sha === ds.sha256) return { path: cachePath, sha256: sha, source: "cache", bytes: cached, cachePath };
    looked.push(
      `cache: ${cachePath} has sha256 ${sha}, not the pinned one${sizeNote(ds, cached)} (ignored; a verified copy will replace it)`,
    );
  } else {
    looked.push(`cache: ${cachePath} not found (PERSODE_DATA_DIR sets the cache directory)`);
  }

  // 3. Mirror folder holding the pinned files by name.
  const mirrorDir = nonEmpty(opts.mirrorDir) ?? nonEmpty(env.PERSODE_DATA_MIRROR);
  if (mirrorDir) {
    const mirrorPath = join(resolvePath(mirrorDir), ds.fileName);
    const bytes = await readIfExists(mirrorPath);
    if (bytes) {
      const sha = sha256Hex(bytes);
      if (sha === ds.sha256) {
        return withCache({ path: mirrorPath, sha256: sha, source: "mirror", bytes }, await fill(bytes, mirrorPath));
      }
      looked.push(`mirror: ${mirrorPath} has sha256 ${sha}, not the pinned one${sizeNote(ds, bytes)} (ignored)`);
    } else {
      looked.push(`mirror: ${mirrorPath} not found`);
    }
  } else {
    looked.push("mirror: not set (option `mirrorDir` or PERSODE_DATA_MIRROR)");
  }

  // 4. Download.
  if (offline) {
    throw new DatasetUnavailableError(
      `${label} is not available and downloading is disabled (PERSODE_OFFLINE=1 or the \`offline\` option).\n` +
        `Looked for it in:\n${looked.map((l) => `  - ${l}`).join("\n")}\n` +
        `Pinned source: ${url} (sha256 ${ds.sha256}, licence ${ds.license}).\n` +
        (PINNED_DATASETS.includes(ds)
          ? `To provide it: run \`pnpm bench all\` (or \`pnpm --filter @persode/datasets data fetch\`) once with network access ` +
            `(it downloads and caches the pinned files), or set PERSODE_DATA_MIRROR to a folder holding ` +
            `${PINNED_DATASETS.map((p) => p.fileName).join(", ")}, or set ${ds.envPathVar} to the file.`
          : `To provide it: run \`pnpm --filter @persode/datasets data fetch longmemeval\` once with access to ${new URL(ds.url).host}, ` +
            `or set PERSODE_DATA_MIRROR to a folder holding ${ds.fileName}, or set ${ds.envPathVar} to the file ` +
            `(Exp. 8 also runs on any LongMemEval-format file: \`pnpm bench exp8 --data FILE\`).`),
    );
  }
  const bytes = await downloadVerified({
    url,
    sha256: ds.sha256,
    destPath: cachePath,
    idleTimeoutMs: opts.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS,
    label,
    ...(opts.progress !== undefined ? { progress: opts.progress } : {}),
  });
  return { path: cachePath, sha256: ds.sha256, source: "download", bytes, cachePath };
}

/** PERSODE_OFFLINE as core parses it; a malformed value becomes a DatasetError (printed without a stack). */
function offlineFlag(env: NodeJS.ProcessEnv): boolean {
  try {
    return offlineFromEnv(env);
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
}

/** ", and it is N bytes where the pinned file has M (truncated?)" when the size is pinned and differs. */
function sizeNote(ds: PinnedDataset, bytes: Buffer): string {
  if (ds.size === undefined || bytes.length === ds.size) return "";
  return ` (it is ${bytes.length} bytes, the pinned file ${ds.size}${bytes.length < ds.size ? ": truncated" : ""})`;
}

function withCache(r: ResolvedFile, cachePath: string | undefined): ResolvedFile {
  return cachePath ? { ...r, cachePath } : r;
}
