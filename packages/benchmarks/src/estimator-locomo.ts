/**
 * Exp. 7 part 2 on LoCoMo: Exp. 5's protocol (one store per conversation, one memory per turn, C = 0.5,
 * now = last session + 1 day, the pre-registered question inclusion rules) with memory and query E from
 * each estimator; evidence recall@5 per question for similarity-only, always-on fusion and the gate,
 * summarised overall and per QA category with CIs, paired differences and Holm-controlled paired tests
 * (compareToSimilarity; Holm across all estimator·strategy columns within each category).
 * LoCoMo has no emotion labels, so the oracle does not run here.
 */
import type { EmbedRole, Embedder, EmotionEstimator } from "@persode/core";
import type { LocomoDataset } from "@persode/datasets";
import {
  BASELINE,
  EXP7_STRATEGIES,
  MODES,
  columnKey,
  compareToSimilarity,
  type Mode,
  type PairedVsSimilarity,
} from "./estimator-retrieval.js";
import {
  LOCOMO_CATEGORIES,
  conversationStore,
  goldMask,
  questionQueries,
  selectQuestions,
  turnText,
  type LocomoExclusions,
  type LocomoQuestion,
} from "./experiments/exp5-locomo.js";
import { inRole, type RoleVectors } from "./embed.js";
import { mean, rankingMetrics } from "./metrics.js";
import { rankGroups } from "./ranking-loop.js";
import { Progress, pyRound } from "@persode/util";
import type { BootstrapSpec } from "./stats/bootstrap.js";

/** The included questions and every turn/question text (for embedding once with the rest of the run). */
export function locomoTexts(data: LocomoDataset): { questions: LocomoQuestion[]; texts: (readonly [string, EmbedRole])[] } {
  const excluded: LocomoExclusions = { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 };
  const questions = data.conversations.flatMap((c, i) => selectQuestions(c, i, excluded));
  const texts = data.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map(turnText)));
  return {
    questions,
    texts: [
      ...inRole(texts, "document"),
      ...inRole(
        questions.map((q) => q.question),
        "query",
      ),
    ],
  };
}

/** Per-question evidence recall@5 of every column, and each estimator's gate firing. */
export interface LocomoTable {
  categories: number[];
  recall5: Map<string, Float64Array>;
  fires: Map<string, Uint8Array>;
}

/**
 * Rank every included question with each (non-oracle) estimator's E. The stores hold the same vectors
 * for every estimator (only E differs), so each question's cosine to its conversation is computed in the
 * first pass and reused by the others: the dense cosine is most of Exp. 7's time with a model embedder.
 */
export async function rankLocomoWithEstimators(
  data: LocomoDataset,
  embedder: Embedder,
  vectors: RoleVectors,
  estimators: readonly EmotionEstimator[],
): Promise<LocomoTable> {
  const { questions } = locomoTexts(data);
  const n = questions.length;
  const recall5 = new Map<string, Float64Array>();
  const fires = new Map<string, Uint8Array>();
  const turns = data.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map(turnText)));
  const progress = new Progress(`exp7 LoCoMo (${embedder.name}): ranking`, { total: n * estimators.length });
  const similarity: Float64Array[] = new Array<Float64Array>(n);
  // The stores, questions and gold turns are the same for every estimator (only E differs, given to rankGroups as memoryIntensity):
  // built once, so each store is built once (ranking-loop's groupStore)
  const stores = data.conversations.map((conv) => conversationStore(conv, () => ({ intensity: 0 }), vectors.document));
  const byConversation = stores.map((_, c) => questions.filter((q) => q.conversation === c));
  const gold = questions.map((q) => goldMask(q, stores[q.conversation]!.indexOfDia, stores[q.conversation]!.diaIds.length));
  for (const est of estimators) {
    const turnE = await est.estimate(turns);
    const qE = await est.estimate(questions.map((q) => q.question));
    const base = new Float64Array(n);
    const cols = Object.fromEntries(MODES.map((m) => [m, new Float64Array(n)])) as Record<Mode, Float64Array>;
    let ti = 0;
    let qe = 0;
    let qs = 0; // query index over all conversations, as rankGroups counts them
    const groups = stores.map((st, c) => ({
      ...st,
      memoryIntensity: Float64Array.from(st.memories, () => turnE[ti++]!.intensity),
      queries: questionQueries(byConversation[c]!, () => qE[qe++]!.intensity, vectors.query).map((q) => {
        const sim = similarity[qs++];
        return sim ? { ...q, similarity: sim } : q;
      }),
    }));
    let relevant: Uint8Array = new Uint8Array(0);
    const fire = rankGroups(
      groups,
      embedder,
      EXP7_STRATEGIES,
      {
        query(qi, _, ctx) {
          relevant = gold[qi]!;
          similarity[qi] ??= ctx.similarity();
        },
        ranking(qi, si, order) {
          const r5 = rankingMetrics(order, relevant, questions[qi]!.gold.length, [5]).recall[0]!;
          if (si === 0) base[qi] = r5;
          else cols[MODES[si - 1]!][qi] = r5;
        },
      },
      progress,
      { top: 5 }, // recall@5 reads the top 5 only
    );
    const prev = recall5.get(BASELINE);
    if (!prev) recall5.set(BASELINE, base);
    else if (prev.some((v, i) => v !== base[i])) throw new Error(`exp7: LoCoMo similarity-only changed with estimator "${est.name}"`);
    for (const m of MODES) recall5.set(columnKey(est.name, m), cols[m]);
    fires.set(est.name, fire);
  }
  progress.finish();
  return { categories: questions.map((q) => q.category), recall5, fires };
}

/** The strata summarizeLocomo reports, in order: overall, then each QA category with questions (question indices of each). */
export function locomoStrata(categories: readonly number[]): [string, number[]][] {
  const strata: [string, number[]][] = [["overall", categories.map((_, i) => i)]];
  for (const [cat, name] of Object.entries(LOCOMO_CATEGORIES))
    strata.push([name, categories.flatMap((c, i) => (c === Number(cat) ? [i] : []))]);
  return strata.filter(([, idx]) => idx.length > 0);
}

/** Evidence recall@5 overall and per category for every column, with CIs and paired comparisons (rounded to 4). */
export function summarizeLocomo(table: LocomoTable, spec: BootstrapSpec, label: string) {
  const strata = locomoStrata(table.categories);
  const out: Record<
    string,
    Record<string, { n: number; recall5: number; ci95: [number, number]; paired_vs_similarity?: PairedVsSimilarity }>
  > = {};
  for (const key of table.recall5.keys()) out[key] = {};
  for (const [name, idx] of strata) {
    const u = compareToSimilarity(table.recall5, idx, spec, `${label}/${name}`, 4);
    for (const [key, v] of table.recall5) {
      const cu = u.get(key)!;
      out[key]![name] = {
        n: idx.length,
        recall5: pyRound(mean(idx.map((i) => v[i]!)), 4),
        ci95: cu.ci95,
        ...(cu.paired ? { paired_vs_similarity: cu.paired } : {}),
      };
    }
  }
  const gate: Record<string, number> = {};
  for (const [k, f] of table.fires) gate[k] = pyRound(mean(f), 4);
  return { retrieval: out, gate_rate: gate };
}
