import { createEmbedder } from "@persode/core";
import { pyRound } from "@persode/util";
import { parseLocomo, parseLocomoAudit, type LocomoDataset } from "@persode/datasets";
import { describe, expect, it } from "vitest";
import { AuditScorer, EXP5_AUDIT_PROTOCOL, auditedGold, topKGuard } from "../src/experiments/exp5-audit.js";
import { runExp5 } from "../src/experiments/exp5-locomo.js";
import { LadderScorer, auditColumnsFromLadder, combineHooks, questionKey } from "../src/locomo-protocols.js";

const TOPICS = [
  "hiking the ridge trail",
  "baking sourdough bread",
  "my sister's wedding",
  "a new puppy named Max",
  "the pottery class",
  "losing my job",
  "a trip to Lisbon",
  "the chess tournament",
  "painting a sunrise",
  "moving to a new flat",
  "the charity run",
  "my grandmother's garden",
];

/** A synthetic LoCoMo conversation with `turns` turns over two sessions. */
function conversation(id: string, turns: number, qa: unknown[]): unknown {
  const half = Math.ceil(turns / 2);
  const mk = (s: number, n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({
      speaker: i % 2 ? "Ben" : "Ana",
      dia_id: `D${s}:${i + 1}`,
      text: `I keep thinking about ${TOPICS[(from + i) % TOPICS.length]}.`,
    }));
  return {
    sample_id: id,
    conversation: {
      speaker_a: "Ana",
      speaker_b: "Ben",
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_1: mk(1, half, 0),
      session_2_date_time: "3:00 pm on 20 May, 2023",
      session_2: mk(2, turns - half, half),
    },
    qa,
  };
}

const QA0 = [
  { question: "What about hiking the ridge trail?", answer: "a", evidence: ["D1:1"], category: 4 },
  { question: "When was the wedding?", answer: "2022", evidence: ["D1:3"], category: 2 },
  { question: "How do the puppy and the pottery class connect?", answer: "c", evidence: ["D1:4", "D2:1"], category: 1 },
  { question: "What did Ana say about Mars?", adversarial_answer: "nothing", evidence: ["D1:2"], category: 5 },
  // malformed evidence (unresolvable under the original gold); same text as qa0, so the same rankings
  { question: "What about hiking the ridge trail?", answer: "a", evidence: ["D1:05"], category: 4 },
  { question: "Would Ana likely enjoy painting?", answer: "yes", evidence: ["D2:3"], category: 3 },
];
const QA1 = [
  { question: "Tell me about the chess tournament", answer: "x", evidence: ["D1:2"], category: 4 },
  { question: "When did the charity run happen?", answer: "2023", evidence: ["D2:1", "D2:2"], category: 2 },
];
const DATA: LocomoDataset = parseLocomo([conversation("conv-a", 12, QA0), conversation("conv-b", 12, QA1)]);

const audit = (qid: string, c: number, i: number, correct: string[]) => {
  const q = (c === 0 ? QA0 : QA1)[i]!;
  return {
    question_id: qid,
    question: q.question,
    golden_answer: String(q.answer ?? "None"),
    category: q.category,
    error_type: "WRONG_CITATION",
    cited_evidence: q.evidence,
    correct_evidence: correct,
    reasoning: "r",
    correct_answer: "a",
  };
};
const AUDIT = parseLocomoAudit(
  [
    audit("locomo_0_qa0", 0, 0, ["D2:6", "D1:1"]), // gains a turn
    audit("locomo_0_qa1", 0, 1, []), // becomes empty: excluded from the audited gold
    audit("locomo_0_qa4", 0, 4, ["D1:5"]), // malformed id fixed: newly included
    audit("locomo_0_qa5", 0, 5, ["D2:3"]), // unchanged evidence (answer-only entry)
    audit("locomo_1_qa1", 1, 1, ["D2:2"]), // loses a turn
  ],
  DATA,
);

/** Recall@k of one ranked list of turn ids against a gold list, computed from scratch. */
function recallAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

describe("audited gold (pre-registered rules)", () => {
  it("applies the inclusion rules to each gold and counts every change", () => {
    const g = auditedGold(DATA, AUDIT);
    const keys = (qs: { conversation: number; qaIndex: number }[]) => qs.map((q) => `${q.conversation}:${q.qaIndex}`);
    expect(keys(g.original)).toEqual(["0:0", "0:1", "0:2", "0:5", "1:0", "1:1"]);
    expect(keys(g.audited)).toEqual(["0:0", "0:2", "0:4", "0:5", "1:0", "1:1"]);
    expect(g.audited.find((q) => q.qaIndex === 0 && q.conversation === 0)!.gold).toEqual(["D2:6", "D1:1"]);
    expect(g.excluded).toEqual({
      original: { adversarial_cat5: 1, no_evidence: 0, unresolvable_evidence: 1 },
      audited: { adversarial_cat5: 1, no_evidence: 1, unresolvable_evidence: 0 },
    });
    expect(g.changes).toEqual({
      audit_entries: 5,
      audit_entries_with_changed_evidence: 4,
      included_with_changed_evidence: 3,
      paired_with_changed_evidence: 2,
      became_empty: 1,
      became_unresolvable: 0,
      newly_included: 1,
    });
    expect(EXP5_AUDIT_PROTOCOL.empty_evidence_rule).toContain("fixed a priori");
  });
});

describe("AuditScorer on Exp. 5's rankings", () => {
  it("scores both golds from the same rankings; recomputed from the rankings files they agree", async () => {
    const embedder = await createEmbedder("hashing");
    const scorer = new AuditScorer(auditedGold(DATA, AUDIT));
    const spec = { seed: 11, samples: 300 };
    const r = await runExp5(DATA, embedder, spec, scorer.hooks);
    const guard = topKGuard(DATA, [5, 10]);
    const out = scorer.summary(spec, "exp5-audit/test", guard, "exp5/hashing") as {
      questions: Record<string, number>;
      strategies: Record<
        string,
        {
          original: Record<string, unknown>;
          audited: Record<string, unknown>;
          audited_minus_original: Record<string, { original: number; audited: number; diff: number; ci95: [number, number] }> & {
            query_count: number;
          };
        }
      >;
    };
    expect(out.questions).toEqual({ original: 6, audited: 6, paired: 5 });
    const exp5 = r.run.strategies as Record<string, Record<string, unknown>>;
    // every strategy Exp. 5 ranked: the paper's five first, then the extended set
    expect(Object.keys(out.strategies)).toEqual(Object.keys(r.extended.strategies as object));
    expect(Object.keys(out.strategies).slice(0, Object.keys(exp5).length)).toEqual(Object.keys(exp5));
    const g = auditedGold(DATA, AUDIT);
    let compared = 0;
    for (const { strategy, jsonl } of r.rankings) {
      const lines = new TextDecoder()
        .decode(jsonl)
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { sample_id: string; qa_index: number; ranked_dia_ids: string[] });
      const ranking = (c: number, qa: number) =>
        lines.find((l) => l.sample_id === DATA.conversations[c]!.sampleId && l.qa_index === (c === 0 && qa === 4 ? 0 : qa))!.ranked_dia_ids;
      const s = out.strategies[strategy.key]!;
      // the original gold recomputed by the scorer is Exp. 5's, CIs included (same resamples); the extended
      // strategies' rankings are written too, and their original-gold recall is the extended file's
      if (strategy.key in exp5) {
        expect(s.original["evidence_recall@5"]).toBe(exp5[strategy.key]!["evidence_recall@5"]);
        expect(s.original.ci95).toEqual(exp5[strategy.key]!.ci95);
      } else {
        expect(s.original["evidence_recall@5"]).toBe(
          (r.extended.strategies as Record<string, Record<string, unknown>>)[strategy.key]!["evidence_recall@5"],
        );
      }
      for (const k of [5, 10] as const) {
        const m = `evidence_recall@${k}`;
        const audited = g.audited.map((q) => recallAt(ranking(q.conversation, q.qaIndex), q.gold, k));
        expect(s.audited[m]).toBe(pyRound(audited.reduce((a, b) => a + b, 0) / audited.length, 4));
        const pairedKeys = g.original.filter((q) => g.audited.some((a) => a.conversation === q.conversation && a.qaIndex === q.qaIndex));
        const diffs = pairedKeys.map((q) => {
          const a = g.audited.find((x) => x.conversation === q.conversation && x.qaIndex === q.qaIndex)!;
          const ranked = ranking(q.conversation, q.qaIndex);
          return recallAt(ranked, a.gold, k) - recallAt(ranked, q.gold, k);
        });
        const d = s.audited_minus_original[m]!;
        expect(d.diff).toBe(pyRound(diffs.reduce((a, b) => a + b, 0) / diffs.length, 4));
        expect(d.ci95[0]).toBeLessThanOrEqual(d.ci95[1]);
        compared++;
      }
      expect(s.audited_minus_original.query_count).toBe(5);
    }
    expect(compared).toBe(2 * r.rankings.length);
  });
});

describe("AuditScorer fed by the protocol ladder (as Exp. 5 runs it)", () => {
  it("gives the very summary of a scorer that scores every ranking itself", async () => {
    const embedder = await createEmbedder("hashing");
    const g = auditedGold(DATA, AUDIT);
    const observing = new AuditScorer(g);
    const ladder = new LadderScorer(DATA, AUDIT, new Set([...g.original, ...(observing.hooks.extraQuestions ?? [])].map(questionKey)));
    const fed = new AuditScorer(g, undefined, auditColumnsFromLadder(ladder, g));
    expect(fed.hooks.onRanking).toBeUndefined();
    expect(fed.hooks.extraQuestions).toEqual(observing.hooks.extraQuestions);
    const spec = { seed: 11, samples: 300 };
    await runExp5(DATA, embedder, spec, combineHooks(combineHooks(observing.hooks, fed.hooks), ladder.hooks));
    const guard = topKGuard(DATA, [5, 10]);
    const want = observing.summary(spec, "exp5-audit/test", guard, "exp5/hashing");
    expect(fed.summary(spec, "exp5-audit/test", guard, "exp5/hashing")).toStrictEqual(want);
    // the synthetic audit moves golds both ways, so recall and hit differ somewhere: a swapped measure would show
    const s = Object.values(want.strategies as Record<string, { audited: Record<string, number> }>);
    expect(s.some((x) => x.audited["evidence_recall@10"] !== x.audited["hit@10"])).toBe(true);
  });

  it("refuses a ladder whose family holds other questions than the gold's", () => {
    const g = auditedGold(DATA, AUDIT);
    const ladder = new LadderScorer(DATA, AUDIT, new Set());
    const shifted = { ...g, audited: g.audited.slice(1) };
    expect(() => auditColumnsFromLadder(ladder, shifted)("audited")).toThrow(
      /persode\/audited questions are not the audited file's audited-gold questions/,
    );
  });
});

describe("top-k guard", () => {
  it("flags a store no larger than a top-k, where recall is trivially 1", async () => {
    const tiny = parseLocomo([
      conversation("tiny", 6, [{ question: "What about the pottery class?", answer: "a", evidence: ["D1:2", "D2:3"], category: 4 }]),
      conversation("big", 12, []),
    ]);
    const guard = topKGuard(tiny, [5, 10]);
    expect(guard).toEqual({ top_ks: [5, 10], store_sizes: { min: 6, max: 12 }, flagged: true, conversations: ["tiny"] });
    expect(topKGuard(DATA, [5, 10]).flagged).toBe(false);
    const r = await runExp5(tiny, await createEmbedder("hashing"), { seed: 1, samples: 50 });
    for (const s of Object.values(r.run.strategies as Record<string, Record<string, number>>)) expect(s["evidence_recall@10"]).toBe(1);
  });
});

describe("runExp5 without the extended statistics", () => {
  it("ranks, scores and writes the same, and refuses to give the extended results it did not compute", async () => {
    const embedder = await createEmbedder("hashing");
    const spec = { seed: 3, samples: 40 };
    const full = await runExp5(DATA, embedder, spec);
    const lean = await runExp5(DATA, embedder, spec, {}, { extended: false });
    expect(lean.run).toEqual(full.run);
    expect(lean.rankings.map((f) => Buffer.from(f.jsonl).toString())).toEqual(full.rankings.map((f) => Buffer.from(f.jsonl).toString()));
    expect(Object.keys(full.extended.strategies as object).length).toBeGreaterThan(5);
    expect(() => lean.extended).toThrow(/extended results were not computed \(options.extended is false\)/);
  });
});
