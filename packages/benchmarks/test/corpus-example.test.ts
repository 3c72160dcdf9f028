// `pnpm bench corpus` on the example corpus shipped with @persode/datasets
// (packages/datasets/examples/journal/): the checked-in expected results, plus an independent
// recomputation of recall@3, recall@1, MRR, band strata, the data hash, the default clock and the
// recency order straight from the CSV files and the written rankings JSONL.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashingEmbedder, registerEmbedder } from "@persode/core";
import { pyRound } from "@persode/util";
import { listTree, runBench, type CliRun } from "./corpus-cli.js";
import { ALL_SLUGS } from "./bench-helpers.js";

const EXAMPLE = fileURLToPath(new URL("../../datasets/examples/journal/", import.meta.url));
const EPISODES = join(EXAMPLE, "episodes.csv");
const PROBES = join(EXAMPLE, "probes.csv");
const EXPECTED = fileURLToPath(new URL("./fixtures/corpus/journal-expected.json", import.meta.url));
const SLUGS: Record<string, string> = {
  "recency-only": "recency-only",
  "similarity-only": "similarity-only",
  "salience-only": "salience-only",
  "fused (Persode)": "fused_persode",
  "gated (Persode)": "gated_persode",
};

type Metrics = { r3: number; r1: number; mrr: number };
type StrategyResult = Record<string, unknown> & {
  overall: Metrics;
  reflective_recall3_by_band: Record<string, { recall: number; n: number }>;
};
interface Results {
  benchmark: Record<string, unknown>;
  runs: { hashing: { strategies: Record<string, StrategyResult>; gate: { reflective_fused_fraction: number } } };
  warnings: string[];
}

/** Data lines of a CSV file whose records are one line each (true of the example corpus). */
function dataLines(path: string): string[] {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  return lines.slice(1);
}

/** Episodes: the first three fields and the last three are never quoted in the example, the text sits between. */
function readEpisodes(): { persona: string; id: string; ms: number; band: string }[] {
  return dataLines(EPISODES).map((line) => {
    const [persona, id, dateTime] = line.split(",", 3) as [string, string, string];
    const band = line.split(",").at(-3)!;
    const zoned = /(Z|[+-]\d{2}:\d{2})$/.test(dateTime) ? dateTime : `${dateTime}Z`; // no zone means UTC
    return { persona, id, ms: Date.parse(zoned), band };
  });
}

/** Probes: the first four fields are never quoted; the query is the rest. */
function readProbes(): Map<string, { persona: string; target: string; type: string }> {
  return new Map(
    dataLines(PROBES).map((line) => {
      const [persona, id, target, type] = line.split(",", 4) as [string, string, string, string];
      return [id, { persona, target, type }];
    }),
  );
}

const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("pnpm bench corpus on the example journal corpus", () => {
  let out: string;
  let run: CliRun;
  let results: Results;
  const expected = JSON.parse(readFileSync(EXPECTED, "utf8")) as Results;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "persode-corpus-example-"));
    run = await runBench(["corpus", "--episodes", EPISODES, "--probes", PROBES, "--out", out]);
    if (run.code === 0) results = JSON.parse(readFileSync(join(out, "corpus_episodes.json"), "utf8")) as Results;
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("runs without warnings and names the outputs after the episodes file", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('corpus "episodes": 3 personas, 17 episodes, 45 probes');
    expect(listTree(out)).toEqual(
      [
        "corpus_episodes.json",
        "corpus_episodes_extended.json",
        "corpus_episodes_rankings",
        ...ALL_SLUGS.flatMap((s) => [`corpus_episodes_rankings/hashing_${s}.jsonl`, `corpus_episodes_rankings/hashing_${s}.official.json`]),
      ].sort(),
    );
    expect(results.warnings).toEqual([]);
  });

  it("matches the checked-in expected results", () => {
    expect(results.benchmark).toMatchObject(expected.benchmark);
    expect(results.runs.hashing).toEqual(expected.runs.hashing);
    const overall = Object.fromEntries(Object.entries(results.runs.hashing.strategies).map(([k, v]) => [k, v.overall.r3]));
    expect(overall).toEqual({
      "recency-only": 0.533,
      "similarity-only": 0.756,
      "salience-only": 0.511,
      "fused (Persode)": 0.756,
      "gated (Persode)": 0.778,
    });
    expect(results.runs.hashing.gate.reflective_fused_fraction).toBe(0.1429);
  });

  it("data_sha256 hashes the two files' bytes and now defaults to the latest episode + 1 day", () => {
    const sha = createHash("sha256").update(readFileSync(EPISODES)).update(readFileSync(PROBES)).digest("hex");
    expect(results.benchmark.data_sha256).toBe(sha);
    const latest = Math.max(...readEpisodes().map((e) => e.ms));
    expect(Date.parse(results.benchmark.reference_now as string)).toBe(latest + 86_400_000);
    for (const slug of Object.values(SLUGS)) {
      const official = JSON.parse(readFileSync(join(out, "corpus_episodes_rankings", `hashing_${slug}.official.json`), "utf8")) as {
        benchmark: string;
        data_sha256: string;
      };
      expect(official.benchmark).toBe("episodes");
      expect(official.data_sha256).toBe(sha);
    }
  });

  it("recomputing ranks from the rankings JSONL gives the reported metrics, strata and official means", () => {
    const episodes = readEpisodes();
    const probes = readProbes();
    const byPersona = new Map<string, string[]>();
    for (const e of episodes) byPersona.set(e.persona, [...(byPersona.get(e.persona) ?? []), e.id]);
    const band = new Map(episodes.map((e) => [e.id, e.band]));
    expect(probes.size).toBe(45);

    for (const [key, slug] of Object.entries(SLUGS)) {
      const lines = readFileSync(join(out, "corpus_episodes_rankings", `hashing_${slug}.jsonl`), "utf8")
        .trimEnd()
        .split("\n");
      expect(lines).toHaveLength(probes.size);
      const ranks: { type: string; target: string; rank: number }[] = [];
      for (const line of lines) {
        const {
          persona_id,
          probe_id,
          ranked_episode_ids: ids,
        } = JSON.parse(line) as { persona_id: string; probe_id: string; ranked_episode_ids: string[] };
        const probe = probes.get(probe_id)!;
        expect(probe.persona).toBe(persona_id);
        expect([...ids].sort()).toEqual([...byPersona.get(persona_id)!].sort()); // a full permutation of the persona's episodes
        ranks.push({ type: probe.type, target: probe.target, rank: ids.indexOf(probe.target) + 1 });
      }
      const metrics = (rs: typeof ranks): Metrics => ({
        r3: pyRound(meanOf(rs.map((r) => (r.rank <= 3 ? 1 : 0))), 3),
        r1: pyRound(meanOf(rs.map((r) => (r.rank === 1 ? 1 : 0))), 3),
        mrr: pyRound(meanOf(rs.map((r) => 1 / r.rank)), 3),
      });
      const reported = results.runs.hashing.strategies[key]!;
      expect(reported.overall, key).toEqual(metrics(ranks));
      for (const type of ["factual", "reflective_explicit", "reflective_implicit"]) {
        expect(reported[type], `${key} ${type}`).toEqual(metrics(ranks.filter((r) => r.type === type)));
      }
      const strata: Record<string, { recall: number; n: number }> = {};
      for (const r of ranks.filter((x) => x.type !== "factual")) {
        const label = `${r.type}·${band.get(r.target)}`;
        strata[label] ??= { recall: 0, n: 0 };
        strata[label].recall += r.rank <= 3 ? 1 : 0;
        strata[label].n++;
      }
      for (const s of Object.values(strata)) s.recall = pyRound(s.recall / s.n, 3);
      expect(reported.reflective_recall3_by_band, key).toEqual(strata);

      const official = JSON.parse(readFileSync(join(out, "corpus_episodes_rankings", `hashing_${slug}.official.json`), "utf8")) as {
        overall: { n: number; "recall@3": number; mrr: number };
      };
      expect(official.overall.n).toBe(45);
      expect(official.overall["recall@3"]).toBe(pyRound(meanOf(ranks.map((r) => (r.rank <= 3 ? 1 : 0))), 4));
      expect(official.overall.mrr).toBe(pyRound(meanOf(ranks.map((r) => 1 / r.rank)), 4));
    }
  });

  it("recency-only ranks each persona's episodes newest first (zoned and zoneless times alike)", () => {
    const episodes = readEpisodes();
    const lines = readFileSync(join(out, "corpus_episodes_rankings", "hashing_recency-only.jsonl"), "utf8")
      .trimEnd()
      .split("\n");
    for (const line of lines) {
      const { persona_id, ranked_episode_ids } = JSON.parse(line) as { persona_id: string; ranked_episode_ids: string[] };
      const newestFirst = episodes
        .filter((e) => e.persona === persona_id)
        .sort((a, b) => b.ms - a.ms)
        .map((e) => e.id);
      expect(ranked_episode_ids).toEqual(newestFirst);
    }
  });
});

describe("pnpm bench corpus names the run by the model in both files", () => {
  // An embedder with model weights is filed under its run key (the model's name), never its registry name —
  // in the paper-format file and in the extended one alike.
  let out: string;
  let run: CliRun;
  beforeAll(async () => {
    registerEmbedder({
      name: "corpus-keyed-hash",
      description: "the hashing embedder reporting a model identity (test only)",
      async create() {
        const inner = new HashingEmbedder();
        const model = { id: "persode/keyed-test-model", revision: "r1", dtype: "fp32" };
        return {
          name: "corpus-keyed-hash",
          id: `keyed:${inner.id}`,
          dim: inner.dim,
          model,
          embed: (text: string) => inner.embed(text),
          embedBatch: (texts: string[]) => inner.embedBatch(texts),
        };
      },
    });
    out = mkdtempSync(join(tmpdir(), "persode-corpus-keyed-"));
    run = await runBench(["corpus", "--episodes", EPISODES, "--probes", PROBES, "--embedder", "corpus-keyed-hash", "--out", out]);
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("files the run as keyed-test-model in corpus_episodes.json and corpus_episodes_extended.json", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const f of ["corpus_episodes.json", "corpus_episodes_extended.json"]) {
      const runs = (JSON.parse(readFileSync(join(out, f), "utf8")) as { runs: object }).runs;
      expect(Object.keys(runs), f).toEqual(["keyed-test-model"]);
    }
  });
});
