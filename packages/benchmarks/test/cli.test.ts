// `pnpm bench` as users run it: the built CLI (dist/cli.js) spawned as a child process. Usage
// errors exit 2 with a message, results files carry seed, version, embedder and the data sha256,
// and `epirec-eval` reproduces the official reports and refuses malformed rankings (exit 1, line
// number, no output file). Datasets come offline from PERSODE_DATA_MIRROR or the user cache.
import { createHash } from "node:crypto";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EPIREC, LOCOMO, LOCOMO_AUDIT, findDataset, loadLocomo, loadLocomoAudit, type PinnedDataset } from "@persode/datasets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EPIREC_FIXTURES,
  ALL_SLUGS,
  SLUGS,
  STRATEGY_KEYS,
  compareToReference,
  firstLineDifference,
  listFiles,
  pinnedDataEnv,
  referenceJson,
  spawnCli,
  type CliRun,
} from "./bench-helpers.js";
import { pyRound } from "@persode/util";
import { EXTENDED_STRATEGIES, extendedStrategies } from "@persode/core";

/** The strategy records a paper-format file must carry: the five built-ins, in table order, with their own slugs. */
const PAPER_RECORDS = [
  { key: "recency-only", slug: "recency-only", order: 0, built_in: true },
  { key: "similarity-only", slug: "similarity-only", order: 1, built_in: true },
  { key: "salience-only", slug: "salience-only", order: 2, built_in: true },
  { key: "fused (Persode)", slug: "fused_persode", order: 3, built_in: true },
  { key: "gated (Persode)", slug: "gated_persode", order: 4, built_in: true },
];
/** What a results file records about a pinned input (meta.datasets): the registry's title and the pin itself. */
function pinnedProvenance(id: string, pin: PinnedDataset): Record<string, string> {
  return { id, title: findDataset(id)!.title, file: pin.fileName, sha256: pin.sha256, source: pin.url };
}

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as { version: string }
).version;

let root: string;
let env: Record<string, string>;
let n = 0;

/** A fresh folder under this suite's temp root. */
function freshDir(label: string): string {
  return join(root, `${label}-${++n}`);
}

function bench(argv: string[]): CliRun {
  return spawnCli(argv, env, root);
}

function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "persode-cli-test-"));
  env = await pinnedDataEnv(join(root, "cache"));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("usage errors exit 2 with a message; --help exits 0", () => {
  it("--help prints the usage with every target and option", () => {
    const r = bench(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: pnpm bench <target> [options]");
    for (const word of [
      "all",
      "exp1",
      "exp5",
      "locomo",
      "exp6",
      "epirec",
      "epirec-eval",
      "corpus",
      "--embedder",
      "--out",
      "--seed",
      "--samples",
      "--rankings-depth",
    ]) {
      expect(r.stdout).toContain(word);
    }
  });

  it("an unknown target lists the known targets", () => {
    const r = bench(["exp9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown target "exp9"');
    for (const t of ["all", "exp1", "exp2", "exp3", "exp4", "exp5", "exp6", "epirec-eval", "corpus"]) expect(r.stderr).toContain(t);
  });

  it("no target, or two targets", () => {
    expect(bench([]).code).toBe(2);
    const two = bench(["exp1", "exp2"]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("one target expected");
  });

  it("an unknown option", () => {
    const r = bench(["exp1", "--frobnicate", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--frobnicate");
    expect(r.stderr).toContain("Usage:");
  });

  for (const bad of ["abc", "1.5", "-3", "", "99999999999999999999"]) {
    it(`--seed=${JSON.stringify(bad)}`, () => {
      const out = freshDir("bad-seed");
      const r = bench(["exp5", `--seed=${bad}`, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--seed");
      expect(listFiles(out)).toEqual([]);
    });
  }

  for (const [option, value] of [
    ["--seed", "-3"],
    ["--samples", "-10"],
    ["--seed", "-0.5"],
  ]) {
    it(`a negative value after a space: ${option} ${value}`, () => {
      const out = freshDir("negative");
      const r = bench(["exp6", option!, value!, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${option} must be a non-negative integer, got "${value}"`);
      expect(listFiles(out)).toEqual([]);
    });
  }

  for (const [target, option, value, bound] of [
    ["exp6", "--samples", "10000000", "100000"],
    ["corpus", "--samples", "100001", "100000"],
    ["exp5", "--seed", "99999999999999999999", String(Number.MAX_SAFE_INTEGER)],
  ]) {
    it(`${target} ${option} ${value}: refused up front, naming the bound`, () => {
      const out = freshDir("too-large");
      const extra = target === "corpus" ? ["--episodes", "e.csv", "--probes", "p.csv"] : [];
      const r = bench([target!, ...extra, option!, value!, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${option} must be at most ${bound}, got ${value}`);
      expect(listFiles(out)).toEqual([]);
    });
  }

  for (const [name, value] of [
    ["PERSODE_OFFLINE", "maybe"],
    ["PERSODE_PROGRESS", "sometimes"],
  ]) {
    it(`${name}=${value} is refused up front by every target, as \`pnpm model\` refuses it`, () => {
      const out = freshDir("bad-env");
      const r = spawnCli(["exp1", "--out", out], { ...env, [name!]: value! }, root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${name}="${value}" is not a boolean; use 1 or 0`);
      expect(listFiles(out)).toEqual([]);
    });
  }

  for (const [target, bad] of [
    ["exp5", "0"],
    ["exp5", "-3"],
    ["exp5", "1.5"],
    ["exp5", "deep"],
    ["exp5", ""],
    ["all", "Full"],
    ["locomo", "1e3"],
  ] as const) {
    it(`${target} --rankings-depth ${JSON.stringify(bad)}: refused up front, saying what is accepted`, () => {
      const out = freshDir("bad-depth");
      const r = bench([target, "--rankings-depth", bad, "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `--rankings-depth must be a positive integer (turns per ranking line) or "full" (every turn), got "${bad}"`,
      );
      expect(listFiles(out)).toEqual([]);
    });
  }

  it("--samples 0", () => {
    const r = bench(["exp5", "--samples", "0", "--out", freshDir("bad-samples")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--samples");
  });

  it("an unknown embedder names the known ones and writes nothing", () => {
    const out = freshDir("nosuch");
    const r = bench(["exp6", "--embedder", "nosuch", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown embedder "nosuch"');
    expect(r.stderr).toContain("hashing");
    expect(listFiles(out)).toEqual([]);
  });

  for (const [argv, named] of [
    [["exp5", "--rankings", "r.jsonl"], "--rankings"],
    [["all", "--episodes", "e.csv", "--now", "2025-01-01"], "--episodes, --now"],
    [["epirec-eval", "--rankings", "r.jsonl", "--output", "o.json", "--seed", "5"], "--seed"],
    [["epirec-eval", "--rankings", "r.jsonl", "--output", "o.json", "--out", "x"], "--out"],
    [["corpus", "--episodes", "e.csv", "--probes", "p.csv", "--data", "d.json"], "--data"],
    [["exp1", "--samples", "10"], "--samples"],
    [["exp2", "--seed", "3", "--embedder", "hashing"], "--seed, --embedder"],
    [["exp4", "--seed", "3"], "--seed"],
    [["exp3", "--samples", "10"], "--samples"],
    [["exp6", "--rankings-depth", "10"], "--rankings-depth"],
    [["exp7", "--rankings-depth", "full"], "--rankings-depth"],
    [["locomo-eval", "--rankings", "r.jsonl", "--output", "o.json", "--rankings-depth", "10"], "--rankings-depth"],
  ] as const) {
    it(`an option the target does not read is refused, not ignored: ${argv.join(" ")}`, () => {
      const cwd = freshDir("unused-option");
      mkdirSync(cwd);
      const r = spawnCli([...argv], env, cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${argv[0]} does not use ${named};`);
      expect(listFiles(cwd)).toEqual([]);
    });
  }

  it("--model or --dtype with the hashing embedder is refused, not ignored", () => {
    const out = freshDir("model-hashing");
    for (const argv of [
      ["exp3", "--model", "Xenova/other"],
      ["exp4", "--dtype", "q8"],
    ]) {
      const r = bench([...argv, "--out", out]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain("the embedder is hashing; add --embedder minilm");
    }
    expect(listFiles(out)).toEqual([]);
  });

  it("epirec-eval without --rankings or --output", () => {
    const r = bench(["epirec-eval", "--output", join(root, "never.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--rankings");
  });
});

describe("exp1 --out DIR", () => {
  it("writes exp1_forgetting_curve.json with meta (seed, version) and the reference's values", () => {
    const out = freshDir("exp1");
    const r = bench(["exp1", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(listFiles(out)).toEqual(["exp1_forgetting_curve.json", "timings.json"]);
    const file = json(join(out, "exp1_forgetting_curve.json"));
    const scenarioSha = createHash("sha256")
      .update(readFileSync(fileURLToPath(new URL("../data/scenario.json", import.meta.url))))
      .digest("hex");
    expect(file.meta).toEqual({
      package: "@persode/benchmarks",
      version: PACKAGE_VERSION,
      seed: 20260713,
      embedders: [],
      generated_by: "pnpm bench exp1",
      data_sha256: scenarioSha,
      datasets: [
        {
          id: "scenario",
          title: "the hand-labelled scenario (docs/spec.md §7)",
          file: "scenario.json",
          sha256: scenarioSha,
          source: "packages/benchmarks/data/scenario.json",
        },
      ],
      reproducibility: { class: "exact" },
    });
    expect(Object.keys(file).at(-1)).toBe("meta");
    expect(compareToReference(referenceJson("exp1_forgetting_curve"), file).mismatches).toEqual([]);
    expect(r.stdout).toContain("Exp. 1");
    expect(r.stdout).toContain(`results written to ${out}`);
  });

  it("defaults to ./results in the working directory", () => {
    const cwd = freshDir("cwd");
    mkdirSync(cwd);
    const r = spawnCli(["forgetting"], env, cwd);
    expect(r.code).toBe(0);
    expect(listFiles(cwd)).toEqual(["results/exp1_forgetting_curve.json", "results/timings.json"]);
  });
});

describe("exp5 --out DIR (needs the pinned LoCoMo file)", () => {
  let out: string;
  let run: CliRun;

  beforeAll(() => {
    out = freshDir("exp5");
    run = bench(["exp5", "--out", out]);
  });

  it("exits 0 and writes the results file, the audited-gold file, the extended results file, the protocol ladder, the rankings files and timings.json", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(listFiles(out)).toEqual([
      "exp5_locomo.json",
      "exp5_locomo_audited.json",
      "exp5_locomo_extended.json",
      "exp5_locomo_protocols.json",
      ...ALL_SLUGS.map((s) => `exp5_locomo_rankings/hashing_${s}.jsonl`).sort(),
      "exp5_locomo_rankings/rankings.json",
      "timings.json",
    ]);
  });

  it("records dataset sha256, bootstrap seed and samples, embedder and version", () => {
    const file = json(join(out, "exp5_locomo.json"));
    expect((file.benchmark as { data_sha256: string }).data_sha256).toBe(LOCOMO.sha256);
    expect(file.bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "question", method: "percentile" });
    expect(file.meta).toEqual({
      package: "@persode/benchmarks",
      version: PACKAGE_VERSION,
      seed: 20260713,
      embedders: ["hashing"],
      generated_by: "pnpm bench exp5",
      data_sha256: LOCOMO.sha256,
      datasets: [pinnedProvenance("locomo", LOCOMO)],
      strategies: PAPER_RECORDS,
      reproducibility: { class: "exact" },
    });
    expect(Object.keys(file)).toEqual(["benchmark", "protocol", "bootstrap", "runs", "meta"]);
    expect((file.runs as Record<string, { embedder: unknown }>).hashing!.embedder).toEqual({
      name: "hashing",
      id: "hashing-md5-256",
      dim: 256,
    });
  });

  it("records every strategy of the extended file with its own slug, order and built-in flag", () => {
    const file = json(join(out, "exp5_locomo_extended.json")) as {
      meta: { strategies: Array<{ key: string; slug: string; order: number; built_in: boolean }> };
      runs: Record<string, { strategies: object }>;
    };
    const records = file.meta.strategies;
    expect(records.map((r) => r.key)).toEqual(Object.keys(file.runs.hashing!.strategies));
    expect(records.slice(0, 5)).toEqual(PAPER_RECORDS);
    expect(records.slice(5).map((r) => [r.key, r.slug, r.built_in])).toEqual(EXTENDED_STRATEGIES.map((x) => [x.key, x.slug, false]));
    expect(records.map((r) => r.order)).toEqual(records.map((_, i) => i));
  });

  it("matches the reference's hashing run in the written file", () => {
    const ref = referenceJson("exp5_locomo");
    const file = json(join(out, "exp5_locomo.json"));
    expect(Object.keys(file.runs as object)).toEqual(["hashing"]);
    const r = compareToReference({ ...ref, runs: { hashing: (ref.runs as Record<string, unknown>).hashing } }, file);
    expect(r.mismatches).toEqual([]);
    expect(r.compared).toBeGreaterThan(90);
  });

  it("adds CIs to every strategy and paired differences to all but similarity-only", () => {
    const strategies = (json(join(out, "exp5_locomo.json")).runs as Record<string, { strategies: Record<string, Record<string, unknown>> }>)
      .hashing!.strategies;
    expect(Object.keys(strategies)).toEqual([...STRATEGY_KEYS]);
    const metrics = ["evidence_recall@5", "evidence_recall@10", "hit@5", "hit@10", "mrr"];
    for (const [key, s] of Object.entries(strategies)) {
      const ci = s.ci95 as Record<string, [number, number]>;
      expect(Object.keys(ci)).toEqual(metrics);
      for (const m of metrics) {
        expect(ci[m]![0]).toBeLessThanOrEqual(s[m] as number);
        expect(ci[m]![1]).toBeGreaterThanOrEqual(s[m] as number);
      }
      if (key === "similarity-only") expect(s.paired_vs_similarity).toBeUndefined();
      else expect(Object.keys(s.paired_vs_similarity as object)).toEqual(metrics);
    }
  });

  it("writes one ranking line per included question, each with its ranking's top 100 turns (the default depth)", () => {
    for (const s of ALL_SLUGS) {
      const lines = readFileSync(join(out, "exp5_locomo_rankings", `hashing_${s}.jsonl`), "utf8").split("\n");
      expect(lines.at(-1)).toBe("");
      expect(lines).toHaveLength(1536);
      const first = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(Object.keys(first)).toEqual(["sample_id", "qa_index", "category", "gold", "ranked_dia_ids"]);
      // every conversation holds more than 100 turns, so every line lists exactly 100, each once
      for (const l of lines.slice(0, -1)) {
        const ids = (JSON.parse(l) as { ranked_dia_ids: string[] }).ranked_dia_ids;
        expect(ids).toHaveLength(100);
        expect(new Set(ids).size).toBe(100);
      }
    }
  });

  it("writes the rankings folder's manifest: depth 100, embedder, data, questions, and each file's lines, turns per line, bytes and sha256", () => {
    const m = json(join(out, "exp5_locomo_rankings", "rankings.json")) as {
      about: string;
      runs: Record<string, Record<string, unknown> & { files: Record<string, unknown>[] }>;
    };
    expect(Object.keys(m)).toEqual(["about", "runs"]);
    expect(m.about).toContain("--rankings-depth full");
    expect(Object.keys(m.runs)).toEqual(["hashing"]);
    const { files, ...rest } = m.runs.hashing!;
    expect(rest).toEqual({
      embedder: { name: "hashing", id: "hashing-md5-256", dim: 256 },
      data_sha256: LOCOMO.sha256,
      generated_by: "pnpm bench exp5",
      depth: 100,
      questions: 1535,
      turns_per_conversation: { min: 369, max: 689 },
    });
    expect(files.map((f) => f.slug)).toEqual([...ALL_SLUGS]);
    for (const f of files) {
      const bytes = readFileSync(join(out, "exp5_locomo_rankings", f.file as string));
      expect(f.file).toBe(`hashing_${f.slug as string}.jsonl`);
      expect(f).toMatchObject({ lines: 1535, turns_per_line: { min: 100, max: 100 }, bytes: bytes.length });
      expect(f.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    expect(files.map((f) => f.strategy)).toEqual(extendedStrategies().map((s) => s.key));
  });

  it("audited gold: recomputed here from the rankings files and the audit, the scores agree", async () => {
    const file = json(join(out, "exp5_locomo_audited.json"));
    expect(file.meta).toMatchObject({
      generated_by: "pnpm bench exp5",
      data_sha256: LOCOMO.sha256,
      audit_sha256: LOCOMO_AUDIT.sha256,
      datasets: [pinnedProvenance("locomo", LOCOMO), pinnedProvenance("locomo-audit", LOCOMO_AUDIT)],
    });
    expect((file.benchmark as { audit: { data_sha256: string; license: string } }).audit).toMatchObject({
      data_sha256: LOCOMO_AUDIT.sha256,
      license: "CC BY-NC 4.0",
    });
    const run0 = (file.runs as Record<string, Record<string, unknown>>).hashing!;
    const original = json(join(out, "exp5_locomo.json")).runs as Record<string, { strategies: Record<string, Record<string, unknown>> }>;
    // Independent of the scorer: the audit's corrected evidence applied to each ranking line's question.
    const data = await loadLocomo({ offline: true, fillCache: false, env: { ...process.env, ...env } });
    const audit = await loadLocomoAudit(data, { offline: true, fillCache: false, env: { ...process.env, ...env } });
    const corrected = new Map(
      audit.entries.map((e) => [`${data.conversations[e.conversation]!.sampleId}#${e.qaIndex}`, e.correctEvidence]),
    );
    const strategies = run0.strategies as Record<
      string,
      {
        original: Record<string, unknown>;
        audited_minus_original: Record<string, { original: number; audited: number; diff: number; ci95: [number, number] }> & {
          query_count: number;
        };
      }
    >;
    expect(Object.keys(strategies)).toEqual(extendedStrategies().map((s) => s.key)); // the audit scores every strategy Exp. 5 ranked
    let changed = 0;
    let paired = 0;
    SLUGS.forEach((slug, si) => {
      const s = strategies[STRATEGY_KEYS[si]!]!;
      expect(s.original["evidence_recall@5"]).toBe(original.hashing!.strategies[STRATEGY_KEYS[si]!]!["evidence_recall@5"]);
      expect(s.original.ci95).toEqual(original.hashing!.strategies[STRATEGY_KEYS[si]!]!.ci95);
      const lines = readFileSync(join(out, "exp5_locomo_rankings", `hashing_${slug}.jsonl`), "utf8")
        .trim()
        .split("\n");
      const sums = { original: 0, audited: 0 };
      let n = 0;
      changed = 0;
      for (const line of lines) {
        const l = JSON.parse(line) as { sample_id: string; qa_index: number; gold: string[]; ranked_dia_ids: string[] };
        const conv = data.conversations.find((c) => c.sampleId === l.sample_id)!;
        const known = new Set(conv.sessions.flatMap((x) => x.turns.map((t) => t.diaId)));
        const ev = corrected.get(`${l.sample_id}#${l.qa_index}`);
        const gold = ev === undefined ? l.gold : [...new Set(ev.flatMap((e) => e.match(/D\d+:\d+/g) ?? []).filter((d) => known.has(d)))];
        if (gold.length === 0) continue; // excluded from the audited gold (the a-priori rule)
        if ([...gold].sort().join() !== [...l.gold].sort().join()) changed++;
        const top = new Set(l.ranked_dia_ids.slice(0, 5));
        sums.original += l.gold.filter((g) => top.has(g)).length / l.gold.length;
        sums.audited += gold.filter((g) => top.has(g)).length / gold.length;
        n++;
      }
      const d = s.audited_minus_original["evidence_recall@5"]!;
      expect(s.audited_minus_original.query_count).toBe(n);
      expect(d.original).toBe(pyRound(sums.original / n, 4));
      expect(d.audited).toBe(pyRound(sums.audited / n, 4));
      expect(d.diff).toBe(pyRound((sums.audited - sums.original) / n, 4));
      expect(d.ci95[0]).toBeLessThanOrEqual(d.ci95[1]);
      paired = n;
    });
    expect(run0.questions).toEqual({ original: 1535, audited: 1535, paired });
    expect(run0.evidence_changes).toMatchObject({
      audit_entries: 156,
      audit_entries_with_changed_evidence: 96,
      paired_with_changed_evidence: changed,
      became_empty: 1,
    });
    expect(changed).toBeGreaterThan(50);
    expect(run0.top_k_guard).toEqual({ top_ks: [5, 10], store_sizes: { min: 369, max: 689 }, flagged: false, conversations: [] });
  });

  it("prints the summary table and the timings", () => {
    expect(run.stdout).toContain("Exp. 5");
    for (const k of STRATEGY_KEYS) expect(run.stdout).toContain(`${k} [hashing, audited gold]`);
    for (const k of STRATEGY_KEYS) expect(run.stdout).toContain(`${k} [hashing]`);
    const t = json(join(out, "timings.json"));
    expect(t["exp5/hashing"]).toMatchObject({ questions: 1535, rankings: 1535 * extendedStrategies().length });
    for (const s of EXTENDED_STRATEGIES) expect(run.stdout).toContain(`${s.key} [hashing, extended]`);
  });

  it("writes the extended set beside the paper format: same values for the paper's strategies, paired tests for all", () => {
    const paper = (json(join(out, "exp5_locomo.json")).runs as Record<string, { strategies: Record<string, Record<string, unknown>> }>)
      .hashing!.strategies;
    const ext = json(join(out, "exp5_locomo_extended.json"));
    expect(Object.keys(ext)).toEqual(["benchmark", "protocol", "bootstrap", "significance", "runs", "meta"]);
    expect(ext.significance).toMatchObject({ baseline: "similarity-only", samples: 10000, seed: 20260713, alpha: 0.05 });
    const strategies = (ext.runs as Record<string, { embedder: unknown; strategies: Record<string, Record<string, unknown>> }>).hashing!;
    expect(strategies.embedder).toEqual({ name: "hashing", id: "hashing-md5-256", dim: 256 });
    expect(Object.keys(strategies.strategies)).toEqual(extendedStrategies().map((s) => s.key));
    const metrics = ["evidence_recall@5", "evidence_recall@10", "hit@5", "mrr"];
    for (const [key, s] of Object.entries(strategies.strategies)) {
      if (key in paper) {
        for (const m of metrics) {
          expect(s[m], `${key} ${m}`).toBe(paper[key]![m]);
          expect((s.ci95 as Record<string, unknown>)[m], `${key} ${m} CI`).toEqual((paper[key]!.ci95 as Record<string, unknown>)[m]);
        }
      }
      if (key === "similarity-only") {
        expect(s.vs_similarity).toBeUndefined();
        continue;
      }
      const vs = s.vs_similarity as Record<
        string,
        {
          diff: number;
          wins: number;
          ties: number;
          losses: number;
          p_randomization: number;
          p_holm: number;
          p_t: number;
          significant: boolean;
        }
      >;
      expect(Object.keys(vs)).toEqual(metrics);
      for (const m of metrics) {
        const t = vs[m]!;
        expect(t.wins + t.ties + t.losses).toBe(1535);
        expect(t.p_randomization).toBeGreaterThanOrEqual(1 / 10001 - 1e-6);
        expect(t.p_holm).toBeGreaterThanOrEqual(t.p_randomization);
        expect(t.significant).toBe(t.p_holm < 0.05);
      }
    }
    // Measured: textbook BM25 beats similarity-only on LoCoMo evidence recall@5 (hashing), significantly.
    const bm25 = strategies.strategies.bm25! as Record<string, unknown>;
    expect(bm25["evidence_recall@5"] as number).toBeGreaterThan(paper["similarity-only"]!["evidence_recall@5"] as number);
    expect((bm25.vs_similarity as Record<string, { significant: boolean }>)["evidence_recall@5"]!.significant).toBe(true);
  });

  describe("--rankings-depth full", () => {
    let full: string;
    let fullRun: CliRun;

    beforeAll(() => {
      full = freshDir("exp5-full");
      fullRun = bench(["exp5", "--rankings-depth", "full", "--out", full]);
    });

    it("writes every turn of the conversation per line; the default files are its first 100; no results file changes", () => {
      expect(fullRun.stderr).toBe("");
      expect(fullRun.code).toBe(0);
      expect(listFiles(full)).toEqual(listFiles(out));
      for (const f of ["exp5_locomo.json", "exp5_locomo_audited.json", "exp5_locomo_extended.json", "exp5_locomo_protocols.json"])
        expect(readFileSync(join(full, f)).equals(readFileSync(join(out, f))), f).toBe(true);
      for (const s of ALL_SLUGS) {
        const whole = readFileSync(join(full, "exp5_locomo_rankings", `hashing_${s}.jsonl`), "utf8")
          .trimEnd()
          .split("\n");
        const top = readFileSync(join(out, "exp5_locomo_rankings", `hashing_${s}.jsonl`), "utf8")
          .trimEnd()
          .split("\n");
        expect(whole).toHaveLength(top.length);
        whole.forEach((line, i) => {
          const a = JSON.parse(line) as { sample_id: string; ranked_dia_ids: string[] };
          const b = JSON.parse(top[i]!) as { sample_id: string; ranked_dia_ids: string[] };
          expect({ ...a, ranked_dia_ids: [] }).toEqual({ ...b, ranked_dia_ids: [] });
          expect(a.ranked_dia_ids.length).toBeGreaterThanOrEqual(369);
          expect(new Set(a.ranked_dia_ids).size).toBe(a.ranked_dia_ids.length);
          expect(a.ranked_dia_ids.slice(0, 100)).toEqual(b.ranked_dia_ids);
        });
      }
      const m = json(join(full, "exp5_locomo_rankings", "rankings.json")) as {
        runs: Record<string, { depth: unknown; files: { turns_per_line: unknown; sha256: string; file: string }[] }>;
      };
      expect(m.runs.hashing!.depth).toBe("full");
      for (const f of m.runs.hashing!.files) {
        expect(f.turns_per_line).toEqual({ min: 369, max: 689 });
        expect(f.sha256).toBe(
          createHash("sha256")
            .update(readFileSync(join(full, "exp5_locomo_rankings", f.file)))
            .digest("hex"),
        );
      }
    });
  });
});

describe("exp6 --out DIR (needs the pinned EpiRec file)", () => {
  let out: string;
  let run: CliRun;

  beforeAll(() => {
    out = freshDir("exp6");
    run = bench(["epirec", "--out", out]);
  });

  it("writes the results file, 5 rankings JSONL, 5 official reports and timings.json", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(listFiles(out)).toEqual([
      "exp6_epirec.json",
      "exp6_epirec_extended.json",
      ...ALL_SLUGS.flatMap((s) => [`exp6_epirec_rankings/hashing_${s}.jsonl`, `exp6_epirec_rankings/hashing_${s}.official.json`]).sort(),
      "timings.json",
    ]);
  });

  it("prints the summary table with every strategy", () => {
    expect(run.stdout).toContain("Exp. 6 — EpiRec v1.0");
    for (const k of STRATEGY_KEYS) expect(run.stdout).toMatch(new RegExp(`${k.replace(/[()]/g, "\\$&")} \\[hashing\\]\\s+recall@3 \\d`));
    expect(run.stdout).toContain(`results written to ${out}`);
  });

  it("records dataset sha256, bootstrap, embedder, seed and version, and matches the reference", () => {
    const file = json(join(out, "exp6_epirec.json"));
    expect((file.benchmark as { data_sha256: string }).data_sha256).toBe(EPIREC.sha256);
    expect(file.bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "probe", method: "percentile" });
    expect(file.meta).toEqual({
      package: "@persode/benchmarks",
      version: PACKAGE_VERSION,
      seed: 20260713,
      embedders: ["hashing"],
      generated_by: "pnpm bench epirec",
      data_sha256: EPIREC.sha256,
      datasets: [pinnedProvenance("epirec", EPIREC)],
      strategies: PAPER_RECORDS,
      reproducibility: { class: "exact" },
    });
    expect((file.runs as Record<string, { embedder: unknown }>).hashing!.embedder).toEqual({
      name: "hashing",
      id: "hashing-md5-256",
      dim: 256,
    });
    const ref = referenceJson("exp6_epirec");
    const r = compareToReference({ ...ref, runs: { hashing: (ref.runs as Record<string, unknown>).hashing } }, file);
    expect(r.mismatches).toEqual([]);
    expect(r.compared).toBeGreaterThan(120);
  });

  it("writes rankings and official reports byte-identical to the reference", () => {
    for (const s of SLUGS) {
      for (const ext of [".jsonl", ".official.json"]) {
        const ours = readFileSync(join(out, "exp6_epirec_rankings", `hashing_${s}${ext}`), "utf8");
        expect(
          firstLineDifference(ours, readFileSync(join(EPIREC_FIXTURES, `hashing_${s}${ext}`), "utf8")),
          `hashing_${s}${ext}`,
        ).toBeUndefined();
      }
    }
  });

  it("--seed and --samples change the harness's CIs, never the .official.json reports (EpiRec's fixed protocol, as the README says)", () => {
    const other = freshDir("exp6-seed");
    const r = bench(["exp6", "--out", other, "--seed", "5", "--samples", "60"]);
    expect(r.code).toBe(0);
    const file = json(join(other, "exp6_epirec.json"));
    expect(file.bootstrap).toMatchObject({ samples: 60, seed: 5 });
    expect(JSON.stringify(file)).not.toBe(readFileSync(join(out, "exp6_epirec.json"), "utf8"));
    for (const s of SLUGS) {
      const official = readFileSync(join(other, "exp6_epirec_rankings", `hashing_${s}.official.json`), "utf8");
      expect(official).toBe(readFileSync(join(EPIREC_FIXTURES, `hashing_${s}.official.json`), "utf8"));
      expect(JSON.parse(official).bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "probe" });
    }
  }, 120_000);
});

describe("epirec-eval (needs the pinned EpiRec file)", () => {
  for (const s of SLUGS) {
    it(`reproduces the reference report of ${s} byte for byte`, () => {
      const output = join(freshDir("eval"), "report.json");
      const r = bench(["epirec-eval", "--rankings", join(EPIREC_FIXTURES, `hashing_${s}.jsonl`), "--output", output]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("504 probes evaluated");
      expect(
        firstLineDifference(readFileSync(output, "utf8"), readFileSync(join(EPIREC_FIXTURES, `hashing_${s}.official.json`), "utf8")),
      ).toBeUndefined();
    });
  }

  const reference = () => readFileSync(join(EPIREC_FIXTURES, "hashing_similarity-only.jsonl"), "utf8").split("\n").slice(0, -1);
  const record = (line: string) => JSON.parse(line) as { persona_id: string; probe_id: string; ranked_episode_ids: string[] };
  const cases: { name: string; edit: (lines: string[]) => void; line?: number; says: string[] }[] = [
    {
      name: "a duplicate probe",
      edit: (lines) => lines.splice(7, 0, lines[2]!),
      line: 8,
      says: ["duplicate probe", "line 3"],
    },
    {
      name: "a missing probe",
      edit: (lines) => lines.splice(40, 1),
      says: ["1 of 504 probes have no ranking", `"${record(reference()[40]!).probe_id}"`],
    },
    {
      name: "a foreign episode id",
      edit: (lines) => {
        const a = record(lines[5]!);
        const other = record(lines.find((l) => record(l).persona_id !== a.persona_id)!);
        a.ranked_episode_ids[4] = other.ranked_episode_ids[0]!;
        lines[5] = JSON.stringify(a);
      },
      line: 6,
      says: ["is not an episode of persona", "it is an episode of persona"],
    },
    {
      name: "a ranking that repeats an episode",
      edit: (lines) => {
        const a = record(lines[99]!);
        a.ranked_episode_ids[13] = a.ranked_episode_ids[0]!;
        lines[99] = JSON.stringify(a);
      },
      line: 100,
      says: ["repeats ranked_episode_ids[0]"],
    },
    {
      name: "a ranking that leaves an episode out",
      edit: (lines) => {
        const a = record(lines[200]!);
        a.ranked_episode_ids.pop();
        lines[200] = JSON.stringify(a);
      },
      line: 201,
      says: ["has 13 ids", "missing"],
    },
    {
      name: "a line that is not JSON",
      edit: (lines) => (lines[300] = lines[300]!.slice(0, 50)),
      line: 301,
      says: ["malformed JSON"],
    },
  ];

  for (const c of cases) {
    it(`rejects ${c.name}: exit 1, ${c.line ? `line ${c.line} named` : "the probe named"}, no output file`, () => {
      const dir = freshDir("bad-eval");
      const lines = reference();
      c.edit(lines);
      const input = join(root, `bad-${n}.jsonl`);
      writeFileSync(input, lines.join("\n") + "\n");
      const output = join(dir, "report.json");
      const r = bench(["epirec-eval", "--rankings", input, "--output", output]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      if (c.line !== undefined) expect(r.stderr).toContain(`${input}:${c.line}: `);
      else expect(r.stderr).toContain(`${input}: `);
      for (const s of c.says) expect(r.stderr).toContain(s);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(listFiles(dir)).toEqual([]);
    });
  }

  it("gives the official evaluator's report on a file in another line order (shuffled test vector)", () => {
    const output = join(freshDir("eval-shuffled"), "report.json");
    const r = bench([
      "epirec-eval",
      "--rankings",
      join(EPIREC_FIXTURES, "shuffled", "hashing_similarity-only.shuffled.jsonl"),
      "--output",
      output,
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const expected = readFileSync(join(EPIREC_FIXTURES, "shuffled", "hashing_similarity-only.shuffled.official.json"), "utf8");
    expect(firstLineDifference(readFileSync(output, "utf8"), expected)).toBeUndefined();
  });

  it("ignores extra fields on a line, like the official evaluator", () => {
    const input = join(freshDir("eval-extra"), "extra.jsonl");
    mkdirSync(join(input, ".."), { recursive: true });
    const lines = reference().map((l) => JSON.stringify({ ...(JSON.parse(l) as object), score: 0.5, system: "mine" }));
    writeFileSync(input, lines.join("\n") + "\n");
    const output = join(input, "..", "report.json");
    const r = bench(["epirec-eval", "--rankings", input, "--output", output]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(output, "utf8")).toBe(readFileSync(join(EPIREC_FIXTURES, "hashing_similarity-only.official.json"), "utf8"));
  });

  it("refuses --output naming the rankings file itself (same path, another spelling, a symlink, a hard link)", () => {
    const dir = freshDir("eval-same");
    mkdirSync(dir, { recursive: true });
    const input = join(dir, "r.jsonl");
    const original = readFileSync(join(EPIREC_FIXTURES, "hashing_similarity-only.jsonl"));
    writeFileSync(input, original);
    symlinkSync(input, join(dir, "link.jsonl"));
    linkSync(input, join(dir, "hard.jsonl"));
    symlinkSync(dir, join(root, `dirlink-${n}`));
    for (const output of [
      input,
      join(dir, ".", "..", `eval-same-${n}`, "r.jsonl"),
      join(dir, "link.jsonl"),
      join(dir, "hard.jsonl"),
      join(root, `dirlink-${n}`, "r.jsonl"),
    ]) {
      const r = bench(["epirec-eval", "--rankings", input, "--output", output]);
      expect(r.code, output).toBe(2);
      expect(r.stderr).toContain("is the rankings file itself");
      expect(readFileSync(input).equals(original)).toBe(true);
    }
  });

  it("a missing rankings file exits 1 naming it", () => {
    const dir = freshDir("no-file");
    const r = bench(["epirec-eval", "--rankings", join(root, "does-not-exist.jsonl"), "--output", join(dir, "x.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does-not-exist.jsonl");
    expect(listFiles(dir)).toEqual([]);
  });
});

describe("a path that cannot be written is named with the fix (exit 1, nothing written)", () => {
  const rankings = () => join(EPIREC_FIXTURES, "hashing_similarity-only.jsonl");
  const cases: { name: string; argv: (file: string, dir: string) => string[]; says: (file: string, dir: string) => string }[] = [
    {
      name: "--out is a file",
      argv: (f) => ["exp1", "--out", f],
      says: (f) => `cannot write results into ${f}: it is a file, not a folder`,
    },
    {
      name: "--out lies under a file (ENOTDIR)",
      argv: (f) => ["exp1", "--out", join(f, "sub")],
      says: (f) => `cannot write results into ${join(f, "sub")}: ${f} is a file, not a folder`,
    },
    {
      name: "--output is a folder (EISDIR)",
      argv: (_f, d) => ["epirec-eval", "--rankings", rankings(), "--output", d],
      says: (_f, d) => `cannot write ${d}: it is a folder, not a file`,
    },
    {
      name: "--output lies under a file",
      argv: (f) => ["epirec-eval", "--rankings", rankings(), "--output", join(f, "r.json")],
      says: (f) => `${f} is a file, not a folder`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const dir = freshDir("unwritable");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "a-file");
      writeFileSync(file, "x");
      const r = bench(c.argv(file, dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(c.says(file, dir));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(listFiles(dir)).toEqual(["a-file"]);
      expect(readFileSync(file, "utf8")).toBe("x");
    });
  }
});

describe("pnpm bench all without the model (issue 12)", () => {
  it("offline: fails before writing anything, naming the model, the places searched and the hashing-only fallback", () => {
    const out = freshDir("no-model");
    const r = spawnCli(
      ["all", "--out", out],
      { ...env, PERSODE_OFFLINE: "1", PERSODE_DATA_DIR: freshDir("empty-cache"), PERSODE_MODEL_DIR: "", PERSODE_MODEL_MIRROR: "" },
      root,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("embedding model Xenova/all-MiniLM-L6-v2");
    expect(r.stderr).toContain("PERSODE_OFFLINE is set");
    expect(r.stderr).toContain("pnpm model fetch");
    expect(r.stderr).toContain("--embedder hashing");
    expect(listFiles(out)).toEqual([]);
  });

  it("--embedder hashing needs no model", () => {
    const out = freshDir("hashing-only");
    const r = spawnCli(
      ["exp6", "--embedder", "hashing", "--out", out],
      { ...env, PERSODE_OFFLINE: "1", PERSODE_DATA_DIR: freshDir("empty-cache") },
      root,
    );
    expect(r.code).toBe(0);
    expect(Object.keys(json(join(out, "exp6_epirec.json")).runs as object)).toEqual(["hashing"]);
  });
});
