/**
 * The reproducibility contract (docs/reproducibility.md): which values of a results folder are
 * byte-identical on every machine and which depend on a neural model's floating-point output, and the
 * tolerances within which the latter must reproduce. The writer records each document's class in
 * `meta.reproducibility`; the results checker (check.ts) reads the class from the committed file and
 * compares under these rules.
 */

/** A results document's class: every value exact, every value model-derived, or model-derived runs inside an exact file. */
export type ReproducibilityClass = "exact" | "model" | "mixed";

/** The `meta.reproducibility` block of a results document. */
export interface ReproducibilityRecord {
  class: ReproducibilityClass;
  /** For "mixed": the run keys whose `runs.<key>` subtree depends on a neural model's output. */
  model_runs?: string[];
}

import type { PathSegment } from "./json-path.js";

/** Where the contract is written down; every record and checker message points there. */
export const CONTRACT_DOC = "docs/reproducibility.md";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** True when an embedder record names model weights (a neural model run through onnxruntime), false for exact embedders. */
function isModelEmbedder(e: unknown): boolean {
  return isObject(e) && typeof e.model === "string";
}

/**
 * The class of a results document, derived from the embedder records it holds: a top-level `embedder`
 * with model weights makes the whole file model-derived; `runs.<key>.embedder` with model weights makes
 * that run model-derived; anything else (hashing, lexical, scenario maths) is exact.
 */
export function reproducibilityOf(doc: unknown): ReproducibilityRecord {
  if (!isObject(doc)) return { class: "exact" };
  if (isModelEmbedder(doc.embedder)) return { class: "model" };
  const runs = isObject(doc.runs) ? doc.runs : {};
  const model = Object.entries(runs)
    .filter(([, run]) => isObject(run) && isModelEmbedder(run.embedder))
    .map(([k]) => k);
  return model.length > 0 ? { class: "mixed", model_runs: model } : { class: "exact" };
}

/** Problems of a document's recorded class against the one its content implies ("path: problem" lines; empty when sound). */
export function reproducibilityProblems(doc: Record<string, unknown>): string[] {
  const meta = isObject(doc.meta) ? doc.meta : {};
  const recorded = meta.reproducibility;
  const expected = reproducibilityOf(doc);
  if (!isObject(recorded)) return [`meta.reproducibility: missing (expected ${JSON.stringify(expected)}; see ${CONTRACT_DOC})`];
  if (JSON.stringify(recorded) !== JSON.stringify(expected)) {
    return [`meta.reproducibility: ${JSON.stringify(recorded)} does not match the file's embedder runs, which make it ${JSON.stringify(expected)}`];
  }
  return [];
}

/** Whether `runKey`'s run is model-derived in a document with this record (rankings and reports of that run follow it). */
function isModelRun(record: ReproducibilityRecord | undefined, runKey: string): boolean {
  if (!record) return false;
  return record.class === "model" || (record.class === "mixed" && (record.model_runs ?? []).includes(runKey));
}

/** Whether the value at `path` of a document with this record depends on a neural model (its `meta` never does). */
export function isModelPath(record: ReproducibilityRecord | undefined, path: readonly PathSegment[]): boolean {
  if (!record || path[0] === "meta") return false;
  if (record.class === "model") return true;
  return path[0] === "runs" && typeof path[1] === "string" && isModelRun(record, path[1]);
}

/**
 * One kind of model-derived number and its tolerance: a value passes when |a − b| ≤ abs (compared with the
 * committed value). `measured` is the largest deviation seen between two instruction sets, for the record.
 */
export interface ToleranceRule {
  kind: string;
  /** Which values: by the last object key on their path. */
  key?: RegExp;
  /** Only integer-valued pairs. */
  integer?: boolean;
  abs: number;
  why: string;
}

/**
 * The tolerances of model-derived numbers, first match wins (docs/reproducibility.md gives the measured
 * deviation beside each). Strings, booleans, nulls, keys and array lengths are never tolerant.
 */
export const TOLERANCE_RULES: readonly ToleranceRule[] = [
  {
    kind: "fitted parameter",
    key: /^(weights|intercept|intensity_quantiles)$/,
    abs: 1e-4,
    why: "published at 4 decimals (FITTED_DECIMALS); one rounding unit, where a CPU's last-bit change can tip a value across a rounding boundary",
  },
  {
    kind: "p-value",
    key: /^(p|p_[a-z_]+)$/,
    abs: 0.01,
    why: "a randomization or t-test p-value moves by well under 0.01 when one query's score changes by a near-tie",
  },
  {
    kind: "count",
    key: /^(wins|ties|losses)$/,
    integer: true,
    abs: 1,
    why: "W/T/L counts of queries: one query's near-tie flip",
  },
  {
    kind: "metric",
    abs: 0.002,
    why: "means over queries and their CIs, differences and correlations: a near-tie flip moves a mean over n queries by at most 1/n " +
      "(1/504 on EpiRec, 1/1535 on LoCoMo); statistics of continuous model outputs move by about 1e-7",
  },
];

/** The metric rule's tolerance (TOLERANCE_RULES), the most a model-derived mean or CI may move. */
const METRIC_TOLERANCE = TOLERANCE_RULES.find((r) => r.kind === "metric")!.abs;

/**
 * The most a value printed in a render (README.md, docs/results.md, report.html, an SVG's labels) may move once its
 * model-derived source moved: the metric tolerance the source is held to, plus one unit of the printed precision
 * (`unit`), where the source's change tips the rounding.
 */
export function printedValueTolerance(unit: number): number {
  return METRIC_TOLERANCE + unit;
}

/**
 * The least a number of a figure's geometry (an SVG mark's position or size, in px) may move once its model-derived
 * source moved, whatever the figure's scale (geometryTolerance).
 */
const RENDER_GEOMETRY_PX = 1;

/**
 * The most a number of a figure's geometry may move once its model-derived source moved: a value within the metric
 * tolerance (0.002) moves a mark by 0.002 × the axis's pixels per unit (`pxPerUnit`, the largest of the figure's
 * value axes), and at least RENDER_GEOMETRY_PX. exp7_quality_gain.svg draws ≈ 430 px per unit (0.87 px);
 * exp5_audited_paired.svg, whose axis spans paired differences of a few hundredths, ≈ 10 700 (21 px).
 */
export function geometryTolerance(pxPerUnit: number): number {
  return Math.max(RENDER_GEOMETRY_PX, METRIC_TOLERANCE * pxPerUnit);
}

/**
 * Decimals of the fitted parameters a model-derived run publishes (Exp. 7's EmoBank regressor): far above the CPU noise (≈ 1e-7), far below
 * their statistical uncertainty.
 */
export const FITTED_DECIMALS = 4;

/** The rule of a model-derived number at a path whose last object key is `key`. */
export function toleranceFor(key: string | undefined, a: number, b: number): ToleranceRule {
  const integers = Number.isInteger(a) && Number.isInteger(b);
  for (const r of TOLERANCE_RULES) {
    if (r.integer && !integers) continue;
    if (r.key && (key === undefined || !r.key.test(key))) continue;
    return r;
  }
  return TOLERANCE_RULES[TOLERANCE_RULES.length - 1]!;
}
