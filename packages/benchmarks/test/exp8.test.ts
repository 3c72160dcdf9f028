/** Exp. 8 end to end on the committed LongMemEval-format fixture: `pnpm bench exp8 --data FILE`. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/index.js";

const FIXTURE = join(__dirname, "../../datasets/test/fixtures/longmemeval/synthetic.json");
const OFFICIAL = join(__dirname, "fixtures/longmemeval-official");
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const out = await mkdtemp(join(tmpdir(), "persode-exp8-"));
  dirs.push(out);
  const code = await runCli(["exp8", "--data", FIXTURE, "--out", out, "--samples", "200", ...args]);
  return { code, out };
}

type Block = {
  metrics: Record<string, Record<string, number>>;
  tie_bounds: { best: Record<string, Record<string, number>>; worst: Record<string, Record<string, number>> };
  averaged_questions: number;
  ignored_abstention: number;
  ignored_no_target: number;
  tie_sensitive_questions: number;
};

describe("pnpm bench exp8 --data FILE", () => {
  it("writes the official flat-bm25 block (official averages within its tie bounds), Persode's protocol, and the same bytes twice", async () => {
    const a = await run([]);
    expect(a.code).toBe(0);
    const text = await readFile(join(a.out, "exp8_longmemeval.json"), "utf8");
    const doc = JSON.parse(text) as Record<string, any>;
    expect(doc.benchmark.quirks.repeated_session_id).toBe(5);
    expect(doc.meta.generated_by).toBe(`pnpm bench exp8 --data ${FIXTURE}`);
    for (const g of ["turn", "session"] as const) {
      const b = doc.official["flat-bm25"][g] as Block;
      expect([b.averaged_questions, b.ignored_abstention, b.ignored_no_target]).toEqual([18, 3, 3]);
      const printed = JSON.parse(readFileSync(join(OFFICIAL, `synthetic.json_averages_${g}_flat-bm25.json`), "utf8")) as Record<
        string,
        Record<string, number>
      >;
      for (const [t, ms] of Object.entries(printed)) {
        for (const [k, v] of Object.entries(ms)) {
          expect(v, `${g} ${t} ${k}`).toBeLessThanOrEqual(b.tie_bounds.best[t]![k]! + 1e-6);
          expect(v, `${g} ${t} ${k}`).toBeGreaterThanOrEqual(b.tie_bounds.worst[t]![k]! - 1e-6);
        }
      }
    }
    const run8 = doc.runs.hashing;
    expect(run8.questions).toBe(21); // 24 − 3 abstention; the 4 assistant-only questions keep their (assistant) evidence
    expect(Object.keys(run8.strategies)).toContain("gated (Persode)");
    expect(run8.strategies["fused (Persode)"].vs_similarity["evidence_recall@5"]).toHaveProperty("p_holm");
    expect(Object.keys(run8.by_question_type).sort()).toEqual([
      "knowledge-update",
      "multi-session",
      "single-session-assistant",
      "single-session-preference",
      "single-session-user",
      "temporal-reasoning",
    ]);
    // the ladder's measures of the same rankings: where a measure is also one of Persode's metrics, the two agree
    expect(run8.protocols.family).toBe("has_answer/original");
    expect(run8.protocols.questions).toBe(21);
    expect(Object.keys(run8.protocols.strategies)).toEqual(Object.keys(run8.strategies));
    for (const [s, v] of Object.entries(run8.strategies as Record<string, Record<string, number>>)) {
      const p = run8.protocols.strategies[s]["has_answer/original"];
      expect(p.query_count, s).toBe(21);
      expect(p.values["turn.recall@5"], s).toBe(v["evidence_recall@5"]);
      expect(p.values["turn.recall@10"], s).toBe(v["evidence_recall@10"]);
      expect(p.values["turn.any@5"], s).toBe(v["hit@5"]);
      expect(p.values["turn.mrr"], s).toBe(v.mrr);
      expect(p.values["session.any@5"], s).toBe(v["session_recall_any@5"]);
      expect(p.values["session.recall@5"], s).toBe(v["session_recall@5"]);
      for (const [m, [lo, hi]] of Object.entries(p.ci95 as Record<string, [number, number]>)) {
        expect(lo, `${s} ${m}`).toBeLessThanOrEqual(p.values[m]);
        expect(hi, `${s} ${m}`).toBeGreaterThanOrEqual(p.values[m]);
      }
    }
    const lines = (await readFile(join(a.out, "rankings/exp8/official_flat-bm25_turn.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(24);
    const b = await run([]);
    expect(await readFile(join(b.out, "exp8_longmemeval.json"), "utf8")).toBe(text);
  });

  it("a malformed --data file fails naming the file, the question and the field, and writes nothing", async () => {
    const bad = join(await mkdtemp(join(tmpdir(), "persode-exp8-bad-")), "bad.json");
    dirs.push(join(bad, ".."));
    const qs = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>[];
    qs[1]!.haystack_dates = (qs[1]!.haystack_dates as string[]).slice(1);
    const { writeFile, readdir } = await import("node:fs/promises");
    await writeFile(bad, JSON.stringify(qs));
    const out = await mkdtemp(join(tmpdir(), "persode-exp8-"));
    dirs.push(out);
    const errs: string[] = [];
    const orig = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (errs.push(String(s)), true)) as typeof process.stderr.write;
    try {
      expect(await runCli(["exp8", "--data", bad, "--out", out])).toBe(1);
    } finally {
      process.stderr.write = orig;
    }
    expect(errs.join("")).toContain(`question ${qs[1]!.question_id as string} (element 1).haystack_sessions`);
    expect(errs.join("")).toContain(bad);
    expect(await readdir(out)).toEqual([]);
  });
});
