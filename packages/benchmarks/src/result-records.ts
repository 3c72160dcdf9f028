/**
 * The records every results file the runners write carries — meta (seed, package, data sha256, dataset
 * provenance), embedder and strategy records, the gate — and the merging of earlier runs of other embedders.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { BUILTIN_STRATEGIES, GATE_FUSED_ALPHA, SIGNIFICANCE_THRESHOLD, extendedStrategies, strategies, type Embedder } from "@persode/core";
import { findDataset } from "@persode/datasets";
import {
  experimentDeclaration,
  gateRecord,
  type DatasetProvenance,
  type EmbedderRecord,
  type Experiment,
  type GateRecord,
  type GateSource,
  type ResultMeta,
  type StrategyRecord,
  type DocumentKind,
  type DocumentTypes,
  writeResultFile,
  writeResultText,
} from "@persode/results";
import { writeFileAtomicExplained } from "@persode/util";

/** Package identity recorded in every results file. */
const PACKAGE = { name: "@persode/benchmarks", version: "0.1.0" } as const;

import { inPhaseAsync } from "./phases.js";
import { logRead } from "./read-log.js";

export { DEFAULT_SAMPLES, DEFAULT_SEED } from "./defaults.js";

/**
 * Write a file atomically (temp file + rename): never a partial file. A write the file system refuses
 * (a file or folder in the way, no permission) is a WriteError naming the path and the fix.
 */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await inPhaseAsync("write", () => writeFileAtomicExplained(path, data));
}

/**
 * writeAtomic for several files at once: their writes overlap (on libuv's thread pool), each still atomic, and
 * `meanwhile` (if given) runs on this thread while they are under way. Every write runs to its end; then the first
 * failure in the order given, if any, is thrown (a WriteError naming its path), and the other files are written.
 */
export async function writeAtomicAll(files: readonly (readonly [string, string | Uint8Array])[], meanwhile?: () => void): Promise<void> {
  await inPhaseAsync("write", async () => {
    const writes = Promise.allSettled(files.map(([path, data]) => writeFileAtomicExplained(path, data)));
    let failed: unknown;
    try {
      meanwhile?.();
    } catch (e) {
      failed = e;
    }
    const settled = await writes;
    const rejected = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (rejected) throw rejected.reason;
    if (failed !== undefined) throw failed;
  });
}

/** writeResultFile (@persode/results: check the envelope, serialise, write atomically), timed as the write phase. */
export async function writeResult<K extends DocumentKind>(
  path: string,
  kind: K,
  doc: DocumentTypes[K],
  format?: (doc: unknown) => string,
): Promise<void> {
  await inPhaseAsync("write", () => writeResultFile(path, kind, doc, format));
}

/** writeResultText (@persode/results: a results file from its serialised text), timed as the write phase. */
export async function writeResultString(path: string, text: string): Promise<void> {
  await inPhaseAsync("write", () => writeResultText(path, text));
}

/** Read a previous results file if it exists and parses (for merging runs of other embedders). */
export async function readPrevious(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    logRead({ path, text: undefined });
    return undefined;
  }
  logRead({ path, text });
  try {
    const j = JSON.parse(text) as unknown;
    return j && typeof j === "object" && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
  } catch {
    throw new Error(`${path}: the existing results file is not valid JSON; delete it or choose another --out folder`);
  }
}

/** Whether a file of the results folder exists (reported to the result cache like a read: the answer shapes the run's files). */
export function fileExists(path: string): boolean {
  const exists = existsSync(path);
  logRead({ path, exists });
  return exists;
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
 * The `runs` object for a results file at `path` after this embedder's run — the file's earlier runs are
 * kept when they may share it (mergeablePrevious), and the run records the embedder's identity — with the
 * records of every strategy those runs report.
 */
export async function runsAfter<R extends object>(
  path: string,
  dataSha256: string,
  bootstrap: { seed: number; samples: number },
  runKey: string,
  embedder: Pick<Embedder, "name" | "id" | "dim" | "model">,
  run: R,
): Promise<{ runs: Record<string, R & { embedder: EmbedderRecord }>; strategies: StrategyRecord[] }> {
  const previous = mergeablePrevious(await readPrevious(path), dataSha256, bootstrap);
  // The earlier runs come from a file of the same kind and data (mergeablePrevious), so they share the run's shape.
  const runs = mergeRuns(previous, runKey, { embedder: describeEmbedder(embedder), ...run }) as Record<
    string,
    R & { embedder: EmbedderRecord }
  >;
  return { runs, strategies: strategyRecordsOfRuns(runs, previous) };
}

/**
 * The `meta` block closing every results file: package, version, seed, embedders, command, input data
 * hash, and for files with strategy tables the record of every strategy they report.
 */
export function meta(
  seed: number,
  embedders: string[],
  target: string,
  dataSha256: string,
  extra: { audit_sha256?: string; datasets?: DatasetProvenance[]; strategies?: StrategyRecord[] } = {},
): ResultMeta {
  const { audit_sha256, datasets, strategies } = extra;
  return {
    package: PACKAGE.name,
    version: PACKAGE.version,
    seed,
    embedders,
    generated_by: `pnpm bench ${target}`,
    data_sha256: dataSha256,
    ...(audit_sha256 !== undefined ? { audit_sha256 } : {}),
    ...(datasets !== undefined ? { datasets } : {}),
    ...(strategies !== undefined ? { strategies } : {}),
  };
}

/**
 * The provenance of the datasets an experiment declares (its declaration's `datasets`), from the dataset
 * registry: id, title, file, sha256 and pinned source of each file. `read` gives the sha256 of the bytes the
 * run actually read, per dataset id; it must equal the registry's pin (the loaders verify it, so a
 * difference is a bug, refused here rather than recorded).
 */
export function declaredProvenance(experiment: Experiment, read: Readonly<Record<string, string>>): DatasetProvenance[] {
  return experimentDeclaration(experiment).datasets.flatMap((id) => {
    const d = findDataset(id);
    if (d === undefined)
      throw new Error(`${experiment} declares dataset "${id}", which the registry (packages/datasets/src/declarations.ts) does not know`);
    return registryProvenance(id, read[id]);
  });
}

/** The registry's provenance of one dataset's files; `sha256`, when given, is what was read and must equal the pin. */
export function registryProvenance(id: string, sha256?: string): DatasetProvenance[] {
  const d = findDataset(id);
  if (d === undefined) throw new Error(`dataset "${id}" is not in the registry (packages/datasets/src/declarations.ts)`);
  return d.sources.map((s) => {
    if (sha256 !== undefined && sha256 !== s.sha256)
      throw new Error(`${d.title}: the run read bytes with sha256 ${sha256}, not the pinned ${s.sha256}`);
    return { id: d.id, title: d.title, file: s.fileName, sha256: s.sha256, source: s.url };
  });
}

/** The provenance of the hand-labelled scenario Exp. 1–4 read (not a registry dataset: it is part of this repository). */
export function scenarioProvenance(sha256: string): DatasetProvenance[] {
  return [
    {
      id: "scenario",
      title: "the hand-labelled scenario (docs/spec.md §7)",
      file: "scenario.json",
      sha256,
      source: "packages/benchmarks/data/scenario.json",
    },
  ];
}

/**
 * The records of the strategies a file reports, keys in presentation order: slug and built-in flag from the
 * strategy itself (registry or extended set), or from the previous file's record for a strategy of a merged
 * run that is no longer registered. A key known to neither is an error: the file could not say what it is.
 */
export function strategyRecordsFor(keys: readonly string[], previous: readonly StrategyRecord[] = []): StrategyRecord[] {
  const known = [...strategies(), ...extendedStrategies()];
  return keys.map((key, order) => {
    const live = known.find((s) => s.key === key);
    if (live) return { key, slug: live.slug, order, built_in: BUILTIN_STRATEGIES.includes(live) };
    const old = previous.find((r) => r.key === key);
    if (old) return { ...old, order };
    throw new Error(
      `strategy "${key}" of a merged run is neither registered nor recorded in the previous results file; register it again or write to a fresh --out folder`,
    );
  });
}

/**
 * The records of every strategy in the runs' `strategies` tables, in first-appearance order (runs in file
 * order), for a file whose earlier runs came from `previous` (merged by mergeRuns).
 */
export function strategyRecordsOfRuns(runs: Record<string, unknown>, previous: Record<string, unknown> | undefined): StrategyRecord[] {
  const keys: string[] = [];
  for (const run of Object.values(runs)) {
    for (const k of Object.keys((run as { strategies?: Record<string, unknown> }).strategies ?? {})) if (!keys.includes(k)) keys.push(k);
  }
  return strategyRecordsFor(keys, (previous?.meta as { strategies?: StrategyRecord[] } | undefined)?.strategies ?? []);
}

/** The emotion gate as every results file records it, from the library's one threshold and the gate's fusion weight (docs/spec.md §5). */
export function libraryGate(source: GateSource): GateRecord {
  return gateRecord(source, SIGNIFICANCE_THRESHOLD, GATE_FUSED_ALPHA);
}

/**
 * The identity of the vector space a run used (name; for a model its id, revision and dtype; exact id; dimension), recorded with every run.
 */
export function describeEmbedder(e: Pick<Embedder, "name" | "id" | "dim" | "model">): EmbedderRecord {
  return {
    name: e.name,
    ...(e.model ? { model: e.model.id, revision: e.model.revision, dtype: e.model.dtype } : {}),
    id: e.id,
    dim: e.dim,
  };
}
