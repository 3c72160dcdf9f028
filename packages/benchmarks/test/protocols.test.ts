/** The protocol definitions (docs/spec.md §11), the LoCoMo and LongMemEval evaluators, and every refusal. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLocomo, loadLocomoAudit, parseLongMemEval, sha256Hex } from "@persode/datasets";
import { describe, expect, it, vi } from "vitest";
import { LADDER_MEASURES, measure, parseMeasure, relevantRanks, scoreQuestion, scoreRanks, sessionRanks } from "../src/protocols.js";
import { conversationIndex, locomoQuestionSets, scoreLocomoQuestion } from "../src/locomo-protocols.js";
import { RankingsInputError, evaluateLocomoRankings, latencySummary, parseLocomoRankings } from "../src/locomo-eval.js";
import { evaluateLongMemEvalRankings, parseLongMemEvalRankings } from "../src/longmemeval/eval.js";
import { builtinLadderColumns } from "../src/longmemeval/builtins.js";
import { pairedWithBuiltins } from "../src/locomo-eval.js";
import { runLocomoEval } from "../src/locomo-eval-command.js";
import { HashingEmbedder, extendedStrategies } from "@persode/core";
import { DATA_OPTIONS, runCliInProcess } from "./bench-helpers.js";

const FIXTURES = join(__dirname, "fixtures/protocols");
const LME = join(__dirname, "../../datasets/test/fixtures/longmemeval/synthetic.json");
const SPEC = { seed: 20260713, samples: 200 };

describe("measures", () => {
  it("have stable names and refuse malformed ones", () => {
    expect(LADDER_MEASURES.map((m) => m.name).slice(0, 9)).toEqual([
      "turn.recall@5",
      "turn.recall@10",
      "turn.any@5",
      "turn.any@10",
      "turn.all@5",
      "turn.all@10",
      "turn.ndcg@5",
      "turn.ndcg@10",
      "turn.mrr",
    ]);
    expect(parseMeasure("session.any@5")).toEqual(measure("session", "any", 5));
    expect(() => parseMeasure("turn.hit@5")).toThrow(/unknown measure "turn\.hit@5"/);
    expect(() => measure("turn", "mrr", 5)).toThrow(/takes no k/);
    expect(() => measure("turn", "recall", 0)).toThrow(/integer k >= 1/);
  });

  it("score one ranking by the definitions", () => {
    // items 0..5; gold = {1, 4, 5}; ranking 3, 1, 0, 4 (truncated: 5 is never retrieved)
    const ranks = relevantRanks([3, 1, 0, 4], [0, 1, 0, 0, 1, 1]);
    expect(ranks).toEqual([2, 4]);
    expect(scoreRanks(ranks, 3, "recall", 2)).toBeCloseTo(1 / 3, 15);
    expect(scoreRanks(ranks, 3, "any", 1)).toBe(0);
    expect(scoreRanks(ranks, 3, "any", 2)).toBe(1);
    expect(scoreRanks(ranks, 3, "all", 10)).toBe(0);
    expect(scoreRanks(ranks, 3, "mrr")).toBe(0.5);
    // nDCG@3: DCG = 1/log2(3); ideal over min(3, 3) = 1 + 1/log2(3) + 1/2
    expect(scoreRanks(ranks, 3, "ndcg", 3)).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3) + 0.5), 15);
    // nDCG@1 ideal over min(|gold|, 1) = 1 gold item
    expect(scoreRanks([1], 3, "ndcg", 1)).toBe(1);
    expect(scoreRanks([], 0, "recall", 5)).toBe(0);
  });

  it("stop the relevant-rank scan at stopAfter once a rank is found, scoring every measure at k <= stopAfter as the full scan does", () => {
    // gold {1, 4, 5}; ranking 3, 1, 0, 4, 2, 5: ranks 2, 4, 6
    expect(relevantRanks([3, 1, 0, 4, 2, 5], [0, 1, 0, 0, 1, 1], 3)).toEqual([2]);
    expect(relevantRanks([3, 1, 0, 4, 2, 5], [0, 1, 0, 0, 1, 1], 4)).toEqual([2, 4]);
    // none within the first 1: the first past it is kept for MRR
    expect(relevantRanks([3, 1, 0, 4, 2, 5], [0, 1, 0, 0, 1, 1], 1)).toEqual([2]);
    expect(relevantRanks([3, 0, 2], [0, 1, 0, 0, 1, 1], 1)).toEqual([]);
    let x = 11;
    const rand = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
    for (let trial = 0; trial < 200; trial++) {
      const items = 1 + rand(60);
      const relevant = Array.from({ length: items }, () => +(rand(8) === 0));
      const order = Array.from({ length: items }, (_, i) => i).sort(() => rand(3) - 1);
      const stop = 1 + rand(12);
      const nGold = relevant.reduce((a, b) => a + b, 0);
      const full = relevantRanks(order, relevant);
      const cut = relevantRanks(order, relevant, stop);
      for (const kind of ["recall", "any", "all", "ndcg"] as const)
        for (let k = 1; k <= stop; k++) expect(scoreRanks(cut, nGold, kind, k)).toBe(scoreRanks(full, nGold, kind, k));
      expect(scoreRanks(cut, nGold, "mrr")).toBe(scoreRanks(full, nGold, "mrr"));
      expect(cut.filter((r) => r > stop).length).toBe(cut.some((r) => r <= stop) ? 0 : Math.min(1, full.length));
    }
  });

  it("rank sessions by their best-ranked turn", () => {
    // turns 0..5 in sessions 0,0,1,1,2,2; gold sessions {2}; ranking 1, 0, 3, 5 -> sessions 0, 1, 2
    expect(sessionRanks([1, 0, 3, 5], [0, 0, 1, 1, 2, 2], new Set([2]))).toEqual([3]);
    expect(sessionRanks([1, 0, 3, 5], [0, 0, 1, 1, 2, 2], new Set([2]), 2)).toEqual([]);
  });

  it("rank sessions the same for any session numbers: small integers (a scratch array), large, negative or fractional ones (a Set)", () => {
    // the definition, with a Set of the sessions seen
    const bySet = (order: number[], sessionOf: number[], gold: Set<number>, stopAfter = Infinity) => {
      const seen = new Set<number>();
      const ranks: number[] = [];
      for (const i of order) {
        const s = sessionOf[i]!;
        if (seen.has(s)) continue;
        seen.add(s);
        if (gold.has(s)) ranks.push(seen.size);
        if (ranks.length === gold.size || seen.size >= stopAfter) break;
      }
      return ranks;
    };
    let x = 7;
    const rand = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
    const numberings = [(s: number) => s, (s: number) => s * 1000, (s: number) => 2 ** 21 + s, (s: number) => -s, (s: number) => s + 0.5];
    for (let trial = 0; trial < 60; trial++) {
      const items = 1 + rand(80);
      const sessions = 1 + rand(12);
      const at = Array.from({ length: items }, () => rand(sessions));
      const order = Array.from({ length: items }, (_, i) => i).sort(() => rand(3) - 1);
      for (const f of numberings) {
        const sessionOf = at.map(f);
        const gold = new Set(Array.from({ length: 1 + rand(3) }, () => f(rand(sessions))));
        const stop = rand(2) === 0 ? Infinity : 1 + rand(sessions);
        expect(sessionRanks(order, sessionOf, gold, stop)).toEqual(bySet(order, sessionOf, gold, stop));
      }
    }
  });

  it("summarise latencies as p50 and p95 with linear interpolation", () => {
    expect(latencySummary([4, 1, 3, 2])).toEqual({ n: 4, p50: 2.5, p95: 3.85 });
  });
});

describe("locomo-eval", async () => {
  const data = await loadLocomo(DATA_OPTIONS);
  const audit = await loadLocomoAudit(data, DATA_OPTIONS);
  const families = locomoQuestionSets(data, audit);
  const line = (o: Record<string, unknown>) => JSON.stringify({ sample_id: "conv-26", qa_index: 0, ranked_dia_ids: ["D1:3"], ...o });

  it("has the question sets of the definitions", () => {
    expect([...families].map(([f, qs]) => [f, qs.length])).toEqual([
      ["persode/original", 1535],
      ["all/original", 1981],
      ["persode/audited", families.get("persode/audited")!.length],
      ["all/audited", families.get("all/audited")!.length],
    ]);
  });

  it("scores a question's ladder (scans stopped at the largest k) as the full scans of the definitions do", () => {
    const conv = data.conversations[0]!;
    const ci = conversationIndex(conv);
    const n = ci.sessionOf.length;
    const diaIds = conv.sessions.flatMap((s) => s.turns.map((t) => t.diaId));
    let x = 5;
    const rand = (m: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % m);
    const qs = families.get("all/original")!.filter((q) => q.conversation === 0);
    let sessionsPastTen = 0;
    for (const q of qs) {
      // a random order, and one with the gold turns last (no gold session among the first sessions)
      const random = Int32Array.from({ length: n }, (_, i) => i).sort(() => rand(3) - 1);
      const isGold = (i: number) => +q.gold.includes(diaIds[i]!);
      const goldLast = Int32Array.from(random).sort((a, b) => isGold(a) - isGold(b));
      for (const order of [random, goldLast, random.subarray(0, 40)]) {
        const relevant = new Uint8Array(n);
        const goldSessions = new Set<number>();
        for (const g of q.gold) {
          const i = ci.index.get(g)!;
          relevant[i] = 1;
          goldSessions.add(ci.sessionOf[i]!);
        }
        const session = sessionRanks(order, ci.sessionOf, goldSessions);
        if (session.length > 0 && session[0]! > 10) sessionsPastTen++;
        const expected = scoreQuestion(
          LADDER_MEASURES,
          { ranks: relevantRanks(order, relevant), nGold: q.gold.length },
          { ranks: session, nGold: goldSessions.size },
        );
        expect(scoreLocomoQuestion(order, q.gold, ci), `${q.sampleId} ${q.qaIndex}`).toEqual(expected);
      }
    }
    expect(qs.length).toBeGreaterThan(100);
    expect(sessionsPastTen).toBeGreaterThan(0);
  });

  it("scores rankings it has never seen equal to an independent implementation of the definitions", () => {
    const file = join(FIXTURES, "locomo-rankings.jsonl");
    const expected = JSON.parse(readFileSync(join(FIXTURES, "locomo-expected.json"), "utf8")) as Record<
      string,
      { query_count: number; values: Record<string, number> }
    >;
    const { report } = evaluateLocomoRankings(
      data,
      families,
      parseLocomoRankings(readFileSync(file, "utf8"), file, data),
      file,
      SPEC,
      true,
    );
    expect(Object.keys(report.protocols).sort()).toEqual(Object.keys(expected).sort());
    for (const [f, e] of Object.entries(expected)) {
      expect(report.protocols[f]!.query_count, f).toBe(e.query_count);
      expect(report.protocols[f]!.values, f).toEqual(e.values);
    }
    expect(report.rankings.missing_scored_empty).toBeGreaterThan(1500);
    expect(report.latency_ms!.n).toBeGreaterThan(100);
  });

  it("says what truncated rankings measure (MRR at the ranking's length, sessions of the listed turns); a full ranking needs no note", () => {
    const file = join(FIXTURES, "locomo-rankings.jsonl");
    const lines = parseLocomoRankings(readFileSync(file, "utf8"), file, data);
    const { report } = evaluateLocomoRankings(data, families, lines, file, SPEC, true);
    expect(report.rankings.truncated).toBe(lines.length);
    const lengths = lines.map((l) => l.ids.length);
    expect(report.rankings.turns_per_line).toEqual({ min: Math.min(...lengths), max: Math.max(...lengths) });
    expect(report.rankings.truncation).toMatch(
      new RegExp(
        `^${lines.length} ranking\\(s\\) list fewer turns than their conversation holds \\(the shortest ${Math.min(...lengths)}\\)`,
      ),
    );
    expect(report.rankings.truncation).toMatch(/turn\.mrr is MRR at the ranking's length/);
    expect(report.rankings.truncation).toMatch(/session measures rank only the sessions the listed turns reach/);
    expect(report.rankings.truncation).toContain("--rankings-depth full");
    // one question ranked over its whole conversation: nothing truncated, no note
    const conv = data.conversations[0]!;
    const every = conv.sessions.flatMap((x) => x.turns.map((t) => t.diaId));
    const whole = parseLocomoRankings(line({ sample_id: conv.sampleId, qa_index: 0, ranked_dia_ids: every }), "r.jsonl", data);
    const full = evaluateLocomoRankings(data, families, whole, "r.jsonl", SPEC, true).report.rankings;
    expect(full.truncated).toBe(0);
    expect(full.turns_per_line).toEqual({ min: every.length, max: every.length });
    expect(full.truncation).toBeUndefined();
  });

  it("refuses malformed JSON, a non-object and bad fields, naming the line", () => {
    const p = (t: string) => () => parseLocomoRankings(t, "r.jsonl", data);
    expect(p(`${line({})}\n{oops`)).toThrow(/r\.jsonl:2: not valid JSON/);
    expect(p(`[1]`)).toThrow(/r\.jsonl:1: a line must be a JSON object/);
    expect(p(line({ sample_id: 7 }))).toThrow(/r\.jsonl:1: sample_id must be a string/);
    expect(p(line({ qa_index: -1 }))).toThrow(/r\.jsonl:1: qa_index must be an integer >= 0/);
    expect(p(line({ ranked_dia_ids: [] }))).toThrow(/r\.jsonl:1: ranked_dia_ids must be a non-empty array/);
    expect(p(line({ latency_ms: "fast" }))).toThrow(/r\.jsonl:1: latency_ms must be a number/);
    expect(p("\n\n")).toThrow(/r\.jsonl: no rankings/);
  });

  it("refuses unknown conversations, questions and turn ids, naming the line", () => {
    const p = (t: string) => () => parseLocomoRankings(t, "r.jsonl", data);
    expect(p(line({ sample_id: "conv-0" }))).toThrow(/r\.jsonl:1: sample_id "conv-0" is not a conversation of the data/);
    expect(p(line({ qa_index: 9999 }))).toThrow(/r\.jsonl:1: qa_index 9999 is past the end of conv-26's/);
    expect(p(line({ ranked_dia_ids: ["D1:3", "D99:1"] }))).toThrow(/r\.jsonl:1: "D99:1" is not a turn \(dia_id\) of conv-26/);
  });

  it("refuses an id twice in one ranking and a question twice", () => {
    const p = (t: string) => () => parseLocomoRankings(t, "r.jsonl", data);
    expect(p(line({ ranked_dia_ids: ["D1:3", "D1:4", "D1:3"] }))).toThrow(
      /r\.jsonl:1: "D1:3" appears twice in the ranking of conv-26 question 0/,
    );
    expect(p(`${line({})}\n${line({ ranked_dia_ids: ["D1:4"] })}`)).toThrow(
      /r\.jsonl:2: conv-26 question 0 is ranked twice \(first on line 1\)/,
    );
  });

  it("refuses missing questions, listing them, unless --allow-missing, which scores them empty and counts them", () => {
    const lines = parseLocomoRankings(line({ qa_index: 0, ranked_dia_ids: ["D1:3"] }), "r.jsonl", data);
    const union = new Set([...families.values()].flatMap((qs) => qs.map((q) => `${q.sampleId}#${q.qaIndex}`)));
    expect(union.size).toBeGreaterThanOrEqual(1981);
    expect(() => evaluateLocomoRankings(data, families, lines, "r.jsonl", SPEC)).toThrow(RankingsInputError);
    expect(() => evaluateLocomoRankings(data, families, lines, "r.jsonl", SPEC)).toThrow(
      new RegExp(`r\\.jsonl: ${union.size - 1} question`),
    );
    expect(() => evaluateLocomoRankings(data, families, lines, "r.jsonl", SPEC)).toThrow(
      /question\(s\) of the protocols' question sets have no ranking: conv-26#1, /,
    );
    const { report } = evaluateLocomoRankings(data, families, lines, "r.jsonl", SPEC, true);
    expect(report.rankings.missing_scored_empty).toBe(union.size - 1);
    // conv-26 question 0 has gold D1:3: that one question is a hit at rank 1
    expect(report.protocols["persode/original"]!.values["turn.mrr"]).toBe(Math.round(10000 / 1535) / 10000);
  });

  it("--report DIR writes the system's ladder file beside the built-in strategies and asks the renderer for DIR", async () => {
    const dir = mkdtempSync(join(tmpdir(), "locomo-report-"));
    const rendered: string[] = [];
    const code = await runLocomoEval({
      rankings: join(FIXTURES, "locomo-rankings.jsonl"),
      output: join(dir, "eval.json"),
      allowMissing: true,
      seed: 7,
      samples: 20,
      report: { dir: join(dir, "report"), name: "fixture system", render: async (d) => void rendered.push(d) },
    });
    expect(code).toBe(0);
    expect(rendered).toEqual([join(dir, "report")]);
    const ladder = JSON.parse(readFileSync(join(dir, "report", "exp5_locomo_protocols.json"), "utf8")) as {
      runs: Record<string, { strategies: Record<string, Record<string, { values: Record<string, number> }>> }>;
      meta: { strategies: { key: string; built_in: boolean }[] };
    };
    expect(Object.keys(ladder.runs)).toEqual(["hashing", "outside"]);
    expect(Object.keys(ladder.runs.hashing!.strategies)).toEqual(extendedStrategies().map((s) => s.key));
    const expected = JSON.parse(readFileSync(join(FIXTURES, "locomo-expected.json"), "utf8")) as Record<
      string,
      { values: Record<string, number> }
    >;
    expect(ladder.runs.outside!.strategies["fixture system"]!["persode/original"]!.values).toEqual(expected["persode/original"]!.values);
    expect(ladder.meta.strategies.at(-1)).toEqual({
      key: "fixture system",
      slug: "outside-system",
      order: extendedStrategies().length,
      built_in: false,
    });
    const evalDoc = JSON.parse(readFileSync(join(dir, "eval.json"), "utf8")) as {
      paired: { families: Record<string, Record<string, unknown>> };
    };
    expect(Object.keys(evalDoc.paired.families).sort()).toEqual(["all/audited", "all/original", "persode/audited", "persode/original"]);
  }, 300_000);

  it("--embedder NAME picks the embedder the built-in strategies rank with: hashing is the default, named in the report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "locomo-eval-"));
    const rankings = join(FIXTURES, "locomo-rankings.jsonl");
    const r = await runCliInProcess([
      "locomo-eval",
      "--rankings",
      rankings,
      "--output",
      join(dir, "named.json"),
      "--allow-missing",
      "--samples",
      "20",
      "--embedder",
      "hashing",
    ]);
    expect(r.code, r.stderr).toBe(0);
    // the fixture's rankings are short: the command says what that means for MRR and the session measures
    expect(r.stdout).toMatch(
      /\nnote: \d+ ranking\(s\) are truncated \(the shortest lists 1 turn\(s\)\): turn\.mrr is MRR at the ranking's length/,
    );
    const named = readFileSync(join(dir, "named.json"), "utf8");
    const doc = JSON.parse(named) as {
      paired: { against: string; embedder: { name: string }; families: Record<string, Record<string, unknown>> };
    };
    expect(doc.paired.embedder.name).toBe("hashing");
    expect(doc.paired.against).toMatch(/^every built-in strategy, hashing embedder/);
    expect(Object.keys(doc.paired.families["persode/original"]!)).toEqual(extendedStrategies().map((s) => s.key));
    await runLocomoEval({ rankings, output: join(dir, "default.json"), allowMissing: true, seed: 20260713, samples: 20 });
    expect(readFileSync(join(dir, "default.json"), "utf8")).toBe(named);
  }, 300_000);

  it("refuses an unknown --embedder before any work (exit 2, nothing written)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "locomo-eval-"));
    const r = await runCliInProcess([
      "locomo-eval",
      "--rankings",
      join(FIXTURES, "locomo-rankings.jsonl"),
      "--output",
      join(dir, "out.json"),
      "--embedder",
      "no-such-model",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown embedder "no-such-model"; known: hashing, /);
    expect(existsSync(join(dir, "out.json"))).toBe(false);
  });

  it("--model and --dtype pick the built-in strategies' weights: refused with the hashing embedder, passed to a neural one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "locomo-eval-"));
    const base = ["locomo-eval", "--rankings", join(FIXTURES, "locomo-rankings.jsonl"), "--output", join(dir, "out.json")];
    const hashing = await runCliInProcess([...base, "--model", "Xenova/other"]);
    expect(hashing.code).toBe(2);
    expect(hashing.stderr).toMatch(/--model select a neural embedder's weights, but the embedder is hashing; add --embedder minilm/);
    // an undeclared model folder, offline and absent here: the embedder's own refusal reaches the user, nothing is written
    vi.stubEnv("PERSODE_OFFLINE", "1");
    vi.stubEnv("PERSODE_MODEL_DIR", join(dir, "no-models"));
    let neural: Awaited<ReturnType<typeof runCliInProcess>>;
    try {
      neural = await runCliInProcess([
        ...base,
        "--allow-missing",
        "--embedder",
        "minilm",
        "--model",
        "someone/unpinned-model",
        "--dtype",
        "q4",
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(neural.code).not.toBe(0);
    expect(neural.stderr).toMatch(/someone\/unpinned-model/);
    expect(existsSync(join(dir, "out.json"))).toBe(false);
  });

  it("exits 2 and writes nothing on a refusal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "locomo-eval-"));
    const rankings = join(dir, "r.jsonl");
    writeFileSync(rankings, `${line({})}\n${line({})}\n`);
    const r = await runCliInProcess(["locomo-eval", "--rankings", rankings, "--output", join(dir, "out.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/r\.jsonl:2: conv-26 question 0 is ranked twice/);
    expect(existsSync(join(dir, "out.json"))).toBe(false);
  });
});

describe("longmemeval-eval under the ladder's measures", () => {
  const bytes = readFileSync(LME);
  const data = parseLongMemEval(bytes, sha256Hex(bytes), LME);
  for (const g of ["turn", "session"] as const) {
    it(`scores ${g} rankings it has never seen equal to an independent implementation`, () => {
      const file = join(FIXTURES, `longmemeval-${g}.jsonl`);
      const expected = JSON.parse(readFileSync(join(FIXTURES, `longmemeval-${g}-expected.json`), "utf8")) as {
        questions: number;
        values: Record<string, number>;
      };
      const report = evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(readFileSync(file, "utf8"), file), file, false, SPEC);
      expect(report.granularity).toBe(g);
      const p = report.protocols["has_answer/original"]!;
      expect(p.query_count).toBe(expected.questions);
      expect(p.values).toEqual(expected.values);
      expect(report.latency_ms!.n).toBe(data.questions.length);
    });
  }

  it("compares a system with every built-in strategy on the same questions: a strategy against itself ties everywhere", async () => {
    const measures = LADDER_MEASURES;
    const builtins = await builtinLadderColumns(data, new HashingEmbedder(), measures);
    expect([...builtins.keys()]).toEqual(extendedStrategies().map((s) => s.key));
    const f = "has_answer/original";
    const paired = pairedWithBuiltins(
      new Map([[f, builtins.get("bm25")!]]),
      new Map([[f, builtins]]),
      { seed: 1, samples: 200 },
      "t",
      measures,
    )[f]!;
    for (const [s, rows] of Object.entries(paired)) {
      for (const r of Object.values(rows)) expect(r.wins + r.ties + r.losses, s).toBe(r.n);
    }
    for (const r of Object.values(paired.bm25!)) expect([r.diff, r.ties, r.p_randomization, r.significant]).toEqual([0, r.n, 1, false]);
  });

  it("writes the paired comparison into longmemeval-eval's report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lme-eval-"));
    const out = join(dir, "out.json");
    const r = await runCliInProcess([
      "longmemeval-eval",
      "--data",
      LME,
      "--rankings",
      join(FIXTURES, "longmemeval-session.jsonl"),
      "--output",
      out,
      "--samples",
      "100",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      paired: { measures: string[]; families: Record<string, Record<string, Record<string, { n: number }>>> };
    };
    expect(doc.paired.measures).toEqual(["session.any@5", "session.recall@5"]);
    expect(Object.keys(doc.paired.families["has_answer/original"]!)).toEqual(extendedStrategies().map((s) => s.key));
  });

  it("refuses an id ranked more often than the haystack holds it and a bad latency, naming the line", () => {
    const q = data.questions.find((x) => new Set(x.sessions.map((s) => s.id)).size === x.sessions.length)!;
    const twice = JSON.stringify({ question_id: q.questionId, ranked_ids: [q.sessions[0]!.id, q.sessions[0]!.id] });
    expect(() => evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(twice, "r.jsonl"), "r.jsonl", true, SPEC)).toThrow(
      /r\.jsonl:1: ".*" is ranked more often than question .*'s haystack holds it/,
    );
    expect(() => parseLongMemEvalRankings('{"question_id": "a", "ranked_ids": ["x"], "latency_ms": -1}', "r.jsonl")).toThrow(
      /r\.jsonl:1: latency_ms must be a number/,
    );
  });

  it("exits 2 and writes nothing on a refusal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lme-eval-"));
    const rankings = join(dir, "r.jsonl");
    const q = data.questions.find((x) => new Set(x.sessions.map((s) => s.id)).size === x.sessions.length)!;
    writeFileSync(rankings, JSON.stringify({ question_id: q.questionId, ranked_ids: [q.sessions[0]!.id, q.sessions[0]!.id] }) + "\n");
    const r = await runCliInProcess([
      "longmemeval-eval",
      "--data",
      LME,
      "--rankings",
      rankings,
      "--output",
      join(dir, "out.json"),
      "--allow-missing",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/r\.jsonl:1: ".*" is ranked more often than question/);
    expect(existsSync(join(dir, "out.json"))).toBe(false);
  });
});
