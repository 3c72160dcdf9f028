/**
 * The results checker (docs/reproducibility.md): does a regenerated results folder reproduce the
 * committed one under the reproducibility contract? Exact files byte for byte; model-derived JSON value
 * by value within the contract's tolerances; model-derived rankings equal except inside recorded
 * near-ties; renders (figures, manifest, report, README) byte for byte unless a model-derived source
 * moved, and then number by number within one unit of their printed precision. Pure: the two trees are
 * given as file lists with readers, so the CLI can read the committed side from git.
 */
import { formatPath, parsePath, type PathSegment } from "./json-path.js";
import { CONTRACT_DOC, geometryTolerance, isModelPath, printedValueTolerance, toleranceFor, type ReproducibilityRecord } from "./reproducibility.js";

/** A folder of files by relative path ("/"-separated). */
export interface FileTree {
  /** Every file, relative paths. */
  readonly files: readonly string[];
  read(file: string): Buffer;
}

/** The largest deviation of a file's model-derived values. */
export interface Deviation {
  path: string;
  committed: number;
  now: number;
  delta: number;
  tolerance: number;
  kind: string;
}

/** What the checker found for one file. */
export interface FileCheck {
  file: string;
  /** identical: same bytes; within: differs only within the contract; failed, added, removed: refused. */
  status: "identical" | "within" | "failed" | "added" | "removed";
  /** "exact", "model" (model-derived values, rankings or reports), "render". */
  class: "exact" | "model" | "render";
  /** Model-derived numbers that differ, and the largest of them (within). */
  changed: number;
  largest?: Deviation;
  problems: string[];
}

/** The checker's verdict on a results folder. */
export interface CheckReport {
  ok: boolean;
  files: FileCheck[];
}

/** At most this many problems are listed per file (the count of the rest is given). */
const MAX_PROBLEMS = 20;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Figures, the manifest, the report, README and the Exp. 4 journals: rendered from the results files. */
function isRender(file: string): boolean {
  return file.startsWith("figures/") || file === "manifest.json" || file === "report.html" || file.endsWith(".md");
}

/** The reproducibility record of each top-level results document of a tree, by file name. */
function recordsOf(tree: FileTree): Map<string, ReproducibilityRecord> {
  const out = new Map<string, ReproducibilityRecord>();
  for (const file of tree.files) {
    if (file.includes("/") || !file.endsWith(".json") || file === "manifest.json") continue;
    try {
      const doc = JSON.parse(tree.read(file).toString("utf8")) as unknown;
      // results documents carry it in meta; a model artefact (Exp. 7's EmoBank regressor) at its top level
      const rec = isObject(doc) ? (isObject(doc.meta) ? doc.meta.reproducibility : doc.reproducibility) : undefined;
      if (isObject(rec) && typeof rec.class === "string") out.set(file, rec as unknown as ReproducibilityRecord);
    } catch {
      // an unreadable committed file is compared byte for byte, and reported there
    }
  }
  return out;
}

/**
 * Whether a rankings file or official report belongs to a model run: `<stem>_rankings/<run key>_<slug>.<ext>`
 * is a run of `<stem>.json`, model-derived when its name starts with one of that file's model run keys.
 */
function modelRunOf(file: string, records: Map<string, ReproducibilityRecord>): boolean {
  const m = /^(.+)_rankings\/([^/]+)$/.exec(file);
  if (!m) return false;
  const rec = records.get(`${m[1]}.json`);
  if (!rec) return false;
  return rec.class === "model" || (rec.model_runs ?? []).some((k) => m[2]!.startsWith(`${k}_`));
}

/** Collects differences of one file: problems (refused) and tolerated model-derived deviations. */
class Diff {
  problems: string[] = [];
  changed = 0;
  largest?: Deviation;
  private extra = 0;

  problem(msg: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(msg);
    else this.extra++;
  }

  deviation(d: Deviation): void {
    this.changed++;
    // decimal values one rounding unit apart differ by that unit only up to binary representation
    if (d.delta > d.tolerance * (1 + 1e-9)) this.problem(`${d.path}: committed ${d.committed}, now ${d.now}: |Δ| = ${fmt(d.delta)} exceeds the ${d.kind} tolerance ${fmt(d.tolerance)} (${CONTRACT_DOC})`);
    if (!this.largest || d.delta / (d.tolerance || 1) > this.largest.delta / (this.largest.tolerance || 1)) this.largest = d;
  }

  finish(): string[] {
    return this.extra > 0 ? [...this.problems, `… and ${this.extra} more`] : this.problems;
  }
}

function fmt(x: number): string {
  return x === 0 ? "0" : x.toPrecision(3);
}

/** The last object key on a path (the name of the field an array element belongs to). */
function lastKey(path: readonly PathSegment[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === "string") return path[i] as string;
  return undefined;
}

/**
 * Compare two JSON values: same structure (keys, their order, array lengths), same strings, booleans and
 * nulls; numbers equal, or — where `tolerant(path)` — within the contract's tolerance for their kind
 * (`slack(path)` adds to it, e.g. the printed precision of a manifest entry).
 */
function compareJson(
  a: unknown,
  b: unknown,
  path: PathSegment[],
  diff: Diff,
  tolerant: (path: readonly PathSegment[]) => boolean,
  slack: (path: readonly PathSegment[]) => number = () => 0,
): void {
  const at = () => formatPath(path) || "(top level)";
  if (typeof a === "number" && typeof b === "number") {
    if (a === b) return;
    if (!tolerant(path)) return diff.problem(`${at()}: committed ${a}, now ${b}; this value is exact (it does not depend on a neural model), so it must not change`);
    const rule = toleranceFor(lastKey(path), a, b);
    diff.deviation({ path: at(), committed: a, now: b, delta: Math.abs(a - b), tolerance: rule.abs + slack(path), kind: rule.kind });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return diff.problem(`${at()}: committed ${a.length} elements, now ${b.length}`);
    for (let i = 0; i < a.length; i++) compareJson(a[i], b[i], [...path, i], diff, tolerant, slack);
    return;
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const removed = ka.filter((k) => !(k in b));
    const added = kb.filter((k) => !(k in a));
    if (removed.length > 0) diff.problem(`${at()}: key${removed.length > 1 ? "s" : ""} ${removed.map((k) => JSON.stringify(k)).join(", ")} removed`);
    if (added.length > 0) diff.problem(`${at()}: key${added.length > 1 ? "s" : ""} ${added.map((k) => JSON.stringify(k)).join(", ")} added`);
    if (removed.length === 0 && added.length === 0 && ka.some((k, i) => kb[i] !== k)) diff.problem(`${at()}: keys reordered (committed ${ka.join(", ")}; now ${kb.join(", ")})`);
    for (const k of ka) if (k in b) compareJson(a[k], b[k], [...path, k], diff, tolerant, slack);
    return;
  }
  if (a !== b) diff.problem(`${at()}: committed ${JSON.stringify(a)}, now ${JSON.stringify(b)}`);
}

function parseJson(bytes: Buffer, file: string, side: string, diff: Diff): unknown {
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch (e) {
    diff.problem(`${side} ${file} is not valid JSON (${(e as Error).message})`);
    return undefined;
  }
}

/** A results document: the subtrees of model runs are tolerant, everything else exact. */
function checkDocument(file: string, a: Buffer, b: Buffer, rec: ReproducibilityRecord | undefined, diff: Diff): void {
  const ja = parseJson(a, file, "committed", diff);
  const jb = parseJson(b, file, "regenerated", diff);
  if (diff.problems.length > 0) return;
  compareJson(ja, jb, [], diff, (path) => isModelPath(rec, path));
}

/**
 * A rankings JSONL file of a model run: every line's fields equal, and its ranking equal except inside a
 * block of positions joined by a near-tie recorded in either file (`near_ties`: positions p where ranks p
 * and p + 1 scored within the tie threshold), where the same memories may come in another order.
 */
function checkRankings(a: Buffer, b: Buffer, diff: Diff): void {
  const la = a.toString("utf8").split("\n");
  const lb = b.toString("utf8").split("\n");
  if (la.length !== lb.length) return diff.problem(`committed ${la.length - 1} lines, now ${lb.length - 1}`);
  for (let n = 0; n < la.length; n++) {
    if (la[n] === lb[n]) continue;
    const where = `line ${n + 1}`;
    let ra: Record<string, unknown>;
    let rb: Record<string, unknown>;
    try {
      ra = JSON.parse(la[n]!) as Record<string, unknown>;
      rb = JSON.parse(lb[n]!) as Record<string, unknown>;
    } catch (e) {
      diff.problem(`${where}: not valid JSON (${(e as Error).message})`);
      continue;
    }
    const rankedKey = Object.keys(ra).find((k) => k.startsWith("ranked_"));
    const { near_ties: ta, ...restA } = ra;
    const { near_ties: tb, ...restB } = rb;
    const idsA = rankedKey ? restA[rankedKey] : undefined;
    const idsB = rankedKey ? restB[rankedKey] : undefined;
    if (rankedKey) {
      delete restA[rankedKey];
      delete restB[rankedKey];
    }
    const sub = new Diff();
    compareJson(restA, restB, [], sub, () => false);
    for (const p of sub.problems) diff.problem(`${where}: ${p}`);
    if (!Array.isArray(idsA) || !Array.isArray(idsB) || idsA.length !== idsB.length) {
      diff.problem(`${where}: the ranking's length or shape changed`);
      continue;
    }
    const tied = new Set<number>([...(Array.isArray(ta) ? ta : []), ...(Array.isArray(tb) ? tb : [])].filter((p): p is number => Number.isInteger(p)));
    let moved = 0;
    for (let p = 0; p < idsA.length; ) {
      let q = p;
      while (tied.has(q) && q + 1 < idsA.length) q++;
      const blockA = idsA.slice(p, q + 1).map(String).sort();
      const blockB = idsB.slice(p, q + 1).map(String).sort();
      if (blockA.join("\u0000") !== blockB.join("\u0000")) {
        diff.problem(`${where}: ${rankedKey}[${p}${q > p ? `..${q}` : ""}] committed ${JSON.stringify(idsA.slice(p, q + 1))}, now ${JSON.stringify(idsB.slice(p, q + 1))}, not a recorded near-tie (${CONTRACT_DOC})`);
      } else if (idsA.slice(p, q + 1).some((x, i) => x !== idsB[p + i])) moved++;
      p = q + 1;
    }
    if (moved > 0) diff.deviation({ path: `${where}.${rankedKey}`, committed: 0, now: moved, delta: 0, tolerance: 0, kind: "near-tie reordering" });
  }
}

/** A number in rendered text: optional sign (ASCII or U+2212), digits, decimals, exponent. */
const NUMBER = /[-\u2212]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

/** The unit of a printed number's last digit (1e-4 for "0.3533", 1 for "1535"). */
function printedUnit(token: string): number {
  const m = /\.(\d+)/.exec(token.replace(/[eE].*$/, ""));
  const exp = /[eE]([-+]?\d+)$/.exec(token);
  return 10 ** (-(m ? m[1]!.length : 0) + (exp ? Number(exp[1]) : 0));
}

/**
 * Where each character of a render's markup is geometry: inside a tag (`<…>`) but not in the value of an
 * `aria-label`, `title` or `alt` attribute, which print values. Numbers there are pixel coordinates and sizes.
 */
function geometryMask(text: string): (at: number) => boolean {
  const ranges: [number, number][] = [];
  for (const tag of text.matchAll(/<[^<>]*>/g)) {
    const from = tag.index;
    let at = from;
    for (const attr of tag[0].matchAll(/\b(?:aria-label|title|alt)\s*=\s*("[^"]*"|'[^']*')/g)) {
      ranges.push([at, from + attr.index]);
      at = from + attr.index + attr[0].length;
    }
    ranges.push([at, from + tag[0].length]);
  }
  let i = 0;
  // queried in ascending order of `at`
  return (at) => {
    while (i < ranges.length && ranges[i]![1] <= at) i++;
    return i < ranges.length && ranges[i]![0] <= at;
  };
}

/**
 * The largest scale (px per unit) of the value axes in `svg`, read from its axis labels (Vega's `role-axis-label`
 * groups): consecutive numeric labels' positions along the axis over their values (a label "10%" is 0.1). 0 when no
 * axis has two numeric labels (a figure without value axes).
 * @internal exported for tests only: test/check.test.ts reads the committed figures' scales.
 */
export function axisScale(svg: string): number {
  let scale = 0;
  for (const group of svg.matchAll(/<g class="mark-text role-axis-label"[^>]*>([\s\S]*?)<\/g>/g)) {
    const ticks: { value: number; x: number; y: number }[] = [];
    for (const t of group[1]!.matchAll(/<text\b[^>]*\btransform="translate\(([-\d.e+]+),([-\d.e+]+)\)"[^>]*>([^<]*)<\/text>/g)) {
      const label = /^\s*([-\u2212]?\d+(?:\.\d+)?)(%?)\s*$/.exec(t[3]!);
      if (!label) continue;
      const value = Number(label[1]!.replace("\u2212", "-")) / (label[2] ? 100 : 1);
      ticks.push({ value, x: Number(t[1]), y: Number(t[2]) });
    }
    if (ticks.length < 2) continue;
    const xs = ticks.map((t) => t.x);
    const ys = ticks.map((t) => t.y);
    const alongX = Math.max(...xs) - Math.min(...xs) >= Math.max(...ys) - Math.min(...ys);
    for (let i = 1; i < ticks.length; i++) {
      const dv = Math.abs(ticks[i]!.value - ticks[i - 1]!.value);
      const dp = Math.abs(alongX ? ticks[i]!.x - ticks[i - 1]!.x : ticks[i]!.y - ticks[i - 1]!.y);
      if (dv > 0 && Number.isFinite(dp / dv)) scale = Math.max(scale, dp / dv);
    }
  }
  return scale;
}

/**
 * Per character of a render, the geometry tolerance (px) of the SVG it stands in (geometryTolerance of that SVG's
 * axisScale; report.html holds many SVGs, each with its own scale), RENDER_GEOMETRY_PX outside any SVG.
 */
function geometryToleranceAt(text: string): (at: number) => number {
  const svgs = [...text.matchAll(/<svg\b[\s\S]*?<\/svg>/g)].map((m) => ({ from: m.index, to: m.index + m[0].length, px: geometryTolerance(axisScale(m[0])) }));
  let i = 0;
  // queried in ascending order of `at`
  return (at) => {
    while (i < svgs.length && svgs[i]!.to <= at) i++;
    return i < svgs.length && svgs[i]!.from <= at ? svgs[i]!.px : geometryTolerance(0);
  };
}

/**
 * A render that differs where a model-derived source moved: the text with its numbers taken out must be
 * identical; each printed value within the contract's tolerance of a metric plus one unit of its printed
 * precision of the committed one, and each number of markup geometry (a mark's pixel position or size)
 * within its SVG's geometry tolerance (the metric tolerance × the SVG's axis scale, at least 1 px) plus one printed unit.
 */
function checkText(a: Buffer, b: Buffer, diff: Diff): void {
  const ta = a.toString("utf8");
  const tb = b.toString("utf8");
  // each number of the committed text with where it stands, so geometry and printed values are told apart
  const ma = [...ta.matchAll(NUMBER)];
  const na = ma.map((m) => m[0]);
  const nb = tb.match(NUMBER) ?? [];
  if (ta.replace(NUMBER, "#") !== tb.replace(NUMBER, "#") || na.length !== nb.length) {
    const sa = ta.replace(NUMBER, "#").split("\n");
    const sb = tb.replace(NUMBER, "#").split("\n");
    const line = sa.findIndex((l, i) => l !== sb[i]);
    return diff.problem(`the text changed, not only its numbers (first at line ${line + 1}: committed ${JSON.stringify((ta.split("\n")[line] ?? "").slice(0, 160))}, now ${JSON.stringify((tb.split("\n")[line] ?? "").slice(0, 160))})`);
  }
  const geometry = geometryMask(ta);
  const pxTolerance = geometryToleranceAt(ta);
  ma.forEach((m, k) => {
    const isGeometry = geometry(m.index); // queried for every number, in order, as the mask requires
    const px = pxTolerance(m.index); // likewise
    if (na[k] === nb[k]) return;
    const x = Number(na[k]!.replace("\u2212", "-"));
    const y = Number(nb[k]!.replace("\u2212", "-"));
    const unit = Math.max(printedUnit(na[k]!), printedUnit(nb[k]!));
    const tolerance = isGeometry ? px + unit : printedValueTolerance(unit);
    const kind = isGeometry ? "render geometry (px)" : "printed number";
    diff.deviation({ path: `number ${k + 1} (${na[k]} → ${nb[k]})`, committed: x, now: y, delta: Math.abs(x - y), tolerance, kind });
  });
}

/** The manifest: entries pinning model-derived values tolerate the contract plus one unit of their printed precision. */
function checkManifest(a: Buffer, b: Buffer, records: Map<string, ReproducibilityRecord>, diff: Diff): void {
  const ja = parseJson(a, "manifest.json", "committed", diff) as { entries?: { file?: string; path?: string; precision?: number }[] } | undefined;
  const jb = parseJson(b, "manifest.json", "regenerated", diff);
  if (diff.problems.length > 0 || !ja) return;
  const entries = Array.isArray(ja.entries) ? ja.entries : [];
  const entryOf = (path: readonly PathSegment[]) => (path[0] === "entries" && typeof path[1] === "number" ? entries[path[1]] : undefined);
  const modelEntry = (path: readonly PathSegment[]) => {
    const e = entryOf(path);
    if (!e || path[2] !== "value" || typeof e.file !== "string" || typeof e.path !== "string") return false;
    let at: PathSegment[];
    try {
      at = parsePath(e.path);
    } catch {
      return false; // a malformed entry path is compared exactly (and the manifest check reports it)
    }
    return isModelPath(records.get(e.file), at);
  };
  compareJson(ja, jb, [], diff, modelEntry, (path) => {
    const p = entryOf(path)?.precision;
    return typeof p === "number" ? 10 ** -p : 0;
  });
}

/**
 * Check `fresh` against `committed` under the contract. `ignored(file)` names files neither side is
 * compared on (git-ignored outputs such as timings.json and the LoCoMo rankings).
 */
export function checkResults(committed: FileTree, fresh: FileTree, ignored: (file: string) => boolean = () => false): CheckReport {
  const records = recordsOf(committed);
  const inCommitted = new Set(committed.files);
  const inFresh = new Set(fresh.files.filter((f) => !ignored(f)));
  const all = [...new Set([...inCommitted, ...inFresh])].sort();
  const files: FileCheck[] = [];
  const renders: string[] = [];
  const classOf = (file: string): FileCheck["class"] => {
    if (isRender(file)) return "render";
    if (!file.includes("/") && file.endsWith(".json")) return records.get(file)?.class === "exact" || !records.has(file) ? "exact" : "model";
    return modelRunOf(file, records) ? "model" : "exact";
  };
  for (const file of all) {
    const cls = classOf(file);
    if (!inFresh.has(file)) {
      files.push({ file, status: "removed", class: cls, changed: 0, problems: ["committed, but not regenerated (removed or renamed)"] });
      continue;
    }
    if (!inCommitted.has(file)) {
      files.push({ file, status: "added", class: cls, changed: 0, problems: ["regenerated, but not committed (a new or renamed file: commit it, or remove what writes it)"] });
      continue;
    }
    if (cls === "render") {
      renders.push(file);
      continue;
    }
    files.push(compareFile(file, cls, committed.read(file), fresh.read(file), records));
  }
  // Renders follow from the results files: they may differ only where a model-derived source moved.
  const sourcesMoved = files.some((f) => f.status === "within");
  for (const file of renders) {
    const a = committed.read(file);
    const b = fresh.read(file);
    if (a.equals(b)) {
      files.push({ file, status: "identical", class: "render", changed: 0, problems: [] });
      continue;
    }
    if (!sourcesMoved) {
      files.push({ file, status: "failed", class: "render", changed: 0, problems: ["differs, though every results file it is rendered from reproduced byte for byte"] });
      continue;
    }
    const diff = new Diff();
    if (file.endsWith(".png")) {
      const svg = file.replace(/\.png$/, ".svg");
      const svgMoved = inCommitted.has(svg) && inFresh.has(svg) && !committed.read(svg).equals(fresh.read(svg));
      if (!svgMoved) diff.problem(`differs, though its ${svg} reproduced byte for byte`);
    } else if (file === "manifest.json") checkManifest(a, b, records, diff);
    else if (file.endsWith(".json")) compareJson(parseJson(a, file, "committed", diff), parseJson(b, file, "regenerated", diff), [], diff, () => true);
    else checkText(a, b, diff);
    const problems = diff.finish();
    files.push({ file, status: problems.length > 0 ? "failed" : "within", class: "render", changed: diff.changed, ...(diff.largest ? { largest: diff.largest } : {}), problems });
  }
  files.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
  return { ok: files.every((f) => f.status === "identical" || f.status === "within"), files };
}

function compareFile(file: string, cls: FileCheck["class"], a: Buffer, b: Buffer, records: Map<string, ReproducibilityRecord>): FileCheck {
  if (a.equals(b)) return { file, status: "identical", class: cls, changed: 0, problems: [] };
  const diff = new Diff();
  if (cls === "exact") {
    if (file.endsWith(".json")) {
      checkDocument(file, a, b, undefined, diff);
      if (diff.problems.length === 0) diff.problem("the bytes differ (formatting); an exact file must be byte-identical");
    } else diff.problem(`the bytes differ; an exact file must be byte-identical (${CONTRACT_DOC})`);
  } else if (file.endsWith(".jsonl")) checkRankings(a, b, diff);
  else if (!file.includes("/")) checkDocument(file, a, b, records.get(file), diff);
  else compareJson(parseJson(a, file, "committed", diff), parseJson(b, file, "regenerated", diff), [], diff, () => true);
  const problems = diff.finish();
  return { file, status: problems.length > 0 ? "failed" : "within", class: cls, changed: diff.changed, ...(diff.largest ? { largest: diff.largest } : {}), problems };
}
