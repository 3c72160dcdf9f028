/** `pnpm bench longmemeval-eval --report DIR [--name NAME]`: the outside system's Exp. 8 file beside the built-in strategies, and its refusals. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extendedStrategies } from "@persode/core";
import { runLongMemEvalEval } from "../src/longmemeval-eval-command.js";
import { UsageError } from "../src/options.js";
import { runCliInProcess } from "./bench-helpers.js";

const FIXTURES = join(__dirname, "fixtures/protocols");
const LME = join(__dirname, "../../datasets/test/fixtures/longmemeval/synthetic.json");
const TURN = join(FIXTURES, "longmemeval-turn.jsonl");

type Scores = { query_count: number; values: Record<string, number>; ci95: Record<string, [number, number]> };

describe("longmemeval-eval --report", () => {
  it("writes an Exp. 8 file with the system beside the built-in strategies (official and ladder) and asks the renderer for DIR", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lme-report-"));
    const rendered: string[] = [];
    const base = { rankings: TURN, data: LME, allowMissing: false, seed: 7, samples: 100 };
    const code = await runLongMemEvalEval({
      ...base,
      output: join(dir, "eval.json"),
      report: { dir: join(dir, "report"), name: "fixture system", render: async (d) => void rendered.push(d) },
    });
    expect(code).toBe(0);
    expect(rendered).toEqual([join(dir, "report")]);
    const doc = JSON.parse(readFileSync(join(dir, "report", "exp8_longmemeval.json"), "utf8")) as {
      official: Record<string, Record<string, { metrics: Record<string, Record<string, number>>; averaged_questions: number }>>;
      runs: Record<
        string,
        { embedder: { name: string }; protocols: { family: string; questions: number; strategies: Record<string, Record<string, Scores>> } }
      >;
      meta: { strategies: { key: string; slug: string; built_in: boolean }[]; generated_by: string };
    };
    expect(Object.keys(doc.runs)).toEqual(["hashing", "outside"]);
    expect(Object.keys(doc.official)).toEqual(["flat-bm25", "fixture system"]);
    const evalDoc = JSON.parse(readFileSync(join(dir, "eval.json"), "utf8")) as {
      granularity: string;
      averaged_questions: number;
      metrics: Record<string, Record<string, number>>;
      protocols: Record<string, Scores>;
    };
    // the system's official metrics and ladder measures are its own report's, with the values the independent computation gives
    expect(evalDoc.granularity).toBe("turn");
    expect(doc.official["fixture system"]!.turn!.metrics).toEqual(evalDoc.metrics);
    expect(doc.official["fixture system"]!.turn!.averaged_questions).toBe(evalDoc.averaged_questions);
    const expected = JSON.parse(readFileSync(join(FIXTURES, "longmemeval-turn-expected.json"), "utf8")) as {
      questions: number;
      values: Record<string, number>;
    };
    const outside = doc.runs.outside!.protocols;
    expect(outside.family).toBe("has_answer/original");
    expect(outside.questions).toBe(expected.questions);
    expect(outside.strategies["fixture system"]!["has_answer/original"]!.values).toEqual(expected.values);
    expect(doc.runs.outside!.embedder.name).toBe("outside");
    // the built-in strategies: Exp. 8's hashing run, ladder included
    expect(Object.keys(doc.runs.hashing!.protocols.strategies)).toEqual(extendedStrategies().map((s) => s.key));
    expect(doc.meta.strategies.at(-1)).toEqual({
      key: "fixture system",
      slug: "outside-system",
      order: extendedStrategies().length,
      built_in: false,
    });
    expect(doc.meta.generated_by).toBe(`pnpm bench longmemeval-eval --rankings ${TURN} --data ${LME} --report ${join(dir, "report")}`);
    // the paired comparison from Exp. 8's rankings equals the one longmemeval-eval computes without --report
    await runLongMemEvalEval({ ...base, output: join(dir, "plain.json") });
    expect(readFileSync(join(dir, "eval.json"), "utf8")).toBe(readFileSync(join(dir, "plain.json"), "utf8"));
  }, 300_000);

  it("refuses bad rankings before writing anything: no report, no report folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lme-report-"));
    const rankings = join(dir, "r.jsonl");
    writeFileSync(rankings, '{"question_id": "x", "ranked_ids": ["a"]}\n{oops\n');
    const rendered: string[] = [];
    const run = runLongMemEvalEval({
      rankings,
      data: LME,
      output: join(dir, "out.json"),
      allowMissing: true,
      seed: 1,
      samples: 10,
      report: { dir: join(dir, "report"), name: "s", render: async (d) => void rendered.push(d) },
    });
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/r\.jsonl:2: not valid JSON/);
    expect(readdirSync(dir)).toEqual(["r.jsonl"]);
    expect(rendered).toEqual([]);
  });

  it("refuses a --name a built-in system holds, and --name without --report (exit 2, nothing written)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lme-report-"));
    const o = { rankings: TURN, data: LME, output: join(dir, "out.json"), allowMissing: false, seed: 1, samples: 10 };
    for (const name of ["bm25", "flat-bm25"])
      await expect(runLongMemEvalEval({ ...o, report: { dir: join(dir, "report"), name, render: async () => {} } })).rejects.toThrow(
        new RegExp(`--name "${name}" is a built-in system's name`),
      );
    const r = await runCliInProcess(["longmemeval-eval", "--data", LME, "--rankings", TURN, "--output", o.output, "--name", "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--name NAME names the system of --report DIR/);
    const withReport = await runCliInProcess([
      "longmemeval-eval",
      "--data",
      LME,
      "--rankings",
      TURN,
      "--output",
      o.output,
      "--report",
      join(dir, "report"),
    ]);
    expect(withReport.code).toBe(2);
    expect(withReport.stderr).toMatch(/--report needs the report renderer/);
    expect(existsSync(o.output)).toBe(false);
    expect(existsSync(join(dir, "report"))).toBe(false);
  });
});
