/**
 * The envelope every results file must have before it is written or read: a JSON object with its
 * experiment's top-level blocks, a complete `meta`, and — where the file has strategy tables — one
 * well-formed strategy record per strategy it reports. The writer and the reader run the same check,
 * so benchmarks cannot write a file the report would refuse.
 */
import type { StrategyRecord } from "./records.js";
import { reproducibilityProblems } from "./reproducibility.js";

/** The kinds of results documents: each paper-format experiment, the extended files, the per-item scores, corpus files. */
export type DocumentKind =
  | "exp1"
  | "exp2"
  | "exp3"
  | "exp4"
  | "exp5"
  | "exp5-audit"
  | "exp5-protocols"
  | "exp6"
  | "exp7"
  | "exp8"
  | "exp7-per-item"
  | "extended"
  | "corpus";

/** Where a kind's strategy keys live: the file's per-run strategy tables, or Exp. 3's conditions. */
type StrategyTables = "runs" | "conditions" | "none";

const ENVELOPES: Readonly<Record<DocumentKind, { blocks: readonly string[]; strategies: StrategyTables }>> = {
  exp1: { blocks: ["lambda_per_day", "retention_at_6_days", "half_life_days", "retention_samples", "strength_at_30_days", "curves"], strategies: "none" },
  exp2: { blocks: ["rankings", "weightings", "focus", "findings"], strategies: "none" },
  exp3: { blocks: ["protocol", "conditions", "alpha_curve", "salience_prioritization", "findings"], strategies: "conditions" },
  exp4: { blocks: ["personalization", "journals"], strategies: "none" },
  exp5: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
  "exp5-audit": { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
  "exp5-protocols": { blocks: ["benchmark", "protocol", "bootstrap", "claims", "runs"], strategies: "runs" },
  exp6: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
  exp7: { blocks: ["benchmark", "protocol", "bootstrap", "significance", "runs"], strategies: "none" },
  exp8: { blocks: ["benchmark", "protocol", "bootstrap", "official", "runs"], strategies: "runs" },
  "exp7-per-item": { blocks: ["probe_ids", "runs"], strategies: "none" },
  extended: { blocks: ["benchmark", "protocol", "bootstrap", "significance", "runs"], strategies: "runs" },
  corpus: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const SLUG = /^[a-z0-9_-]+$/;

/** Every way `data` falls short of a `kind` document's envelope, as "path: problem" lines (empty when it is sound). */
export function envelopeProblems(kind: DocumentKind, data: unknown): string[] {
  if (!isObject(data)) return ["(top level): must be a JSON object"];
  const spec = ENVELOPES[kind];
  const problems: string[] = [];
  for (const b of spec.blocks) if (!(b in data)) problems.push(`${b}: missing`);
  const meta = data.meta;
  if (!isObject(meta)) return [...problems, "meta: missing or not an object"];
  for (const k of ["package", "version", "generated_by", "data_sha256"]) if (typeof meta[k] !== "string") problems.push(`meta.${k}: must be a string`);
  if (typeof meta.seed !== "number" || !Number.isInteger(meta.seed)) problems.push("meta.seed: must be an integer");
  if (!Array.isArray(meta.embedders) || !meta.embedders.every((e) => typeof e === "string")) problems.push("meta.embedders: must be an array of run keys");
  // written by every writer since the reproducibility contract; a file from before it is read as exact
  if (meta.reproducibility !== undefined) problems.push(...reproducibilityProblems(data));
  if (spec.strategies === "none") {
    if (meta.strategies !== undefined) problems.push("meta.strategies: this kind of file has no strategy tables");
    return problems;
  }
  if (!Array.isArray(meta.strategies)) return [...problems, "meta.strategies: missing (every strategy the file reports needs a record)"];
  problems.push(...recordProblems(meta.strategies));
  const known = new Set((meta.strategies as unknown[]).flatMap((r) => (isObject(r) && typeof r.key === "string" ? [r.key] : [])));
  for (const [where, keys] of strategyTables(data, spec.strategies)) {
    for (const k of keys) if (!known.has(k)) problems.push(`${where}: strategy ${JSON.stringify(k)} has no record in meta.strategies`);
  }
  return problems;
}

function recordProblems(records: unknown[]): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  const slugs = new Set<string>();
  const orders = new Set<number>();
  records.forEach((r, i) => {
    const at = `meta.strategies[${i}]`;
    if (!isObject(r)) return problems.push(`${at}: must be an object {key, slug, order, built_in}`);
    const rec = r as Partial<StrategyRecord>;
    if (typeof rec.key !== "string" || rec.key === "") problems.push(`${at}.key: must be a non-empty string`);
    else if (keys.has(rec.key)) problems.push(`${at}.key: ${JSON.stringify(rec.key)} appears twice`);
    else keys.add(rec.key);
    if (typeof rec.slug !== "string" || !SLUG.test(rec.slug)) problems.push(`${at}.slug: must match [a-z0-9_-]+`);
    else if (slugs.has(rec.slug)) problems.push(`${at}.slug: ${JSON.stringify(rec.slug)} appears twice`);
    else slugs.add(rec.slug);
    if (typeof rec.order !== "number" || !Number.isInteger(rec.order) || rec.order < 0) problems.push(`${at}.order: must be a non-negative integer`);
    else if (orders.has(rec.order)) problems.push(`${at}.order: ${rec.order} appears twice`);
    else orders.add(rec.order);
    if (typeof rec.built_in !== "boolean") problems.push(`${at}.built_in: must be true or false`);
    return undefined;
  });
  return problems;
}

/** The strategy tables of a document: where each is and the strategy keys it holds. */
function strategyTables(data: Record<string, unknown>, where: StrategyTables): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  if (where === "conditions" && isObject(data.conditions)) {
    for (const [c, table] of Object.entries(data.conditions)) if (isObject(table)) out.push([`conditions.${c}`, Object.keys(table)]);
  }
  if (where === "runs" && isObject(data.runs)) {
    for (const [run, body] of Object.entries(data.runs)) {
      if (isObject(body) && isObject(body.strategies)) out.push([`runs.${run}.strategies`, Object.keys(body.strategies)]);
    }
  }
  return out;
}
