/**
 * The regression manifest (results/manifest.json): every number and fact the README states, each
 * pinned to its source (results file + path in the json-path syntax), with the value as stated,
 * its precision (decimals) and the tolerance a recomputation may move it by (0 for exact values).
 */
import { pyRound } from "@persode/util";
import { fixed } from "./format.js";
import { formatPath, parsePath, resolvePath, type PathSegment } from "@persode/results";
import { getNumber, getValue, type ResultDoc, type ResultSet } from "@persode/results";

/** Identifies the manifest format; bumped when its shape changes. */
export const MANIFEST_FORMAT = "persode-report-manifest/1";

/** One stated number. */
export interface ManifestEntry {
  /** Stable identifier, e.g. "exp5.hashing.fused_persode.evidence_recall@5". */
  id: string;
  /** Results file name inside the results directory. */
  file: string;
  /** Where the value lives in that file (json-path syntax, see json-path.ts). */
  path: string;
  /** The value as stated: the file's value rounded (Python rounding) to `precision` decimals. */
  value: number;
  /** Decimals the README states. */
  precision: number;
  /** Largest allowed |recomputed − value|; 0 for exactly reproducible values. */
  tolerance: number;
}

/** One stated fact that is not a number (a rule, a provenance note, a yes/no check). */
export interface ManifestText {
  id: string;
  file: string;
  path: string;
  value: string | boolean;
}

/** The whole manifest. */
export interface Manifest {
  format: string;
  path_syntax: string;
  /** Results files the manifest was built from, in experiment order. */
  sources: string[];
  entries: ManifestEntry[];
  texts: ManifestText[];
}

/** A reference to a stated value, used by the report content in place of the number itself. */
export interface Ref {
  ref: string;
}

const PATH_SYNTAX_NOTE =
  'dot-separated bare keys ([A-Za-z_][A-Za-z0-9_]*), ["json string"] for any other key, [n] for array indices; e.g. runs.hashing.strategies["fused (Persode)"]["evidence_recall@5"]';

/** Collects stated values while the report content is built; the result is the manifest. */
export class ManifestRecorder {
  private readonly entries: ManifestEntry[] = [];
  private readonly texts: ManifestText[] = [];
  private readonly ids = new Set<string>();
  private readonly sources: string[] = [];

  /** Record the number at `path` in `doc`, stated with `precision` decimals. */
  num(doc: ResultDoc, path: readonly PathSegment[], id: string, precision: number, tolerance = 0): Ref {
    this.claim(id);
    this.source(doc);
    const raw = getNumber(doc, path);
    this.entries.push({ id, file: doc.file, path: formatPath(path), value: pyRound(raw, precision), precision, tolerance });
    return { ref: id };
  }

  /** Whether a value has been recorded under `id`. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Record the string or boolean at `path` in `doc`. */
  text(doc: ResultDoc, path: readonly PathSegment[], id: string): Ref {
    this.claim(id);
    this.source(doc);
    const v = getValue(doc, path);
    if (typeof v !== "string" && typeof v !== "boolean")
      throw new Error(`${doc.file}: ${formatPath(path)} must be a string or boolean, got ${JSON.stringify(v)}`);
    this.texts.push({ id, file: doc.file, path: formatPath(path), value: v });
    return { ref: id };
  }

  /** The manifest of everything recorded so far. */
  manifest(order: readonly string[]): Manifest {
    const rank = (f: string) => {
      const i = order.indexOf(f);
      return i < 0 ? order.length : i;
    };
    const sources = [...this.sources].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    return { format: MANIFEST_FORMAT, path_syntax: PATH_SYNTAX_NOTE, sources, entries: [...this.entries], texts: [...this.texts] };
  }

  private claim(id: string): void {
    if (this.ids.has(id)) throw new Error(`manifest id ${JSON.stringify(id)} is recorded twice — two stated values would share one id`);
    this.ids.add(id);
  }

  private source(doc: ResultDoc): void {
    if (!this.sources.includes(doc.file)) this.sources.push(doc.file);
  }
}

/** Serialize a manifest deterministically (2-space JSON, trailing newline). */
export function serializeManifest(m: Manifest): string {
  return JSON.stringify(m, null, 2) + "\n";
}

/** Parse and validate a manifest file's text; `where` names the file in errors. */
export function parseManifest(text: string, where: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not valid JSON (${(err as Error).message}) — regenerate it with \`pnpm report\``);
  }
  const bad = (why: string): never => {
    throw new Error(`${where}: ${why} — regenerate it with \`pnpm report\``);
  };
  if (data === null || typeof data !== "object") bad("not a JSON object");
  const m = data as Partial<Manifest>;
  if (m.format !== MANIFEST_FORMAT) bad(`format is ${JSON.stringify(m.format)}, expected ${JSON.stringify(MANIFEST_FORMAT)}`);
  if (!Array.isArray(m.sources) || !Array.isArray(m.entries) || !Array.isArray(m.texts)) bad("sources, entries and texts must be arrays");
  m.entries!.forEach((e, i) => {
    const ok =
      e &&
      typeof e.id === "string" &&
      typeof e.file === "string" &&
      typeof e.path === "string" &&
      typeof e.value === "number" &&
      Number.isInteger(e.precision) &&
      typeof e.tolerance === "number" &&
      e.tolerance >= 0;
    if (!ok) bad(`entries[${i}] needs id, file, path (strings), value (number), precision (integer), tolerance (>= 0)`);
    parsePath(e.path);
  });
  m.texts!.forEach((t, i) => {
    if (
      !t ||
      typeof t.id !== "string" ||
      typeof t.file !== "string" ||
      typeof t.path !== "string" ||
      (typeof t.value !== "string" && typeof t.value !== "boolean")
    )
      bad(`texts[${i}] needs id, file, path (strings) and a string or boolean value`);
  });
  return m as Manifest;
}

/** Per entries or texts array: its items by id and how many items it held when they were indexed. */
const idIndexes = new WeakMap<readonly { id: string }[], { size: number; byId: ReadonlyMap<string, { id: string }> }>();

/** `items` by id (the first of a repeated id, as Array.find returns), built once per array and rebuilt when it grew. */
function byId<T extends { id: string }>(items: readonly T[]): ReadonlyMap<string, T> {
  let index = idIndexes.get(items);
  if (!index || index.size !== items.length) {
    const map = new Map<string, T>();
    for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
    idIndexes.set(items, (index = { size: items.length, byId: map }));
  }
  return index.byId as ReadonlyMap<string, T>;
}

/** How a stated value renders: numbers at their precision, booleans as yes/no, strings verbatim. */
export function statedText(m: Manifest, id: string): string {
  const e = byId(m.entries).get(id);
  if (e) return fixed(e.value, e.precision);
  const t = byId(m.texts).get(id);
  if (t) return typeof t.value === "boolean" ? (t.value ? "yes" : "no") : t.value;
  throw new Error(`results/manifest.json has no entry ${JSON.stringify(id)} — regenerate it with \`pnpm report\``);
}

/** The numeric value of entry `id`. */
export function entryValue(m: Manifest, id: string): number {
  const e = byId(m.entries).get(id);
  if (!e) throw new Error(`results/manifest.json has no numeric entry ${JSON.stringify(id)} — regenerate it with \`pnpm report\``);
  return e.value;
}

/**
 * Compare a committed manifest with one recomputed from the results files. Returns one message per
 * drift (value outside tolerance, source moved, entry added or removed); empty when they agree.
 */
export function compareManifests(committed: Manifest, recomputed: Manifest): string[] {
  const problems: string[] = [];
  const now = new Map(recomputed.entries.map((e) => [e.id, e]));
  const before = new Map(committed.entries.map((e) => [e.id, e]));
  for (const old of committed.entries) {
    const cur = now.get(old.id);
    if (!cur) {
      problems.push(
        `manifest entry ${old.id} (${old.file} ${old.path}) is no longer produced by the results — regenerate with \`pnpm report\` and review the README`,
      );
      continue;
    }
    if (cur.file !== old.file || cur.path !== old.path) {
      problems.push(`manifest entry ${old.id} moved from ${old.file} ${old.path} to ${cur.file} ${cur.path}`);
    }
    if (cur.precision !== old.precision)
      problems.push(`manifest entry ${old.id}: precision changed from ${old.precision} to ${cur.precision}`);
    // the tolerance guards every later check, so a hand-loosened one in the committed manifest is drift too
    if (cur.tolerance !== old.tolerance)
      problems.push(
        `manifest entry ${old.id}: tolerance changed from ${old.tolerance} to ${cur.tolerance} — regenerate with \`pnpm report\``,
      );
    const diff = Math.abs(cur.value - old.value);
    // compare at the stated precision so float noise in the subtraction never counts as drift
    if (pyRound(diff, old.precision + 2) > old.tolerance) {
      problems.push(
        `manifest entry ${old.id} drifted: committed ${fixed(old.value, old.precision)}, results now give ${fixed(cur.value, cur.precision)} ` +
          `(${cur.file} ${cur.path}; tolerance ${old.tolerance})`,
      );
    }
  }
  for (const cur of recomputed.entries) {
    if (!before.has(cur.id))
      problems.push(
        `manifest entry ${cur.id} (${cur.file} ${cur.path} = ${fixed(cur.value, cur.precision)}) is new: not in the committed manifest — run \`pnpm report\``,
      );
  }
  const textsNow = new Map(recomputed.texts.map((t) => [t.id, t]));
  for (const old of committed.texts) {
    const cur = textsNow.get(old.id);
    if (!cur) problems.push(`manifest text ${old.id} (${old.file} ${old.path}) is no longer produced by the results`);
    else if (cur.value !== old.value)
      problems.push(
        `manifest text ${old.id} drifted: committed ${JSON.stringify(old.value)}, results now give ${JSON.stringify(cur.value)} (${cur.file} ${cur.path})`,
      );
  }
  for (const cur of recomputed.texts) {
    if (!committed.texts.some((t) => t.id === cur.id))
      problems.push(`manifest text ${cur.id} (${cur.file} ${cur.path}) is new: not in the committed manifest — run \`pnpm report\``);
  }
  return problems;
}

/** Re-read each manifest entry straight from its results file (independent of the content builder). */
export function reresolveEntries(m: Manifest, set: ResultSet): string[] {
  const problems: string[] = [];
  const byFile = new Map(
    [...Object.values(set.docs), ...Object.values(set.extended), ...(set.exp3Models ?? []).map((m) => m.doc)].map((d) => [d!.file, d!]),
  );
  for (const e of m.entries) {
    const doc = byFile.get(e.file);
    if (!doc) {
      problems.push(`manifest entry ${e.id}: results file ${e.file} is missing from ${set.dir}`);
      continue;
    }
    const raw = resolvePath(doc.data, parsePath(e.path));
    if (typeof raw !== "number") {
      problems.push(
        `manifest entry ${e.id}: ${e.file} ${e.path} is ${raw === undefined ? "missing" : JSON.stringify(raw)}, expected a number`,
      );
      continue;
    }
    const cur = pyRound(raw, e.precision);
    if (pyRound(Math.abs(cur - e.value), e.precision + 2) > e.tolerance) {
      problems.push(
        `manifest entry ${e.id} drifted: committed ${fixed(e.value, e.precision)}, ${e.file} ${e.path} now gives ${fixed(cur, e.precision)} (tolerance ${e.tolerance})`,
      );
    }
  }
  return problems;
}
