import type { z } from "zod";
import { parseLocomoDateTime } from "./dates.js";
import { type DataIssue, DatasetFormatError } from "./errors.js";
import { checkShaped, isArrayOf, isIntIn, isOptionalText, isRecord, isStrings, isText } from "./issues.js";
import { LOCOMO } from "./pinned.js";
import { type ResolveOptions, resolveDataset } from "./resolve.js";
import { parseJsonBytes } from "./json.js";
import { lazily, zod } from "./zod.js";

/**
 * The LoCoMo QA category map: the integer `category` of `locomo10.json` and the reasoning type it labels. The
 * numbering does NOT follow the order in which the paper lists the types (single-hop, multi-hop, temporal,
 * open-domain, adversarial; Maharana et al. 2024 §4.1); it is the one the official evaluation code uses
 * (`task_eval/evaluation.py`), documented by the dataset's maintainers only in issue threads (snap-research/locomo
 * #6, #29) — several harnesses have swapped 1/3/4. test/locomo-categories.test.ts checks it against the data.
 */
export const LOCOMO_CATEGORY_NAMES: Readonly<Record<1 | 2 | 3 | 4 | 5, string>> = Object.freeze({
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
});

/** One dialogue turn; `caption` is LoCoMo's `blip_caption` for a shared photo (docs/spec.md §7 Exp. 5). */
export interface LocomoTurn {
  speaker: string;
  text: string;
  /** Turn id `D<session>:<turn>`, the ranking key in Exp. 5. */
  diaId: string;
  caption?: string;
}

/** One session (`session_N`) with its wall-clock time. */
export interface LocomoSession {
  /** N of `session_N`. */
  index: number;
  /** Raw `session_N_date_time`, e.g. "1:56 pm on 8 May, 2023". */
  dateTime: string;
  /** `dateTime` read as UTC, epoch ms. */
  timestampMs: number;
  turns: LocomoTurn[];
}

/** One question with its gold evidence turn references. */
export interface LocomoQA {
  question: string;
  answer?: string | number;
  /** Reasoning type, named by LOCOMO_CATEGORY_NAMES (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial). */
  category: number;
  /** Raw evidence strings (usually one `D<n>:<n>` each, sometimes several or malformed). */
  evidence: string[];
  adversarialAnswer?: string;
}

/** One LoCoMo conversation between two speakers. */
export interface LocomoConversation {
  sampleId: string;
  speakerA: string;
  speakerB: string;
  /** Sessions in numeric order of N. */
  sessions: LocomoSession[];
  qa: LocomoQA[];
}

/** The parsed LoCoMo file. */
export interface LocomoDataset {
  conversations: LocomoConversation[];
  /** sha256 of the file's bytes ("" when parsed from an in-memory value without one). */
  sha256: string;
  /** Where the bytes came from ("<in-memory>" when unknown). */
  path: string;
}

const DIA_ID = /^D\d+:\d+$/;

/** The zod schemas of a sample, a turn and a question: built the first time a value fails its plain check (./zod.ts). */
const schemas = lazily(() => {
  const { z } = zod();
  return {
    turn: z.object({
      speaker: z.string().min(1, "speaker must be a non-empty string"),
      text: z.string(),
      dia_id: z.string().regex(DIA_ID, "dia_id must look like D<session>:<turn>, e.g. D1:3"),
      blip_caption: z.string().optional(),
    }),
    qa: z.object({
      question: z.string().min(1, "question must be a non-empty string"),
      answer: z.union([z.string(), z.number()]).optional(),
      category: z.number().int().min(1, "category must be 1–5").max(5, "category must be 1–5"),
      evidence: z.array(z.string()),
      adversarial_answer: z.string().optional(),
    }),
    sample: z.object({
      sample_id: z.string().min(1),
      conversation: z.looseObject({
        speaker_a: z.string().min(1),
        speaker_b: z.string().min(1),
      }),
      qa: z.array(z.unknown()),
    }),
  };
});
type Schemas = ReturnType<typeof schemas>;
type RawTurn = z.output<Schemas["turn"]>;
type RawQa = z.output<Schemas["qa"]>;
type RawSample = z.output<Schemas["sample"]>;

// What each schema accepts, as plain predicates (checkShaped): the pinned file passes them without loading zod.
const isTurn = (v: unknown): v is RawTurn =>
  isRecord(v) && isText(v.speaker, 1) && isText(v.text) && isText(v.dia_id) && DIA_ID.test(v.dia_id) && isOptionalText(v.blip_caption);
const isQa = (v: unknown): v is RawQa =>
  isRecord(v) &&
  isText(v.question, 1) &&
  (v.answer === undefined || typeof v.answer === "string" || (typeof v.answer === "number" && Number.isFinite(v.answer))) &&
  isIntIn(v.category, 1, 5) &&
  isStrings(v.evidence) &&
  isOptionalText(v.adversarial_answer);
const isSample = (v: unknown): v is RawSample =>
  isRecord(v) &&
  isText(v.sample_id, 1) &&
  isRecord(v.conversation) &&
  isText(v.conversation.speaker_a, 1) &&
  isText(v.conversation.speaker_b, 1) &&
  // zod reads a hole as an undefined question (reported by the question check); forEach would skip it
  isArrayOf(v.qa, () => true);

const SESSION_KEY = /^session_(\d+)$/;

/**
 * Validate and convert the LoCoMo JSON (an array of samples) into typed conversations.
 * Throws DatasetFormatError listing every problem with its exact path, e.g. `[2].conversation.session_4[7].dia_id`.
 */
export function parseLocomo(json: unknown, sha256 = "", path = "<in-memory>"): LocomoDataset {
  const issues: DataIssue[] = [];
  if (!Array.isArray(json)) {
    throw new DatasetFormatError(`LoCoMo (${path})`, [{ where: "(root)", message: "expected an array of conversations" }]);
  }
  const conversations: LocomoConversation[] = [];
  const sampleIds = new Map<string, number>();
  json.forEach((raw, ci) => {
    const sample = checkShaped(isSample, () => schemas().sample, raw, [ci], issues);
    if (!sample) return;
    const prev = sampleIds.get(sample.sample_id);
    if (prev !== undefined) {
      issues.push({ where: `[${ci}].sample_id`, message: `duplicate sample_id "${sample.sample_id}" (also at [${prev}])` });
    }
    sampleIds.set(sample.sample_id, ci);
    const conv = sample.conversation as Record<string, unknown>;
    // Keep each key as written: "session_01" names session 1 but its list is conv["session_01"].
    const sessionKeys = Object.keys(conv)
      .map((k) => SESSION_KEY.exec(k))
      .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
      .map((m) => ({ key: m[0], n: Number(m[1]) }))
      .sort((a, b) => a.n - b.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const sessions: LocomoSession[] = [];
    const diaIds = new Map<string, string>();
    const sessionAt = new Map<number, string>();
    for (const { key, n } of sessionKeys) {
      const other = sessionAt.get(n);
      if (other !== undefined) {
        issues.push({ where: `[${ci}].conversation.${key}`, message: `session ${n} appears twice (also as ${other})` });
        continue;
      }
      sessionAt.set(n, key);
      const dtKey = `${key}_date_time`;
      const dateTime = conv[dtKey];
      let timestampMs: number | undefined;
      if (typeof dateTime !== "string") {
        issues.push({
          where: `[${ci}].conversation.${dtKey}`,
          message: `missing or not a string: every ${key} list needs a time like "1:56 pm on 8 May, 2023"`,
        });
      } else {
        timestampMs = parseLocomoDateTime(dateTime);
        if (timestampMs === undefined) {
          issues.push({
            where: `[${ci}].conversation.${dtKey}`,
            message: `unparseable session time ${JSON.stringify(dateTime)}; expected the form "1:56 pm on 8 May, 2023"`,
          });
        }
      }
      const turns: LocomoTurn[] = [];
      (conv[key] as unknown[]).forEach((rawTurn, ti) => {
        const t = checkShaped(isTurn, () => schemas().turn, rawTurn, [ci, "conversation", key, ti], issues);
        if (!t) return;
        const where = `[${ci}].conversation.${key}[${ti}].dia_id`;
        const seen = diaIds.get(t.dia_id);
        if (seen !== undefined) issues.push({ where, message: `duplicate dia_id "${t.dia_id}" (also at ${seen})` });
        else diaIds.set(t.dia_id, where);
        const turn: LocomoTurn = { speaker: t.speaker, text: t.text, diaId: t.dia_id };
        if (t.blip_caption !== undefined) turn.caption = t.blip_caption;
        turns.push(turn);
      });
      if (typeof dateTime === "string" && timestampMs !== undefined) {
        sessions.push({ index: n, dateTime, timestampMs, turns });
      }
    }
    if (sessionKeys.length === 0) {
      issues.push({ where: `[${ci}].conversation`, message: "no session_N lists found" });
    }
    const qa: LocomoQA[] = [];
    sample.qa.forEach((rawQa, qi) => {
      const q = checkShaped(isQa, () => schemas().qa, rawQa, [ci, "qa", qi], issues);
      if (!q) return;
      const item: LocomoQA = { question: q.question, category: q.category, evidence: q.evidence };
      if (q.answer !== undefined) item.answer = q.answer;
      if (q.adversarial_answer !== undefined) item.adversarialAnswer = q.adversarial_answer;
      qa.push(item);
    });
    conversations.push({
      sampleId: sample.sample_id,
      speakerA: sample.conversation.speaker_a,
      speakerB: sample.conversation.speaker_b,
      sessions,
      qa,
    });
  });
  if (json.length === 0) issues.push({ where: "(root)", message: "the array holds no conversations" });
  if (issues.length > 0) throw new DatasetFormatError(`LoCoMo (${path})`, issues);
  return { conversations, sha256, path };
}

/** Resolve the pinned `locomo10.json` (path → cache → mirror → download, sha256-verified) and parse it. */
export async function loadLocomo(opts?: ResolveOptions): Promise<LocomoDataset> {
  const file = await resolveDataset(LOCOMO, opts);
  return parseLocomo(parseJsonBytes(file.bytes, `LoCoMo (${file.path})`), file.sha256, file.path);
}
