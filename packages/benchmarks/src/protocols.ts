/**
 * Retrieval protocols as values (docs/spec.md §11), in the manner of ir_measures: a measure is a value with a
 * stable name — `turn.recall@5`, `session.any@5`, `turn.mrr` — and a protocol is a measure applied to a question
 * set under a gold. Every experiment and evaluator that scores a ranking against gold items goes through
 * `scoreRanks`, so one definition holds everywhere:
 *
 * - granularity: `turn` (the ranked items themselves) or `session` (sessions ranked by their best-ranked turn);
 * - recall@k = |gold ∩ top k| / |gold|; any@k = 1 when some gold item is in the top k; all@k = 1 when every one is;
 *   mrr = 1 / the rank of the first gold item (0 when none is ranked); ndcg@k with binary gains, discount
 *   log2(i + 1) at 1-based rank i, ideal DCG over min(|gold|, k) gold items.
 *
 * A ranking may be truncated: an item past its end is not retrieved.
 */
import { StampedMarks } from "@persode/util";

/** Where a measure looks: the ranked turns, or sessions ranked by their best-ranked turn. */
export type Granularity = "turn" | "session";
/** What a measure computes of one question's ranking. */
export type MeasureKind = "recall" | "any" | "all" | "mrr" | "ndcg";

/** One measure: granularity, kind, and k (none for MRR, which reads the whole ranking). */
export interface Measure {
  /** Stable name: `<granularity>.<kind>@<k>`, or `<granularity>.mrr`. */
  readonly name: string;
  readonly granularity: Granularity;
  readonly kind: MeasureKind;
  readonly k?: number;
}

/** The measure of a granularity, kind and k, with its stable name. */
export function measure(granularity: Granularity, kind: MeasureKind, k?: number): Measure {
  if (kind === "mrr") {
    if (k !== undefined) throw new RangeError(`measure ${granularity}.mrr takes no k (got ${k})`);
    return { name: `${granularity}.mrr`, granularity, kind };
  }
  if (k === undefined || !Number.isInteger(k) || k < 1)
    throw new RangeError(`measure ${granularity}.${kind} needs an integer k >= 1 (got ${k})`);
  return { name: `${granularity}.${kind}@${k}`, granularity, kind, k };
}

/** Parse a stable measure name (`turn.recall@5`, `session.mrr`); an unknown name is an error listing the forms. */
export function parseMeasure(name: string): Measure {
  const m = /^(turn|session)\.(recall|any|all|ndcg)@(\d+)$/.exec(name) ?? /^(turn|session)\.(mrr)$/.exec(name);
  if (!m) throw new RangeError(`unknown measure "${name}": expected <turn|session>.<recall|any|all|ndcg>@<k> or <turn|session>.mrr`);
  return measure(m[1] as Granularity, m[2] as MeasureKind, m[3] === undefined ? undefined : Number(m[3]));
}

/** The k of the protocol ladder: 5 (the field's usual cut-off; Persode's primary k) and 10. */
const LADDER_KS = [5, 10] as const;

/** Every measure of the ladder, turn level then session level: recall, any, all, nDCG at each k, then MRR. */
export const LADDER_MEASURES: readonly Measure[] = (["turn", "session"] as const).flatMap((g) => [
  ...(["recall", "any", "all", "ndcg"] as const).flatMap((kind) => LADDER_KS.map((k) => measure(g, kind, k))),
  measure(g, "mrr"),
]);

/**
 * 1-based ranks of the relevant items in a ranking, ascending: `order` holds item indices, `relevant` is 1 at
 * each gold item. With `stopAfter` (the largest k a caller needs), the ranks up to it, and the first rank past it only
 * when none is within it (MRR's): a measure at k ≤ `stopAfter` reads nothing else, so the scan stops there.
 */
export function relevantRanks(order: ArrayLike<number>, relevant: ArrayLike<number>, stopAfter = Infinity): number[] {
  const ranks: number[] = [];
  for (let r = 0; r < order.length; r++) {
    if (r >= stopAfter && ranks.length > 0) break;
    if (relevant[order[r]!] !== 1) continue;
    ranks.push(r + 1);
  }
  return ranks;
}

/**
 * The session ranking of a turn ranking: sessions in the order of their best-ranked turn. Returns the 1-based
 * session ranks of the gold sessions, ascending. `sessionOf[i]` is item i's session; `goldSessions` the set of
 * sessions holding a gold item.
 */
export function sessionRanks(
  order: ArrayLike<number>,
  sessionOf: ArrayLike<number>,
  goldSessions: ReadonlySet<number>,
  stopAfter = Infinity,
): number[] {
  // sessions seen so far are marked in a reused scratch array (no Set per ranking); a session number that is not a
  // small non-negative integer takes the Set
  const at = seenSessions.next();
  let marks = seenSessions.marks;
  let seen = 0;
  const ranks: number[] = [];
  for (let r = 0; r < order.length; r++) {
    const s = sessionOf[order[r]!]!;
    if (!(s >= 0 && s < SESSION_MARKS && (s | 0) === s)) return sessionRanksBySet(order, sessionOf, goldSessions, stopAfter);
    if (s >= marks.length) marks = seenSessions.cover(s);
    if (marks[s] === at) continue;
    marks[s] = at;
    seen++;
    if (goldSessions.has(s)) {
      ranks.push(seen);
      if (ranks.length === goldSessions.size) break;
    }
    if (seen >= stopAfter) break;
  }
  return ranks;
}

/** The session numbers sessionRanks marks in its scratch array (larger or non-integer ones take the Set path). */
const SESSION_MARKS = 1 << 20;

/** sessionRanks' sessions seen, one pass per call. */
const seenSessions = new StampedMarks();

/** sessionRanks with a Set of the sessions seen: any session numbers. */
function sessionRanksBySet(
  order: ArrayLike<number>,
  sessionOf: ArrayLike<number>,
  goldSessions: ReadonlySet<number>,
  stopAfter: number,
): number[] {
  const seen = new Set<number>();
  const ranks: number[] = [];
  for (let r = 0; r < order.length; r++) {
    const s = sessionOf[order[r]!]!;
    if (seen.has(s)) continue;
    seen.add(s);
    if (goldSessions.has(s)) {
      ranks.push(seen.size);
      if (ranks.length === goldSessions.size) break;
    }
    if (seen.size >= stopAfter) break;
  }
  return ranks;
}

/** Σ_{i=1..n} 1 / log2(i + 1), left to right. */
function idealDcgSum(n: number): number {
  let s = 0;
  for (let i = 1; i <= n; i++) s += 1 / Math.log2(i + 1);
  return s;
}

/** idealDcgSum for n < 64, computed once: every ranking a ladder scores reads a few of them. */
const IDEAL_DCG = Float64Array.from({ length: 64 }, (_, n) => idealDcgSum(n));

function idealDcg(n: number): number {
  return n < IDEAL_DCG.length ? IDEAL_DCG[n]! : idealDcgSum(n);
}

/**
 * One measure of one question from the ascending 1-based ranks of its gold items (`relevantRanks` or
 * `sessionRanks`) and the size of its gold set (0 scores 0 everywhere).
 */
export function scoreRanks(ranks: readonly number[], nGold: number, kind: MeasureKind, k = Infinity): number {
  if (nGold === 0) return 0;
  if (kind === "mrr") return ranks.length > 0 ? 1 / ranks[0]! : 0;
  let found = 0;
  while (found < ranks.length && ranks[found]! <= k) found++;
  switch (kind) {
    case "recall":
      return found / nGold;
    case "any":
      return found > 0 ? 1 : 0;
    case "all":
      return found === nGold ? 1 : 0;
    case "ndcg": {
      let dcg = 0;
      for (let i = 0; i < found; i++) dcg += 1 / Math.log2(ranks[i]! + 1);
      return dcg / idealDcg(Math.min(nGold, k));
    }
  }
}

/** Every given measure of one question: the turn ranking's gold ranks and the session ranking's. */
export function scoreQuestion(
  measures: readonly Measure[],
  turn: { ranks: readonly number[]; nGold: number },
  session?: { ranks: readonly number[]; nGold: number },
): number[] {
  const out = new Float64Array(measures.length);
  scoreQuestionInto(measures, turn, session, out);
  return Array.from(out);
}

/**
 * scoreQuestion written into `out` from index `at`, for a caller that scores many rankings (Exp. 5's ladder): the
 * same values by the same scoreRanks, without an array per ranking.
 */
export function scoreQuestionInto(
  measures: readonly Measure[],
  turn: { ranks: readonly number[]; nGold: number },
  session: { ranks: readonly number[]; nGold: number } | undefined,
  out: Float64Array,
  at = 0,
): void {
  for (let mi = 0; mi < measures.length; mi++) {
    const m = measures[mi]!;
    const r = m.granularity === "turn" ? turn : session;
    if (!r) throw new RangeError(`measure ${m.name} needs the session ranking, which was not given`);
    out[at + mi] = scoreRanks(r.ranks, r.nGold, m.kind, m.k);
  }
}

/** A LoCoMo question set (docs/spec.md §11). */
export type LocomoQuestionSet = "persode" | "all";
/** A LoCoMo gold: the dataset's evidence, or the label audit's. */
export type LocomoGold = "original" | "audited";

/** The LoCoMo question sets: `persode` = categories 1–4 (Persode's paper), `all` = every category, adversarial included. */
export const LOCOMO_QUESTION_SETS: Readonly<Record<LocomoQuestionSet, { categories: readonly number[]; note: string }>> = {
  persode: {
    categories: [1, 2, 3, 4],
    note: "categories 1–4 with at least one resolvable evidence id (Persode's paper; 1,535 questions on the original gold)",
  },
  all: {
    categories: [1, 2, 3, 4, 5],
    note: "every category, adversarial (5) included, with at least one resolvable evidence id (1,981 questions on the original gold)",
  },
};

/** A protocol: a measure on a dataset's question set under a gold; its stable name is `<set>/<gold>/<measure>`. */
export interface Protocol {
  readonly name: string;
  readonly measure: Measure;
  readonly questionSet: string;
  readonly gold: string;
}

/** The protocol of a measure on a question set and gold. */
export function protocol(m: Measure, questionSet: string, gold: string): Protocol {
  return { name: `${questionSet}/${gold}/${m.name}`, measure: m, questionSet, gold };
}
