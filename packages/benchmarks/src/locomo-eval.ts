/**
 * `pnpm bench locomo-eval`: an outside system's LoCoMo rankings scored under every protocol of the ladder
 * (docs/spec.md §11) with bootstrap CIs, and compared, question by question, with each built-in strategy.
 * Rankings are JSONL, one question per line: `sample_id`, `qa_index` (0-based into the conversation's `qa`) and
 * `ranked_dia_ids` — what Exp. 5 writes. Rankings may be truncated (Exp. 5's own files list 100 turns unless written
 * with `--rankings-depth full`): the report counts them and says what a truncated ranking measures. Lines may come in
 * any order; other fields are ignored, except an optional `latency_ms`, which is summarised.
 */
import type { LocomoDataset } from "@persode/datasets";
import { pyRound } from "@persode/util";
import { LADDER_MEASURES, parseMeasure, type Measure } from "./protocols.js";
import {
  LOCOMO_FAMILIES,
  conversationIndex,
  familyKey,
  familyScores,
  questionKey,
  scoreLocomoQuestion,
  type FamilyColumns,
  type FamilyKey,
  type FamilyScores,
} from "./locomo-protocols.js";
import type { LocomoQuestion } from "./experiments/exp5-locomo.js";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import { holm } from "./stats/holm.js";
import { pairedTest } from "./stats/paired-comparison.js";
import { DEFAULT_PERMUTATIONS, drawSignFlips } from "./stats/randomization.js";

/** Rankings that cannot be scored; the message names the file and the line (or lists the questions). */
export class RankingsInputError extends Error {
  override name = "RankingsInputError";
}

/** One parsed line of a LoCoMo rankings file. */
export interface LocomoRankingLine {
  line: number;
  sampleId: string;
  qaIndex: number;
  ids: string[];
  latencyMs?: number;
}

/** The measures of the paired comparison with the built-in strategies. */
export const PAIRED_MEASURES: readonly Measure[] = ["turn.recall@5", "turn.mrr", "session.any@5", "session.recall@5"].map(parseMeasure);

/** Parse one JSONL line into an object, or an error naming the line. */
function jsonLine(raw: string, file: string, line: number): Record<string, unknown> {
  let j: unknown;
  try {
    j = JSON.parse(raw);
  } catch (e) {
    throw new RankingsInputError(`${file}:${line}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof j !== "object" || j === null || Array.isArray(j))
    throw new RankingsInputError(`${file}:${line}: a line must be a JSON object`);
  return j as Record<string, unknown>;
}

/** The optional `latency_ms` of a line: a finite number ≥ 0, or an error naming the line. */
function latencyOf(o: Record<string, unknown>, file: string, line: number): number | undefined {
  const v = o.latency_ms;
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
    throw new RankingsInputError(`${file}:${line}: latency_ms must be a number of milliseconds >= 0 (got ${JSON.stringify(v)})`);
  return v;
}

/** Refuse an id listed twice in one ranking, naming the line. */
function checkDistinct(ids: readonly string[], file: string, line: number, what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id))
      throw new RankingsInputError(`${file}:${line}: "${id}" appears twice in the ranking of ${what}; a ranking lists each id once`);
    seen.add(id);
  }
}

/** Parse and check a LoCoMo rankings file against the data: every fault is an error naming the line. */
export function parseLocomoRankings(text: string, file: string, data: LocomoDataset): LocomoRankingLine[] {
  const convs = new Map(data.conversations.map((c) => [c.sampleId, c]));
  const known = new Map(data.conversations.map((c) => [c.sampleId, new Set(c.sessions.flatMap((s) => s.turns.map((t) => t.diaId)))]));
  const first = new Map<string, number>();
  const out: LocomoRankingLine[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    const o = jsonLine(raw, file, line);
    if (typeof o.sample_id !== "string")
      throw new RankingsInputError(`${file}:${line}: sample_id must be a string (a conversation's sample_id, e.g. "conv-26")`);
    if (typeof o.qa_index !== "number" || !Number.isInteger(o.qa_index) || o.qa_index < 0)
      throw new RankingsInputError(`${file}:${line}: qa_index must be an integer >= 0 (the 0-based index into the conversation's qa list)`);
    const conv = convs.get(o.sample_id);
    if (!conv)
      throw new RankingsInputError(
        `${file}:${line}: sample_id "${o.sample_id}" is not a conversation of the data; known: ${[...convs.keys()].join(", ")}`,
      );
    if (o.qa_index >= conv.qa.length)
      throw new RankingsInputError(
        `${file}:${line}: qa_index ${o.qa_index} is past the end of ${o.sample_id}'s ${conv.qa.length} questions`,
      );
    const what = `${o.sample_id} question ${o.qa_index}`;
    const ids = o.ranked_dia_ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== "string"))
      throw new RankingsInputError(`${file}:${line}: ranked_dia_ids must be a non-empty array of dia_id strings (${what})`);
    const turns = known.get(o.sample_id)!;
    for (const id of ids as string[])
      if (!turns.has(id)) throw new RankingsInputError(`${file}:${line}: "${id}" is not a turn (dia_id) of ${o.sample_id} (${what})`);
    checkDistinct(ids as string[], file, line, what);
    const key = `${o.sample_id}#${o.qa_index}`;
    const prev = first.get(key);
    if (prev !== undefined) throw new RankingsInputError(`${file}:${line}: ${what} is ranked twice (first on line ${prev})`);
    first.set(key, line);
    out.push({ line, sampleId: o.sample_id, qaIndex: o.qa_index, ids: ids as string[], latencyMs: latencyOf(o, file, line) });
  });
  if (out.length === 0) throw new RankingsInputError(`${file}: no rankings (every line is empty)`);
  return out;
}

/** p50 and p95 of latencies (linear interpolation between order statistics, numpy's default), in ms to 3 decimals. */
export function latencySummary(xs: readonly number[]): { n: number; p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => {
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
  };
  return { n: s.length, p50: pyRound(q(0.5), 3), p95: pyRound(q(0.95), 3) };
}

/** One paired comparison of the outside system with a built-in strategy on one measure. */
export interface PairedRow {
  n: number;
  diff: number;
  wins: number;
  ties: number;
  losses: number;
  p_randomization: number;
  p_holm: number;
  significant: boolean;
}

/**
 * The outside system against each built-in strategy on the same questions of each family: two-sided
 * randomization test (sign flips, one set per family), Holm across the strategies within each measure, W/T/L
 * counted from the outside system's side.
 */
export function pairedWithBuiltins(
  system: ReadonlyMap<string, FamilyColumns>,
  builtins: ReadonlyMap<string, ReadonlyMap<string, FamilyColumns>>,
  spec: { seed: number; samples?: number },
  label: string,
  /** The measures of the columns, in column order (default: the whole ladder). */
  measures: readonly Measure[] = LADDER_MEASURES,
): Record<string, Record<string, Record<string, PairedRow>>> {
  const out: Record<string, Record<string, Record<string, PairedRow>>> = {};
  for (const [f, cols] of system) {
    const strategies = builtins.get(f);
    if (!strategies || strategies.size === 0 || cols[0]!.length === 0) continue;
    const flips = drawSignFlips(cols[0]!.length, { samples: spec.samples ?? DEFAULT_PERMUTATIONS, seed: spec.seed }, `${label}/${f}`);
    const rows: Record<string, Record<string, PairedRow>> = Object.fromEntries([...strategies.keys()].map((s) => [s, {}]));
    for (const m of PAIRED_MEASURES) {
      const mi = measures.findIndex((x) => x.name === m.name);
      if (mi < 0) continue;
      const tests = [...strategies].map(([, b]) => pairedTest(cols[mi]!, b[mi]!, flips));
      const adjusted = holm(tests.map((t) => t.pRandomization));
      [...strategies.keys()].forEach((s, i) => {
        const t = tests[i]!;
        rows[s]![m.name] = {
          n: t.n,
          diff: pyRound(t.diff, 4),
          wins: t.wins,
          ties: t.ties,
          losses: t.losses,
          p_randomization: pyRound(t.pRandomization, 4),
          p_holm: pyRound(adjusted[i]!, 4),
          significant: adjusted[i]! < 0.05,
        };
      });
    }
    out[f] = rows;
  }
  return out;
}

/**
 * What a file of truncated rankings measures: a turn past a ranking's end is not retrieved, so @k measures are
 * those of the full ranking only for k up to the ranking's length, and MRR and the session-level measures are the
 * truncated ranking's (an MRR at the ranking's length; sessions ranked among the sessions the listed turns reach).
 */
function truncationNote(truncated: number, shortest: number): string {
  return (
    `${truncated} ranking(s) list fewer turns than their conversation holds (the shortest ${shortest}): a turn past a ranking's end is ` +
    `not retrieved, so turn-level @k measures equal the full ranking's only for k <= the ranking's length, turn.mrr is MRR at ` +
    `the ranking's length (a first gold turn past the end scores 0, e.g. MRR@100 for Exp. 5's default rankings files), and ` +
    `session measures rank only the sessions the listed turns reach; score rankings written with --rankings-depth full to ` +
    `compare with Exp. 5's own values of those measures`
  );
}

/** What `locomo-eval` reports for an outside system. */
export interface LocomoEvalReport {
  rankings: {
    lines: number;
    missing_scored_empty: number;
    ranked_outside_every_set: number;
    truncated: number;
    /** Turns listed per line, the fewest and the most. */
    turns_per_line: { min: number; max: number };
    /** When some ranking is truncated: what the measures of a truncated ranking are (truncationNote). */
    truncation?: string;
  };
  protocols: Record<string, FamilyScores>;
  latency_ms?: { n: number; p50: number; p95: number };
}

/**
 * Score parsed rankings on every family (`families`: question set/gold → questions): per question every ladder
 * measure, then means and CIs. A question of some family without a ranking is an error listing them, unless
 * `allowMissing` (then it is scored as an empty ranking and counted).
 */
export function evaluateLocomoRankings(
  data: LocomoDataset,
  families: ReadonlyMap<FamilyKey, readonly LocomoQuestion[]>,
  lines: readonly LocomoRankingLine[],
  file: string,
  spec: BootstrapSpec,
  allowMissing = false,
): { report: LocomoEvalReport; columns: Map<FamilyKey, FamilyColumns> } {
  const byKey = new Map(lines.map((l) => [`${l.sampleId}#${l.qaIndex}`, l]));
  const needed = new Map<string, LocomoQuestion>();
  for (const qs of families.values()) for (const q of qs) needed.set(questionKey(q), q);
  const missing = [...needed.keys()].filter((k) => !byKey.has(k));
  if (missing.length > 0 && !allowMissing) {
    throw new RankingsInputError(
      `${file}: ${missing.length} question(s) of the protocols' question sets have no ranking: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", …" : ""}. Rank them, or pass --allow-missing to score them as empty rankings.`,
    );
  }
  const convIndex = data.conversations.map(conversationIndex);
  const convOf = new Map(data.conversations.map((c, i) => [c.sampleId, i]));
  const orders = new Map<string, Int32Array>();
  let truncated = 0;
  let shortest = Infinity;
  let longest = 0;
  for (const l of lines) {
    shortest = Math.min(shortest, l.ids.length);
    longest = Math.max(longest, l.ids.length);
    const ci = convIndex[convOf.get(l.sampleId)!]!;
    orders.set(
      `${l.sampleId}#${l.qaIndex}`,
      Int32Array.from(l.ids, (id) => ci.index.get(id)!),
    );
    if (l.ids.length < ci.sessionOf.length) truncated++;
  }
  const columns = new Map<FamilyKey, FamilyColumns>();
  for (const f of LOCOMO_FAMILIES) {
    const qs = families.get(familyKey(f));
    if (!qs) continue;
    const cols = LADDER_MEASURES.map(() => new Float64Array(qs.length));
    qs.forEach((q, qi) => {
      const order = orders.get(questionKey(q)) ?? new Int32Array(0);
      scoreLocomoQuestion(order, q.gold, convIndex[q.conversation]!).forEach((v, mi) => (cols[mi]![qi] = v));
    });
    columns.set(familyKey(f), cols);
  }
  const protocols: Record<string, FamilyScores> = {};
  for (const [f, cols] of columns)
    protocols[f] = familyScores(new Map([["system", cols]]), LADDER_MEASURES, spec, `locomo-eval/${f}`).get("system")!;
  const latencies = lines.flatMap((l) => (l.latencyMs === undefined ? [] : [l.latencyMs]));
  const report: LocomoEvalReport = {
    rankings: {
      lines: lines.length,
      missing_scored_empty: missing.length,
      ranked_outside_every_set: lines.filter((l) => !needed.has(`${l.sampleId}#${l.qaIndex}`)).length,
      truncated,
      turns_per_line: { min: shortest, max: longest },
      ...(truncated > 0 ? { truncation: truncationNote(truncated, shortest) } : {}),
    },
    protocols,
  };
  if (latencies.length > 0) report.latency_ms = latencySummary(latencies);
  return { report, columns };
}
