/**
 * Latency beside quality (`pnpm bench:perf --latency`): per strategy × embedder, the index build time and the
 * query latency (p50, p95) on LoCoMo (Exp. 5's stores and questions) and LongMemEval (Exp. 8's per-question
 * haystacks: the committed synthetic fixture, or `--data FILE`), printed beside the strategy's recall from the
 * protocol ladder file when one is present. Timings are machine-dependent: printed, never written into results/
 * and never asserted.
 *
 * - index build, per store (a conversation, a question's haystack): a fresh MemoryStore filled with the
 *   embedded memories, its columns, and the strategy's first query (which builds what the strategy indexes
 *   lazily, e.g. BM25's inverted index); embedding is not included (it is cached; `--embedding` times it);
 * - query latency: every later query of the store (a store with one question: that question again), ranking
 *   context plus the strategy's full ranking.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LexiconAnalyzer, MemoryStore, extendedStrategies, rankChecked, type Embedder, type RetrievalStrategy } from "@persode/core";
import { loadLocomo, loadLongMemEval, parseLongMemEval, sha256Hex } from "@persode/datasets";
import { Progress } from "@persode/util";
import { embedByRole, embedDistinct, inRole } from "./embed.js";
import { conversationStore, questionQueries, selectQuestions, turnText, type LocomoExclusions } from "./experiments/exp5-locomo.js";
import { questionStore } from "./experiments/exp8-longmemeval.js";
import type { RankingGroup } from "./ranking-loop.js";

/** The committed LongMemEval-format fixture (what `--latency` times when no `--data` is given). */
const LONGMEMEVAL_FIXTURE = fileURLToPath(new URL("../../datasets/test/fixtures/longmemeval/synthetic.json", import.meta.url));

/** One strategy's timings on one dataset. */
interface LatencyRow {
  dataset: string;
  strategy: string;
  stores: number;
  queries: number;
  /** Index build per store, ms: p50 and p95 over stores, and the total. */
  build: { p50: number; p95: number; total: number };
  /** Query latency, ms: p50 and p95 over every query after each store's first (one-question stores: that question again). */
  query: { p50: number; p95: number };
}

/** p-quantile of sorted values by linear interpolation (numpy's default). */
function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
}

/** Time every strategy on every group: build (store + first query) per group, then each later query. */
function timeStrategies(
  dataset: string,
  groups: readonly RankingGroup[],
  embedder: Embedder,
  strats: readonly RetrievalStrategy[] = extendedStrategies(),
): LatencyRow[] {
  const progress = new Progress(`latency ${dataset} (${embedder.name})`, { total: strats.length * groups.length });
  const rows = strats.map((s) => {
    const build: number[] = [];
    const query: number[] = [];
    let queries = 0;
    for (const g of groups) {
      if (g.queries.length === 0) continue;
      const t0 = performance.now();
      const store = new MemoryStore({ embedder });
      for (let i = 0; i < g.memories.length; i++) store.addEmbedded(g.memories[i]!, g.vectors[i]!);
      const columns = store.columns();
      rankChecked(s, store.context(g.queries[0]!, g.nowMs, columns));
      build.push(performance.now() - t0);
      // A store with one question (a LongMemEval haystack) times that question again, its indexes now built.
      for (let qi = g.queries.length === 1 ? 0 : 1; qi < g.queries.length; qi++) {
        const t = performance.now();
        rankChecked(s, store.context(g.queries[qi]!, g.nowMs, columns));
        query.push(performance.now() - t);
      }
      queries += g.queries.length;
      progress.tick();
    }
    build.sort((a, b) => a - b);
    query.sort((a, b) => a - b);
    return {
      dataset,
      strategy: s.key,
      stores: build.length,
      queries,
      build: { p50: quantile(build, 0.5), p95: quantile(build, 0.95), total: build.reduce((a, b) => a + b, 0) },
      query: { p50: quantile(query, 0.5), p95: quantile(query, 0.95) },
    };
  });
  progress.finish();
  return rows;
}

/** Exp. 5's LoCoMo stores and questions (the persode set), embedded through the cache. */
async function locomoGroups(embedder: Embedder): Promise<RankingGroup[]> {
  const data = await loadLocomo();
  const analyzer = new LexiconAnalyzer();
  const excluded: LocomoExclusions = { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 };
  const questions = data.conversations.flatMap((c, i) => selectQuestions(c, i, excluded));
  const texts = data.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map(turnText)));
  const vectors = await embedByRole(
    embedder,
    [
      ...inRole(texts, "document"),
      ...inRole(
        questions.map((q) => q.question),
        "query",
      ),
    ],
    "latency",
  );
  return data.conversations.map((conv, c) => ({
    ...conversationStore(conv, (t) => analyzer.analyzeSync(t), vectors.document),
    queries: questionQueries(
      questions.filter((q) => q.conversation === c),
      (t) => analyzer.analyzeSync(t).intensity,
      vectors.query,
    ),
  }));
}

/** Exp. 8's per-question haystacks (questions with a has_answer turn, no abstention) of a LongMemEval-format file. */
async function longmemevalGroups(embedder: Embedder, file?: string): Promise<RankingGroup[]> {
  const data = file
    ? await loadLongMemEval({ data: file })
    : (() => {
        const bytes = readFileSync(LONGMEMEVAL_FIXTURE);
        return parseLongMemEval(bytes, sha256Hex(bytes), LONGMEMEVAL_FIXTURE);
      })();
  const analyzer = new LexiconAnalyzer();
  const included = data.questions.filter((q) => !q.abstention && q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true)));
  const vectors = await embedDistinct(
    embedder,
    [...included.flatMap((q) => q.sessions.flatMap((s) => s.turns.map((t) => t.content))), ...included.map((q) => q.question)],
    "latency",
  );
  return included.map((q) => ({
    ...questionStore(q, (t) => analyzer.analyzeSync(t), vectors),
    queries: [{ text: q.question, vector: vectors.get(q.question)!, intensity: analyzer.analyzeSync(q.question).intensity }],
  }));
}

/** The ladder's recall of a strategy on LoCoMo, from a protocol ladder file, when present. */
function ladderRecall(ladderFile: string | undefined, run: string, strategy: string): { turn: string; session: string } {
  if (!ladderFile || !existsSync(ladderFile)) return { turn: "–", session: "–" };
  const doc = JSON.parse(readFileSync(ladderFile, "utf8")) as {
    runs?: Record<string, { strategies?: Record<string, Record<string, { values: Record<string, number> }>> }>;
  };
  const s = doc.runs?.[run]?.strategies?.[strategy];
  return {
    turn: s?.["persode/original"]?.values["turn.recall@5"]?.toFixed(4) ?? "–",
    session: s?.["all/original"]?.values["session.any@5"]?.toFixed(4) ?? "–",
  };
}

/**
 * The latency table as Markdown: one row per dataset × strategy, build and query times in ms, and on LoCoMo the
 * strategy's turn.recall@5 (persode/original) and session.any@5 (all/original) from `ladderFile`.
 */
function formatLatency(rows: readonly LatencyRow[], run: string, ladderFile?: string): string {
  const ms = (x: number) => (Number.isNaN(x) ? "–" : x < 10 ? x.toFixed(2) : x.toFixed(1));
  const out = [
    `| dataset | strategy (${run}) | stores | queries | build p50 (ms) | build p95 (ms) | build total (ms) | query p50 (ms) | query p95 (ms) | turn.recall@5 | session.any@5 (all) |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const q = r.dataset === "LoCoMo" ? ladderRecall(ladderFile, run, r.strategy) : { turn: "–", session: "–" };
    out.push(
      `| ${r.dataset} | ${r.strategy} | ${r.stores} | ${r.queries} | ${ms(r.build.p50)} | ${ms(r.build.p95)} | ${ms(r.build.total)} | ${ms(r.query.p50)} | ${ms(r.query.p95)} | ${q.turn} | ${q.session} |`,
    );
  }
  return out.join("\n") + "\n";
}

/** Time every strategy with one embedder on LoCoMo and LongMemEval (`data`: a LongMemEval-format file, default the fixture). */
export async function runLatency(
  embedder: Embedder,
  run: string,
  opts: { data?: string; ladderFile?: string; datasets?: readonly ("locomo" | "longmemeval")[] } = {},
): Promise<string> {
  const datasets = opts.datasets ?? ["locomo", "longmemeval"];
  const rows = [
    ...(datasets.includes("locomo") ? timeStrategies("LoCoMo", await locomoGroups(embedder), embedder) : []),
    ...(datasets.includes("longmemeval")
      ? timeStrategies(opts.data ? "LongMemEval (--data)" : "LongMemEval (fixture)", await longmemevalGroups(embedder, opts.data), embedder)
      : []),
  ];
  return formatLatency(rows, run, opts.ladderFile);
}
