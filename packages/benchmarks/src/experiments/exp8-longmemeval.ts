/**
 * Exp. 8 — LongMemEval retrieval (Wu et al., ICLR 2025; docs/spec.md §7 Exp. 8) under two protocols:
 * (a) the official one, exactly as LongMemEval's run_retrieval.py computes it, with its flat-bm25 baseline;
 * (b) Persode's: every turn (user and assistant) a memory stamped with its session's date, ranked at the
 * question's date by every strategy (the paper's five and the extended set, decay and salience on), evidence =
 * the has_answer turns, turn- and session-level metrics per question type with bootstrap CIs and paired tests.
 */
import { LexiconAnalyzer, extendedStrategies, strategies, type Embedder, type MemoryInit } from "@persode/core";
import type { LongMemEvalDataset, LongMemEvalQuestion } from "@persode/datasets";
import { Progress, pyRound } from "@persode/util";
import { embedDistinct } from "../embed.js";
import { extendedStrategyResults } from "../extended-results.js";
import { mean, rankingMetrics } from "../metrics.js";
import { rankGroups, type RankingGroup } from "../ranking-loop.js";
import { LADDER_MEASURES, relevantRanks, scoreQuestion, scoreRanks, sessionRanks } from "../protocols.js";
import { familyScores } from "../locomo-protocols.js";
import { libraryGate } from "../result-records.js";
import type { BootstrapSpec } from "../stats/bootstrap.js";
import {
  OFFICIAL_KS,
  flatBm25,
  officialAverages,
  officialCorpus,
  officialQuestionMetrics,
  officialSkip,
  tieBounds,
  tieSensitive,
  type OfficialGranularity,
  type OfficialMetrics,
} from "../longmemeval/official.js";

/** The official protocol's block of Exp. 8: what is computed and how ties are broken. */
export const EXP8_OFFICIAL_PROTOCOL = {
  source:
    "LongMemEval src/retrieval/run_retrieval.py + eval_utils.py (xiaowu0162/LongMemEval), reimplemented; pinned against the official " +
    "outputs on a synthetic fixture",
  corpus:
    "user turns only; turn id <session_id>_<n>, n the 1-based position among all turns of the session; session text = its user turns joined by a space",
  relevance:
    'a corpus id containing "answer"; ids of answer-session turns without has_answer (session granularity: answer sessions without a user has_answer turn) are relabelled answer -> noans',
  metrics:
    "recall_any@k, recall_all@k, ndcg_any@k (official nDCG: rel_1 + sum_{i>=2} rel_i / log2(i), ideal over all corpus relevances) " +
    "for k in 1, 3, 5, 10, 30, 50; session metrics of a turn ranking with k expanded until the top holds k distinct sessions",
  averages: "np.mean over questions, skipping abstention (_abs) questions and questions without a user has_answer turn",
  retriever: 'flat-bm25: rank_bm25 0.2.2 BM25Okapi(k1 1.5, b 0.75, epsilon 0.25) over text.split(" ") tokens, case-sensitive',
  ties:
    "np.argsort(scores)[::-1] is not stable (introsort, or AVX-512 sort on CPUs with it): equal scores are put in descending corpus " +
    "index here; tie_sensitive counts the questions whose metrics some order of equal scores could change, and *_tie_bounds give the " +
    "averages with every tie broken for (best) and against (worst) the evidence",
  ks: OFFICIAL_KS,
} as const;

/** The Persode protocol's block of Exp. 8. */
export const EXP8_PERSODE_PROTOCOL = {
  memories:
    "every turn (user and assistant) of the question's haystack, text = the turn's content, created = its session's date + 1 s per " +
    "turn position; analyzer E and emotion, C = 0.5",
  now: "question_date",
  questions: "every question with at least one has_answer turn, abstention (_abs) questions excluded",
  evidence: "the has_answer turns (user or assistant)",
  turn_metrics: "evidence_recall@k = |evidence in top k| / |evidence|, hit@k, MRR, for k = 5, 10",
  session_metrics:
    "sessions (haystack positions; a repeated id is two sessions) ranked by their best-ranked turn; session_recall_any@5 = an " +
    "evidence session in the top 5 sessions, session_recall@5 = fraction of evidence sessions there",
  alpha: 0.5,
  primary_k: 5,
  protocols:
    "runs.<embedder>.protocols: every strategy under every measure of the protocol ladder (docs/spec.md §11), turn and session level, " +
    "on this question set (family has_answer/original), with bootstrap CIs",
} as const;

/** The ladder family of Exp. 8 (b): questions with a has_answer turn, abstention excluded; gold = the dataset's has_answer turns. */
export const EXP8_LADDER_FAMILY = "has_answer/original";

/** The official protocol's outputs for one granularity. */
interface OfficialRun {
  averages: { session: OfficialMetrics; turn: OfficialMetrics };
  best: { session: OfficialMetrics; turn: OfficialMetrics };
  worst: { session: OfficialMetrics; turn: OfficialMetrics };
  ignored_abstention: number;
  ignored_no_target: number;
  averaged_questions: number;
  tie_sensitive_questions: number;
  /** Per question: the ranked ids (our tie rule), as the official log's ranked_items corpus_id. */
  rankings: { question_id: string; ranked_ids: string[] }[];
}

/** Round every metric of an averages block to 6 decimals (the exact values are in the per-question rankings). */
function rounded(m: { session: OfficialMetrics; turn: OfficialMetrics }): Record<string, OfficialMetrics> {
  const r = (o: OfficialMetrics) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, pyRound(v, 6)]));
  return Object.fromEntries(
    Object.entries(m)
      .filter(([, v]) => Object.keys(v).length > 0)
      .map(([t, v]) => [t, r(v)]),
  );
}

/** Exp. 8 (a): flat-bm25 under the official protocol at one granularity. */
export function runOfficialFlatBm25(
  questions: readonly LongMemEvalQuestion[],
  granularity: OfficialGranularity,
  progress?: Progress,
): OfficialRun {
  const per: { session: OfficialMetrics; turn: OfficialMetrics }[] = [];
  const best: typeof per = [];
  const worst: typeof per = [];
  const rankings: OfficialRun["rankings"] = [];
  let sensitive = 0;
  for (const q of questions) {
    const corpus = officialCorpus(q, granularity);
    const { order, scores } = flatBm25(q, corpus);
    per.push(officialQuestionMetrics(order, corpus, granularity));
    const b = tieBounds(scores, corpus, granularity);
    best.push(b.best);
    worst.push(b.worst);
    if (officialSkip(q) === undefined && tieSensitive(scores, corpus, granularity)) sensitive++;
    rankings.push({ question_id: q.questionId, ranked_ids: Array.from(order, (i) => corpus.ids[i]!) });
    progress?.tick();
  }
  const a = officialAverages(questions, per);
  return {
    averages: a.averages,
    best: officialAverages(questions, best).averages,
    worst: officialAverages(questions, worst).averages,
    ignored_abstention: a.ignoredAbstention.length,
    ignored_no_target: a.ignoredNoTarget.length,
    averaged_questions: questions.length - a.ignoredAbstention.length - a.ignoredNoTarget.length,
    tie_sensitive_questions: sensitive,
    rankings,
  };
}

/** The official block of the results: both granularities (the turn run also gives session-from-turn). */
export function officialBlock(questions: readonly LongMemEvalQuestion[]): {
  block: Record<string, unknown>;
  rankings: Record<OfficialGranularity, OfficialRun["rankings"]>;
} {
  const progress = new Progress("exp8: official flat-bm25", { total: questions.length * 2 });
  const turn = runOfficialFlatBm25(questions, "turn", progress);
  const session = runOfficialFlatBm25(questions, "session", progress);
  progress.finish();
  const summary = (r: OfficialRun) => ({
    averaged_questions: r.averaged_questions,
    ignored_abstention: r.ignored_abstention,
    ignored_no_target: r.ignored_no_target,
    tie_sensitive_questions: r.tie_sensitive_questions,
    metrics: rounded(r.averages),
    tie_bounds: { best: rounded(r.best), worst: rounded(r.worst) },
  });
  return {
    block: { "flat-bm25": { turn: summary(turn), session: summary(session) } },
    rankings: { turn: turn.rankings, session: session.rankings },
  };
}

/**
 * A question's store: every turn a memory (session date + 1 s per position), now = question_date; evidence mask and session of each memory.
 */
export function questionStore(
  q: LongMemEvalQuestion,
  analyze: (t: string) => { event?: string; emotion?: string; hashtags?: string[]; intensity: number },
  vectors: ReadonlyMap<string, Float64Array>,
): Omit<RankingGroup, "queries"> & { evidence: Uint8Array; sessionOf: Int32Array; evidenceSessions: Set<number> } {
  const memories: MemoryInit[] = [];
  const memoryVectors: Float64Array[] = [];
  const evidence: number[] = [];
  const sessionOf: number[] = [];
  const evidenceSessions = new Set<number>();
  q.sessions.forEach((s, si) => {
    s.turns.forEach((t, ti) => {
      const a = analyze(t.content);
      memories.push({
        id: `${q.questionId}#${memories.length}`,
        text: t.content,
        event: a.event,
        emotion: a.emotion,
        hashtags: a.hashtags,
        emotionalIntensity: a.intensity,
        contextualRelevance: 0.5,
        createdAt: s.timestampMs + ti * 1000,
      });
      memoryVectors.push(vectors.get(t.content)!);
      evidence.push(t.hasAnswer === true ? 1 : 0);
      sessionOf.push(si);
      if (t.hasAnswer === true) evidenceSessions.add(si);
    });
  });
  return {
    memories,
    vectors: memoryVectors,
    nowMs: q.questionTimeMs,
    evidence: Uint8Array.from(evidence),
    sessionOf: Int32Array.from(sessionOf),
    evidenceSessions,
  };
}

/** Session-level metrics of a turn order (session.any@k, session.recall@k of protocols.ts): sessions ranked by their best-ranked turn. */
function sessionMetrics(order: Int32Array, sessionOf: Int32Array, gold: ReadonlySet<number>, k: number): { any: number; recall: number } {
  const ranks = sessionRanks(order, sessionOf, gold, k);
  return { any: scoreRanks(ranks, gold.size, "any", k), recall: scoreRanks(ranks, gold.size, "recall", k) };
}

/** The metrics Persode's protocol records per question. */
const PERSODE_METRICS = ["evidence_recall@5", "evidence_recall@10", "hit@5", "mrr", "session_recall_any@5", "session_recall@5"] as const;

/** Exp. 8 (b): every strategy over each question's haystack at the question's date. */
export async function runPersodeProtocol(
  questions: readonly LongMemEvalQuestion[],
  embedder: Embedder,
  spec: BootstrapSpec,
): Promise<{
  block: Record<string, unknown>;
  /** Per strategy, per measure of LADDER_MEASURES, the value of every included question (in data order). */
  ladderColumns: Map<string, Float64Array[]>;
  questions: number;
  rankings: number;
  texts: number;
  embedSeconds: number;
  strategySeconds: Record<string, number>;
}> {
  const included = questions.filter((q) => !q.abstention && q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true)));
  const excluded = {
    abstention: questions.filter((q) => q.abstention).length,
    no_evidence_turn: questions.filter((q) => !q.abstention && !q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true))).length,
  };
  const analyzer = new LexiconAnalyzer();
  const analysis = new Map<string, ReturnType<LexiconAnalyzer["analyzeSync"]>>();
  const analyze = (t: string) => {
    let a = analysis.get(t);
    if (!a) analysis.set(t, (a = analyzer.analyzeSync(t)));
    return a;
  };
  const texts = included.flatMap((q) => q.sessions.flatMap((s) => s.turns.map((t) => t.content)));
  const e0 = performance.now();
  const vectors = await embedDistinct(embedder, [...texts, ...included.map((q) => q.question)], "exp8");
  const embedSeconds = Number(((performance.now() - e0) / 1000).toFixed(3));
  const strats = extendedStrategies();
  const n = included.length;
  const values = strats.map(
    () =>
      Object.fromEntries(PERSODE_METRICS.map((m) => [m, new Float64Array(n)])) as Record<(typeof PERSODE_METRICS)[number], Float64Array>,
  );
  // One group at a time: building all stores up front would hold every haystack's memories at once.
  const progress = new Progress(`exp8 (${embedder.name}): ranking`, { total: n });
  const fired = new Uint8Array(n);
  // The ladder's measures of every ranking (per strategy, per measure, per question), for the protocols block.
  const ladder = strats.map(() => LADDER_MEASURES.map(() => new Float64Array(n)));
  const strategyMs = new Float64Array(strats.length);
  for (let qi = 0; qi < n; qi++) {
    const q = included[qi]!;
    const st = questionStore(q, analyze, vectors);
    const nEvidence = st.evidence.reduce((a, b) => a + b, 0);
    let t0 = 0;
    const f = rankGroups(
      [{ ...st, queries: [{ text: q.question, vector: vectors.get(q.question)!, intensity: analyze(q.question).intensity }] }],
      embedder,
      strats,
      {
        query() {
          t0 = performance.now();
        },
        ranking(_i, si, order) {
          // The visitor is called right after strategy si ranked: the time since the previous call is its ranking time.
          const t1 = performance.now();
          strategyMs[si]! += t1 - t0;
          const m = rankingMetrics(order, st.evidence, nEvidence, [5, 10]);
          const s = sessionMetrics(order, st.sessionOf, st.evidenceSessions, 5);
          const v = values[si]!;
          v["evidence_recall@5"][qi] = m.recall[0]!;
          v["evidence_recall@10"][qi] = m.recall[1]!;
          v["hit@5"][qi] = m.hit[0]!;
          v.mrr[qi] = m.rr;
          v["session_recall_any@5"][qi] = s.any;
          v["session_recall@5"][qi] = s.recall;
          scoreQuestion(
            LADDER_MEASURES,
            { ranks: relevantRanks(order, st.evidence), nGold: nEvidence },
            { ranks: sessionRanks(order, st.sessionOf, st.evidenceSessions), nGold: st.evidenceSessions.size },
          ).forEach((x, mi) => (ladder[si]![mi]![qi] = x));
          t0 = performance.now();
        },
      },
    );
    fired[qi] = f[0]!;
    progress.tick();
  }
  progress.finish();
  const label = `exp8/${embedder.name}`;
  const all = extendedStrategyResults(
    strats.map((s, si) => ({ strategy: s, values: values[si]! })),
    spec,
    label,
    4,
  );
  const types = [...new Set(included.map((q) => q.questionType))].sort();
  const byType: Record<string, Record<string, unknown>> = {};
  for (const t of types) {
    const idx = included.flatMap((q, i) => (q.questionType === t ? [i] : []));
    byType[t] = {
      n: idx.length,
      strategies: Object.fromEntries(
        strats.map((s, si) => [
          s.key,
          Object.fromEntries(PERSODE_METRICS.map((m) => [m, pyRound(mean(idx.map((i) => values[si]![m][i]!)), 4)])),
        ]),
      ),
    };
  }
  const paperKeys = new Set(strategies().map((s) => s.key));
  const ladderScores = familyScores(
    new Map(strats.map((s, si) => [s.key, ladder[si]!])),
    LADDER_MEASURES,
    spec,
    `${label}/${EXP8_LADDER_FAMILY}`,
  );
  return {
    block: {
      questions: n,
      excluded,
      gate: { rule: libraryGate("analyzer").rule, fired_fraction: pyRound(mean(fired), 4) },
      paper_strategies: strats.filter((s) => paperKeys.has(s.key)).map((s) => s.key),
      strategies: all,
      by_question_type: byType,
      protocols: {
        family: EXP8_LADDER_FAMILY,
        questions: n,
        strategies: Object.fromEntries(strats.map((s) => [s.key, { [EXP8_LADDER_FAMILY]: ladderScores.get(s.key)! }])),
      },
    },
    ladderColumns: new Map(strats.map((s, si) => [s.key, ladder[si]!])),
    questions: n,
    rankings: n * strats.length,
    texts: new Set(texts).size,
    embedSeconds,
    strategySeconds: Object.fromEntries(strats.map((s, si) => [s.key, Number((strategyMs[si]! / 1000).toFixed(3))])),
  };
}

/** Everything Exp. 8 computes on one dataset with one embedder (the official block does not depend on the embedder). */
export async function runExp8(
  data: LongMemEvalDataset,
  embedder: Embedder,
  spec: BootstrapSpec,
): Promise<{
  official: ReturnType<typeof officialBlock>;
  officialSeconds: number;
  persode: Awaited<ReturnType<typeof runPersodeProtocol>>;
}> {
  const t0 = performance.now();
  const official = officialBlock(data.questions);
  const officialSeconds = Number(((performance.now() - t0) / 1000).toFixed(3));
  const persode = await runPersodeProtocol(data.questions, embedder, spec);
  return { official, officialSeconds, persode };
}
