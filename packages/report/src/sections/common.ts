/**
 * Pieces the benchmark sections share: the strategies the cost statements compare, the embedders of a
 * run-per-embedder results file and their tolerances, values with CIs, the bootstrap sentence, paired
 * differences and the dataset notes — one definition each, so Exp. 5 and 6 word them identically.
 */
import type { Cell, Inline, Section } from "../content.js";
import type { ManifestRecorder, Ref } from "../manifest.js";
import { getKeys, getString, hasPath, strategySlugOf, type PathSegment, type ResultDoc } from "@persode/results";
import { embedderName, isExactEmbedder, orderEmbedders } from "../style.js";

/** The always-on fusion strategy whose costs the report states. */
export const FUSED = "fused (Persode)";
/** The baseline every cost and paired difference is measured against. */
export const SIMILARITY = "similarity-only";
/** The emotion-gated fusion strategy. */
export const GATED = "gated (Persode)";

/** Largest drift allowed for values from a model-inference embedder (float inference may flip a few rankings). */
export const SEMANTIC_TOLERANCE = 0.002;

/** Manifest tolerance of a value computed with embedder `emb`: 0 when exactly reproducible. */
export function toleranceOf(emb: string): number {
  return isExactEmbedder(emb) ? 0 : SEMANTIC_TOLERANCE;
}

/** Embedders of a run-per-embedder results file, hashing first. */
export function embeddersOf(doc: ResultDoc): string[] {
  return orderEmbedders(getKeys(doc, ["runs"]));
}

/** A run's embedder described by its model (id @ short revision, dtype) when the run records one, else undefined. */
function modelIdentity(doc: ResultDoc, emb: string): string | undefined {
  const base = ["runs", emb, "embedder"];
  if (!hasPath(doc, [...base, "model"])) return undefined;
  return `${getString(doc, [...base, "model"])} @ ${getString(doc, [...base, "revision"]).slice(0, 7)}, ${getString(doc, [...base, "dtype"])}`;
}

/** "<name> embedder" plus the model identity in parentheses when the run is a model's. */
export function embedderCaption(doc: ResultDoc, emb: string): string {
  const model = modelIdentity(doc, emb);
  return `${embedderName(emb)} embedder${model ? ` (${model})` : ""}`;
}

/** The cell "v [lo, hi]" of a value already recorded under `id` by valueWithCi (CI refs only when recorded). */
function recordedWithCi(rec: ManifestRecorder, id: string): Cell {
  return rec.has(`${id}.ci95.lo`) ? [{ ref: id }, " [", { ref: `${id}.ci95.lo` }, ", ", { ref: `${id}.ci95.hi` }, "]"] : [{ ref: id }];
}

/**
 * The paper's layout of a benchmark table when a file holds several embedders' runs: one row per
 * strategy, the headline metric for every embedder side by side, then MRR for each model-inference
 * embedder — all values recorded before under `${experiment}.${emb}.${slug}.${metric}`.
 */
export function paperTable(
  rec: ManifestRecorder,
  doc: ResultDoc,
  embedders: readonly string[],
  strategies: readonly string[],
  o: { experiment: string; caption: string; headline: { key: string; label: string }; mrrKey: string },
): Section["blocks"][number] {
  const cols: { emb: string; key: string; label: string }[] = [
    ...embedders.map((emb) => ({ emb, key: o.headline.key, label: `${o.headline.label} ${embedderName(emb)}` })),
    ...embedders.filter((emb) => !isExactEmbedder(emb)).map((emb) => ({ emb, key: o.mrrKey, label: `MRR ${embedderName(emb)}` })),
  ];
  return {
    kind: "table",
    caption: o.caption,
    paper: true,
    header: ["strategy", ...cols.map((c) => c.label)],
    numeric: [false, ...cols.map(() => true)],
    rows: strategies.map((s) => [
      [s],
      ...cols.map((c) => recordedWithCi(rec, `${o.experiment}.${c.emb}.${strategySlugOf(doc, s)}.${c.key}`)),
    ]),
  };
}

/** Fail naming the file and the rerun command when a strategy the section compares is missing. */
export function requireStrategies(
  doc: ResultDoc,
  present: readonly string[],
  where: string,
  experiment: string,
  needed: readonly string[] = [FUSED, SIMILARITY],
): void {
  for (const s of needed) {
    if (!present.includes(s))
      throw new Error(`${doc.file}: ${where} has no "${s}" strategy, which the report compares — rerun \`pnpm bench ${experiment}\``);
  }
}

/** Record a value and, when present, its 95 % CI; returns the cell "v [lo, hi]". */
export function valueWithCi(
  rec: ManifestRecorder,
  doc: ResultDoc,
  base: PathSegment[],
  ciPath: PathSegment[],
  id: string,
  precision: number,
  tolerance: number,
): { value: Ref; cell: Cell } {
  const value = rec.num(doc, base, id, precision, tolerance);
  if (!hasPath(doc, ciPath)) return { value, cell: [value] };
  const lo = rec.num(doc, [...ciPath, 0], `${id}.ci95.lo`, precision, tolerance);
  const hi = rec.num(doc, [...ciPath, 1], `${id}.ci95.hi`, precision, tolerance);
  return { value, cell: [value, " [", lo, ", ", hi, "]"] };
}

/** " Brackets: 95 % percentile-bootstrap CIs over <unit>s (N resamples, seed S)." when the file has a bootstrap block, else nothing. */
export function bootstrapSentence(doc: ResultDoc, rec: ManifestRecorder, experiment: string): Inline[] {
  if (!hasPath(doc, ["bootstrap"])) return [];
  return [
    " Brackets: 95 % percentile-bootstrap CIs over ",
    getString(doc, ["bootstrap", "unit"]),
    "s (",
    rec.num(doc, ["bootstrap", "samples"], `${experiment}.bootstrap.samples`, 0),
    " resamples, seed ",
    rec.num(doc, ["bootstrap", "seed"], `${experiment}.bootstrap.seed`, 0),
    ").",
  ];
}

/** "paired difference d, 95 % CI [lo, hi]" for the `{diff, ci95}` block at `path`, recorded under `id`. */
export function pairedDifference(
  rec: ManifestRecorder,
  doc: ResultDoc,
  path: PathSegment[],
  id: string,
  precision: number,
  tolerance: number,
): Inline[] {
  return [
    "paired difference ",
    rec.num(doc, [...path, "diff"], `${id}.diff`, precision, tolerance),
    ", 95 % CI [",
    rec.num(doc, [...path, "ci95", 0], `${id}.ci95.lo`, precision, tolerance),
    ", ",
    rec.num(doc, [...path, "ci95", 1], `${id}.ci95.hi`, precision, tolerance),
    "]",
  ];
}

/** Report notes on the dataset (name, url, license, sha256) and the protocol note, as far as the file records them. */
export function datasetNotes(doc: ResultDoc): Section["notes"] {
  const notes: Section["notes"] = [];
  for (const k of ["name", "url", "license", "data_sha256"]) {
    if (hasPath(doc, ["benchmark", k])) notes.push({ label: `Dataset ${k.replace(/_/g, " ")}`, text: getString(doc, ["benchmark", k]) });
  }
  if (hasPath(doc, ["protocol", "note"])) notes.push({ label: "Protocol", text: getString(doc, ["protocol", "note"]) });
  return notes;
}
