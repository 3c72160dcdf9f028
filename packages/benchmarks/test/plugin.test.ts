// A strategy added by a plugin module (examples/recency-boosted.mjs, the README's example) must be
// ranked in every benchmark, written to every results file, and drawn by the report.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENDED_STRATEGIES } from "@persode/core";
import { ALL_SLUGS, STRATEGY_KEYS, listFiles, pinnedDataEnv, spawnCli, type CliRun } from "./bench-helpers.js";

const PLUGIN = fileURLToPath(new URL("../../../examples/recency-boosted.mjs", import.meta.url));
const MUTATING = fileURLToPath(new URL("./fixtures/mutating-plugin.mjs", import.meta.url));
const KEY = "recency-boosted similarity";

describe("a strategy registered by --plugin appears everywhere", () => {
  let out: string;
  let mutated: string;
  let cache: string;
  let runs: Record<string, CliRun>;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "persode-plugin-"));
    cache = mkdtempSync(join(tmpdir(), "persode-plugin-cache-"));
    const env = await pinnedDataEnv(cache);
    runs = {};
    for (const target of ["exp3", "exp5", "exp6"])
      runs[target] = spawnCli([target, "--plugin", PLUGIN, "--out", out, ...(target === "exp3" ? [] : ["--samples", "200"])], env, out);
    mutated = mkdtempSync(join(tmpdir(), "persode-plugin-mutating-"));
    runs.mutating = spawnCli(["exp6", "--plugin", MUTATING, "--out", mutated, "--samples", "200"], env, mutated);
  }, 240_000);
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(mutated, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it("every run succeeds and lists the new strategy in its summary", () => {
    for (const [target, r] of Object.entries(runs)) {
      expect(r.stderr, target).toBe("");
      expect(r.code, target).toBe(0);
      expect(r.stdout, target).toContain(KEY);
    }
  });

  it("Exp. 3 evaluates it in both conditions, after the five built-ins", () => {
    const exp3 = JSON.parse(readFileSync(join(out, "exp3_retrieval.json"), "utf8"));
    for (const condition of ["vague", "plain"]) {
      const keys = Object.keys(exp3.conditions[condition]);
      expect(keys).toHaveLength(6);
      expect(keys[5]).toBe(KEY);
      expect(exp3.conditions[condition][KEY].per_query).toHaveLength(10);
    }
  });

  it("Exp. 5 and 6 give it metrics, CIs and a paired difference from similarity-only, and write its rankings", () => {
    const exp5 = JSON.parse(readFileSync(join(out, "exp5_locomo.json"), "utf8")).runs.hashing.strategies[KEY];
    expect(exp5.query_count).toBe(1535);
    expect(exp5.ci95["evidence_recall@5"]).toHaveLength(2);
    expect(exp5.paired_vs_similarity["evidence_recall@5"].ci95).toHaveLength(2);
    // the audited-gold file scores whatever strategies Exp. 5 ranked, with no code of its own for them
    const audited = JSON.parse(readFileSync(join(out, "exp5_locomo_audited.json"), "utf8")).runs.hashing.strategies;
    // the paper's five, the plugin, then the extended set
    expect(Object.keys(audited).slice(0, 6)).toEqual([...STRATEGY_KEYS, KEY]);
    expect(Object.keys(audited).slice(6)).toEqual(EXTENDED_STRATEGIES.map((s) => s.key));
    expect(audited[KEY].original["evidence_recall@5"]).toBe(exp5["evidence_recall@5"]);
    expect(audited[KEY].audited.ci95["evidence_recall@5"]).toHaveLength(2);
    expect(audited[KEY].audited_minus_original["evidence_recall@5"].ci95).toHaveLength(2);
    const exp6 = JSON.parse(readFileSync(join(out, "exp6_epirec.json"), "utf8")).runs.hashing.strategies[KEY];
    expect(Object.keys(exp6)).toEqual(
      expect.arrayContaining(["factual", "reflective_explicit", "reflective_implicit", "overall", "ci95", "paired_vs_similarity"]),
    );
    const files = listFiles(out);
    expect(files).toContain(join("exp5_locomo_rankings", "hashing_recency-boosted.jsonl"));
    // the rankings folder's manifest lists the plugin's file like a built-in strategy's
    const manifest = JSON.parse(readFileSync(join(out, "exp5_locomo_rankings", "rankings.json"), "utf8")).runs.hashing;
    expect(manifest.depth).toBe(100);
    expect(manifest.files.find((f: { slug: string }) => f.slug === "recency-boosted")).toMatchObject({
      file: "hashing_recency-boosted.jsonl",
      strategy: KEY,
      lines: 1535,
      turns_per_line: { min: 100, max: 100 },
    });
    expect(files).toContain(join("exp6_epirec_rankings", "hashing_recency-boosted.jsonl"));
    expect(files).toContain(join("exp6_epirec_rankings", "hashing_recency-boosted.official.json"));
    const lines = readFileSync(join(out, "exp6_epirec_rankings", "hashing_recency-boosted.jsonl"), "utf8")
      .trimEnd()
      .split("\n");
    expect(lines).toHaveLength(504);
  });

  it("the five built-in strategies' numbers are unchanged by the extra strategy", () => {
    const exp6 = JSON.parse(readFileSync(join(out, "exp6_epirec.json"), "utf8")).runs.hashing.strategies;
    expect(exp6["similarity-only"].overall.r3).toBe(0.552);
    expect(exp6["fused (Persode)"].overall.r3).toBe(0.518);
    expect(exp6["gated (Persode)"].overall.r3).toBe(0.55);
  });

  it("a plugin that writes over everything its rank() receives leaves every shipped strategy's rankings, reports and numbers byte-identical", () => {
    const r = runs.mutating!;
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    for (const slug of ALL_SLUGS) {
      for (const ext of [".jsonl", ".official.json"]) {
        const file = join("exp6_epirec_rankings", `hashing_${slug}${ext}`);
        expect(readFileSync(join(mutated, file), "latin1") === readFileSync(join(out, file), "latin1"), file).toBe(true);
      }
    }
    // Every shipped strategy's numbers and CIs are the same too. (The plugin's own copy of a store's columns
    // is vandalised for its later queries, so its own numbers, and the Holm adjustments that include them, differ.)
    const shipped = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(shipped);
      if (value === null || typeof value !== "object") return value;
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => k !== KEY && k !== "meta" && k !== "p_holm" && k !== "significant")
          .map(([k, v]) => [k, shipped(v)]),
      );
    };
    for (const file of ["exp6_epirec.json", "exp6_epirec_extended.json"]) {
      const read = (dir: string) => JSON.stringify(shipped(JSON.parse(readFileSync(join(dir, file), "utf8"))));
      expect(read(mutated), file).toBe(read(out));
      expect(read(out), file).toContain(file.includes("extended") ? '"mmr (λ = 0.5)"' : '"gated (Persode)"');
    }
  });
});
