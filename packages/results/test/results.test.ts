import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  RESULT_FILES,
  ResultsFormatError,
  envelopeProblems,
  gateRecord,
  orderedStrategies,
  perRunFile,
  perRunKeyOf,
  readResults,
  strategyRecords,
  strategySlugOf,
  writeResultFile,
  type BenchmarkFile,
} from "../src/index.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "persode-results-"));
  dirs.push(d);
  return d;
}

const META = { package: "@persode/benchmarks", version: "0.1.0", seed: 1, embedders: ["hashing"], generated_by: "pnpm bench exp6", data_sha256: "ab" };
const records = strategyRecords(
  [
    { key: "similarity-only", slug: "similarity-only" },
    { key: "fused (Persode)", slug: "fused_persode" },
    { key: "my plugin", slug: "plugin_x" },
  ],
  (s) => s.key !== "my plugin",
);

function exp6Doc(): BenchmarkFile {
  const strategies = { "fused (Persode)": { overall: { r3: 0.5 } }, "similarity-only": { overall: { r3: 0.6 } }, "my plugin": { overall: { r3: 0.7 } } };
  return {
    benchmark: { data_sha256: "ab" },
    protocol: {},
    bootstrap: { samples: 10, seed: 1, unit: "probe", method: "percentile" },
    runs: { hashing: { embedder: { name: "hashing", id: "hashing", dim: 512 }, strategies } },
    meta: { ...META, strategies: records },
  };
}

describe("file names", () => {
  it("names per-run files by run key and reads the key back", () => {
    expect(perRunFile("exp3", "hashing")).toBe(RESULT_FILES.exp3);
    expect(perRunFile("exp3", "all-MiniLM-L6-v2")).toBe("exp3_retrieval_all-MiniLM-L6-v2.json");
    expect(perRunFile("exp4", "tiny-bert", ".md")).toBe("exp4_journals_tiny-bert.md");
    expect(perRunKeyOf("exp3", "exp3_retrieval_all-MiniLM-L6-v2.json")).toBe("all-MiniLM-L6-v2");
    expect(perRunKeyOf("exp3", RESULT_FILES.exp3)).toBeUndefined();
    expect(perRunKeyOf("exp3", "exp4_journals_x.json")).toBeUndefined();
  });

  it("words the gate rule from its numbers", () => {
    expect(gateRecord("analyzer", 0.6, 0.5)).toEqual({ rule: "fusion iff analyzer E >= 0.6 on the query", threshold: 0.6, fused_alpha: 0.5 });
  });
});

describe("envelope", () => {
  it("accepts a complete document", () => {
    expect(envelopeProblems("exp6", exp6Doc())).toEqual([]);
  });

  it("names every missing block, meta field and unrecorded strategy", () => {
    const doc = exp6Doc() as unknown as Record<string, any>;
    delete doc.bootstrap;
    doc.meta.seed = "1";
    doc.meta.strategies = doc.meta.strategies.filter((r: { key: string }) => r.key !== "my plugin");
    expect(envelopeProblems("exp6", doc)).toEqual(["bootstrap: missing", "meta.seed: must be an integer", 'runs.hashing.strategies: strategy "my plugin" has no record in meta.strategies']);
  });

  it("refuses duplicate keys, slugs or orders and malformed records", () => {
    const doc = exp6Doc() as unknown as Record<string, any>;
    doc.meta.strategies = [
      { key: "similarity-only", slug: "s", order: 0, built_in: true },
      { key: "similarity-only", slug: "s", order: 0, built_in: "yes" },
      { key: "fused (Persode)", slug: "Fused!", order: -1, built_in: true },
      { key: "my plugin", slug: "p", order: 2, built_in: false },
    ];
    expect(envelopeProblems("exp6", doc)).toEqual([
      'meta.strategies[1].key: "similarity-only" appears twice',
      'meta.strategies[1].slug: "s" appears twice',
      "meta.strategies[1].order: 0 appears twice",
      "meta.strategies[1].built_in: must be true or false",
      "meta.strategies[2].slug: must match [a-z0-9_-]+",
      "meta.strategies[2].order: must be a non-negative integer",
    ]);
  });

  it("keeps strategy records out of files without strategy tables", () => {
    expect(envelopeProblems("exp7-per-item", { probe_ids: [], runs: {}, meta: { ...META, strategies: [] } })).toEqual(["meta.strategies: this kind of file has no strategy tables"]);
    expect(envelopeProblems("exp1", [])).toEqual(["(top level): must be a JSON object"]);
  });
});

describe("writer and reader", () => {
  it("writes what the reader reads back, ordered and slugged by the records", async () => {
    const dir = tempDir();
    await writeResultFile(join(dir, RESULT_FILES.exp6), "exp6", exp6Doc());
    const set = readResults(dir);
    const doc = set.docs.exp6!;
    expect(doc.kind).toBe("exp6");
    expect(orderedStrategies(doc, Object.keys(doc.data.runs.hashing!.strategies as object))).toEqual(["similarity-only", "fused (Persode)", "my plugin"]);
    expect(strategySlugOf(doc, "my plugin")).toBe("plugin_x");
    expect(() => strategySlugOf(doc, "bm25")).toThrow(/exp6_epirec\.json: strategy "bm25" has no record in meta\.strategies — rerun `pnpm bench exp6`/);
  });

  it("refuses to write a malformed document and leaves the good file in place", async () => {
    const dir = tempDir();
    const path = join(dir, RESULT_FILES.exp6);
    await writeResultFile(path, "exp6", exp6Doc());
    const good = readFileSync(path, "utf8");
    const bad = exp6Doc();
    bad.meta.strategies = [];
    await expect(writeResultFile(path, "exp6", bad)).rejects.toThrow(ResultsFormatError);
    await expect(writeResultFile(path, "exp6", bad)).rejects.toThrow(/refusing to write .*exp6_epirec\.json.*"similarity-only" has no record.*left unchanged/);
    expect(readFileSync(path, "utf8")).toBe(good);
  });

  it("refuses to read a file without its envelope, naming the file and the command", () => {
    const dir = tempDir();
    writeFileSync(join(dir, RESULT_FILES.exp2), JSON.stringify({ meta: META }));
    expect(() => readResults(dir)).toThrow(/exp2_memory_scoring\.json is not a complete exp2 results file: rankings: missing; weightings: missing; focus: missing; findings: missing — rerun `pnpm bench exp2`/);
  });
});
