import {
  LexiconAnalyzer,
  SIGNIFICANCE_THRESHOLD,
  extendedStrategies,
  strategies,
  type Embedder,
  type MemoryInit,
  type RetrievalStrategy,
} from "@persode/core";
import { LOCOMO_CATEGORY_NAMES, type LocomoConversation, type LocomoDataset } from "@persode/datasets";
import { DAY_MS, Progress, pyRound } from "@persode/util";
import type { BootstrapSpec } from "../stats/bootstrap.js";
import { strategyUncertainty } from "../uncertainty.js";
import { startExtendedStrategyResults } from "../extended-results.js";
import { libraryGate } from "../result-records.js";
import { embedByRole, inRole } from "../embed.js";
import { mean, pstdev, rankingMetrics } from "../metrics.js";
import { RankingsWriter, lineEnd } from "../rankings-writer.js";
import { rankGroups, type RankingGroup, type GroupQuery } from "../ranking-loop.js";
import { inPhase } from "../phases.js";
import { DEFAULT_RANKINGS_DEPTH, type RankingsDepth } from "../defaults.js";

/** LoCoMo QA categories 1–4 named by the dataset's one category map (5, adversarial, is excluded a priori). */
export const LOCOMO_CATEGORIES: Record<number, string> = Object.fromEntries(
  Object.entries(LOCOMO_CATEGORY_NAMES).filter(([k]) => k !== "5"),
);

const DIA_ID_RE = /D\d+:\d+/g;

/** One included LoCoMo question with its resolved gold turns. */
export interface LocomoQuestion {
  conversation: number;
  sampleId: string;
  qaIndex: number;
  question: string;
  category: number;
  gold: string[];
}

/** Counts of questions left out, by rule. */
export interface LocomoExclusions {
  adversarial_cat5: number;
  no_evidence: number;
  unresolvable_evidence: number;
}

/** The memory text of a turn: "{speaker}: {text}" plus the photo caption when there is one. */
export function turnText(t: { speaker: string; text: string; caption?: string }): string {
  return `${t.speaker}: ${t.text}` + (t.caption !== undefined ? ` [shares a photo: ${t.caption}]` : "");
}

/**
 * Apply the pre-registered inclusion rules (docs/spec.md §7 Exp. 5) to one conversation's QA; `categories` is the
 * question set's (§11: Exp. 5's 1–4 by default, a category outside it counted as adversarial_cat5).
 */
export function selectQuestions(
  conv: LocomoConversation,
  convIndex: number,
  excluded: LocomoExclusions,
  categories: readonly number[] = [1, 2, 3, 4],
): LocomoQuestion[] {
  const known = new Set(conv.sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
  const out: LocomoQuestion[] = [];
  conv.qa.forEach((qa, qaIndex) => {
    if (!categories.includes(qa.category)) return void excluded.adversarial_cat5++;
    if (qa.evidence.length === 0) return void excluded.no_evidence++;
    const gold: string[] = [];
    for (const ev of qa.evidence) for (const m of ev.match(DIA_ID_RE) ?? []) if (known.has(m) && !gold.includes(m)) gold.push(m);
    if (gold.length === 0) return void excluded.unresolvable_evidence++;
    out.push({ conversation: convIndex, sampleId: conv.sampleId, qaIndex, question: qa.question, category: qa.category, gold });
  });
  return out;
}

/**
 * A conversation as a store: one memory per turn (analyzer E and emotion, C = 0.5, created = session time + 1 s per turn), now = last
 * session + 1 day; its turn ids by memory index.
 */
export function conversationStore(
  conv: LocomoConversation,
  analyze: (text: string) => { event?: string; emotion?: string; hashtags?: string[]; intensity: number },
  vectors: ReadonlyMap<string, Float64Array>,
): Omit<RankingGroup, "queries"> & { diaIds: string[]; indexOfDia: Map<string, number> } {
  const memories: MemoryInit[] = [];
  const memoryVectors: Float64Array[] = [];
  const diaIds: string[] = [];
  let latest = -Infinity;
  for (const session of conv.sessions) {
    latest = Math.max(latest, session.timestampMs);
    session.turns.forEach((t, i) => {
      const text = turnText(t);
      const a = analyze(text);
      memories.push({
        id: `${conv.sampleId}#${diaIds.length}`,
        text,
        event: a.event,
        emotion: a.emotion,
        hashtags: a.hashtags,
        emotionalIntensity: a.intensity,
        contextualRelevance: 0.5,
        createdAt: session.timestampMs + i * 1000,
      });
      memoryVectors.push(vectors.get(text)!);
      diaIds.push(t.diaId);
    });
  }
  return { memories, vectors: memoryVectors, nowMs: latest + DAY_MS, diaIds, indexOfDia: new Map(diaIds.map((d, i) => [d, i])) };
}

/** The ranking queries of some questions, E from `intensity`. */
export function questionQueries(
  qs: readonly LocomoQuestion[],
  intensity: (text: string) => number,
  vectors: ReadonlyMap<string, Float64Array>,
): GroupQuery[] {
  return qs.map((q) => ({ text: q.question, vector: vectors.get(q.question)!, intensity: intensity(q.question) }));
}

/** 1 at the memory index of each of the question's gold turns, over a store of `size` memories. */
export function goldMask(q: LocomoQuestion, indexOfDia: ReadonlyMap<string, number>, size: number): Uint8Array {
  const relevant = new Uint8Array(size);
  for (const g of q.gold) relevant[indexOfDia.get(g)!] = 1;
  return relevant;
}

/** Per-question metric arrays of one strategy. */
interface StrategyScores {
  r5: Float64Array;
  r10: Float64Array;
  h5: Float64Array;
  h10: Float64Array;
  mrr: Float64Array;
}

/** Optional hooks for analyses that reuse Exp. 5's rankings (the audited-gold comparison): nothing they do changes Exp. 5's outputs. */
export interface Exp5Hooks {
  /** More questions (e.g. ones only another gold includes) to rank with every strategy; not scored, not written. */
  extraQuestions?: readonly LocomoQuestion[];
  /** Called with every ranking: the question, the strategy, the order (memory indices) and the conversation's turn ids by memory index. */
  onRanking?(q: LocomoQuestion, strategy: RetrievalStrategy, order: Int32Array, diaIds: readonly string[]): void;
  /** Called once every ranking has been observed, before Exp. 5's own statistics (e.g. to start their bootstrap jobs). */
  afterRanking?(): void;
}

/** How runExp5 writes its rankings files (nothing here changes a metric: those are computed on the full rankings). */
export interface Exp5Options {
  /** Turns per line of the rankings files: a ranking's first N, or "full" for all (default DEFAULT_RANKINGS_DEPTH). */
  rankingsDepth?: RankingsDepth;
  /**
   * Compute the extended set's statistics (`Exp5Run.extended`: CIs and sign-flip tests on the thread pool; default
   * true). A caller that reads only the hooks' observations (locomo-eval) passes false, and `extended` then refuses.
   */
  extended?: boolean;
}

/** Exp. 5 output: the results object for one embedder plus every ranking (each to the depth asked for). */
export interface Exp5Run {
  run: Record<string, unknown>;
  /** Turns per line the rankings files were written to. */
  rankingsDepth: RankingsDepth;
  /**
   * Per strategy (the paper's, then the extended set), the rankings JSONL file as bytes, its line count and the
   * fewest and most turns a line lists.
   */
  rankings: { strategy: RetrievalStrategy; jsonl: Uint8Array; lines: number; idsPerLine: { min: number; max: number } }[];
  /** `runs.<embedder>` of the extended results file: every strategy of the extended set (computed when first read). */
  readonly extended: Record<string, unknown>;
  questions: number;
  rankedMemories: number;
}

/**
 * Exp. 5 — LoCoMo (Maharana et al., ACL 2024): one store per conversation, one memory per turn,
 * every strategy ranks the whole store for every included question; evidence recall@5/@10,
 * hit@5/@10 and MRR, by category and by conversation, with bootstrap CIs. The extended strategies
 * rank the same stores for the same questions; the paper-format run keeps only the paper's strategies. Every metric
 * reads the full ranking; the rankings files list each ranking's first `options.rankingsDepth` turns (default 100).
 */
export async function runExp5(
  data: LocomoDataset,
  embedder: Embedder,
  spec: BootstrapSpec,
  hooks: Exp5Hooks = {},
  options: Exp5Options = {},
): Promise<Exp5Run> {
  const rankingsDepth = options.rankingsDepth ?? DEFAULT_RANKINGS_DEPTH;
  const depth = rankingsDepth === "full" ? Infinity : rankingsDepth;
  const analyzer = new LexiconAnalyzer();
  const excluded: LocomoExclusions = { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 };
  const questions = data.conversations.flatMap((c, i) => selectQuestions(c, i, excluded));
  const texts = data.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map(turnText)));
  const extra = hooks.extraQuestions ?? [];
  const vectors = await embedByRole(
    embedder,
    [
      ...inRole(texts, "document"),
      ...inRole(
        [...questions, ...extra].map((q) => q.question),
        "query",
      ),
    ],
    "exp5",
  );
  const paper = strategies();
  const strats = extendedStrategies(); // the paper's strategies first, in the same order
  const n = questions.length;
  const scores: StrategyScores[] = strats.map(() => ({
    r5: new Float64Array(n),
    r10: new Float64Array(n),
    h5: new Float64Array(n),
    h10: new Float64Array(n),
    mrr: new Float64Array(n),
  }));
  const stores = data.conversations.map((conv) =>
    conversationStore(conv, (text) => ({ intensity: analyzer.intensity(text) }), vectors.document),
  );
  const idBytes = stores.map((st) => RankingsWriter.encodeIds(st.diaIds));
  // every strategy's rankings, the extended set's too; sized for the whole file (each line: its prefix, and its
  // written ids with ", " at the store's mean id length)
  const arrayBytes = idBytes.map((e) => {
    const n = e.length.length;
    return n === 0 ? 2 : 2 + Math.ceil((e.length.reduce((a, b) => a + b, 0) / n) * Math.min(n, depth));
  });
  const fileBytes = questions.reduce((a, q) => a + arrayBytes[q.conversation]! + 160 + 16 * q.gold.length, 0);
  const writers = strats.map(() => new RankingsWriter(fileBytes, depth));
  // Each store is asked its included questions, then any extra ones (hooks), which are not scored.
  const asked: LocomoQuestion[] = [];
  const mainOf: number[] = [];
  stores.forEach((_, c) => {
    questions.forEach((q, i) => q.conversation === c && (asked.push(q), mainOf.push(i)));
    extra.forEach((q) => q.conversation === c && (asked.push(q), mainOf.push(-1)));
  });
  const groups = stores.map((st, c) => ({
    ...st,
    queries: questionQueries(
      asked.filter((q) => q.conversation === c),
      (q) => analyzer.intensity(q),
      vectors.query,
    ),
  }));
  let rankedMemories = 0;
  let relevant: Uint8Array = new Uint8Array(0);
  let prefix = "";
  const progress = new Progress(`exp5 (${embedder.name}): ranking`, { total: asked.length });
  const fired = rankGroups(
    groups,
    embedder,
    strats,
    {
      begin(ai, c) {
        const q = asked[ai]!;
        if (mainOf[ai]! < 0) return;
        relevant = goldMask(q, stores[c]!.indexOfDia, stores[c]!.diaIds.length);
        prefix = `{"sample_id": ${JSON.stringify(q.sampleId)}, "qa_index": ${q.qaIndex}, "category": ${q.category}, "gold": [${q.gold.map((g) => JSON.stringify(g)).join(", ")}], "ranked_dia_ids": `;
      },
      ranking(ai, si, order, c, nearTies) {
        const q = asked[ai]!;
        const qi = mainOf[ai]!;
        if (qi >= 0) {
          const m = rankingMetrics(order, relevant, q.gold.length, [5, 10]);
          const sc = scores[si]!;
          sc.r5[qi] = m.recall[0]!;
          sc.r10[qi] = m.recall[1]!;
          sc.h5[qi] = m.hit[0]!;
          sc.h10[qi] = m.hit[1]!;
          sc.mrr[qi] = m.rr;
          const w = writers[si]!;
          inPhase("write", () => w.line(prefix, order, idBytes[c]!, lineEnd(nearTies, w.written(order.length))));
          rankedMemories += order.length;
        }
        hooks.onRanking?.(q, strats[si]!, order, stores[c]!.diaIds);
      },
    },
    progress,
    { worker: true },
  );
  progress.finish();
  hooks.afterRanking?.();
  const fires = new Uint8Array(n);
  mainOf.forEach((qi, ai) => qi >= 0 && (fires[qi] = fired[ai]!));

  const r4 = (x: number) => pyRound(x, 4);
  const metricArrays = (sc: StrategyScores) => ({
    "evidence_recall@5": sc.r5,
    "evidence_recall@10": sc.r10,
    "hit@5": sc.h5,
    "hit@10": sc.h10,
    mrr: sc.mrr,
  });
  const uncertainty = strategyUncertainty(
    paper.map((s, si) => ({ key: s.key, values: metricArrays(scores[si]!) })),
    spec,
    `exp5/${embedder.name}`,
    4,
  );
  const out: Record<string, unknown> = {};
  paper.forEach((s, si) => {
    const sc = scores[si]!;
    const byCategory: Record<string, { recall: number; n: number }> = {};
    for (const [cat, name] of Object.entries(LOCOMO_CATEGORIES)) {
      const idx = questions.flatMap((q, i) => (q.category === Number(cat) ? [i] : []));
      byCategory[name] = { recall: r4(mean(idx.map((i) => sc.r5[i]!))), n: idx.length };
    }
    const perConv = data.conversations.map((_, c) => mean(questions.flatMap((q, i) => (q.conversation === c ? [sc.r5[i]!] : []))));
    const entry: Record<string, unknown> = {
      "evidence_recall@5": r4(mean(sc.r5)),
      "evidence_recall@10": r4(mean(sc.r10)),
      "hit@5": r4(mean(sc.h5)),
      "hit@10": r4(mean(sc.h10)),
      mrr: r4(mean(sc.mrr)),
      "recall@5_by_category": byCategory,
      "recall@5_by_conversation": { mean: r4(mean(perConv)), std: r4(pstdev(perConv)), n_conversations: perConv.length },
      query_count: n,
    };
    const u = uncertainty.get(s.key)!;
    entry.ci95 = u.ci95;
    if (u.paired) entry.paired_vs_similarity = u.paired;
    out[s.key] = entry;
  });

  // The extended set's statistics are started now (their sign-flip tests go to the thread pool's workers) and computed
  // when `extended` is first read: exp5.ts reads it last, so the workers test while this thread builds the other files.
  const extended =
    options.extended === false
      ? () => {
          throw new Error("runExp5: the extended results were not computed (options.extended is false)");
        }
      : startExtendedStrategyResults(
          strats.map((s, si) => {
            const { "hit@10": _h10, ...m } = metricArrays(scores[si]!);
            return { strategy: s, values: m };
          }),
          spec,
          `exp5/${embedder.name}`,
          4,
        );
  return {
    run: {
      excluded,
      gate: { rule: libraryGate("analyzer").rule, fused_fraction: r4(mean(fires)) },
      strategies: out,
    },
    rankingsDepth,
    rankings: strats.map((s, si) => ({ strategy: s, jsonl: writers[si]!.bytes(), ...writers[si]!.counts() })),
    get extended() {
      return { strategies: extended() };
    },
    questions: n,
    rankedMemories,
  };
}

/** The Exp. 5 protocol block (fixed before any result was computed). */
export const EXP5_PROTOCOL = {
  note:
    "pre-registered: memory construction, strategies, metrics and QA inclusion rules were fixed before any result was computed; scorer " +
    "and fusion use the shipped defaults; the adversarial category is excluded a priori (unanswerable by design)",
  gate_provenance: `the gated strategy was ADDED after the first run showed that ungated fusion costs recall on factual QA; its rule (analyzer E >= ${SIGNIFICANCE_THRESHOLD}, the library's existing significance threshold) was fixed before it was evaluated and was not tuned on LoCoMo`,
  alpha: 0.5,
  top_ks: [5, 10],
  primary_k: 5,
  stored_C: 0.5,
  emotion_source: "offline lexicon analyzer (the system's own ingestion path)",
} as const;
