/**
 * Reading the results files `pnpm bench` writes (docs/results-format.md): every known file present in a
 * folder, each checked against its envelope on the way in, and accessors that fail with a message
 * naming the file, the path and the command that rewrites it.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ResultDocument, ResultFileTypes } from "./documents.js";
import { envelopeProblems, type DocumentKind } from "./envelope.js";
import { EXPERIMENTS, type Experiment } from "./experiments.js";
import { EXTENDED_FILES, RESULT_FILES, benchTarget, perRunKeyOf, type ExtendedExperiment } from "./files.js";
import { formatPath, resolvePath, type PathSegment } from "./json-path.js";
import type { StrategyRecord } from "./records.js";

/** One parsed, envelope-checked results file plus where it came from. */
export interface ResultDoc<T extends ResultDocument = ResultDocument> {
  /** The experiment that wrote it (an extended file belongs to Exp. 5 or 6). */
  experiment: Experiment;
  kind: DocumentKind;
  /** File name inside the results folder, e.g. "exp5_locomo.json". */
  file: string;
  data: T;
}

/** Every results file found in a folder (missing experiments are simply absent). */
export interface ResultSet {
  dir: string;
  docs: { [E in Experiment]?: ResultDoc<ResultFileTypes[E]> };
  /** The extended results files present, by the experiment that wrote them. */
  extended: { [E in ExtendedExperiment]?: ResultDoc };
  /** Exp. 3 runs of model embedders, by run key, in file-name order. */
  exp3Models: { key: string; doc: ResultDoc<ResultFileTypes["exp3"]> }[];
}

/** Read every known results file that exists in `dir`; a file that is not valid JSON or lacks its envelope is an error. */
export function readResults(dir: string): ResultSet {
  if (!existsSync(dir)) throw new Error(`results directory ${dir} does not exist — run \`pnpm bench all\` first, or pass --results DIR`);
  const docs: Record<string, ResultDoc> = {};
  for (const experiment of EXPERIMENTS) {
    const doc = readDoc(dir, experiment, experiment, RESULT_FILES[experiment]);
    if (doc) docs[experiment] = doc;
  }
  const extended: Record<string, ResultDoc> = {};
  for (const experiment of Object.keys(EXTENDED_FILES) as ExtendedExperiment[]) {
    const doc = readDoc(dir, experiment, "extended", EXTENDED_FILES[experiment]);
    if (doc) extended[experiment] = doc;
  }
  const exp3Models = readdirSync(dir)
    .flatMap((file) => {
      const key = perRunKeyOf("exp3", file);
      return key === undefined ? [] : [{ key, doc: readDoc(dir, "exp3", "exp3", file)! as ResultDoc<ResultFileTypes["exp3"]> }];
    })
    .sort((a, b) => (a.doc.file < b.doc.file ? -1 : a.doc.file > b.doc.file ? 1 : 0));
  return { dir, docs: docs as ResultSet["docs"], extended, exp3Models };
}

function readDoc(dir: string, experiment: Experiment, kind: DocumentKind, file: string): ResultDoc | undefined {
  const full = join(dir, file);
  if (!existsSync(full)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(full, "utf8"));
  } catch (err) {
    throw new Error(`${full} is not valid JSON (${(err as Error).message}) — rerun \`pnpm bench ${benchTarget(experiment)}\``);
  }
  const problems = envelopeProblems(kind, data);
  if (problems.length > 0) throw new Error(`${full} is not a complete ${kind} results file: ${problems.join("; ")} — rerun \`pnpm bench ${benchTarget(experiment)}\` (results schema: docs/results-format.md)`);
  return { experiment, kind, file, data: data as ResultDocument };
}

/** The experiments present in a result set, in presentation order. */
export function presentExperiments(set: ResultSet): Experiment[] {
  return EXPERIMENTS.filter((e) => set.docs[e] !== undefined);
}

function where(doc: ResultDoc, path: readonly PathSegment[]): string {
  return `${doc.file}: ${path.length ? formatPath(path) : "(top level)"}`;
}

function hint(doc: ResultDoc): string {
  return `rerun \`pnpm bench ${benchTarget(doc.experiment)}\` (results schema: docs/results-format.md)`;
}

/** The value at `path`, which must exist. */
export function getValue(doc: ResultDoc, path: readonly PathSegment[]): unknown {
  const v = resolvePath(doc.data, path);
  if (v === undefined) throw new Error(`${where(doc, path)} is missing — ${hint(doc)}`);
  return v;
}

/** The finite number at `path`. */
export function getNumber(doc: ResultDoc, path: readonly PathSegment[]): number {
  const v = getValue(doc, path);
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${where(doc, path)} must be a finite number, got ${JSON.stringify(v)} — ${hint(doc)}`);
  return v;
}

/** The string at `path`. */
export function getString(doc: ResultDoc, path: readonly PathSegment[]): string {
  const v = getValue(doc, path);
  if (typeof v !== "string") throw new Error(`${where(doc, path)} must be a string, got ${JSON.stringify(v)} — ${hint(doc)}`);
  return v;
}

/** The boolean at `path`. */
export function getBoolean(doc: ResultDoc, path: readonly PathSegment[]): boolean {
  const v = getValue(doc, path);
  if (typeof v !== "boolean") throw new Error(`${where(doc, path)} must be true or false, got ${JSON.stringify(v)} — ${hint(doc)}`);
  return v;
}

/** The array at `path`. */
export function getArray(doc: ResultDoc, path: readonly PathSegment[]): unknown[] {
  const v = getValue(doc, path);
  if (!Array.isArray(v)) throw new Error(`${where(doc, path)} must be an array — ${hint(doc)}`);
  return v;
}

/** The array of finite numbers at `path`. */
export function getNumberArray(doc: ResultDoc, path: readonly PathSegment[]): number[] {
  const arr = getArray(doc, path);
  arr.forEach((x, i) => {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new Error(`${where(doc, [...path, i])} must be a finite number, got ${JSON.stringify(x)} — ${hint(doc)}`);
  });
  return arr as number[];
}

/** The array of strings at `path`. */
export function getStringArray(doc: ResultDoc, path: readonly PathSegment[]): string[] {
  const arr = getArray(doc, path);
  arr.forEach((x, i) => {
    if (typeof x !== "string") throw new Error(`${where(doc, [...path, i])} must be a string, got ${JSON.stringify(x)} — ${hint(doc)}`);
  });
  return arr as string[];
}

/** The keys of the object at `path`, in file order. */
export function getKeys(doc: ResultDoc, path: readonly PathSegment[]): string[] {
  const v = getValue(doc, path);
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error(`${where(doc, path)} must be an object — ${hint(doc)}`);
  return Object.keys(v);
}

/** Whether `path` exists in the document. */
export function hasPath(doc: ResultDoc, path: readonly PathSegment[]): boolean {
  return resolvePath(doc.data, path) !== undefined;
}

/** The strategy records of a document, in presentation order (`meta.strategies`, checked when the file was read). */
export function strategyRecordsOf(doc: ResultDoc): StrategyRecord[] {
  const records = doc.data.meta.strategies;
  if (!records) throw new Error(`${doc.file}: meta.strategies is missing — ${hint(doc)}`);
  return [...records].sort((a, b) => a.order - b.order);
}

/** The record of one strategy the document reports. */
export function strategyRecordOf(doc: ResultDoc, key: string): StrategyRecord {
  const r = doc.data.meta.strategies?.find((s) => s.key === key);
  if (!r) throw new Error(`${doc.file}: strategy ${JSON.stringify(key)} has no record in meta.strategies — ${hint(doc)}`);
  return r;
}

/** The records of `keys` (strategies of one table), in the document's presentation order. */
export function orderedStrategyRecords(doc: ResultDoc, keys: readonly string[]): StrategyRecord[] {
  return keys.map((k) => strategyRecordOf(doc, k)).sort((a, b) => a.order - b.order);
}

/** `keys` (strategies of one table) in the document's presentation order. */
export function orderedStrategies(doc: ResultDoc, keys: readonly string[]): string[] {
  return orderedStrategyRecords(doc, keys).map((r) => r.key);
}

/** The strategy's own slug as the document records it (rankings file names, manifest ids). */
export function strategySlugOf(doc: ResultDoc, key: string): string {
  return strategyRecordOf(doc, key).slug;
}
