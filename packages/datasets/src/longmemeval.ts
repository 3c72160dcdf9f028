/**
 * LongMemEval (Wu et al., ICLR 2025): questions, each over its own haystack of timestamped user–assistant sessions,
 * evidence labelled per turn (`has_answer`) and per session (`answer_session_ids`). Reads the official files or any
 * file in their format, one question at a time (the top-level array is split into its elements and each element is
 * parsed alone, so LongMemEval_S's 277 MB never becomes one multi-gigabyte object graph), validates every field (a
 * fault names the file, the question id and the field) and counts the quirks the real data has.
 */
import { readFile } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import { parseIsoDateTime } from "@persode/util";
import { DatasetFormatError, DatasetUnavailableError, type DataIssue } from "./errors.js";
import { sha256Hex } from "./hash.js";
import { LONGMEMEVAL_S, datasetLabel, type PinnedDataset } from "./pinned.js";
import { resolveDataset, type ResolveOptions } from "./resolve.js";

/** One turn of a session; `hasAnswer` is the file's `has_answer` (absent in the file: undefined). */
export interface LongMemEvalTurn {
  role: "user" | "assistant";
  content: string;
  hasAnswer?: boolean;
}

/** One haystack session: its id (repeats are possible), its date as written and as UTC epoch ms, its turns. */
export interface LongMemEvalSession {
  id: string;
  date: string;
  timestampMs: number;
  turns: LongMemEvalTurn[];
}

/** One question with its haystack, in file order. */
export interface LongMemEvalQuestion {
  questionId: string;
  questionType: string;
  question: string;
  /** The gold answer as text (the file has numbers for some). */
  answer: string;
  questionDate: string;
  questionTimeMs: number;
  sessions: LongMemEvalSession[];
  answerSessionIds: string[];
  /** The id ends in `_abs` (LongMemEval's abstention questions). */
  abstention: boolean;
}

/** How many questions show each quirk of the real data (all are handled, none is an error). */
export interface LongMemEvalQuirks {
  /** Questions whose haystack repeats a session id. */
  repeated_session_id: number;
  /** Questions whose haystack dates are not in ascending order. */
  dates_out_of_order: number;
  /** Questions whose has_answer turns are all assistant turns (no user-side target: the official averages skip them). */
  evidence_only_in_assistant: number;
  /** Questions with no has_answer turn at all. */
  no_evidence_turn: number;
  /** Abstention questions (`_abs`). */
  abstention: number;
  /** Questions with a turn of an `answer` session that has no has_answer field (the official code asserts it is there; read as false). */
  answer_session_turn_without_has_answer: number;
  /** Dates whose weekday in parentheses is not that date's weekday. */
  weekday_mismatch: number;
}

/** A parsed LongMemEval-format file. */
export interface LongMemEvalDataset {
  questions: LongMemEvalQuestion[];
  sha256: string;
  path: string;
  quirks: LongMemEvalQuirks;
  /** Distinct turn texts (content is interned: a session repeated across haystacks is stored once). */
  distinctTexts: number;
}

const DATE_RE = /^(\d{4})\/(\d{2})\/(\d{2}) \((Sun|Mon|Tue|Wed|Thu|Fri|Sat)\) (\d{2}):(\d{2})$/;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * Parse a LongMemEval date such as `2023/05/20 (Sat) 02:21` as UTC; undefined when malformed or impossible. Reports the weekday check
 * separately.
 */
export function parseLongMemEvalDate(text: string): { ms: number; weekdayMatches: boolean } | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const ms = parseIsoDateTime(`${m[1]}-${m[2]}-${m[3]}T${m[5]}:${m[6]}`);
  if (ms === undefined) return undefined;
  return { ms, weekdayMatches: WEEKDAYS[new Date(ms).getUTCDay()] === m[4] };
}

/** The byte ranges of the elements of a top-level JSON array, found without parsing them; throws on a malformed or truncated array. */
function arrayElements(bytes: Uint8Array, subject: string): [number, number][] {
  const fail = (message: string): never => {
    throw new DatasetFormatError(subject, [{ where: "(file)", message }]);
  };
  const n = bytes.length;
  let i = 0;
  const ws = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  if (n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < n && ws(bytes[i]!)) i++;
  if (bytes[i] !== 0x5b) fail("not a LongMemEval file: the top level must be a JSON array of questions");
  i++;
  const out: [number, number][] = [];
  for (;;) {
    while (i < n && ws(bytes[i]!)) i++;
    if (i >= n) fail(`truncated: the array is not closed (after ${out.length} complete questions, at byte ${n})`);
    if (bytes[i] === 0x5d && out.length === 0) {
      i++;
      break;
    }
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = bytes[i]!;
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) break;
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (c === 0x2c && depth === 0) break;
    }
    if (depth !== 0 || inString || i > n)
      fail(`truncated: question ${out.length} (from byte ${start}) is not complete at the end of the file (byte ${n})`);
    out.push([start, i]);
    while (i < n && ws(bytes[i]!)) i++;
    if (i >= n) fail(`truncated: the array is not closed (after ${out.length} complete questions, at byte ${n})`);
    if (bytes[i] === 0x2c) {
      i++;
      continue;
    }
    if (bytes[i] === 0x5d) {
      i++;
      break;
    }
    fail(`expected "," or "]" after question ${out.length - 1} at byte ${i}`);
  }
  while (i < n && ws(bytes[i]!)) i++;
  if (i !== n) fail(`unexpected bytes after the array at byte ${i}`);
  return out;
}

/** Validate one parsed question; pushes issues located as `question <id>.field`. */
function readQuestion(
  raw: unknown,
  index: number,
  issues: DataIssue[],
  intern: (s: string) => string,
  quirks: LongMemEvalQuirks,
): LongMemEvalQuestion | undefined {
  const before = issues.length;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    issues.push({ where: `[${index}]`, message: "a question must be a JSON object" });
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const qid = typeof r.question_id === "string" && r.question_id !== "" ? r.question_id : undefined;
  const at = (field: string) => `question ${qid ?? `#${index} (no question_id)`} (element ${index}).${field}`;
  const bad = (field: string, message: string) => void issues.push({ where: at(field), message });
  if (qid === undefined) bad("question_id", "must be a non-empty string");
  const str = (field: string): string => {
    const v = r[field];
    if (typeof v !== "string") bad(field, `must be a string, got ${v === undefined ? "nothing" : JSON.stringify(v)?.slice(0, 40)}`);
    return typeof v === "string" ? v : "";
  };
  const questionType = str("question_type");
  const question = str("question");
  const answer =
    typeof r.answer === "string" || typeof r.answer === "number" ? String(r.answer) : (bad("answer", "must be a string or a number"), "");
  const questionDate = str("question_date");
  let weekdayMismatch = false;
  const date = (field: string, text: string): number => {
    const p = parseLongMemEvalDate(text);
    if (!p) {
      bad(field, `"${text}" is not a date like "2023/05/20 (Sat) 02:21"`);
      return 0;
    }
    if (!p.weekdayMatches) weekdayMismatch = true;
    return p.ms;
  };
  const questionTimeMs = questionDate ? date("question_date", questionDate) : 0;
  const ids = r.haystack_session_ids;
  const dates = r.haystack_dates;
  const sessionsRaw = r.haystack_sessions;
  const answerIds = r.answer_session_ids;
  const strArray = (field: string, v: unknown): string[] => {
    if (!Array.isArray(v)) return (bad(field, "must be an array"), []);
    v.forEach((x, i) => typeof x !== "string" && bad(`${field}[${i}]`, "must be a string"));
    return v.filter((x): x is string => typeof x === "string");
  };
  const sid = strArray("haystack_session_ids", ids);
  const sdates = strArray("haystack_dates", dates);
  const aids = strArray("answer_session_ids", answerIds);
  if (!Array.isArray(sessionsRaw)) bad("haystack_sessions", "must be an array of sessions");
  const sraw = Array.isArray(sessionsRaw) ? sessionsRaw : [];
  if (
    Array.isArray(ids) &&
    Array.isArray(dates) &&
    Array.isArray(sessionsRaw) &&
    (ids.length !== sraw.length || dates.length !== sraw.length)
  ) {
    bad(
      "haystack_sessions",
      `haystack_session_ids (${ids.length}), haystack_dates (${dates.length}) and haystack_sessions (${sraw.length}) must have the same length`,
    );
  }
  const sessions: LongMemEvalSession[] = [];
  sraw.forEach((s, si) => {
    const f = `haystack_sessions[${si}]`;
    if (!Array.isArray(s)) return bad(f, "must be an array of turns");
    const turns: LongMemEvalTurn[] = [];
    s.forEach((t: unknown, ti) => {
      const tf = `${f}[${ti}]`;
      if (typeof t !== "object" || t === null) return bad(tf, "must be an object with role and content");
      const tt = t as Record<string, unknown>;
      if (tt.role !== "user" && tt.role !== "assistant")
        return bad(`${tf}.role`, `must be "user" or "assistant", got ${JSON.stringify(tt.role)}`);
      if (typeof tt.content !== "string") return bad(`${tf}.content`, "must be a string");
      if (tt.has_answer !== undefined && typeof tt.has_answer !== "boolean")
        return bad(`${tf}.has_answer`, "must be true or false when present");
      turns.push(
        tt.has_answer === undefined
          ? { role: tt.role, content: intern(tt.content) }
          : { role: tt.role, content: intern(tt.content), hasAnswer: tt.has_answer },
      );
    });
    const dateText = sdates[si] ?? "";
    sessions.push({ id: sid[si] ?? "", date: dateText, timestampMs: dateText ? date(`haystack_dates[${si}]`, dateText) : 0, turns });
  });
  if (issues.length > before) return undefined;
  const q: LongMemEvalQuestion = {
    questionId: qid!,
    questionType,
    question,
    answer,
    questionDate,
    questionTimeMs,
    sessions,
    answerSessionIds: aids,
    abstention: qid!.includes("_abs"),
  };
  // Quirks, counted per question.
  if (new Set(sid).size !== sid.length) quirks.repeated_session_id++;
  if (sessions.some((s, i) => i > 0 && s.timestampMs < sessions[i - 1]!.timestampMs)) quirks.dates_out_of_order++;
  const evidence = sessions.flatMap((s) => s.turns.filter((t) => t.hasAnswer === true));
  if (evidence.length === 0) quirks.no_evidence_turn++;
  else if (evidence.every((t) => t.role === "assistant")) quirks.evidence_only_in_assistant++;
  if (q.abstention) quirks.abstention++;
  if (sessions.some((s) => s.id.includes("answer") && s.turns.some((t) => t.role === "user" && t.hasAnswer === undefined)))
    quirks.answer_session_turn_without_has_answer++;
  if (weekdayMismatch) quirks.weekday_mismatch++;
  return q;
}

/** Parse the bytes of a LongMemEval-format file; every problem is reported with its question id and field, nothing partial is returned. */
export function parseLongMemEval(
  bytes: Uint8Array,
  sha256: string,
  path: string,
  subject = `LongMemEval file (${path})`,
): LongMemEvalDataset {
  const ranges = arrayElements(bytes, subject);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const issues: DataIssue[] = [];
  const quirks: LongMemEvalQuirks = {
    repeated_session_id: 0,
    dates_out_of_order: 0,
    evidence_only_in_assistant: 0,
    no_evidence_turn: 0,
    abstention: 0,
    answer_session_turn_without_has_answer: 0,
    weekday_mismatch: 0,
  };
  const texts = new Map<string, string>();
  const intern = (s: string) => {
    const seen = texts.get(s);
    if (seen !== undefined) return seen;
    texts.set(s, s);
    return s;
  };
  const questions: LongMemEvalQuestion[] = [];
  const seenIds = new Map<string, number>();
  ranges.forEach(([a, b], index) => {
    let raw: unknown;
    try {
      raw = JSON.parse(decoder.decode(bytes.subarray(a, b)));
    } catch (e) {
      issues.push({ where: `element ${index} (bytes ${a}–${b})`, message: `not valid JSON: ${(e as Error).message}` });
      return;
    }
    const q = readQuestion(raw, index, issues, intern, quirks);
    if (!q) return;
    const prev = seenIds.get(q.questionId);
    if (prev !== undefined)
      issues.push({ where: `question ${q.questionId} (element ${index}).question_id`, message: `repeats the id of element ${prev}` });
    else seenIds.set(q.questionId, index);
    questions.push(q);
  });
  if (issues.length > 0) throw new DatasetFormatError(subject, issues);
  if (questions.length === 0) throw new DatasetFormatError(subject, [{ where: "(file)", message: "the array holds no questions" }]);
  return { questions, sha256, path, quirks, distinctTexts: texts.size };
}

/** Where a LongMemEval file came from, for a result's `meta` (docs/spec.md §8). */
export interface LongMemEvalProvenance {
  /** The pinned dataset's name, or "file" for a `--data FILE` of the user's (then `file` is the path as given). */
  dataset: string;
  file: string;
  sha256: string;
  bytes: number;
  /** "path" | "cache" | "mirror" | "download" for a pinned file; "data-file" for `--data`. */
  source: string;
  pinned: boolean;
}

/** How to load LongMemEval: a user's file (`data`, any LongMemEval-format file, not verified against a pin) or a pinned one. */
export interface LongMemEvalLoadOptions extends ResolveOptions {
  /** A LongMemEval-format file to read instead of the pinned one. */
  data?: string;
  /** The pinned file to resolve when `data` is not given; default LongMemEval_S. */
  pinned?: PinnedDataset;
}

/**
 * Load LongMemEval: `data` when given (read, hashed, validated), else the pinned file (resolved and sha256-verified like every dataset).
 */
export async function loadLongMemEval(
  opts: LongMemEvalLoadOptions = {},
): Promise<LongMemEvalDataset & { provenance: LongMemEvalProvenance }> {
  if (opts.data !== undefined) {
    const abs = resolvePath(opts.data);
    let bytes: Buffer;
    try {
      bytes = await readFile(abs);
    } catch (e) {
      throw new DatasetUnavailableError(
        `LongMemEval file ${abs} (from --data) cannot be read: ${(e as Error).message}. Give the path of a LongMemEval-format JSON file.`,
      );
    }
    const sha = sha256Hex(bytes);
    const ds = parseLongMemEval(bytes, sha, abs);
    return {
      ...ds,
      provenance: { dataset: "file", file: opts.data, sha256: sha, bytes: bytes.length, source: "data-file", pinned: false },
    };
  }
  const pinned = opts.pinned ?? LONGMEMEVAL_S;
  const { data: _d, pinned: _p, ...resolveOpts } = opts;
  const f = await resolveDataset(pinned, resolveOpts);
  const ds = parseLongMemEval(f.bytes, f.sha256, f.path, datasetLabel(pinned));
  return {
    ...ds,
    provenance: { dataset: pinned.name, file: pinned.fileName, sha256: f.sha256, bytes: f.bytes.length, source: f.source, pinned: true },
  };
}
