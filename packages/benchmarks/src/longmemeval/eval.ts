/**
 * `pnpm bench longmemeval-eval`: an outside system's LongMemEval rankings scored under the official protocol
 * (official.ts). Rankings are JSONL, one question per line: `question_id` and `ranked_ids`, every id of the file
 * either a turn id `<session_id>_<n>` (n the 1-based position of the turn among all turns of its session, as the
 * official code numbers them) or a session id. Truncated rankings are fine (what is not listed is not retrieved).
 */
import type { LongMemEvalDataset, LongMemEvalQuestion } from "@persode/datasets";
import { pyRound } from "@persode/util";
import { officialAverages, officialCorpus, officialQuestionMetrics, type OfficialGranularity, type OfficialMetrics } from "./official.js";

/** A rankings file that cannot be scored; the message names the file and the line. */
export class LongMemEvalRankingsError extends Error {
  override name = "LongMemEvalRankingsError";
}

/** One parsed line. */
interface RankingLine {
  line: number;
  questionId: string;
  ids: string[];
}

/** Parse the JSONL text; every structural fault is an error naming the line. */
export function parseLongMemEvalRankings(text: string, file: string): RankingLine[] {
  const out: RankingLine[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let j: unknown;
    try {
      j = JSON.parse(raw);
    } catch (e) {
      throw new LongMemEvalRankingsError(`${file}:${line}: not valid JSON (${(e as Error).message})`);
    }
    const o = j as { question_id?: unknown; ranked_ids?: unknown };
    if (typeof j !== "object" || j === null || Array.isArray(j)) throw new LongMemEvalRankingsError(`${file}:${line}: a line must be a JSON object with question_id and ranked_ids`);
    if (typeof o.question_id !== "string") throw new LongMemEvalRankingsError(`${file}:${line}: question_id must be a string`);
    if (!Array.isArray(o.ranked_ids) || o.ranked_ids.length === 0 || o.ranked_ids.some((x) => typeof x !== "string")) {
      throw new LongMemEvalRankingsError(`${file}:${line}: ranked_ids must be a non-empty array of strings (question ${o.question_id})`);
    }
    const prev = seen.get(o.question_id);
    if (prev !== undefined) throw new LongMemEvalRankingsError(`${file}:${line}: question ${o.question_id} is ranked twice (first on line ${prev})`);
    seen.set(o.question_id, line);
    out.push({ line, questionId: o.question_id, ids: o.ranked_ids as string[] });
  });
  return out;
}

/** The ids of a question's haystack at a granularity (raw, and as the official log relabels them), each with the corpus indices it names (user turns only at turn level). */
function rawIds(q: LongMemEvalQuestion, granularity: OfficialGranularity, officialIds: readonly string[]): { slots: Map<string, number[]>; assistant: Set<string> } {
  const slots = new Map<string, number[]>();
  const assistant = new Set<string>();
  const add = (id: string, c: number) => {
    slots.set(id, [...(slots.get(id) ?? []), c]);
    // The official log's relabelled id (answer -> noans) names the same item.
    if (officialIds[c] !== id) slots.set(officialIds[c]!, [...(slots.get(officialIds[c]!) ?? []), c]);
  };
  let c = 0;
  for (const s of q.sessions) {
    if (granularity === "session") {
      add(s.id, c++);
      continue;
    }
    s.turns.forEach((t, i) => {
      const id = `${s.id}_${i + 1}`;
      if (t.role === "user") add(id, c++);
      else assistant.add(id);
    });
  }
  return { slots, assistant };
}

/** The granularity of a file: session when every id names a haystack session of its question, else turn. */
function detectGranularity(lines: readonly RankingLine[], byId: ReadonlyMap<string, LongMemEvalQuestion>): OfficialGranularity {
  const isSession = lines.every((l) => {
    const q = byId.get(l.questionId)!;
    const ids = new Set([...q.sessions.map((s) => s.id), ...officialCorpus(q, "session").ids]);
    return l.ids.every((x) => ids.has(x));
  });
  return isSession ? "session" : "turn";
}

/** The official report of an outside system's rankings. */
export interface LongMemEvalEvalReport {
  granularity: OfficialGranularity;
  questions: number;
  missing_scored_empty: number;
  assistant_turn_ids_dropped: number;
  averaged_questions: number;
  ignored_abstention: number;
  ignored_no_target: number;
  metrics: Record<string, OfficialMetrics>;
}

/** Score rankings under the official protocol; unknown or repeated ids and missing questions are errors naming the line (or listing the questions). */
export function evaluateLongMemEvalRankings(data: LongMemEvalDataset, lines: readonly RankingLine[], file: string, allowMissing = false): LongMemEvalEvalReport {
  const byId = new Map(data.questions.map((q) => [q.questionId, q]));
  for (const l of lines) if (!byId.has(l.questionId)) throw new LongMemEvalRankingsError(`${file}:${l.line}: question ${l.questionId} is not in the data file ${data.path}`);
  const ranked = new Map(lines.map((l) => [l.questionId, l]));
  const missing = data.questions.filter((q) => !ranked.has(q.questionId)).map((q) => q.questionId);
  if (missing.length > 0 && !allowMissing) {
    throw new LongMemEvalRankingsError(`${file}: ${missing.length} question(s) of the data have no ranking: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", …" : ""}. Rank them, or pass --allow-missing to score them as empty rankings.`);
  }
  if (lines.length === 0) throw new LongMemEvalRankingsError(`${file}: no rankings`);
  const granularity = detectGranularity(lines, byId);
  let dropped = 0;
  const per = data.questions.map((q) => {
    const corpus = officialCorpus(q, granularity);
    const l = ranked.get(q.questionId);
    const order: number[] = [];
    if (l) {
      const { slots, assistant } = rawIds(q, granularity, corpus.ids);
      const used = new Set<number>();
      for (const id of l.ids) {
        if (assistant.has(id)) {
          dropped++;
          continue;
        }
        const s = slots.get(id);
        if (!s) throw new LongMemEvalRankingsError(`${file}:${l.line}: "${id}" is not a ${granularity} id of question ${q.questionId}${granularity === "turn" ? " (turn ids are <session_id>_<n>, n the 1-based position among all turns of the session)" : ""}`);
        const free = s.find((c) => !used.has(c));
        if (free === undefined) throw new LongMemEvalRankingsError(`${file}:${l.line}: "${id}" is ranked more often than question ${q.questionId}'s haystack holds it`);
        used.add(free);
        order.push(free);
      }
    }
    return officialQuestionMetrics(order, corpus, granularity);
  });
  const a = officialAverages(data.questions, per);
  const r = (o: OfficialMetrics) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, pyRound(v, 6)]));
  return {
    granularity,
    questions: data.questions.length,
    missing_scored_empty: missing.length,
    assistant_turn_ids_dropped: dropped,
    averaged_questions: data.questions.length - a.ignoredAbstention.length - a.ignoredNoTarget.length,
    ignored_abstention: a.ignoredAbstention.length,
    ignored_no_target: a.ignoredNoTarget.length,
    metrics: Object.fromEntries(Object.entries(a.averages).filter(([, v]) => Object.keys(v).length > 0).map(([t, v]) => [t, r(v)])),
  };
}
