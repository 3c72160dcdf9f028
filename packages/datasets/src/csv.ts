import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { parse } from "csv-parse/sync";
import { DAY_MS, parseIsoDateTime } from "@persode/util";
import type { EpisodicCorpus, EpisodicEpisode, EpisodicPersona, EpisodicProbe } from "./corpus.js";
import { formatIsoUtc } from "./dates.js";
import { type DataIssue, DatasetError, DatasetFormatError } from "./errors.js";
import { sha256Hex } from "./hash.js";

/** Columns of `episodes.csv`: required first, then optional authored labels (reported in strata, never retrieval inputs). */
export const EPISODE_COLUMNS = {
  required: ["persona_id", "episode_id", "date_time", "text"],
  optional: ["intensity_band", "valence", "emotion"],
  rowKind: "episode",
} as const;

/** Columns of `probes.csv` (all required); `episode_id` is the probe's single target. */
export const PROBE_COLUMNS = {
  required: ["persona_id", "probe_id", "episode_id", "type", "query"],
  optional: [],
  rowKind: "probe",
} as const;

/** Options for a bring-your-own CSV corpus. */
export interface CsvCorpusOptions {
  /** Corpus name; default: the episodes file's base name without extension. */
  name?: string;
  /** Evaluation clock (ISO-8601); default: the latest episode time + 1 day. */
  now?: string;
}

/** One data row of a CSV table with the 1-based line where it starts. */
interface CsvRow {
  line: number;
  values: Map<string, string>;
}

interface ColumnSpec {
  required: readonly string[];
  optional: readonly string[];
  /** What one row is, for messages ("episode", "probe"). */
  rowKind: string;
}

/** Byte offsets where each line starts (\r\n, \n and a lone \r each end a line). */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) starts.push(i + 1);
    else if (b === 0x0d) {
      if (bytes[i + 1] === 0x0a) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** 1-based line number of a byte offset. */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Parse one RFC 4180 CSV table (UTF-8, header row) into rows keyed by lower-cased header names, each with its
 * starting line. Problems are appended to `issues` as `file:line: message`; returns undefined when the table is unusable.
 */
function readTable(bytes: Uint8Array, file: string, spec: ColumnSpec, issues: DataIssue[], warnings: string[]): CsvRow[] | undefined {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    issues.push({ where: file, message: "not valid UTF-8; save the file as UTF-8 (CSV UTF-8 in spreadsheet apps)" });
    return undefined;
  }
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    records = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      bom: true,
      info: true,
      skip_empty_lines: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    issues.push({ where: line ? `${file}:${line}` : file, message: `not valid CSV: ${(e as Error).message}` });
    return undefined;
  }
  const starts = lineStarts(bytes);
  let prevEnd = 0;
  const withLines = records.map(({ record, info }) => {
    let start = prevEnd;
    while (start < bytes.length && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
    prevEnd = info.bytes;
    return { record, line: lineOf(starts, start) };
  });
  const header = withLines[0];
  if (!header) {
    issues.push({ where: file, message: `the file is empty; expected a header row: ${spec.required.join(",")}` });
    return undefined;
  }
  const names = header.record.map((h) => h.trim().toLowerCase());
  const known = new Set<string>([...spec.required, ...spec.optional]);
  const seen = new Set<string>();
  let ok = true;
  for (const n of names) {
    if (seen.has(n)) {
      issues.push({ where: `${file}:${header.line}`, message: `column "${n}" appears twice in the header` });
      ok = false;
    }
    seen.add(n);
  }
  const missing = spec.required.filter((c) => !seen.has(c));
  if (missing.length > 0) {
    issues.push({
      where: `${file}:${header.line}`,
      message:
        `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; the header must contain ` +
        `${spec.required.join(", ")}${spec.optional.length ? ` (optional: ${spec.optional.join(", ")})` : ""}; found: ${names.join(", ")}`,
    });
    ok = false;
  }
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    warnings.push(`${file}:${header.line}: ignoring unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}`);
  }
  if (!ok) return undefined;
  const rows: CsvRow[] = [];
  for (const r of withLines.slice(1)) {
    if (r.record.every((v) => v.trim() === "")) continue;
    const values = new Map<string, string>();
    names.forEach((n, i) => {
      if (known.has(n)) values.set(n, r.record[i] ?? "");
    });
    rows.push({ line: r.line, values });
  }
  if (rows.length === 0) {
    issues.push({
      where: `${file}:${header.line}`,
      message: `only a header row, no ${spec.rowKind} rows; add one row per ${spec.rowKind} below the header`,
    });
  }
  return rows;
}

/** Read a required text field; report it at `file:line` when blank. `trim` for ids and labels, not for prose. */
function field(row: CsvRow, col: string, file: string, issues: DataIssue[], trim = true): string | undefined {
  const raw = row.values.get(col) ?? "";
  if (raw.trim() === "") {
    issues.push({ where: `${file}:${row.line}`, message: `empty ${col}` });
    return undefined;
  }
  return trim ? raw.trim() : raw;
}

function optionalLabel(row: CsvRow, col: string): string | undefined {
  const v = (row.values.get(col) ?? "").trim();
  return v === "" ? undefined : v;
}

/** Record the first line of an id; a repeated id is reported at `at` and returns false (the row is skipped). */
function claimId(
  firstLine: Map<string, number>,
  id: string,
  line: number,
  at: string,
  kind: "episode" | "probe",
  issues: DataIssue[],
): boolean {
  const prev = firstLine.get(id);
  if (prev !== undefined) {
    issues.push({ where: at, message: `duplicate ${kind}_id "${id}" (first at line ${prev}); ${kind} ids are unique per corpus` });
    return false;
  }
  firstLine.set(id, line);
  return true;
}

/** Bytes and display names of the two files of a CSV corpus. */
export interface CsvCorpusInput {
  episodes: Uint8Array;
  probes: Uint8Array;
  /** Shown in error locations, e.g. "journal/episodes.csv". */
  episodesFile: string;
  probesFile: string;
}

/** The `now` option as epoch ms (undefined when not given); a value that is not ISO-8601 throws before any file is read. */
function parseReferenceNow(opts: CsvCorpusOptions & { name: string }): number | undefined {
  if (opts.now === undefined) return undefined;
  const ms = parseIsoDateTime(opts.now);
  if (ms === undefined) {
    throw new DatasetError(
      `CSV corpus ${opts.name}: option now=${JSON.stringify(opts.now)} is not an ISO-8601 date-time (e.g. 2025-06-30T12:00:00Z).`,
    );
  }
  return ms;
}

/** An accepted episode with its persona and line: what a probe's target resolves to. */
interface IndexedEpisode {
  episode: EpisodicEpisode;
  personaId: string;
  line: number;
}

/** What the episode rows yield: the personas in order of first appearance, and what probe rows are checked against. */
interface EpisodeIndex {
  personas: EpisodicPersona[];
  /** Accepted episodes by id. */
  byId: Map<string, IndexedEpisode>;
  /** First line of every episode id, accepted or rejected (a probe aimed at a rejected row is not reported twice). */
  idLines: Map<string, number>;
  /** Every persona named by an episode row, valid or not. */
  personasSeen: Set<string>;
}

/** Parse a row's date_time; an unparseable value is reported at `at` and yields undefined. */
function episodeTimestamp(dateTime: string, at: string, issues: DataIssue[]): number | undefined {
  const ms = parseIsoDateTime(dateTime);
  if (ms === undefined) {
    issues.push({
      where: at,
      message: `unparseable date_time ${JSON.stringify(dateTime)}; use ISO-8601 such as 2025-03-02T19:30:00 (UTC when no zone) or 2025-03-02T19:30:00+09:00`,
    });
  }
  return ms;
}

/**
 * Validate one episode row and record its persona and id in `index`; returns the row's persona and episode, or
 * undefined when the row is rejected (its problems are in `issues`).
 */
function readEpisodeRow(
  row: CsvRow,
  file: string,
  index: EpisodeIndex,
  issues: DataIssue[],
): { personaId: string; episode: EpisodicEpisode } | undefined {
  const at = `${file}:${row.line}`;
  const personaId = field(row, "persona_id", file, issues);
  const id = field(row, "episode_id", file, issues);
  const dateTime = field(row, "date_time", file, issues);
  const text = field(row, "text", file, issues, false);
  if (personaId !== undefined) index.personasSeen.add(personaId);
  const timestampMs = dateTime === undefined ? undefined : episodeTimestamp(dateTime, at, issues);
  if (id !== undefined && !claimId(index.idLines, id, row.line, at, "episode", issues)) return undefined;
  if (personaId === undefined || id === undefined || dateTime === undefined || text === undefined || timestampMs === undefined) {
    return undefined;
  }
  const emotion = optionalLabel(row, "emotion");
  const intensityBand = optionalLabel(row, "intensity_band");
  const valence = optionalLabel(row, "valence");
  const episode: EpisodicEpisode = {
    id,
    dateTime,
    timestampMs,
    text,
    ...(emotion !== undefined ? { emotion } : {}),
    ...(intensityBand !== undefined ? { intensityBand } : {}),
    ...(valence !== undefined ? { valence } : {}),
    probes: [],
  };
  return { personaId, episode };
}

/** Build the personas (in order of first appearance) and their episodes (in file order) from the episode rows. */
function indexEpisodes(rows: CsvRow[], file: string, issues: DataIssue[]): EpisodeIndex {
  const index: EpisodeIndex = { personas: [], byId: new Map(), idLines: new Map(), personasSeen: new Set() };
  const personaById = new Map<string, EpisodicPersona>();
  for (const row of rows) {
    const accepted = readEpisodeRow(row, file, index, issues);
    if (!accepted) continue;
    const { personaId, episode } = accepted;
    let persona = personaById.get(personaId);
    if (!persona) {
      persona = { id: personaId, episodes: [] };
      personaById.set(personaId, persona);
      index.personas.push(persona);
    }
    persona.episodes.push(episode);
    index.byId.set(episode.id, { episode, personaId, line: row.line });
  }
  return index;
}

/** The fields of one probe row, undefined where blank (already reported), and its location. */
interface ProbeRow {
  at: string;
  personaId: string | undefined;
  id: string | undefined;
  episodeId: string | undefined;
  type: string | undefined;
  query: string | undefined;
}

/** Read one probe row's fields and claim its id; undefined when the id repeats an earlier row's (reported). */
function readProbeRow(row: CsvRow, file: string, probeLines: Map<string, number>, issues: DataIssue[]): ProbeRow | undefined {
  const at = `${file}:${row.line}`;
  const probe: ProbeRow = {
    at,
    personaId: field(row, "persona_id", file, issues),
    id: field(row, "probe_id", file, issues),
    episodeId: field(row, "episode_id", file, issues),
    type: field(row, "type", file, issues),
    query: field(row, "query", file, issues, false),
  };
  if (probe.id !== undefined && !claimId(probeLines, probe.id, row.line, at, "probe", issues)) return undefined;
  return probe;
}

/**
 * The cross-file rules: a probe's persona has episodes, and its target episode exists and belongs to that persona.
 * Returns the gold episode, or undefined when a rule fails (reported) or the target was blank or rejected itself.
 */
function resolveGold(probe: ProbeRow, episodes: EpisodeIndex, episodesFile: string, issues: DataIssue[]): IndexedEpisode | undefined {
  const { at, personaId, episodeId } = probe;
  if (personaId !== undefined && !episodes.personasSeen.has(personaId)) {
    issues.push({ where: at, message: `persona_id "${personaId}" has no episodes in ${episodesFile}` });
    return undefined;
  }
  if (episodeId === undefined) return undefined;
  const target = episodes.byId.get(episodeId);
  if (!target) {
    // An episode row that was itself rejected is reported already; only an id no row claims is new.
    if (!episodes.idLines.has(episodeId)) {
      issues.push({ where: at, message: `target episode_id "${episodeId}" does not exist in ${episodesFile}` });
    }
    return undefined;
  }
  if (personaId !== undefined && target.personaId !== personaId) {
    issues.push({
      where: at,
      message: `target episode_id "${episodeId}" belongs to persona "${target.personaId}" (${episodesFile}:${target.line}), not "${personaId}"`,
    });
    return undefined;
  }
  return target;
}

/**
 * Validate the probe rows and attach each valid probe to its gold episode, in probe-file order. `episodes` is
 * undefined when episodes.csv was unusable (its own issues are reported): then only the probe rows themselves are checked.
 */
function attachProbes(rows: CsvRow[], episodes: EpisodeIndex | undefined, input: CsvCorpusInput, issues: DataIssue[]): void {
  const probeLines = new Map<string, number>();
  for (const row of rows) {
    const probe = readProbeRow(row, input.probesFile, probeLines, issues);
    if (!probe || !episodes) continue;
    const gold = resolveGold(probe, episodes, input.episodesFile, issues);
    const { id, type, query } = probe;
    if (!gold || id === undefined || type === undefined || query === undefined) continue;
    const accepted: EpisodicProbe = { id, type, query };
    gold.episode.probes.push(accepted);
  }
}

/** One warning per persona with 3 or fewer episodes, where recall@3 cannot tell strategies apart. */
function smallPersonaWarnings(personas: EpisodicPersona[]): string[] {
  return personas
    .filter((p) => p.episodes.length <= 3)
    .map(
      (p) =>
        `persona "${p.id}" has only ${p.episodes.length} episode${p.episodes.length === 1 ? "" : "s"}; ` +
        "with 3 or fewer candidates, recall@3 is trivially high for every strategy",
    );
}

/** The default evaluation clock: the latest episode time + 1 day. */
function dayAfterLatestEpisode(personas: EpisodicPersona[]): number {
  let latest = -Infinity;
  for (const p of personas) for (const e of p.episodes) latest = Math.max(latest, e.timestampMs);
  return latest + DAY_MS;
}

/**
 * Build an EpisodicCorpus from the bytes of `episodes.csv` and `probes.csv` (format in the package README).
 * Collects every problem and throws one DatasetFormatError whose locations are `file:line`.
 */
export function parseCsvCorpus(input: CsvCorpusInput, opts: CsvCorpusOptions & { name: string }): EpisodicCorpus {
  const nowMs = parseReferenceNow(opts);
  const issues: DataIssue[] = [];
  const warnings: string[] = [];
  const episodeRows = readTable(input.episodes, input.episodesFile, EPISODE_COLUMNS, issues, warnings);
  const probeRows = readTable(input.probes, input.probesFile, PROBE_COLUMNS, issues, warnings);
  const episodes = episodeRows && indexEpisodes(episodeRows, input.episodesFile, issues);
  if (probeRows) attachProbes(probeRows, episodes, input, issues);
  if (issues.length > 0) throw new DatasetFormatError(`CSV corpus "${opts.name}"`, issues);

  // No issues: both tables were usable, so `episodes` is set.
  const personas = episodes?.personas ?? [];
  warnings.push(...smallPersonaWarnings(personas));
  const referenceNowMs = nowMs ?? dayAfterLatestEpisode(personas);
  return {
    name: opts.name,
    referenceNow: opts.now ?? formatIsoUtc(referenceNowMs),
    referenceNowMs,
    personas,
    sha256: sha256Hex(input.episodes, input.probes),
    source: `${input.episodesFile} + ${input.probesFile}`,
    warnings,
  };
}

async function readCsvFile(path: string, role: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DatasetError(
      code === "ENOENT"
        ? `CSV corpus: the ${role} file ${path} does not exist.`
        : `CSV corpus: cannot read the ${role} file ${path}: ${(e as Error).message}`,
    );
  }
}

/**
 * Load a bring-your-own journal corpus from `episodes.csv` and `probes.csv` into the same EpisodicCorpus type as
 * EpiRec, so every EpiRec-style benchmark and strategy runs on it. sha256 = hash of episodes bytes then probes bytes.
 */
export async function loadCsvCorpus(episodesPath: string, probesPath: string, opts: CsvCorpusOptions = {}): Promise<EpisodicCorpus> {
  const [episodes, probes] = await Promise.all([readCsvFile(episodesPath, "episodes"), readCsvFile(probesPath, "probes")]);
  const name = opts.name ?? basename(episodesPath, extname(episodesPath));
  return parseCsvCorpus({ episodes, probes, episodesFile: episodesPath, probesFile: probesPath }, { ...opts, name });
}
