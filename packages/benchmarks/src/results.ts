import { readFile } from "node:fs/promises";
import type { Embedder } from "@persode/core";
import { explainWriteError, writeFileAtomic } from "@persode/util";

/** Package identity recorded in every results file. */
const PACKAGE = { name: "@persode/benchmarks", version: "0.1.0" } as const;

/** The default seed of the harness's own bootstrap CIs (the EpiRec evaluator's seed). */
export const DEFAULT_SEED = 20260713;

/** Resamples of the harness's own bootstrap CIs. */
export const DEFAULT_SAMPLES = 2000;

/**
 * Write a results file atomically (temp file + rename): never a partial file. A write the file
 * system refuses (a file or folder in the way, no permission) is a WriteError naming the path and the fix.
 */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(path, data);
  } catch (e) {
    throw explainWriteError(path, e);
  }
}

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

/**
 * The `runs` object for a results file at `path` after this embedder's run: the file's earlier runs
 * are kept when they may share it (mergeablePrevious), and the run records the embedder's identity.
 */
export async function runsAfter(
  path: string,
  dataSha256: string,
  bootstrap: { seed: number; samples: number },
  embedderName: string,
  embedder: Pick<Embedder, "name" | "id" | "dim" | "model">,
  run: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const previous = mergeablePrevious(await readPrevious(path), dataSha256, bootstrap);
  return mergeRuns(previous, embedderName, { embedder: describeEmbedder(embedder), ...run });
}

/** The `meta` block closing every results file: package, version, seed, embedders, command, input data hash. */
export function meta(seed: number, embedders: string[], target: string, dataSha256: string): Record<string, unknown> {
  return { package: PACKAGE.name, version: PACKAGE.version, seed, embedders, generated_by: `pnpm bench ${target}`, data_sha256: dataSha256 };
}


/** The identity of the vector space a run used (name; for a model its id, revision and dtype; exact id; dimension), recorded with every run. */
export function describeEmbedder(e: Pick<Embedder, "name" | "id" | "dim" | "model">): Record<string, unknown> {
  return { name: e.name, ...(e.model ? { model: e.model.id, revision: e.model.revision, dtype: e.model.dtype } : {}), id: e.id, dim: e.dim };
}
