import type { z } from "zod";
import { type DataIssue, DatasetFormatError } from "./errors.js";
import { checkShaped, isIntIn, isRecord, isStrings, isText } from "./issues.js";
import { parseJsonBytes } from "./json.js";
import type { LocomoDataset } from "./locomo.js";
import { LOCOMO_AUDIT } from "./pinned.js";
import { type ResolveOptions, resolveDataset } from "./resolve.js";
import { lazily, zod } from "./zod.js";

/** The audit's error types (dial481/locomo-audit `errors.json`, field `error_type`). */
export const LOCOMO_AUDIT_ERROR_TYPES = [
  "WRONG_CITATION",
  "HALLUCINATION",
  "TEMPORAL_ERROR",
  "ATTRIBUTION_ERROR",
  "AMBIGUOUS",
  "INCOMPLETE",
] as const;
/** One audit error type. */
export type LocomoAuditErrorType = (typeof LOCOMO_AUDIT_ERROR_TYPES)[number];

/** One audited LoCoMo question: where it is in `locomo10.json` and the auditors' corrected labels. */
export interface LocomoAuditEntry {
  /** `locomo_<conversation>_qa<i>`, both 0-based into `locomo10.json`. */
  questionId: string;
  /** 0-based conversation index in `locomo10.json`. */
  conversation: number;
  /** 0-based index into that conversation's `qa` list. */
  qaIndex: number;
  question: string;
  category: number;
  errorType: LocomoAuditErrorType;
  /** The dataset's own evidence (checked equal to `locomo10.json`). */
  citedEvidence: string[];
  /** The auditors' corrected evidence (may be empty: no turn supports the question). */
  correctEvidence: string[];
  goldenAnswer: string;
  correctAnswer: string;
  reasoning: string;
}

/** The parsed, cross-checked audit file. */
export interface LocomoAudit {
  entries: LocomoAuditEntry[];
  /** sha256 of the file's bytes ("" when parsed from an in-memory value). */
  sha256: string;
  /** Where the bytes came from ("<in-memory>" when unknown). */
  path: string;
}

const QUESTION_ID = /^locomo_(0|[1-9]\d*)_qa(0|[1-9]\d*)$/;

/** The zod schema of an entry: built the first time a value fails its plain check (./zod.ts). */
const entrySchema = lazily(() => {
  const { z } = zod();
  return z.object({
    question_id: z
      .string()
      .regex(QUESTION_ID, "question_id must look like locomo_<conversation>_qa<i> (0-based, no leading zeros), e.g. locomo_0_qa1"),
    question: z.string().min(1, "question must be a non-empty string"),
    golden_answer: z.string(),
    category: z.number().int().min(1, "category must be 1–5").max(5, "category must be 1–5"),
    error_type: z.enum(LOCOMO_AUDIT_ERROR_TYPES, `error_type must be one of ${LOCOMO_AUDIT_ERROR_TYPES.join(", ")}`),
    cited_evidence: z.array(z.string()),
    correct_evidence: z.array(z.string()),
    reasoning: z.string(),
    correct_answer: z.string(),
  });
});
type RawEntry = z.output<ReturnType<typeof entrySchema>>;

const ERROR_TYPES: ReadonlySet<unknown> = new Set(LOCOMO_AUDIT_ERROR_TYPES);

/** What entrySchema accepts, as plain predicates (checkShaped): the pinned file passes them without loading zod. */
const isEntry = (v: unknown): v is RawEntry =>
  isRecord(v) &&
  isText(v.question_id) &&
  QUESTION_ID.test(v.question_id) &&
  isText(v.question, 1) &&
  isText(v.golden_answer) &&
  isIntIn(v.category, 1, 5) &&
  ERROR_TYPES.has(v.error_type) &&
  isStrings(v.cited_evidence) &&
  isStrings(v.correct_evidence) &&
  isText(v.reasoning) &&
  isText(v.correct_answer);

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Validate the audit JSON (an array of entries) and check every entry against LoCoMo: its question_id must name an
 * existing question whose text, category and evidence equal the entry's `question`, `category` and `cited_evidence`.
 * Throws DatasetFormatError listing every problem, each naming the entry, e.g. `[3] (locomo_0_qa9).question`.
 */
export function parseLocomoAudit(json: unknown, locomo: LocomoDataset, sha256 = "", path = "<in-memory>"): LocomoAudit {
  const subject = `LoCoMo audit (${path})`;
  if (!Array.isArray(json)) throw new DatasetFormatError(subject, [{ where: "(root)", message: "expected an array of audit entries" }]);
  const issues: DataIssue[] = [];
  const entries: LocomoAuditEntry[] = [];
  const seen = new Map<string, number>();
  json.forEach((raw, i) => {
    const e = checkShaped(isEntry, entrySchema, raw, [i], issues);
    if (!e) return;
    const at = `[${i}] (${e.question_id})`;
    const prev = seen.get(e.question_id);
    if (prev !== undefined) return void issues.push({ where: `${at}.question_id`, message: `duplicate question_id (also at [${prev}])` });
    seen.set(e.question_id, i);
    const m = QUESTION_ID.exec(e.question_id)!;
    const conversation = Number(m[1]);
    const qaIndex = Number(m[2]);
    const conv = locomo.conversations[conversation];
    if (!conv) {
      return void issues.push({
        where: `${at}.question_id`,
        message: `unknown question: LoCoMo has ${locomo.conversations.length} conversations (0-based), not ${conversation}`,
      });
    }
    const qa = conv.qa[qaIndex];
    if (!qa) {
      return void issues.push({
        where: `${at}.question_id`,
        message: `unknown question: conversation ${conversation} (${conv.sampleId}) has ${conv.qa.length} questions (0-based), not ${qaIndex}`,
      });
    }
    let ok = true;
    if (qa.question !== e.question) {
      ok = false;
      issues.push({
        where: `${at}.question`,
        message: `${JSON.stringify(e.question)} does not match LoCoMo's ${JSON.stringify(qa.question)} — the audit and the dataset disagree on which question this is`,
      });
    }
    if (qa.category !== e.category) {
      ok = false;
      issues.push({ where: `${at}.category`, message: `${e.category} does not match LoCoMo's category ${qa.category}` });
    }
    if (!same(qa.evidence, e.cited_evidence)) {
      ok = false;
      issues.push({
        where: `${at}.cited_evidence`,
        message: `${JSON.stringify(e.cited_evidence)} does not match LoCoMo's evidence ${JSON.stringify(qa.evidence)}`,
      });
    }
    if (!ok) return;
    entries.push({
      questionId: e.question_id,
      conversation,
      qaIndex,
      question: e.question,
      category: e.category,
      errorType: e.error_type,
      citedEvidence: e.cited_evidence,
      correctEvidence: e.correct_evidence,
      goldenAnswer: e.golden_answer,
      correctAnswer: e.correct_answer,
      reasoning: e.reasoning,
    });
  });
  if (json.length === 0) issues.push({ where: "(root)", message: "the array holds no entries" });
  if (issues.length > 0) throw new DatasetFormatError(subject, issues);
  return { entries, sha256, path };
}

/** Resolve the pinned audit file (path → cache → mirror → download, sha256-verified), parse it and check it against `locomo`. */
export async function loadLocomoAudit(locomo: LocomoDataset, opts?: ResolveOptions): Promise<LocomoAudit> {
  const file = await resolveDataset(LOCOMO_AUDIT, opts);
  return parseLocomoAudit(parseJsonBytes(file.bytes, `LoCoMo audit (${file.path})`), locomo, file.sha256, file.path);
}
