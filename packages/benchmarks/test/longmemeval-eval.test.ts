/** `pnpm bench longmemeval-eval`: outside rankings scored under the official protocol. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLongMemEval, sha256Hex } from "@persode/datasets";
import { pyRound } from "@persode/util";
import { describe, expect, it } from "vitest";
import { LongMemEvalRankingsError, evaluateLongMemEvalRankings, parseLongMemEvalRankings } from "../src/longmemeval/eval.js";

const FIXTURE = join(__dirname, "../../datasets/test/fixtures/longmemeval/synthetic.json");
const OFFICIAL = join(__dirname, "fixtures/longmemeval-official");
const bytes = readFileSync(FIXTURE);
const data = parseLongMemEval(bytes, sha256Hex(bytes), FIXTURE);

/** The official log's own rankings as a rankings file (ids exactly as the official log writes them). */
function officialRankings(g: "turn" | "session"): string {
  return readFileSync(join(OFFICIAL, `synthetic.json_retrievallog_${g}_flat-bm25`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { question_id: string; retrieval_results: { ranked_items: { corpus_id: string }[] } })
    .map((l) => JSON.stringify({ question_id: l.question_id, ranked_ids: l.retrieval_results.ranked_items.map((r) => r.corpus_id) }))
    .join("\n");
}

describe("longmemeval-eval", () => {
  for (const g of ["turn", "session"] as const) {
    it(`scores the official ${g} rankings to the averages run_retrieval.py printed`, () => {
      const report = evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(officialRankings(g), "r.jsonl"), "r.jsonl");
      expect(report.granularity).toBe(g);
      expect([report.averaged_questions, report.ignored_abstention, report.ignored_no_target]).toEqual([18, 3, 3]);
      const printed = JSON.parse(readFileSync(join(OFFICIAL, `synthetic.json_averages_${g}_flat-bm25.json`), "utf8")) as Record<
        string,
        Record<string, number>
      >;
      for (const [t, ms] of Object.entries(printed))
        for (const [k, v] of Object.entries(ms)) expect(report.metrics[t]![k], `${t} ${k}`).toBe(pyRound(v, 6));
    });
  }

  it("refuses malformed JSON, a question twice, unknown ids and missing questions, naming the line", () => {
    expect(() => parseLongMemEvalRankings('{"question_id": "a", "ranked_ids": ["x"]}\n{oops', "r.jsonl")).toThrow(
      /r\.jsonl:2: not valid JSON/,
    );
    expect(() =>
      parseLongMemEvalRankings('{"question_id": "a", "ranked_ids": ["x"]}\n{"question_id": "a", "ranked_ids": ["y"]}', "r.jsonl"),
    ).toThrow(/r\.jsonl:2: question a is ranked twice \(first on line 1\)/);
    const q = data.questions[0]!;
    const one = JSON.stringify({ question_id: q.questionId, ranked_ids: [`${q.sessions[0]!.id}_99`] });
    expect(() => evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(one, "r.jsonl"), "r.jsonl", true)).toThrow(
      LongMemEvalRankingsError,
    );
    expect(() => evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(one, "r.jsonl"), "r.jsonl", true)).toThrow(
      /r\.jsonl:1: ".*_99" is not a turn id/,
    );
    const ok = JSON.stringify({ question_id: q.questionId, ranked_ids: [q.sessions[0]!.id] });
    expect(() => evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(ok, "r.jsonl"), "r.jsonl")).toThrow(
      /23 question\(s\) of the data have no ranking/,
    );
    expect(evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(ok, "r.jsonl"), "r.jsonl", true).missing_scored_empty).toBe(23);
  });
});
