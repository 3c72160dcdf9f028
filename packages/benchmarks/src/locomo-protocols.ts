/**
 * LoCoMo under every protocol of protocols.ts (docs/spec.md §11): the question sets (`persode`, `all`) under both
 * golds (`original`, `audited`), one question's ranking scored under every ladder measure, and the scorer that
 * observes Exp. 5's rankings to give every strategy's ladder with bootstrap CIs.
 */
import type { RetrievalStrategy } from "@persode/core";
import type { LocomoAudit, LocomoConversation, LocomoDataset } from "@persode/datasets";
import { pyRound } from "@persode/util";
import { mean } from "./metrics.js";
import {
  LADDER_MEASURES,
  LOCOMO_QUESTION_SETS,
  relevantRanks,
  scoreQuestionInto,
  sessionRanks,
  type LocomoGold,
  type LocomoQuestionSet,
  type Measure,
} from "./protocols.js";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import { resampleIntervals } from "./stats/estimated-intervals.js";
import { AUDIT_MEASURES, auditedConversation, type AuditColumns, type AuditedGold } from "./experiments/exp5-audit.js";
import { selectQuestions, type Exp5Hooks, type LocomoExclusions, type LocomoQuestion } from "./experiments/exp5-locomo.js";

/** The four LoCoMo protocol families: question set × gold, in ladder order. */
export const LOCOMO_FAMILIES = [
  { set: "persode", gold: "original" },
  { set: "all", gold: "original" },
  { set: "persode", gold: "audited" },
  { set: "all", gold: "audited" },
] as const satisfies readonly { set: LocomoQuestionSet; gold: LocomoGold }[];

/** A family's key: `<set>/<gold>`. */
export type FamilyKey = `${LocomoQuestionSet}/${LocomoGold}`;
/** The key of a family. */
export const familyKey = (f: { set: LocomoQuestionSet; gold: LocomoGold }): FamilyKey => `${f.set}/${f.gold}`;

/** A question's key, unique in LoCoMo: `<sample_id>#<qa_index>`. */
export const questionKey = (q: { sampleId: string; qaIndex: number }): string => `${q.sampleId}#${q.qaIndex}`;

/** Every family's questions (each with its gold turns), by the pre-registered inclusion rules applied per gold and set. */
export function locomoQuestionSets(data: LocomoDataset, audit?: LocomoAudit): Map<FamilyKey, LocomoQuestion[]> {
  const out = new Map<FamilyKey, LocomoQuestion[]>();
  for (const f of LOCOMO_FAMILIES) {
    if (f.gold === "audited" && !audit) continue;
    const excluded: LocomoExclusions = { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 };
    const convs = data.conversations.map((c, i): LocomoConversation => (f.gold === "audited" ? auditedConversation(c, i, audit!) : c));
    out.set(
      familyKey(f),
      convs.flatMap((c, i) => selectQuestions(c, i, excluded, LOCOMO_QUESTION_SETS[f.set].categories)),
    );
  }
  return out;
}

/** A conversation's turns by id: index and session position of every `dia_id`. */
export interface ConversationIndex {
  index: Map<string, number>;
  sessionOf: Int32Array;
}

/** The turn index of a conversation (one item per turn, in session order, as Exp. 5's stores). */
export function conversationIndex(conv: LocomoConversation): ConversationIndex {
  const index = new Map<string, number>();
  const sessionOf: number[] = [];
  conv.sessions.forEach((s, si) => s.turns.forEach((t) => (index.set(t.diaId, index.size), sessionOf.push(si))));
  return { index, sessionOf: Int32Array.from(sessionOf) };
}

/** Every ladder measure of one question: `order` holds turn indices of the conversation (possibly truncated). */
export function scoreLocomoQuestion(
  order: ArrayLike<number>,
  gold: readonly string[],
  conv: ConversationIndex,
  measures: readonly Measure[] = LADDER_MEASURES,
): number[] {
  const out = new Float64Array(measures.length);
  scorePreparedGold(order, prepareGold(gold, conv), conv, measures, out, 0);
  return Array.from(out);
}

/** A question's gold turns as masks over its conversation, built once for the many rankings of it (one per strategy). */
interface PreparedGold {
  /** 1 at each gold turn's index. */
  relevant: Uint8Array;
  nGold: number;
  /** The sessions holding a gold turn. */
  goldSessions: Set<number>;
}

function prepareGold(gold: readonly string[], conv: ConversationIndex): PreparedGold {
  const relevant = new Uint8Array(conv.sessionOf.length);
  const goldSessions = new Set<number>();
  for (const g of gold) {
    const i = conv.index.get(g)!;
    relevant[i] = 1;
    goldSessions.add(conv.sessionOf[i]!);
  }
  return { relevant, nGold: gold.length, goldSessions };
}

/** scoreLocomoQuestion over a prepared gold, into `out` from index `at`. */
function scorePreparedGold(
  order: ArrayLike<number>,
  g: PreparedGold,
  conv: ConversationIndex,
  measures: readonly Measure[],
  out: Float64Array,
  at: number,
): void {
  // ranks past the largest k are read only by MRR, which needs the first one alone: both scans stop at k once they
  // have one (a session ranking with no gold session in its first k is scanned again to its first)
  const k = largestK(measures);
  let sessions = sessionRanks(order, conv.sessionOf, g.goldSessions, k);
  if (sessions.length === 0) sessions = sessionRanks(order, conv.sessionOf, g.goldSessions);
  scoreQuestionInto(
    measures,
    { ranks: relevantRanks(order, g.relevant, k), nGold: g.nGold },
    { ranks: sessions, nGold: g.goldSessions.size },
    out,
    at,
  );
}

/** The largest k of some measures (Infinity when none has one). */
function largestK(measures: readonly Measure[]): number {
  let k = 0;
  for (const m of measures) if (m.k !== undefined) k = Math.max(k, m.k);
  return k > 0 ? k : Infinity;
}

/** Per question (in family order) and measure, one system's values on one family. */
export type FamilyColumns = Float64Array[];

/** A family's means and 95 % CIs, every measure, rounded to 4 decimals. */
export interface FamilyScores {
  query_count: number;
  values: Record<string, number>;
  ci95: Record<string, [number, number]>;
}

/**
 * Means and bootstrap CIs of several systems on one family from one set of resamples (stream `label`): every
 * system and measure reads the same resampled questions.
 */
export function familyScores(
  systems: ReadonlyMap<string, FamilyColumns>,
  measures: readonly Measure[],
  spec: BootstrapSpec,
  label: string,
): Map<string, FamilyScores> {
  return startFamilyScores(systems, measures, spec, label)();
}

/** familyScores, started: its bootstrap job runs on the thread pool while the caller starts others; the function returns the scores. */
function startFamilyScores(
  systems: ReadonlyMap<string, FamilyColumns>,
  measures: readonly Measure[],
  spec: BootstrapSpec,
  label: string,
): () => Map<string, FamilyScores> {
  const sep = "\u0000";
  const table: Record<string, Float64Array> = {};
  for (const [s, cols] of systems) measures.forEach((m, mi) => (table[`${s}${sep}${m.name}`] = cols[mi]!));
  const intervals = resampleIntervals(table, spec, label, 4);
  return () => {
    const r4 = (x: number) => pyRound(x, 4);
    const out = new Map<string, FamilyScores>();
    for (const [s, cols] of systems) {
      const values: Record<string, number> = {};
      const ci95: Record<string, [number, number]> = {};
      measures.forEach((m, mi) => {
        values[m.name] = r4(mean(cols[mi]!));
        ci95[m.name] = intervals.ci(`${s}${sep}${m.name}`);
      });
      out.set(s, { query_count: cols[0]?.length ?? 0, values, ci95 });
    }
    return out;
  };
}

/**
 * Observes Exp. 5's rankings (pass `hooks` to runExp5) and scores every strategy on every family under every
 * ladder measure. The questions Exp. 5 does not rank itself (adversarial ones, audited-only ones) are asked as
 * extra questions; nothing this does changes Exp. 5's outputs.
 */
export class LadderScorer {
  readonly families: Map<FamilyKey, LocomoQuestion[]>;
  private readonly index = new Map<FamilyKey, Map<string, number>>();
  private readonly columns = new Map<FamilyKey, Map<string, { cols: FamilyColumns; seen: Uint8Array }>>();
  private readonly convIndex = new WeakMap<readonly string[], ConversationIndex>();
  readonly strategies: string[] = [];
  readonly hooks: Exp5Hooks;

  constructor(
    readonly data: LocomoDataset,
    audit: LocomoAudit | undefined,
    /** Questions the run already ranks (Exp. 5's own set and any other hook's extras), by key. */
    alreadyAsked: ReadonlySet<string>,
  ) {
    this.families = locomoQuestionSets(data, audit);
    const extra = new Map<string, LocomoQuestion>();
    for (const [f, qs] of this.families) {
      this.index.set(f, new Map(qs.map((q, i) => [questionKey(q), i])));
      this.columns.set(f, new Map());
      for (const q of qs) if (!alreadyAsked.has(questionKey(q)) && !extra.has(questionKey(q))) extra.set(questionKey(q), q);
    }
    this.hooks = { extraQuestions: [...extra.values()], onRanking: (q, s, order, diaIds) => this.observe(q, s, order, diaIds) };
  }

  /** Scratch for one ranking's values: per distinct gold of the question, every ladder measure. */
  private values = new Float64Array(0);

  /** Where the question last observed goes: per family its index, and which of the question's distinct golds it has. */
  private last?: { q: LocomoQuestion; places: { family: FamilyKey; qi: number; gold: number }[]; golds: PreparedGold[] };

  private observe(q: LocomoQuestion, strategy: RetrievalStrategy, order: Int32Array, diaIds: readonly string[]): void {
    if (!this.strategies.includes(strategy.key)) this.strategies.push(strategy.key);
    let conv = this.convIndex.get(diaIds);
    if (!conv) this.convIndex.set(diaIds, (conv = conversationIndex(this.data.conversations[q.conversation]!)));
    // every strategy's ranking of a question arrives in a row: its places are found once
    if (this.last?.q !== q) this.last = this.placesOf(q, conv);
    const { places, golds } = this.last;
    // families that hold the question with the same gold (e.g. both question sets under one gold) score it once
    const M = LADDER_MEASURES.length;
    if (this.values.length < golds.length * M) this.values = new Float64Array(golds.length * M);
    const values = this.values;
    for (let g = 0; g < golds.length; g++) scorePreparedGold(order, golds[g]!, conv, LADDER_MEASURES, values, g * M);
    for (const { family, qi, gold } of places) {
      const byStrategy = this.columns.get(family)!;
      let c = byStrategy.get(strategy.key);
      if (!c) {
        const n = this.families.get(family)!.length;
        byStrategy.set(strategy.key, (c = { cols: LADDER_MEASURES.map(() => new Float64Array(n)), seen: new Uint8Array(n) }));
      }
      for (let mi = 0; mi < M; mi++) c.cols[mi]![qi] = values[gold * M + mi]!;
      c.seen[qi] = 1;
    }
  }

  private placesOf(q: LocomoQuestion, conv: ConversationIndex): NonNullable<LadderScorer["last"]> {
    const key = questionKey(q);
    const places: { family: FamilyKey; qi: number; gold: number }[] = [];
    const golds: PreparedGold[] = [];
    const goldIndex = new Map<string, number>();
    for (const [family, qs] of this.families) {
      const qi = this.index.get(family)!.get(key);
      if (qi === undefined) continue;
      const gold = qs[qi]!.gold;
      const goldKey = gold.join("\u0000");
      let g = goldIndex.get(goldKey);
      if (g === undefined) goldIndex.set(goldKey, (g = golds.push(prepareGold(gold, conv)) - 1));
      places.push({ family, qi, gold: g });
    }
    return { q, places, golds };
  }

  /** Per family, every strategy's per-question columns (after checking every question was ranked). */
  complete(): Map<FamilyKey, Map<string, FamilyColumns>> {
    const out = new Map<FamilyKey, Map<string, FamilyColumns>>();
    for (const [f, byStrategy] of this.columns) {
      const m = new Map<string, FamilyColumns>();
      for (const [s, c] of byStrategy) {
        const missing = c.seen.indexOf(0);
        if (missing >= 0)
          throw new Error(`protocol ladder: strategy "${s}" never ranked ${f} question ${questionKey(this.families.get(f)![missing]!)}`);
        m.set(s, c.cols);
      }
      out.set(f, m);
    }
    return out;
  }

  /**
   * One family's columns of some measures, renamed (`names`: new name → ladder measure name), per strategy in ranking
   * order, after checking every question was ranked: e.g. the audited file's metrics (AUDIT_MEASURES), which the
   * ladder computes already.
   */
  columnsByName<K extends string>(family: FamilyKey, names: Readonly<Record<K, string>>): Map<string, Record<K, Float64Array>> {
    const byStrategy = this.complete().get(family);
    if (!byStrategy) throw new Error(`protocol ladder: no family ${family} (no audit loaded?)`);
    const at = Object.entries<string>(names).map(([k, name]) => {
      const mi = LADDER_MEASURES.findIndex((m) => m.name === name);
      if (mi < 0) throw new RangeError(`protocol ladder: no measure "${name}"`);
      return [k, mi] as const;
    });
    const out = new Map<string, Record<K, Float64Array>>();
    for (const s of this.strategies) {
      const cols = byStrategy.get(s)!;
      out.set(s, Object.fromEntries(at.map(([k, mi]) => [k, cols[mi]!])) as Record<K, Float64Array>);
    }
    return out;
  }

  /** The resample stream of each family summary(spec, label) reads, with its size (for prefetchResamples). */
  resampleRequests(label: string): { n: number; label: string }[] {
    return [...this.families].filter(([, qs]) => qs.length > 0).map(([f, qs]) => ({ n: qs.length, label: `${label}/${f}` }));
  }

  /** The ladder of one embedder's run: per strategy, per family, every measure with its CI. */
  summary(spec: BootstrapSpec, label: string): Record<string, unknown> {
    return this.startSummary(spec, label)();
  }

  /**
   * summary(), started: every family's bootstrap job is handed to the thread pool now (call it once every ranking has
   * been observed), and the returned function builds the ladder, waiting for the jobs as it reads them.
   */
  startSummary(spec: BootstrapSpec, label: string): () => Record<string, unknown> {
    const all = this.complete();
    // every family's bootstrap started before any is read: the pool's workers compute one while this thread prepares the next
    const started = [...all].map(([f, systems]) => [f, startFamilyScores(systems, LADDER_MEASURES, spec, `${label}/${f}`)] as const);
    return () => {
      const perFamily = new Map(started.map(([f, scores]) => [f, scores()]));
      return {
        questions: Object.fromEntries([...this.families].map(([f, qs]) => [f, qs.length])),
        strategies: Object.fromEntries(
          this.strategies.map((s) => [s, Object.fromEntries([...perFamily].map(([f, scores]) => [f, scores.get(s)!]))]),
        ),
      };
    };
  }
}

/**
 * The audited file's columns (AuditScorer's `columnsOf`) as `ladder` computed them: AUDIT_MEASURES on its `persode`
 * families, whose questions are the audited file's of each gold, in the same order (checked when read).
 */
export function auditColumnsFromLadder(ladder: LadderScorer, gold: AuditedGold): (g: "original" | "audited") => AuditColumns {
  return (g) => {
    const family = familyKey({ set: "persode", gold: g });
    const qs = ladder.families.get(family) ?? [];
    const want = gold[g];
    if (qs.length !== want.length || qs.some((q, i) => questionKey(q) !== questionKey(want[i]!)))
      throw new Error(`protocol ladder: its ${family} questions are not the audited file's ${g}-gold questions`);
    return ladder.columnsByName(family, AUDIT_MEASURES);
  };
}

/** Two sets of Exp. 5 hooks as one: the extra questions of both (each once), both observers. */
export function combineHooks(a: Exp5Hooks, b: Exp5Hooks): Exp5Hooks {
  const seen = new Set((a.extraQuestions ?? []).map(questionKey));
  return {
    extraQuestions: [...(a.extraQuestions ?? []), ...(b.extraQuestions ?? []).filter((q) => !seen.has(questionKey(q)))],
    onRanking(q, s, order, diaIds) {
      a.onRanking?.(q, s, order, diaIds);
      b.onRanking?.(q, s, order, diaIds);
    },
    afterRanking() {
      a.afterRanking?.();
      b.afterRanking?.();
    },
  };
}
