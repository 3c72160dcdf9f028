/**
 * Exp. 5 on a second label set: LoCoMo evidence retrieval scored against the original gold and against the
 * gold-label audit (dial481/locomo-audit), from the same rankings. The paper-parity results stay on the original
 * gold (exp5_locomo.json); this module only observes Exp. 5's rankings through its hooks.
 */
import type { RetrievalStrategy } from "@persode/core";
import { pyRound } from "@persode/util";
import type { LocomoAudit, LocomoConversation, LocomoDataset } from "@persode/datasets";
import { mean, rankingMetrics } from "../metrics.js";
import type { BootstrapSpec } from "../stats/bootstrap.js";
import { resampleIntervals } from "../stats/estimated-intervals.js";
import {
  EXP5_PROTOCOL,
  LOCOMO_CATEGORIES,
  selectQuestions,
  type Exp5Hooks,
  type LocomoExclusions,
  type LocomoQuestion,
} from "./exp5-locomo.js";

/**
 * The audited-gold protocol. Every rule here — in particular the treatment of questions whose audited evidence is
 * empty — was fixed before any audited-gold score was computed, and was not changed after seeing one.
 */
export const EXP5_AUDIT_PROTOCOL = {
  note:
    "a second label set, not ground truth: the audit (dial481/locomo-audit errors.json) was produced by a language model with human " +
    "review; scores on both golds come from the same rankings as Exp. 5",
  audited_gold:
    "the audit's correct_evidence for each audited question, the dataset's own evidence for every other question; turn ids resolved " +
    "exactly as for the original gold",
  inclusion:
    "the pre-registered Exp. 5 rules applied to each gold separately: category 5 (adversarial) excluded, no evidence excluded, no resolvable turn excluded",
  empty_evidence_rule:
    "fixed a priori: a question whose audited evidence is empty (or resolves to no turn) is excluded from the audited-gold set — " +
    "never scored as 0 or 1 — and is counted under evidence_changes.became_empty (became_unresolvable) and excluded.audited",
  paired:
    "audited_minus_original is the paired difference of audited-gold and original-gold scores on the questions included under both " +
    "golds, with a 95 % percentile-bootstrap CI from one set of resamples shared by every strategy",
  top_k_guard: "a run where some conversation's store holds no more memories than a top-k is flagged, since recall@k is then trivially 1",
  top_ks: EXP5_PROTOCOL.top_ks,
  primary_k: EXP5_PROTOCOL.primary_k,
} as const;

/** The metrics scored on each gold (the Exp. 5 set). */
const METRICS = ["evidence_recall@5", "evidence_recall@10", "hit@5", "hit@10", "mrr"] as const;
type Metric = (typeof METRICS)[number];
/** The metrics reported per category. */
const CATEGORY_METRICS: readonly Metric[] = ["evidence_recall@5", "evidence_recall@10"];
/** The metrics whose paired difference (audited − original) gets a bootstrap CI. */
const PAIRED_CI_METRICS: readonly Metric[] = ["evidence_recall@5", "evidence_recall@10"];
const GOLDS = ["original", "audited"] as const;
type Gold = (typeof GOLDS)[number];

/**
 * Each metric of the audited file as the protocol ladder's measure of it (docs/spec.md §11): the same scoreRanks of
 * the same relevant ranks, so a ladder that observed the run's rankings holds these columns already.
 */
export const AUDIT_MEASURES = {
  "evidence_recall@5": "turn.recall@5",
  "evidence_recall@10": "turn.recall@10",
  "hit@5": "turn.any@5",
  "hit@10": "turn.any@10",
  mrr: "turn.mrr",
} as const satisfies Record<Metric, string>;

/** Per strategy (in ranking order), one gold's per-question columns of every metric, aligned with that gold's questions. */
export type AuditColumns = ReadonlyMap<string, Readonly<Record<Metric, Float64Array>>>;

/** How the audit moves the evidence of the Exp. 5 questions. */
export interface EvidenceChanges {
  /** Entries in the audit file. */
  audit_entries: number;
  /** Entries whose corrected evidence differs (as a set) from the dataset's. */
  audit_entries_with_changed_evidence: number;
  /** Questions included under the original gold whose resolved evidence differs under the audit. */
  included_with_changed_evidence: number;
  /** … of those, the ones still included under the audited gold (they enter the paired comparison). */
  paired_with_changed_evidence: number;
  /** Included under the original gold, audited evidence empty: excluded from the audited-gold set. */
  became_empty: number;
  /** Included under the original gold, audited evidence non-empty but naming no turn: excluded likewise. */
  became_unresolvable: number;
  /** Excluded under the original gold (no or unresolvable evidence), included under the audited gold. */
  newly_included: number;
}

/** The question sets of both golds. */
export interface AuditedGold {
  original: LocomoQuestion[];
  audited: LocomoQuestion[];
  excluded: Record<Gold, LocomoExclusions>;
  changes: EvidenceChanges;
}

const keyOf = (q: { conversation: number; qaIndex: number }) => `${q.conversation}:${q.qaIndex}`;
const setKey = (xs: readonly string[]) => [...new Set(xs)].sort().join("\u0000");

/** Conversation `ci` with the audit's corrected evidence in place of the dataset's for every audited question. */
export function auditedConversation(
  c: LocomoConversation,
  ci: number,
  audit: LocomoAudit,
  corrected = new Map(audit.entries.map((e) => [keyOf(e), e.correctEvidence])),
): LocomoConversation {
  return {
    ...c,
    qa: c.qa.map((qa, qi) => {
      const ev = corrected.get(keyOf({ conversation: ci, qaIndex: qi }));
      return ev === undefined ? qa : { ...qa, evidence: ev };
    }),
  };
}

/** Both golds' included questions, by the pre-registered rules; the audited gold swaps in the audit's evidence. */
export function auditedGold(data: LocomoDataset, audit: LocomoAudit): AuditedGold {
  const corrected = new Map(audit.entries.map((e) => [keyOf(e), e.correctEvidence]));
  const excluded: Record<Gold, LocomoExclusions> = {
    original: { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 },
    audited: { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 },
  };
  const original = data.conversations.flatMap((c, i) => selectQuestions(c, i, excluded.original));
  const audited = data.conversations.flatMap((c, i) => selectQuestions(auditedConversation(c, i, audit, corrected), i, excluded.audited));
  const auditedByKey = new Map(audited.map((q) => [keyOf(q), q]));
  const originalKeys = new Set(original.map(keyOf));
  const changes: EvidenceChanges = {
    audit_entries: audit.entries.length,
    audit_entries_with_changed_evidence: audit.entries.filter((e) => setKey(e.correctEvidence) !== setKey(e.citedEvidence)).length,
    included_with_changed_evidence: 0,
    paired_with_changed_evidence: 0,
    became_empty: 0,
    became_unresolvable: 0,
    newly_included: audited.filter((q) => !originalKeys.has(keyOf(q))).length,
  };
  for (const q of original) {
    const a = auditedByKey.get(keyOf(q));
    if (a) {
      if (setKey(a.gold) !== setKey(q.gold)) {
        changes.included_with_changed_evidence++;
        changes.paired_with_changed_evidence++;
      }
      continue;
    }
    changes.included_with_changed_evidence++;
    if (corrected.get(keyOf(q))!.length === 0) changes.became_empty++;
    else changes.became_unresolvable++;
  }
  return { original, audited, excluded, changes };
}

/** Whether any conversation's store (one memory per turn) holds no more memories than a top-k: recall@k is then trivially 1. */
export interface TopKGuard {
  top_ks: number[];
  store_sizes: { min: number; max: number };
  flagged: boolean;
  /** Sample ids of the conversations whose store size is at most the largest top-k. */
  conversations: string[];
}

/** The top-k guard of an Exp. 5 run over `data` (one memory per turn, as runExp5 builds its stores). */
export function topKGuard(data: LocomoDataset, topKs: readonly number[]): TopKGuard {
  const sizes = data.conversations.map((c) => c.sessions.reduce((n, s) => n + s.turns.length, 0));
  const maxK = Math.max(...topKs);
  const conversations = data.conversations.filter((_, i) => sizes[i]! <= maxK).map((c) => c.sampleId);
  return {
    top_ks: [...topKs],
    store_sizes: { min: Math.min(...sizes), max: Math.max(...sizes) },
    flagged: conversations.length > 0,
    conversations,
  };
}

/** Per-question metric columns of one strategy on one question set. */
type Columns = Record<Metric, Float64Array>;

function newColumns(n: number): Columns {
  return Object.fromEntries(METRICS.map((m) => [m, new Float64Array(n)])) as Columns;
}

/** One question set scored against its gold: index by question key, and per strategy the metric columns. */
class ScoredSet {
  readonly index: Map<string, number>;
  readonly scores = new Map<string, { columns: Columns; seen: Uint8Array }>();
  constructor(readonly questions: readonly LocomoQuestion[]) {
    this.index = new Map(questions.map((q, i) => [keyOf(q), i]));
  }

  record(strategy: string, qi: number, order: Int32Array, relevant: Uint8Array, nRelevant: number, ks: readonly number[]): void {
    let s = this.scores.get(strategy);
    if (!s) this.scores.set(strategy, (s = { columns: newColumns(this.questions.length), seen: new Uint8Array(this.questions.length) }));
    const m = rankingMetrics(order, relevant, nRelevant, ks);
    s.columns["evidence_recall@5"][qi] = m.recall[0]!;
    s.columns["evidence_recall@10"][qi] = m.recall[1]!;
    s.columns["hit@5"][qi] = m.hit[0]!;
    s.columns["hit@10"][qi] = m.hit[1]!;
    s.columns.mrr[qi] = m.rr;
    s.seen[qi] = 1;
  }

  /** Every strategy's columns, after checking each question was ranked by each strategy. */
  complete(gold: Gold): Map<string, Columns> {
    const out = new Map<string, Columns>();
    for (const [k, s] of this.scores) {
      const missing = s.seen.indexOf(0);
      if (missing >= 0)
        throw new Error(
          `exp5 audited gold: strategy "${k}" never ranked ${gold}-gold question ${keyOf(this.questions[missing]!)} — the hooks were not called for every question`,
        );
      out.set(k, s.columns);
    }
    return out;
  }
}

/**
 * Scores Exp. 5's rankings against both golds. Pass `hooks` to runExp5 (it ranks the audited-only questions too),
 * then call `summary`. Strategies are whatever the run ranks with, in the order it ranks them.
 */
export class AuditScorer {
  private readonly sets: Record<Gold, ScoredSet>;
  private readonly strategies: string[] = [];
  private readonly masks = new WeakMap<readonly string[], Map<string, number>>();
  /** Hooks for runExp5: the audited-only questions to rank as well, and the observer of every ranking. */
  readonly hooks: Exp5Hooks;

  /**
   * `columnsOf`: where both golds' columns come from when another observer computes them (Exp. 5's protocol ladder,
   * AUDIT_MEASURES), read once every ranking is observed; the scorer then observes nothing itself and its hooks only
   * ask for the audited-only questions.
   */
  constructor(
    readonly gold: AuditedGold,
    private readonly topKs: readonly number[] = EXP5_PROTOCOL.top_ks,
    private readonly columnsOf?: (gold: Gold) => AuditColumns,
  ) {
    this.sets = { original: new ScoredSet(gold.original), audited: new ScoredSet(gold.audited) };
    const originalKeys = this.sets.original.index;
    const extraQuestions = gold.audited.filter((q) => !originalKeys.has(keyOf(q)));
    this.hooks = columnsOf
      ? { extraQuestions }
      : { extraQuestions, onRanking: (q, strategy, order, diaIds) => this.observe(q, strategy, order, diaIds) };
  }

  /** Both golds' columns and the strategies in ranking order: given (columnsOf) or as observed. */
  private columns(): { cols: Record<Gold, AuditColumns>; strategies: readonly string[] } {
    if (!this.columnsOf) {
      return {
        cols: { original: this.sets.original.complete("original"), audited: this.sets.audited.complete("audited") },
        strategies: this.strategies,
      };
    }
    const cols = { original: this.columnsOf("original"), audited: this.columnsOf("audited") };
    for (const g of GOLDS)
      for (const [s, c] of cols[g])
        for (const m of METRICS)
          if (c[m].length !== this.sets[g].questions.length)
            throw new Error(
              `exp5 audited gold: strategy "${s}" has ${c[m].length} ${g}-gold values of ${m}, for ${this.sets[g].questions.length} questions`,
            );
    return { cols, strategies: [...cols.original.keys()] };
  }

  /** The question last observed, with its place and gold mask in each set (every strategy's ranking of it arrives in a row). */
  private last?: { q: LocomoQuestion; places: { set: ScoredSet; qi: number; relevant: Uint8Array; nRelevant: number }[] };

  private observe(q: LocomoQuestion, strategy: RetrievalStrategy, order: Int32Array, diaIds: readonly string[]): void {
    if (!this.strategies.includes(strategy.key)) this.strategies.push(strategy.key);
    if (this.last?.q !== q) this.last = { q, places: this.placesOf(q, diaIds) };
    for (const { set, qi, relevant, nRelevant } of this.last.places) set.record(strategy.key, qi, order, relevant, nRelevant, this.topKs);
  }

  /** Where a question goes in each gold's set, with that gold's mask over its conversation's turns. */
  private placesOf(q: LocomoQuestion, diaIds: readonly string[]): NonNullable<AuditScorer["last"]>["places"] {
    let byDia = this.masks.get(diaIds);
    if (!byDia) this.masks.set(diaIds, (byDia = new Map(diaIds.map((d, i) => [d, i]))));
    const key = keyOf(q);
    return GOLDS.flatMap((g) => {
      const set = this.sets[g];
      const qi = set.index.get(key);
      if (qi === undefined) return [];
      const gold = set.questions[qi]!.gold;
      const relevant = new Uint8Array(diaIds.length);
      for (const d of gold) relevant[byDia.get(d)!] = 1;
      return [{ set, qi, relevant, nRelevant: gold.length }];
    });
  }

  /**
   * Every resample stream summary() will read, with its size (for prefetchResamples): the original gold's, the audited
   * gold's and the paired set's, each whole and per category.
   */
  resampleRequests(label: string, originalLabel = `${label}/original`): { n: number; label: string }[] {
    const pairs = this.pairs();
    const count = (qs: readonly LocomoQuestion[], c: number) => qs.filter((q) => q.category === c).length;
    const cats = Object.entries(LOCOMO_CATEGORIES).map(([c, name]) => ({ c: Number(c), name }));
    return [
      { n: this.gold.original.length, label: originalLabel },
      { n: this.gold.audited.length, label: `${label}/audited` },
      { n: pairs.length, label: `${label}/paired` },
      ...GOLDS.flatMap((g) => cats.map(({ c, name }) => ({ n: count(this.sets[g].questions, c), label: `${label}/${g}/${name}` }))),
      ...cats.map(({ c, name }) => ({
        n: pairs.filter(([o]) => this.gold.original[o]!.category === c).length,
        label: `${label}/paired/${name}`,
      })),
    ].filter((r) => r.n > 0);
  }

  /** The questions included under both golds, in original-gold order, as [original, audited] indices. */
  private pairs(): (readonly [number, number])[] {
    const auditedIndex = this.sets.audited.index;
    return this.gold.original.flatMap((q, i) => {
      const j = auditedIndex.get(keyOf(q));
      return j === undefined ? [] : [[i, j] as const];
    });
  }

  /**
   * The results object of one embedder's run: counts, exclusions, guard, and per strategy both golds and their paired
   * difference. Each question set — a gold, a gold's category, the paired set and its categories — is resampled once,
   * and every strategy and metric of that set reads the same resamples. The original gold's stream is
   * `originalLabel`: pass Exp. 5's own label and its CIs are Exp. 5's, from the very same resamples. A paired CI is the
   * percentile interval of the resampled mean of (audited − original) per question.
   */
  summary(spec: BootstrapSpec, label: string, guard: TopKGuard, originalLabel = `${label}/original`): Record<string, unknown> {
    return this.startSummary(spec, label, guard, originalLabel)();
  }

  /**
   * summary(), started: every question set's bootstrap job is handed to the thread pool now (call it once every ranking
   * has been observed), and the returned function builds the results object, waiting for the jobs as it reads them.
   */
  startSummary(spec: BootstrapSpec, label: string, guard: TopKGuard, originalLabel = `${label}/original`): () => Record<string, unknown> {
    const r4 = (x: number) => pyRound(x, 4);
    const { cols, strategies } = this.columns();
    const cats = Object.entries(LOCOMO_CATEGORIES).map(([c, name]) => ({ c: Number(c), name }));
    const sep = "\u0000";
    const pick = (xs: Float64Array, idx: readonly number[]) => {
      const out = new Float64Array(idx.length);
      for (let i = 0; i < idx.length; i++) out[i] = xs[idx[i]!]!;
      return out;
    };
    /** One resample set for the items `idx` of a question set, shared by every strategy and the given metrics. */
    const intervals = (n: number, column: (s: string, m: Metric) => Float64Array, metrics: readonly Metric[], stream: string) => {
      if (n === 0) return undefined;
      const table: Record<string, Float64Array> = {};
      for (const s of strategies) for (const m of metrics) table[`${s}${sep}${m}`] = column(s, m);
      const ci = resampleIntervals(table, spec, stream, 4);
      return (s: string, m: Metric): [number, number] => ci.ci(`${s}${sep}${m}`);
    };

    // Every question set's bootstrap is started before any interval is read: the thread pool's workers compute one set's
    // while this thread prepares the next (resampleIntervals waits at the first read).
    const perGoldCi = GOLDS.map((g) => {
      const qs = this.sets[g].questions;
      const ci = intervals(qs.length, (s, m) => cols[g].get(s)![m], METRICS, g === "original" ? originalLabel : `${label}/${g}`);
      const catIdx = cats.map(({ c }) => qs.flatMap((q, i) => (q.category === c ? [i] : [])));
      const catCi = cats.map(({ name }, k) =>
        intervals(catIdx[k]!.length, (s, m) => pick(cols[g].get(s)![m], catIdx[k]!), CATEGORY_METRICS, `${label}/${g}/${name}`),
      );
      return { qs, ci, catIdx, catCi };
    });
    // The paired comparison (see pairs()).
    const pairs = this.pairs();
    const side = (s: string, g: Gold, m: Metric, ks: readonly number[]) => {
      const col = cols[g].get(s)![m];
      const at = g === "original" ? 0 : 1;
      const out = new Float64Array(ks.length);
      for (let i = 0; i < ks.length; i++) out[i] = col[pairs[ks[i]!]![at]]!;
      return out;
    };
    const delta = (s: string, m: Metric, ks: readonly number[]) => {
      const a = side(s, "audited", m, ks);
      const o = side(s, "original", m, ks);
      for (let i = 0; i < a.length; i++) a[i] = a[i]! - o[i]!;
      return a;
    };
    const all = pairs.map((_, k) => k);
    const pairedCats = cats.map(({ c }) => all.filter((k) => this.gold.original[pairs[k]![0]]!.category === c));
    const pairedCi = intervals(all.length, (s, m) => delta(s, m, all), PAIRED_CI_METRICS, `${label}/paired`);
    const pairedCatCi = cats.map(({ name }, k) =>
      intervals(pairedCats[k]!.length, (s, m) => delta(s, m, pairedCats[k]!), PAIRED_CI_METRICS, `${label}/paired/${name}`),
    );
    return () => {
      const perGold: Record<Gold, Map<string, Record<string, unknown>>> = { original: new Map(), audited: new Map() };
      GOLDS.forEach((g, gi) => {
        const { qs, ci, catIdx, catCi } = perGoldCi[gi]!;
        for (const s of strategies) {
          const c = cols[g].get(s)!;
          const entry: Record<string, unknown> = Object.fromEntries(METRICS.map((m) => [m, r4(mean(c[m]))]));
          if (ci) entry.ci95 = Object.fromEntries(METRICS.map((m) => [m, ci(s, m)]));
          entry.by_category = Object.fromEntries(
            cats.map(({ name }, k) => {
              const row: Record<string, unknown> = { n: catIdx[k]!.length };
              for (const m of CATEGORY_METRICS) row[m] = r4(mean(pick(c[m], catIdx[k]!)));
              const cc = catCi[k];
              if (cc) row.ci95 = Object.fromEntries(CATEGORY_METRICS.map((m) => [m, cc(s, m)]));
              return [name, row];
            }),
          );
          entry.query_count = qs.length;
          perGold[g].set(s, entry);
        }
      });

      const diffBlock = (s: string, ks: readonly number[], metrics: readonly Metric[], cci: ReturnType<typeof intervals>) =>
        Object.fromEntries(
          metrics.map((m) => {
            const o = mean(side(s, "original", m, ks));
            const a = mean(side(s, "audited", m, ks));
            const block: Record<string, unknown> = { original: r4(o), audited: r4(a), diff: r4(a - o) };
            if (cci && PAIRED_CI_METRICS.includes(m)) block.ci95 = cci(s, m);
            return [m, block];
          }),
        );

      const out: Record<string, unknown> = {};
      for (const s of strategies) {
        out[s] = {
          original: perGold.original.get(s),
          audited: perGold.audited.get(s),
          audited_minus_original: {
            query_count: pairs.length,
            ...diffBlock(s, all, METRICS, pairedCi),
            by_category: Object.fromEntries(
              cats.map(({ name }, k) => [
                name,
                { n: pairedCats[k]!.length, ...diffBlock(s, pairedCats[k]!, CATEGORY_METRICS, pairedCatCi[k]) },
              ]),
            ),
          },
        };
      }
      return {
        questions: { original: this.gold.original.length, audited: this.gold.audited.length, paired: pairs.length },
        excluded: this.gold.excluded,
        evidence_changes: this.gold.changes,
        top_k_guard: guard,
        strategies: out,
      };
    };
  }
}
