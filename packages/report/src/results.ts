/**
 * Reading the result files `pnpm bench` writes (docs/results.md), with accessors that
 * fail with a message naming the file, the path and how to fix it. The report never runs a runner.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { formatPath, resolvePath, type PathSegment } from "./json-path.js";

/** The experiments the report knows, in the order they are presented. */
export const EXPERIMENTS = ["exp1", "exp2", "exp3", "exp4", "exp5", "exp5-audit", "exp6", "exp7"] as const;
/** One experiment key. */
export type Experiment = (typeof EXPERIMENTS)[number];
/** A report section: one per experiment, plus "beyond" for the extended results. */
export type SectionId = Experiment | "beyond";

/** The results file each experiment writes (docs/spec.md §7). */
export const RESULT_FILES: Readonly<Record<Experiment, string>> = {
  exp1: "exp1_forgetting_curve.json",
  exp2: "exp2_memory_scoring.json",
  exp3: "exp3_retrieval.json",
  exp4: "exp4_journals.json",
  exp5: "exp5_locomo.json",
  "exp5-audit": "exp5_locomo_audited.json",
  exp6: "exp6_epirec.json",
  exp7: "exp7_estimators.json",
};

/**
 * The extended ("beyond the paper") results file each experiment may write beside its paper-format
 * file: every strategy of the extended set with paired tests against similarity-only.
 */
export const EXTENDED_FILES: Readonly<Partial<Record<Experiment, string>>> = {
  exp5: "exp5_locomo_extended.json",
  exp6: "exp6_epirec_extended.json",
};

/** Exp. 3 runs with a model embedder go to `exp3_retrieval_<run key>.json` (the hashing run keeps the reference's name). */
const EXP3_MODEL_FILE = /^exp3_retrieval_(.+)\.json$/;

/** One parsed results file plus where it came from. */
export interface ResultDoc {
  experiment: Experiment;
  /** File name inside the results directory, e.g. "exp5_locomo.json". */
  file: string;
  data: unknown;
}

/** Every results file found in a directory (missing experiments are simply absent). */
export interface ResultSet {
  dir: string;
  docs: Partial<Record<Experiment, ResultDoc>>;
  /** The extended results files present, by the experiment that wrote them. */
  extended: Partial<Record<Experiment, ResultDoc>>;
  /** Exp. 3 runs of model embedders, by run key, in file-name order. */
  exp3Models?: { key: string; doc: ResultDoc }[];
}

/** Read every known results file that exists in `dir`; a file that is not valid JSON is an error. */
export function readResults(dir: string): ResultSet {
  if (!existsSync(dir)) throw new Error(`results directory ${dir} does not exist — run \`pnpm bench all\` first, or pass --results DIR`);
  const docs: Partial<Record<Experiment, ResultDoc>> = {};
  const extended: Partial<Record<Experiment, ResultDoc>> = {};
  for (const experiment of EXPERIMENTS) {
    const paper = readDoc(dir, experiment, RESULT_FILES[experiment]);
    if (paper) docs[experiment] = paper;
    const extFile = EXTENDED_FILES[experiment];
    const ext = extFile ? readDoc(dir, experiment, extFile) : undefined;
    if (ext) extended[experiment] = ext;
  }
  const exp3Models = readdirSync(dir)
    .filter((f) => EXP3_MODEL_FILE.test(f))
    .sort()
    .map((file) => ({ key: EXP3_MODEL_FILE.exec(file)![1]!, doc: { experiment: "exp3" as const, file, data: parseFile(join(dir, file), "exp3") } }));
  return { dir, docs, extended, exp3Models };
}

function readDoc(dir: string, experiment: Experiment, file: string): ResultDoc | undefined {
  const full = join(dir, file);
  if (!existsSync(full)) return undefined;
  return { experiment, file, data: parseFile(full, experiment) };
}

function parseFile(full: string, experiment: Experiment): unknown {
  try {
    return JSON.parse(readFileSync(full, "utf8"));
  } catch (err) {
    throw new Error(`${full} is not valid JSON (${(err as Error).message}) — rerun \`pnpm bench ${benchTarget(experiment)}\``);
  }
}

/** The experiments present in a result set, in presentation order. */
export function presentExperiments(set: ResultSet): Experiment[] {
  return EXPERIMENTS.filter((e) => set.docs[e] !== undefined);
}

function where(doc: ResultDoc, path: readonly PathSegment[]): string {
  return `${doc.file}: ${path.length ? formatPath(path) : "(top level)"}`;
}

/** The `pnpm bench` target that writes an experiment's results file (Exp. 5 writes both LoCoMo files). */
export function benchTarget(e: Experiment): string {
  return e === "exp5-audit" ? "exp5" : e;
}

function hint(doc: ResultDoc): string {
  return `rerun \`pnpm bench ${benchTarget(doc.experiment)}\` (results schema: docs/results.md)`;
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
