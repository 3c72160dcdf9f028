/**
 * `pnpm bench longmemeval-eval`: an outside system's LongMemEval rankings scored under the official protocol
 * (official.ts). Rankings are JSONL, one question per line: `question_id` and `ranked_ids`, every id of the file
 * either a turn id `<session_id>_<n>` (n the 1-based position of the turn among all turns of its session, as the
 * official code numbers them) or a session id. Truncated rankings are fine (what is not listed is not retrieved).
 */
import type { LongMemEvalDataset, LongMemEvalQuestion } from "@persode/datasets";
import { pyRound } from "@persode/util";
import { LADDER_MEASURES, relevantRanks, scoreQuestion, sessionRanks, type Measure } from "../protocols.js";
import { familyScores, type FamilyScores } from "../locomo-protocols.js";
import { latencySummary } from "../locomo-eval.js";
import type { BootstrapSpec } from "../stats/bootstrap.js";
import { EXP8_LADDER_FAMILY } from "../experiments/exp8-longmemeval.js";
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
  latencyMs?: number;
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
    if (typeof j !== "object" || j === null || Array.isArray(j))
      throw new LongMemEvalRankingsError(`${file}:${line}: a line must be a JSON object with question_id and ranked_ids`);
    if (typeof o.question_id !== "string") throw new LongMemEvalRankingsError(`${file}:${line}: question_id must be a string`);
    if (!Array.isArray(o.ranked_ids) || o.ranked_ids.length === 0 || o.ranked_ids.some((x) => typeof x !== "string")) {
      throw new LongMemEvalRankingsError(`${file}:${line}: ranked_ids must be a non-empty array of strings (question ${o.question_id})`);
    }
    const prev = seen.get(o.question_id);
    if (prev !== undefined)
      throw new LongMemEvalRankingsError(`${file}:${line}: question ${o.question_id} is ranked twice (first on line ${prev})`);
    seen.set(o.question_id, line);
    const lat = (j as { latency_ms?: unknown }).latency_ms;
    if (lat !== undefined && (typeof lat !== "number" || !Number.isFinite(lat) || lat < 0))
      throw new LongMemEvalRankingsError(`${file}:${line}: latency_ms must be a number of milliseconds >= 0 (got ${JSON.stringify(lat)})`);
    out.push({ line, questionId: o.question_id, ids: o.ranked_ids as string[], latencyMs: lat as number | undefined });
  });
  return out;
}

/**
 * The ids of a question's haystack at a granularity (raw, and as the official log relabels them), each with the corpus indices it names
 * (user turns only at turn level).
 */
function rawIds(
  q: LongMemEvalQuestion,
  granularity: OfficialGranularity,
  officialIds: readonly string[],
): { slots: Map<string, number[]>; assistant: Set<string> } {
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
  /** The ladder's measures (docs/spec.md §11) under Persode's protocol of Exp. 8 (b), with bootstrap CIs. */
  protocols: Record<string, FamilyScores>;
  latency_ms?: { n: number; p50: number; p95: number };
}

/** Python's `str.replace("answer", "noans")`: the official relabelling of an id. */
const relabel = (id: string) => id.split("answer").join("noans");

/**
 * One question under Persode's protocol of Exp. 8 (b): every turn (user and assistant) an item, evidence = the
 * has_answer turns, sessions = haystack positions. The j-th listing of an id (raw, or relabelled answer -> noans)
 * names the j-th haystack position holding it (a haystack may repeat a session id); a session file is scored at
 * session level only.
 */
function persodeQuestionScores(
  q: LongMemEvalQuestion,
  l: RankingLine | undefined,
  granularity: OfficialGranularity,
  file: string,
): number[] {
  const measures = LADDER_MEASURES.filter((m) => granularity === "turn" || m.granularity === "session");
  const positions = new Map<string, number[]>();
  const canonical = new Map<string, string>();
  const sessionOf: number[] = [];
  const relevant: number[] = [];
  const goldSessions = new Set<number>();
  const add = (id: string, p: number) => {
    positions.set(id, [...(positions.get(id) ?? []), p]);
    canonical.set(id, id);
    canonical.set(relabel(id), id);
  };
  q.sessions.forEach((s, si) => {
    if (s.turns.some((t) => t.hasAnswer === true)) goldSessions.add(si);
    if (granularity === "session") return add(s.id, si);
    s.turns.forEach((t, ti) => {
      add(`${s.id}_${ti + 1}`, sessionOf.length);
      sessionOf.push(si);
      relevant.push(t.hasAnswer === true ? 1 : 0);
    });
  });
  const used = new Map<string, number>();
  const order: number[] = [];
  for (const id of l?.ids ?? []) {
    const raw = canonical.get(id);
    if (raw === undefined)
      throw new LongMemEvalRankingsError(`${file}:${l!.line}: "${id}" is not a ${granularity} id of question ${q.questionId}`);
    const j = used.get(raw) ?? 0;
    const p = positions.get(raw)![j];
    if (p === undefined)
      throw new LongMemEvalRankingsError(
        `${file}:${l!.line}: "${id}" is ranked more often than question ${q.questionId}'s haystack holds it`,
      );
    used.set(raw, j + 1);
    order.push(p);
  }
  if (granularity === "session") {
    const mask = q.sessions.map((_, si) => (goldSessions.has(si) ? 1 : 0));
    const session = { ranks: relevantRanks(order, mask), nGold: goldSessions.size };
    return scoreQuestion(measures, session, session);
  }
  return scoreQuestion(
    measures,
    { ranks: relevantRanks(order, relevant), nGold: relevant.filter((x) => x === 1).length },
    { ranks: sessionRanks(order, sessionOf, goldSessions), nGold: goldSessions.size },
  );
}

/**
 * Score rankings under the official protocol; unknown or repeated ids and missing questions are errors naming the line (or listing the
 * questions).
 */
export function evaluateLongMemEvalRankings(
  data: LongMemEvalDataset,
  lines: readonly RankingLine[],
  file: string,
  allowMissing = false,
  spec: BootstrapSpec = { seed: 20260713, samples: 2000 },
  /** When given, receives the per-question ladder columns (Persode's question set, in data order) and their measures. */
  sink?: { columns?: Float64Array[]; measures?: Measure[] },
): LongMemEvalEvalReport {
  const byId = new Map(data.questions.map((q) => [q.questionId, q]));
  for (const l of lines)
    if (!byId.has(l.questionId))
      throw new LongMemEvalRankingsError(`${file}:${l.line}: question ${l.questionId} is not in the data file ${data.path}`);
  const ranked = new Map(lines.map((l) => [l.questionId, l]));
  const missing = data.questions.filter((q) => !ranked.has(q.questionId)).map((q) => q.questionId);
  if (missing.length > 0 && !allowMissing) {
    throw new LongMemEvalRankingsError(
      `${file}: ${missing.length} question(s) of the data have no ranking: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", …" : ""}. Rank them, or pass --allow-missing to score them as empty rankings.`,
    );
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
        if (!s)
          throw new LongMemEvalRankingsError(
            `${file}:${l.line}: "${id}" is not a ${granularity} id of question ${q.questionId}${granularity === "turn" ? " (turn ids are <session_id>_<n>, n the 1-based position among all turns of the session)" : ""}`,
          );
        const free = s.find((c) => !used.has(c));
        if (free === undefined)
          throw new LongMemEvalRankingsError(
            `${file}:${l.line}: "${id}" is ranked more often than question ${q.questionId}'s haystack holds it`,
          );
        used.add(free);
        order.push(free);
      }
    }
    return officialQuestionMetrics(order, corpus, granularity);
  });
  const a = officialAverages(data.questions, per);
  // Persode's protocol (Exp. 8 b): questions with a has_answer turn, abstention excluded; a missing ranking scores empty.
  const included = data.questions.filter((q) => !q.abstention && q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true)));
  const measures = LADDER_MEASURES.filter((m) => granularity === "turn" || m.granularity === "session");
  const cols = measures.map(() => new Float64Array(included.length));
  included.forEach((q, qi) =>
    persodeQuestionScores(q, ranked.get(q.questionId), granularity, file).forEach((v, mi) => (cols[mi]![qi] = v)),
  );
  const protocols: Record<string, FamilyScores> = {};
  if (sink) Object.assign(sink, { columns: cols, measures });
  if (included.length > 0)
    protocols[EXP8_LADDER_FAMILY] = familyScores(new Map([["system", cols]]), measures, spec, `longmemeval-eval/${EXP8_LADDER_FAMILY}`).get(
      "system",
    )!;
  const latencies = lines.flatMap((l) => (l.latencyMs === undefined ? [] : [l.latencyMs]));
  const r = (o: OfficialMetrics) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, pyRound(v, 6)]));
  return {
    granularity,
    questions: data.questions.length,
    missing_scored_empty: missing.length,
    assistant_turn_ids_dropped: dropped,
    averaged_questions: data.questions.length - a.ignoredAbstention.length - a.ignoredNoTarget.length,
    ignored_abstention: a.ignoredAbstention.length,
    ignored_no_target: a.ignoredNoTarget.length,
    metrics: Object.fromEntries(
      Object.entries(a.averages)
        .filter(([, v]) => Object.keys(v).length > 0)
        .map(([t, v]) => [t, r(v)]),
    ),
    protocols,
    ...(latencies.length > 0 ? { latency_ms: latencySummary(latencies) } : {}),
  };
}
