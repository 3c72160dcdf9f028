import type { LocomoDataset } from "@persode/datasets";
import { describe, expect, it } from "vitest";
import { formatPerf, timeBm25, type PerfResult } from "../src/perf.js";

const data: LocomoDataset = {
  sha256: "",
  path: "<in-memory>",
  conversations: [
    {
      sampleId: "c1",
      speakerA: "Ann",
      speakerB: "Bo",
      sessions: [
        {
          index: 1,
          dateTime: "",
          timestampMs: 0,
          turns: [
            { speaker: "Ann", text: "I adopted a cat", diaId: "D1:1" },
            { speaker: "Bo", text: "Nice!", diaId: "D1:2" },
            { speaker: "Ann", text: "It sleeps a lot", diaId: "D1:3" },
          ],
        },
      ],
      qa: [
        { question: "What did Ann adopt?", category: 4, evidence: ["D1:1"] },
        { question: "Unanswerable?", category: 5, evidence: ["D1:2"] },
        { question: "How does the cat sleep?", category: 1, evidence: ["D1:3"] },
      ],
    },
  ],
};

describe("bench:perf — BM25 over LoCoMo", () => {
  it("indexes every turn and ranks every included question (the adversarial one is excluded, as in Exp. 5)", () => {
    const t = timeBm25(data);
    expect(t.memories).toBe(3);
    expect(t.questions).toBe(2);
    for (const s of [t.indexSeconds, t.rankSeconds, t.cpuSeconds]) expect(s).toBeGreaterThanOrEqual(0);
  });

  /** Phase seconds of a run: embed x, rank 2x, metrics 0.3, the rest 0.1 each. */
  const phasesOf = (x: number) => ({
    load: 0,
    embed: x,
    rank: 2 * x,
    metrics: 0.3,
    bootstrap: 0.1,
    tests: 0.1,
    write: 0.1,
    render: 0,
    other: 0.1,
  });

  it("prints the BM25 table with wall and CPU seconds and their medians", () => {
    const r: PerfResult = {
      embedder: "hashing",
      repeat: 2,
      loadSeconds: { locomo: 0.1, epirec: 0.02 },
      inProcess: {
        exp5: [
          {
            seconds: 2,
            counters: { questions: 1535, rankings: 1535 * 12, ranked_memories: 1e6 },
            phases: phasesOf(0.5),
            bytesWritten: 100e6,
            filesWritten: 20,
            bytesHashed: 20e6,
          },
          {
            seconds: 3,
            counters: { questions: 1535, rankings: 1535 * 12, ranked_memories: 1e6 },
            phases: phasesOf(0.7),
            bytesWritten: 100e6,
            filesWritten: 20,
            bytesHashed: 20e6,
          },
        ],
      },
      wholeProcess: {
        exp5: [
          { wall: 4, cpu: 6, helperCpu: 1.5 },
          { wall: 5, cpu: 7, helperCpu: 2.5 },
        ],
        exp6: [
          { wall: 1, cpu: undefined, helperCpu: undefined },
          { wall: 2, cpu: 1.5, helperCpu: undefined },
        ],
      },
      bm25: [
        { questions: 1535, memories: 5882, indexSeconds: 0.05, rankSeconds: 0.1, cpuSeconds: 0.16 },
        { questions: 1535, memories: 5882, indexSeconds: 0.07, rankSeconds: 0.12, cpuSeconds: 0.2 },
      ],
      speeds: { disk: 1e9, perFile: 0.001, sha256: 0.5e9 },
    };
    const text = formatPerf(r);
    expect(text).toContain("BM25 over all LoCoMo questions");
    expect(text).toContain("1535 questions, 5882 memories in 2 runs");
    expect(text).toMatch(/median\s+0\.060\s+0\.110\s+0\.170\s+0\.180/);
    // the phase table: medians per phase, load from the one-off load, write's bound = 20 files × 1 ms + 100 MB / 1 GB/s + 20 MB hashed / 0.5 GB/s
    expect(text).toMatch(/exp5\s+hashing\s+0\.100\s+0\.600\s+1\.200/);
    expect(text).toMatch(/≥ bound(\s+–){6}\s+0\.160\s+–\s+–/);
    expect(text).toMatch(/× bound(\s+–){6}\s+0\.6×\s+–\s+–/);
    expect(text).toContain(
      "files written × 1.000 ms (a small file's atomic write, 64 at a time) + bytes written / 1.00 GB/s (writing into the page cache) + rankings bytes hashed for the manifest / 0.50 GB/s (sha256)",
    );
    // whole processes: each run's wall, the median wall, CPU and helper-thread CPU ("–" where any run lacks it)
    expect(text).toMatch(/exp5\s+4\.00\s+5\.00\s+4\.50\s+6\.50\s+2\.00/);
    expect(text).toMatch(/exp6\s+1\.00\s+2\.00\s+1\.50\s+–\s+–/);
  });
});
