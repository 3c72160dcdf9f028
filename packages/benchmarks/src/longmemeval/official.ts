/**
 * LongMemEval's official retrieval protocol, as its `src/retrieval/run_retrieval.py` and `eval_utils.py` compute it
 * (Wu et al., ICLR 2025; docs/spec.md §7 Exp. 8): the corpus of user turns (turn ids `<session_id>_<n>`, n 1-based
 * among all turns of the session) or of sessions (their user turns joined by a space), relevance read from the ids
 * (an id containing "answer"; ids of answer sessions without a user has_answer turn relabelled "noans"),
 * recall_any / recall_all / ndcg_any at k ∈ {1, 3, 5, 10, 30, 50}, session metrics from a turn ranking with the
 * official effective-k expansion, and the flat-bm25 baseline (rank_bm25's BM25Okapi over `text.split(" ")`).
 */
import type { LongMemEvalQuestion } from "@persode/datasets";
import { exactLogHalfInteger } from "./exact-log.js";

/** The k of every official metric. */
export const OFFICIAL_KS = [1, 3, 5, 10, 30, 50] as const;

/** Granularity of the official corpus. */
export type OfficialGranularity = "turn" | "session";

/** One question's official corpus: texts and ids in haystack order (user turns, or one text per session). */
export interface OfficialCorpus {
  texts: string[];
  ids: string[];
}

/** Python's `str.replace(old, new)`: every occurrence. */
function replaceAll(s: string, from: string, to: string): string {
  return s.split(from).join(to);
}

/** `process_item_flat_index` over a question's whole haystack (run_retrieval.py), in haystack order. */
export function officialCorpus(q: LongMemEvalQuestion, granularity: OfficialGranularity): OfficialCorpus {
  const texts: string[] = [];
  const ids: string[] = [];
  for (const s of q.sessions) {
    const answerSession = s.id.includes("answer");
    if (granularity === "session") {
      const user = s.turns.filter((t) => t.role === "user");
      texts.push(user.map((t) => t.content).join(" "));
      ids.push(answerSession && user.every((t) => t.hasAnswer !== true) ? replaceAll(s.id, "answer", "noans") : s.id);
    } else {
      s.turns.forEach((t, i) => {
        if (t.role !== "user") return;
        texts.push(t.content);
        const id = `${s.id}_${i + 1}`;
        ids.push(!answerSession || t.hasAnswer === true ? id : replaceAll(id, "answer", "noans"));
      });
    }
  }
  return { texts, ids };
}

/** The official `correct_docs`: the distinct corpus ids containing "answer" (a set: order never matters to the metrics). */
export function correctDocs(ids: readonly string[]): Set<string> {
  return new Set(ids.filter((id) => id.includes("answer")));
}

/**
 * numpy's pairwise summation of float64 (`np.add.reduce` on a contiguous array, identity 0): blocks of up to 128
 * summed with 8 accumulators, larger ranges split in two at a multiple of 8. np.mean and np.sum add in this order.
 */
export function numpySum(xs: ArrayLike<number>, start = 0, end = xs.length): number {
  const n = end - start;
  if (n < 8) {
    let r = 0;
    for (let i = start; i < end; i++) r += xs[i]!;
    return r;
  }
  if (n <= 128) {
    const r = [xs[start]!, xs[start + 1]!, xs[start + 2]!, xs[start + 3]!, xs[start + 4]!, xs[start + 5]!, xs[start + 6]!, xs[start + 7]!];
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += xs[start + i + j]!;
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) res += xs[start + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return numpySum(xs, start, start + n2) + numpySum(xs, start + n2, end);
}

/** np.mean of a list of floats (numpy's pairwise sum divided by n); NaN for an empty list, as numpy. */
export function numpyMean(xs: ArrayLike<number>): number {
  return xs.length === 0 ? NaN : numpySum(xs) / xs.length;
}

/**
 * The official `dcg`: `rel[0] + Σ_{i≥1} rel[i] / log2(i + 1)` over the first k relevances — position 2 is not
 * discounted (log2 2 = 1), unlike the textbook rel_i / log2(i + 1) with i 1-based.
 */
function dcg(rel: ArrayLike<number>, k: number): number {
  const m = Math.min(k, rel.length);
  if (m === 0) return 0;
  const terms = new Float64Array(m - 1);
  for (let i = 1; i < m; i++) terms[i - 1] = rel[i]! / Math.log2(i + 1);
  return rel[0]! + numpySum(terms);
}

/** The official `ndcg`: DCG of the ranking's first k over DCG of all relevances sorted, 0 when the ideal is 0. */
function ndcg(rankings: ArrayLike<number>, relevances: Uint8Array, k: number): number {
  const top = new Float64Array(Math.min(k, rankings.length));
  for (let i = 0; i < top.length; i++) top[i] = relevances[rankings[i]!]!;
  let ones = 0;
  for (let i = 0; i < relevances.length; i++) ones += relevances[i]!;
  const ideal = new Float64Array(Math.min(k, relevances.length));
  for (let i = 0; i < ideal.length; i++) ideal[i] = i < ones ? 1 : 0;
  const idealDcg = dcg(ideal, k);
  return idealDcg === 0 ? 0 : dcg(top, k) / idealDcg;
}

/** One question's [recall_any, recall_all, ndcg_any] at k (`evaluate_retrieval`). */
export function evaluateRetrieval(
  rankings: ArrayLike<number>,
  correct: ReadonlySet<string>,
  ids: readonly string[],
  k: number,
): [number, number, number] {
  const recalled = new Set<string>();
  for (let i = 0; i < Math.min(k, rankings.length); i++) recalled.add(ids[rankings[i]!]!);
  let any = 0;
  let all = 1;
  for (const d of correct) {
    if (recalled.has(d)) any = 1;
    else all = 0;
  }
  const relevances = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) relevances[i] = correct.has(ids[i]!) ? 1 : 0;
  return [any, all, ndcg(rankings, relevances, k)];
}

/** `'_'.join(docid.split('_')[:-1])`: a turn id's session id. */
function stripTurnId(id: string): string {
  const at = id.lastIndexOf("_");
  return at < 0 ? "" : id.slice(0, at);
}

/** Session-level metrics of a turn ranking (`evaluate_retrieval_turn2session`): k grows until the top holds k distinct sessions. */
export function evaluateTurnToSession(
  rankings: ArrayLike<number>,
  correct: ReadonlySet<string>,
  ids: readonly string[],
  k: number,
): [number, number, number] {
  const sessCorrect = new Set([...correct].map(stripTurnId));
  const sessIds = ids.map(stripTurnId);
  let effectiveK = k;
  const distinct = new Set<string>();
  for (let i = 0; i < Math.min(effectiveK, rankings.length); i++) distinct.add(sessIds[rankings[i]!]!);
  while (effectiveK <= sessIds.length && distinct.size < k) {
    effectiveK++;
    if (effectiveK - 1 < rankings.length) distinct.add(sessIds[rankings[effectiveK - 1]!]!);
  }
  return evaluateRetrieval(rankings, sessCorrect, sessIds, effectiveK);
}

/** Per-question metrics keyed as the official log keys them, e.g. `recall_any@5`. */
export type OfficialMetrics = Record<string, number>;

/**
 * The official metrics of one ranking: `{ session, turn }` for a turn ranking (session from turns), `{ session }` for a session ranking.
 */
export function officialQuestionMetrics(
  rankings: ArrayLike<number>,
  corpus: OfficialCorpus,
  granularity: OfficialGranularity,
): { session: OfficialMetrics; turn: OfficialMetrics } {
  const correct = correctDocs(corpus.ids);
  const out = { session: {} as OfficialMetrics, turn: {} as OfficialMetrics };
  for (const k of OFFICIAL_KS) {
    const [a, l, n] = evaluateRetrieval(rankings, correct, corpus.ids, k);
    Object.assign(out[granularity], { [`recall_any@${k}`]: a, [`recall_all@${k}`]: l, [`ndcg_any@${k}`]: n });
    if (granularity === "turn") {
      const [sa, sl, sn] = evaluateTurnToSession(rankings, correct, corpus.ids, k);
      Object.assign(out.session, { [`recall_any@${k}`]: sa, [`recall_all@${k}`]: sl, [`ndcg_any@${k}`]: sn });
    }
  }
  return out;
}

/** Why the official `main()` leaves a question out of the averages: abstention (`_abs` in the id), then no user has_answer turn. */
export function officialSkip(q: LongMemEvalQuestion): "abstention" | "no_target" | undefined {
  if (q.questionId.includes("_abs")) return "abstention";
  if (!q.sessions.some((s) => s.turns.some((t) => t.role === "user" && t.hasAnswer === true))) return "no_target";
  return undefined;
}

/**
 * rank_bm25 0.2.2's `BM25Okapi(corpus).get_scores(query)` with k1 1.5, b 0.75, ε 0.25: idf = ln(N − n + 0.5) −
 * ln(n + 0.5) with Python's `math.log` (correctly rounded here; V8's Math.log is off by an ulp on ≈ 1 % of these), a negative idf replaced
 * by ε × the mean idf (summed in first-seen word order, as its dict does),
 * tokens as given (the official code passes `text.split(" ")`: case-sensitive, punctuation kept, "" for a double space).
 */
export function bm25OkapiScores(
  docs: readonly (readonly string[])[],
  query: readonly string[],
  k1 = 1.5,
  b = 0.75,
  epsilon = 0.25,
): Float64Array {
  const n = docs.length;
  const nd = new Map<string, number>();
  const freqs: Map<string, number>[] = [];
  const lens = new Float64Array(n);
  let total = 0;
  for (let d = 0; d < n; d++) {
    const doc = docs[d]!;
    lens[d] = doc.length;
    total += doc.length;
    const f = new Map<string, number>();
    for (const w of doc) f.set(w, (f.get(w) ?? 0) + 1);
    freqs.push(f);
    for (const w of f.keys()) nd.set(w, (nd.get(w) ?? 0) + 1);
  }
  const avgdl = total / n;
  const idf = new Map<string, number>();
  let idfSum = 0;
  const negative: string[] = [];
  for (const [w, df] of nd) {
    const v = exactLogHalfInteger(n - df + 0.5) - exactLogHalfInteger(df + 0.5);
    idf.set(w, v);
    idfSum += v;
    if (v < 0) negative.push(w);
  }
  const eps = epsilon * (idfSum / idf.size);
  for (const w of negative) idf.set(w, eps);
  const score = new Float64Array(n);
  for (const q of query) {
    const w = idf.get(q) ?? 0;
    for (let d = 0; d < n; d++) {
      const tf = freqs[d]!.get(q) ?? 0;
      score[d]! += w * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[d]!) / avgdl)));
    }
  }
  return score;
}

/**
 * The flat-bm25 ranking: scores descending. `np.argsort(scores)[::-1]` is not stable (numpy's introsort, or its
 * AVX-512 sort where the CPU has one), so equal scores come in an order no rule reproduces; ours puts equal scores
 * in descending corpus index — the reverse of a stable ascending sort, which is what numpy's insertion sort gives
 * for arrays of up to 16 items. `tieSensitive` says whether a tie can change a question's metrics.
 */
export function rankByScore(scores: Float64Array): Int32Array {
  const idx = Int32Array.from({ length: scores.length }, (_, i) => i);
  return idx.sort((a, b) => scores[b]! - scores[a]! || b - a);
}

/**
 * The official metrics with every tie broken for the relevant ids (`best`) and against them (`worst`): any order of
 * equal scores — numpy's included — gives metrics between the two, and a question whose two agree cannot be changed
 * by a tie. For the session metrics of a turn ranking, relevance is the turn's session being an answer session.
 */
export function tieBounds(
  scores: Float64Array,
  corpus: OfficialCorpus,
  granularity: OfficialGranularity,
): { best: { session: OfficialMetrics; turn: OfficialMetrics }; worst: { session: OfficialMetrics; turn: OfficialMetrics } } {
  const correct = correctDocs(corpus.ids);
  const bounds = (rel: (i: number) => number, sign: 1 | -1) => {
    const idx = Int32Array.from({ length: scores.length }, (_, i) => i);
    idx.sort((a, b) => scores[b]! - scores[a]! || sign * (rel(b) - rel(a)) || b - a);
    return officialQuestionMetrics(idx, corpus, granularity);
  };
  const turnRel = (i: number) => (correct.has(corpus.ids[i]!) ? 1 : 0);
  const sessCorrect = new Set([...correct].map(stripTurnId));
  const sessRel = (i: number) => (sessCorrect.has(stripTurnId(corpus.ids[i]!)) ? 1 : 0);
  const best = bounds(turnRel, 1);
  const worst = bounds(turnRel, -1);
  if (granularity === "turn") {
    best.session = bounds(sessRel, 1).session;
    worst.session = bounds(sessRel, -1).session;
  }
  return { best, worst };
}

/** Whether some order of equal scores could change one of the question's official metrics. */
export function tieSensitive(scores: Float64Array, corpus: OfficialCorpus, granularity: OfficialGranularity): boolean {
  const { best, worst } = tieBounds(scores, corpus, granularity);
  return (["session", "turn"] as const).some((t) => Object.keys(best[t]).some((k) => best[t][k] !== worst[t][k]));
}

/** Whitespace tokens as the official code makes them: `text.split(" ")`. */
export function officialTokens(text: string): string[] {
  return text.split(" ");
}

/** The official flat-bm25 ranking of one question at one granularity. */
export function flatBm25(q: LongMemEvalQuestion, corpus: OfficialCorpus): { order: Int32Array; scores: Float64Array } {
  const scores = bm25OkapiScores(corpus.texts.map(officialTokens), officialTokens(q.question));
  return { order: rankByScore(scores), scores };
}

/** The official averages over questions: every metric's np.mean over the kept questions, and the skipped ids by reason. */
export function officialAverages(
  questions: readonly LongMemEvalQuestion[],
  perQuestion: readonly { session: OfficialMetrics; turn: OfficialMetrics }[],
): { averages: { session: OfficialMetrics; turn: OfficialMetrics }; ignoredAbstention: string[]; ignoredNoTarget: string[] } {
  const ignoredAbstention: string[] = [];
  const ignoredNoTarget: string[] = [];
  const kept: number[] = [];
  questions.forEach((q, i) => {
    const why = officialSkip(q);
    if (why === "abstention") ignoredAbstention.push(q.questionId);
    else if (why === "no_target") ignoredNoTarget.push(q.questionId);
    else kept.push(i);
  });
  const averages = { session: {} as OfficialMetrics, turn: {} as OfficialMetrics };
  for (const t of ["session", "turn"] as const) {
    const keys = Object.keys(perQuestion[0]?.[t] ?? {});
    for (const k of keys) averages[t][k] = numpyMean(kept.map((i) => perQuestion[i]![t][k]!));
  }
  return { averages, ignoredAbstention, ignoredNoTarget };
}
