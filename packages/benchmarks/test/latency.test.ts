/** Latency beside quality: what is timed and counted (the times themselves are machine-dependent and never asserted). */
import { HashingEmbedder, extendedStrategies } from "@persode/core";
import { parseLongMemEval, sha256Hex } from "@persode/datasets";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLatency } from "../src/latency.js";

const FIXTURE = join(__dirname, "../../datasets/test/fixtures/longmemeval/synthetic.json");

describe("latency", () => {
  it("times every strategy on every haystack of the LongMemEval fixture: one row each, with the counts of what was timed", async () => {
    const bytes = readFileSync(FIXTURE);
    const data = parseLongMemEval(bytes, sha256Hex(bytes), FIXTURE);
    const haystacks = data.questions.filter(
      (q) => !q.abstention && q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true)),
    ).length;
    const table = await runLatency(new HashingEmbedder(), "hashing", { datasets: ["longmemeval"] });
    const rows = table
      .trim()
      .split("\n")
      .slice(2)
      .map((l) =>
        l
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    expect(rows.map((r) => r[1])).toEqual(extendedStrategies().map((s) => s.key));
    for (const r of rows) {
      expect(r[0]).toBe("LongMemEval (fixture)");
      expect([Number(r[2]), Number(r[3])]).toEqual([haystacks, haystacks]);
      expect(Number(r[4])).toBeLessThanOrEqual(Number(r[5]));
      expect(Number(r[7])).toBeLessThanOrEqual(Number(r[8]));
    }
  });
});
