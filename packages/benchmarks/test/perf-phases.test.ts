// The phase table's lower bound for "write" (bytes at the disk's speed + manifest-hashed bytes at sha256's speed),
// the bytes a run hashed as its rankings manifests record them, and the Markdown table the --goals block carries.
// Nothing here times anything: the speeds and phases are given.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { folderFiles, hashedBytes, phasesMarkdown, writeBound, type PhaseRun } from "../src/perf-phases.js";
import { formatGoals, type GoalsResult } from "../src/perf-goals.js";

const run = (write: number, filesWritten: number, bytesWritten: number, bytesHashed: number): PhaseRun => ({
  phases: { load: 0, embed: 0.05, rank: 0.5, metrics: 0.1, bootstrap: 0.2, tests: 0.05, write, render: 0, other: 0.2 },
  filesWritten,
  bytesWritten,
  bytesHashed,
});

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the write phase's lower bound", () => {
  it("is each file at a small file's cost, the bytes written at the disk's speed and the hashed bytes at sha256's", () => {
    const speeds = { disk: 1e9, perFile: 1e-4, sha256: 0.5e9 };
    expect(writeBound(10, 2e6, 1e6, speeds)).toBeCloseTo(0.005, 12);
    expect(writeBound(10, 2e6, 0, speeds)).toBeCloseTo(0.003, 12);
    expect(writeBound(0, 2e6, 0, speeds)).toBeCloseTo(0.002, 12);
  });

  it("counts the bytes of every file the rankings manifests below a folder list, of every run", () => {
    dir = mkdtempSync(join(tmpdir(), "persode-phases-test-"));
    expect(hashedBytes(dir)).toBe(0);
    mkdirSync(join(dir, "exp5_locomo_rankings"));
    writeFileSync(join(dir, "exp5_locomo.json"), JSON.stringify({ runs: { hashing: { files: [{ bytes: 999 }] } } }));
    writeFileSync(
      join(dir, "exp5_locomo_rankings", "rankings.json"),
      JSON.stringify({ about: "", runs: { hashing: { files: [{ bytes: 10 }, { bytes: 32 }] }, minilm: { files: [{ bytes: 100 }] } } }),
    );
    expect(hashedBytes(dir)).toBe(142);
  });

  it("names a manifest it cannot read", () => {
    dir = mkdtempSync(join(tmpdir(), "persode-phases-test-"));
    writeFileSync(join(dir, "rankings.json"), "{ not json");
    expect(() => hashedBytes(dir!)).toThrow(/rankings\.json: not a rankings manifest/);
  });
});

describe("the phase table in Markdown", () => {
  const speeds = { disk: 2e9, perFile: 1e-4, sha256: 1e9 };
  const lines = phasesMarkdown(
    "hashing",
    { exp5: [run(0.03, 17, 20e6, 18e6), run(0.05, 17, 20e6, 18e6), run(0.04, 17, 20e6, 18e6)], exp6: [] },
    { exp5: 0.04, exp6: 0.01 },
    speeds,
  );

  it("gives each phase's median, the write bound and the phase over its bound", () => {
    expect(lines[0]).toContain("medians of 3 runs");
    expect(lines[0]).toContain(
      "files written × 0.100 ms (a small file's atomic write, 64 at a time) + bytes written / 2.00 GB/s (writing into the page cache) + rankings bytes hashed for the manifest / 1.00 GB/s (sha256), each speed measured here",
    );
    expect(lines).toContain("| exp | embedder | load | embed | rank | metrics | bootstrap | tests | write | render | other | MB written |");
    expect(lines).toContain("| exp5 | hashing | 0.040 | 0.050 | 0.500 | 0.100 | 0.200 | 0.050 | 0.040 | – | 0.200 | 20.0 |");
    // 17 × 0.1 ms + 20 MB / 2 GB/s + 18 MB / 1 GB/s = 0.0297 s; 0.040 / 0.0297 = 1.35×
    expect(lines).toContain("|  | ≥ bound | – | – | – | – | – | – | 0.030 | – | – |  |");
    expect(lines).toContain("|  | × bound | – | – | – | – | – | – | 1.3× | – | – |  |");
    // an experiment without runs has no rows
    expect(lines.some((l) => l.startsWith("| exp6"))).toBe(false);
  });

  it("closes the --goals block when given", () => {
    const result: GoalsResult = {
      machine: "2 × Test CPU",
      node: "v24.0.0",
      date: "2026-12-06",
      commit: "abc1234",
      loadBefore: [0, 0, 0],
      rounds: 1,
      timings: {
        reference: undefined,
        exp5: undefined,
        exp6: undefined,
        exp7: undefined,
        help: undefined,
        allHashing: undefined,
        allModels: undefined,
        allHashingRecomputed: undefined,
        allModelsRecomputed: undefined,
      },
    };
    const block = formatGoals(result, lines);
    expect(block.endsWith(lines.join("\n"))).toBe(true);
    expect(formatGoals(result)).not.toContain("× bound");
  });
});

describe("the file counts the bound is made of", () => {
  it("counts every file below a folder", () => {
    dir = mkdtempSync(join(tmpdir(), "persode-phases-test-"));
    mkdirSync(join(dir, "a", "b"), { recursive: true });
    writeFileSync(join(dir, "x.json"), "{}");
    writeFileSync(join(dir, "a", "b", "y.jsonl"), "");
    expect(folderFiles(dir)).toBe(2);
  });
});
