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
function readTable(
  bytes: Uint8Array,
  file: string,
  spec: ColumnSpec,
  issues: DataIssue[],
  warnings: string[],
): CsvRow[] | undefined {
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
    issues.push({ where: `${file}:${header.line}`, message: `only a header row, no ${spec.rowKind} rows; add one row per ${spec.rowKind} below the header` });
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
function claimId(firstLine: Map<string, number>, id: string, line: number, at: string, kind: "episode" | "probe", issues: DataIssue[]): boolean {
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

/**
 * Build an EpisodicCorpus from the bytes of `episodes.csv` and `probes.csv` (format in the package README).
 * Collects every problem and throws one DatasetFormatError whose locations are `file:line`.
 */
export function parseCsvCorpus(input: CsvCorpusInput, opts: CsvCorpusOptions & { name: string }): EpisodicCorpus {
  const issues: DataIssue[] = [];
  const warnings: string[] = [];
  const { episodesFile: ef, probesFile: pf } = input;

  let referenceNowMs: number | undefined;
  if (opts.now !== undefined) {
    referenceNowMs = parseIsoDateTime(opts.now);
    if (referenceNowMs === undefined) {
      throw new DatasetError(
        `CSV corpus ${opts.name}: option now=${JSON.stringify(opts.now)} is not an ISO-8601 date-time (e.g. 2025-06-30T12:00:00Z).`,
      );
    }
  }

  const episodeRows = readTable(input.episodes, ef, EPISODE_COLUMNS, issues, warnings);
  const probeRows = readTable(input.probes, pf, PROBE_COLUMNS, issues, warnings);

  const personas: EpisodicPersona[] = [];
  const personaById = new Map<string, EpisodicPersona>();
  const episodeById = new Map<string, { episode: EpisodicEpisode; personaId: string; line: number }>();
  const episodeLines = new Map<string, number>();
  const personasSeen = new Set<string>(); // every persona named by an episode row, valid or not
  if (episodeRows) {
    for (const row of episodeRows) {
      const at = `${ef}:${row.line}`;
      const personaId = field(row, "persona_id", ef, issues);
      const id = field(row, "episode_id", ef, issues);
      const dateTime = field(row, "date_time", ef, issues);
      const text = field(row, "text", ef, issues, false);
      if (personaId !== undefined) personasSeen.add(personaId);
      let timestampMs: number | undefined;
      if (dateTime !== undefined) {
        timestampMs = parseIsoDateTime(dateTime);
        if (timestampMs === undefined) {
          issues.push({
            where: at,
            message: `unparseable date_time ${JSON.stringify(dateTime)}; use ISO-8601 such as 2025-03-02T19:30:00 (UTC when no zone) or 2025-03-02T19:30:00+09:00`,
          });
        }
      }
      if (id !== undefined && !claimId(episodeLines, id, row.line, at, "episode", issues)) continue;
      if (personaId === undefined || id === undefined || text === undefined || timestampMs === undefined) continue;
      const emotion = optionalLabel(row, "emotion");
      const intensityBand = optionalLabel(row, "intensity_band");
      const valence = optionalLabel(row, "valence");
      const episode: EpisodicEpisode = {
        id,
        dateTime: dateTime!,
        timestampMs,
        text,
        ...(emotion !== undefined ? { emotion } : {}),
        ...(intensityBand !== undefined ? { intensityBand } : {}),
        ...(valence !== undefined ? { valence } : {}),
        probes: [],
      };
      let persona = personaById.get(personaId);
      if (!persona) {
        persona = { id: personaId, episodes: [] };
        personaById.set(personaId, persona);
        personas.push(persona);
      }
      persona.episodes.push(episode);
      episodeById.set(id, { episode, personaId, line: row.line });
    }
  }

  if (probeRows) {
    const probeLines = new Map<string, number>();
    for (const row of probeRows) {
      const at = `${pf}:${row.line}`;
      const personaId = field(row, "persona_id", pf, issues);
      const id = field(row, "probe_id", pf, issues);
      const episodeId = field(row, "episode_id", pf, issues);
      const type = field(row, "type", pf, issues);
      const query = field(row, "query", pf, issues, false);
      if (id !== undefined && !claimId(probeLines, id, row.line, at, "probe", issues)) continue;
      if (!episodeRows) continue; // episodes.csv unusable: its own issues are already reported
      if (personaId !== undefined && !personasSeen.has(personaId)) {
        issues.push({ where: at, message: `persona_id "${personaId}" has no episodes in ${ef}` });
        continue;
      }
      if (episodeId === undefined) continue;
      const target = episodeById.get(episodeId);
      if (!target && episodeLines.has(episodeId)) continue; // the episode row itself was rejected and reported
      if (!target) {
        issues.push({ where: at, message: `target episode_id "${episodeId}" does not exist in ${ef}` });
        continue;
      }
      if (personaId !== undefined && target.personaId !== personaId) {
        issues.push({
          where: at,
          message: `target episode_id "${episodeId}" belongs to persona "${target.personaId}" (${ef}:${target.line}), not "${personaId}"`,
        });
        continue;
      }
      if (id === undefined || type === undefined || query === undefined) continue;
      const probe: EpisodicProbe = { id, type, query };
      target.episode.probes.push(probe);
    }
  }

  if (issues.length > 0) throw new DatasetFormatError(`CSV corpus "${opts.name}"`, issues);

  for (const p of personas) {
    if (p.episodes.length <= 3) {
      warnings.push(
        `persona "${p.id}" has only ${p.episodes.length} episode${p.episodes.length === 1 ? "" : "s"}; ` +
          "with 3 or fewer candidates, recall@3 is trivially high for every strategy",
      );
    }
  }

  if (referenceNowMs === undefined) {
    let latest = -Infinity;
    for (const p of personas) for (const e of p.episodes) latest = Math.max(latest, e.timestampMs);
    referenceNowMs = latest + DAY_MS;
  }
  return {
    name: opts.name,
    referenceNow: opts.now ?? formatIsoUtc(referenceNowMs),
    referenceNowMs,
    personas,
    sha256: sha256Hex(input.episodes, input.probes),
    source: `${ef} + ${pf}`,
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
export async function loadCsvCorpus(
  episodesPath: string,
  probesPath: string,
  opts: CsvCorpusOptions = {},
): Promise<EpisodicCorpus> {
  const [episodes, probes] = await Promise.all([
    readCsvFile(episodesPath, "episodes"),
    readCsvFile(probesPath, "probes"),
  ]);
  const name = opts.name ?? basename(episodesPath, extname(episodesPath));
  return parseCsvCorpus(
    { episodes, probes, episodesFile: episodesPath, probesFile: probesPath },
    { ...opts, name },
  );
}
