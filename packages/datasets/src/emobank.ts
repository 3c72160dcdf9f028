/**
 * EmoBank (Buechel & Hahn, EACL 2017; CC BY-SA 4.0): 10,062 English sentences rated for valence (V),
 * arousal (A) and dominance (D) on 1–5, with the authors' train/dev/test split (Exp. 7). Parsed with
 * csv-parse and validated row by row; every problem is reported as `emobank.csv:line: message`.
 */
import { parse } from "csv-parse/sync";
import { type DataIssue, DatasetFormatError } from "./errors.js";
import { EMOBANK } from "./pinned.js";
import { type ResolveOptions, resolveDataset } from "./resolve.js";
import { lazily, zod } from "./zod.js";

/** The splits of EmoBank. */
export const EMOBANK_SPLITS = ["train", "dev", "test"] as const;
/** The header of `corpus/emobank.csv`, in order. */
export const EMOBANK_COLUMNS = ["id", "split", "V", "A", "D", "text"] as const;

/** One EmoBank sentence. */
export interface EmoBankSentence {
  id: string;
  split: (typeof EMOBANK_SPLITS)[number];
  /** Valence, arousal, dominance on 1–5. */
  valence: number;
  arousal: number;
  dominance: number;
  text: string;
}

/** The parsed corpus with the file's sha256. */
export interface EmoBankDataset {
  sentences: EmoBankSentence[];
  sha256: string;
  source: string;
}

/** What a V, A or D field must look like (checked before it is read as a number). */
const SCORE_RE = /^\d+(\.\d+)?$/;

/** The zod schema of a row, for parseReportingEveryIssue's messages: built the first time a file has a problem (./zod.ts). */
const rowSchema = lazily(() => {
  const { z } = zod();
  const score = (what: string) =>
    z
      .string()
      .regex(SCORE_RE, `${what} must be a number on 1–5`)
      .transform(Number)
      .refine((v) => v >= 1 && v <= 5, `${what} must be on the 1–5 scale`);
  return z.object({
    id: z.string().min(1, "id must not be empty"),
    split: z.enum(EMOBANK_SPLITS, {
      error: (iss) => `unknown split ${JSON.stringify(iss.input)}; expected one of ${EMOBANK_SPLITS.join(", ")}`,
    }),
    V: score("V (valence)"),
    A: score("A (arousal)"),
    D: score("D (dominance)"),
    text: z.string(),
  });
});

/** Validate and convert the EmoBank CSV bytes; throws DatasetFormatError listing every bad line. */
export function parseEmoBank(bytes: Uint8Array, sha256 = "", path = "<in-memory>"): EmoBankDataset {
  return parseWellFormed(bytes, sha256, path) ?? parseReportingEveryIssue(bytes, sha256, path);
}

const SPLITS: ReadonlySet<string> = new Set(EMOBANK_SPLITS);

/** A V, A or D field as rowSchema reads it (the same pattern, Number, the 1–5 range), or NaN where rowSchema reports an issue. */
function scoreOf(field: string): number {
  if (!SCORE_RE.test(field)) return Number.NaN;
  const v = Number(field);
  return v >= 1 && v <= 5 ? v : Number.NaN;
}

/**
 * The sentences of a file without a single problem, by the checks of parseReportingEveryIssue on bare records (no per-record
 * line info, no row objects: the pinned file's 10 062 rows parse in about a third of the time); undefined at the first
 * problem of any kind, and parseReportingEveryIssue then finds and reports them all, with their lines.
 */
function parseWellFormed(bytes: Uint8Array, sha256: string, path: string): EmoBankDataset | undefined {
  let records: string[][];
  try {
    records = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { bom: true, relax_column_count: true }) as string[][];
  } catch {
    return undefined;
  }
  if (records[0]?.join(",") !== EMOBANK_COLUMNS.join(",")) return undefined;
  const sentences: EmoBankSentence[] = [];
  const ids = new Set<string>();
  for (let r = 1; r < records.length; r++) {
    const record = records[r]!;
    if (record.length !== EMOBANK_COLUMNS.length) return undefined;
    const [id, split, V, A, D, text] = record as [string, string, string, string, string, string];
    const [valence, arousal, dominance] = [scoreOf(V), scoreOf(A), scoreOf(D)];
    if (id === "" || ids.has(id) || !SPLITS.has(split) || Number.isNaN(valence) || Number.isNaN(arousal) || Number.isNaN(dominance))
      return undefined;
    ids.add(id);
    sentences.push({ id, split: split as EmoBankSentence["split"], valence, arousal, dominance, text });
  }
  return { sentences, sha256, source: path };
}

/** parseEmoBank's checks, row by row with each record's line: every problem of the file in one DatasetFormatError. */
function parseReportingEveryIssue(bytes: Uint8Array, sha256: string, path: string): EmoBankDataset {
  const subject = `EmoBank (${path})`;
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      bom: true,
      info: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new DatasetFormatError(subject, [
      { where: line ? `${EMOBANK.fileName}:${line}` : EMOBANK.fileName, message: `not valid CSV: ${(e as Error).message}` },
    ]);
  }
  const header = records[0]?.record;
  if (!header || header.join(",") !== EMOBANK_COLUMNS.join(",")) {
    throw new DatasetFormatError(subject, [
      {
        where: `${EMOBANK.fileName}:1`,
        message: `expected the header ${EMOBANK_COLUMNS.join(",")}, found ${header ? header.join(",") : "an empty file"}`,
      },
    ]);
  }
  const issues: DataIssue[] = [];
  const sentences: EmoBankSentence[] = [];
  const ids = new Set<string>();
  for (const { record, info } of records.slice(1)) {
    const where = `${EMOBANK.fileName}:${info.lines}`;
    if (record.length !== EMOBANK_COLUMNS.length) {
      issues.push({ where, message: `expected ${EMOBANK_COLUMNS.length} fields, found ${record.length}` });
      continue;
    }
    const r = rowSchema().safeParse(Object.fromEntries(EMOBANK_COLUMNS.map((c, i) => [c, record[i]])));
    if (!r.success) {
      for (const iss of r.error.issues) issues.push({ where: `${where} (${iss.path.join(".")})`, message: iss.message });
      continue;
    }
    if (ids.has(r.data.id)) issues.push({ where, message: `duplicate id ${JSON.stringify(r.data.id)}` });
    ids.add(r.data.id);
    sentences.push({ id: r.data.id, split: r.data.split, valence: r.data.V, arousal: r.data.A, dominance: r.data.D, text: r.data.text });
  }
  if (issues.length > 0) throw new DatasetFormatError(subject, issues);
  return { sentences, sha256, source: path };
}

/** Resolve the pinned `emobank.csv` (path → cache → mirror → download, sha256-verified) and parse it. */
export async function loadEmoBank(opts?: ResolveOptions): Promise<EmoBankDataset> {
  const file = await resolveDataset(EMOBANK, opts);
  return parseEmoBank(file.bytes, file.sha256, file.path);
}
