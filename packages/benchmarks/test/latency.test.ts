/** Latency beside quality: what is timed and counted (the times themselves are machine-dependent and never asserted). */
import { HashingEmbedder, extendedStrategies } from "@persode/core";
import { describe, expect, it } from "vitest";
import { formatLatency, longmemevalGroups, timeStrategies } from "../src/latency.js";

describe("latency", () => {
  it("times every strategy on every haystack of the LongMemEval fixture, one row each, with the counts of what was timed", async () => {
    const embedder = new HashingEmbedder();
    const groups = await longmemevalGroups(embedder);
    const rows = timeStrategies("LongMemEval (fixture)", groups, embedder);
    expect(rows.map((r) => r.strategy)).toEqual(extendedStrategies().map((s) => s.key));
    for (const r of rows) {
      expect(r.stores).toBe(groups.length);
      expect(r.queries).toBe(groups.length);
      expect(r.build.p50).toBeLessThanOrEqual(r.build.p95);
      expect(r.query.p50).toBeLessThanOrEqual(r.query.p95);
    }
    const table = formatLatency(rows, "hashing");
    expect(table.trim().split("\n")).toHaveLength(2 + rows.length);
  });
});
