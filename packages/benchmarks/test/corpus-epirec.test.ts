// `pnpm bench corpus` on EpiRec v1.0 itself, converted to the two CSV files: it must compute
// exactly what Exp. 6 computes — the same rankings, metrics, CIs and gate fraction as runEpisodic
// on the JSON corpus (computed here, not hard-coded), the published hashing numbers and rankings,
// and official reports that differ from EpiRec's only in `benchmark` and `data_sha256`.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HashingEmbedder } from "@persode/core";
import { DatasetUnavailableError, loadEpiRec, type EpisodicCorpus } from "@persode/datasets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SAMPLES, DEFAULT_SEED, runEpisodic, type EpisodicRun } from "../src/index.js";
import { csvTable, listTree, runBench, type CliRun } from "./corpus-cli.js";
import { ALL_SLUGS, SLUGS } from "./bench-helpers.js";

const EPIREC_FIXTURES = fileURLToPath(new URL("./fixtures/epirec/", import.meta.url));
const REFERENCE = fileURLToPath(new URL("./fixtures/reference/exp6_epirec.json", import.meta.url));
const NAME = "epirec-csv";

/** EpiRec from PERSODE_DATA_MIRROR or the cache, never the network; a missing copy fails the test with the fix. */
async function loadEpiRecOrExplain(): Promise<EpisodicCorpus> {
  try {
    return await loadEpiRec({ mirrorDir: process.env.PERSODE_DATA_MIRROR, offline: true, fillCache: false });
  } catch (e) {
    if (e instanceof DatasetUnavailableError) {
      throw new Error(
        "EpiRec v1.0 is needed for the corpus parity test: set PERSODE_DATA_MIRROR to a folder holding epirec_v1.json, " +
          `or fill the cache once with \`pnpm bench all\` (or \`pnpm --filter @persode/datasets data fetch\`). Loader said: ${e.message}`,
      );
    }
    throw e;
  }
}

/** The two CSV files of the format holding exactly EpiRec's content, in corpus order. */
function toCsv(corpus: EpisodicCorpus): { episodes: string; probes: string } {
  const episodeRows: string[][] = [];
  const probeRows: string[][] = [];
  for (const p of corpus.personas) {
    for (const e of p.episodes) {
      episodeRows.push([p.id, e.id, e.dateTime, e.text, e.intensityBand ?? "", e.valence ?? "", e.emotion ?? ""]);
      for (const q of e.probes) probeRows.push([p.id, q.id, e.id, q.type, q.query]);
    }
  }
  return {
    episodes: csvTable(["persona_id", "episode_id", "date_time", "text", "intensity_band", "valence", "emotion"], episodeRows),
    probes: csvTable(["persona_id", "probe_id", "episode_id", "type", "query"], probeRows),
  };
}

/** The official report text with its two corpus-specific header values replaced by EpiRec's. */
function withEpiRecHeader(text: string, benchmark: string, sha: string, epirec: EpisodicCorpus): string {
  const json = JSON.parse(text) as { benchmark: string; data_sha256: string };
  expect(json.benchmark).toBe(benchmark);
  expect(json.data_sha256).toBe(sha);
  return text
    .replace(`"benchmark": ${JSON.stringify(benchmark)}`, `"benchmark": "EpiRec v1.0"`)
    .replace(`"data_sha256": "${sha}"`, `"data_sha256": "${epirec.sha256}"`);
}

describe("pnpm bench corpus on EpiRec v1.0 converted to CSV equals Exp. 6", () => {
  let dir: string;
  let out: string;
  let epirec: EpisodicCorpus;
  let exp6: EpisodicRun;
  let run: CliRun;
  let csvSha: string;
  let results: { benchmark: Record<string, unknown>; runs: Record<string, unknown>; warnings: string[] };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-corpus-epirec-"));
    out = join(dir, "out");
    epirec = await loadEpiRecOrExplain();
    const csv = toCsv(epirec);
    writeFileSync(join(dir, "episodes.csv"), csv.episodes, "utf8");
    writeFileSync(join(dir, "probes.csv"), csv.probes, "utf8");
    csvSha = createHash("sha256").update(csv.episodes, "utf8").update(csv.probes, "utf8").digest("hex");
    exp6 = await runEpisodic(epirec, new HashingEmbedder(), { seed: DEFAULT_SEED, samples: DEFAULT_SAMPLES }, "exp6");
    run = await runBench([
      "corpus",
      "--episodes",
      join(dir, "episodes.csv"),
      "--probes",
      join(dir, "probes.csv"),
      "--now",
      epirec.referenceNow,
      "--name",
      NAME,
      "--out",
      out,
    ]);
    if (run.code === 0) results = JSON.parse(readFileSync(join(out, `corpus_${NAME}.json`), "utf8"));
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the conversion really exercises RFC 4180 quoting", () => {
    const text = readFileSync(join(dir, "episodes.csv"), "utf8");
    expect(text).toContain('"'); // texts with commas are quoted
    expect(epirec.personas.some((p) => p.episodes.some((e) => e.text.includes(",")))).toBe(true);
  });

  it("runs cleanly and writes the results file and every strategy's rankings and report", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`corpus "${NAME}": 12 personas, 168 episodes, 504 probes`);
    const slugs = exp6.outputs.map((o) => o.strategy.slug);
    expect(slugs).toEqual([...ALL_SLUGS]); // the paper's five, then the extended set
    expect(listTree(out)).toEqual(
      [
        `corpus_${NAME}.json`,
        `corpus_${NAME}_extended.json`,
        `corpus_${NAME}_rankings`,
        ...slugs.flatMap((s) => [`corpus_${NAME}_rankings/hashing_${s}.jsonl`, `corpus_${NAME}_rankings/hashing_${s}.official.json`]),
      ].sort(),
    );
    expect(results.warnings).toEqual([]);
    expect(results.benchmark).toMatchObject({
      name: NAME,
      probes: 504,
      personas: 12,
      episodes: 168,
      reference_now: epirec.referenceNow,
      data_sha256: csvSha,
    });
  });

  it("writes the extended results with exactly Exp. 6's extended numbers", () => {
    const ext = JSON.parse(readFileSync(join(out, `corpus_${NAME}_extended.json`), "utf8")) as {
      runs: { hashing: { strategies: Record<string, unknown> } };
    };
    const strategies = ext.runs.hashing.strategies;
    expect(Object.keys(strategies).length).toBeGreaterThan(5);
    expect(strategies).toEqual(JSON.parse(JSON.stringify(exp6.extended.strategies)));
    expect(run.stdout).toContain("beyond the paper (extended set");
  });

  it("every strategy's rankings JSONL is byte-identical to Exp. 6's (computed) and, for the paper's five, to the published rankings", () => {
    let published = 0;
    for (const o of exp6.outputs) {
      const mine = readFileSync(join(out, `corpus_${NAME}_rankings`, `hashing_${o.strategy.slug}.jsonl`), "utf8");
      expect(mine.split("\n").length).toBe(505);
      expect(mine, o.strategy.slug).toBe(Buffer.from(o.jsonl).toString("utf8"));
      if (!(SLUGS as readonly string[]).includes(o.strategy.slug)) continue; // the reference published the paper's strategies only
      expect(mine, o.strategy.slug).toBe(readFileSync(join(EPIREC_FIXTURES, `hashing_${o.strategy.slug}.jsonl`), "utf8"));
      published++;
    }
    expect(published).toBe(SLUGS.length);
  });

  it("runs.hashing (metrics per type and overall, bands, CIs, paired differences, gate) equals Exp. 6's", () => {
    expect(Object.keys(results.runs)).toEqual(["hashing"]);
    // as Exp. 6 writes it — the embedder identity first (JSON turns a rounded -0 difference into 0), key order included
    const written = JSON.stringify({ embedder: { name: "hashing", id: "hashing-md5-256", dim: 256 }, ...exp6.run }, null, 2);
    expect(results.runs.hashing).toEqual(JSON.parse(written));
    expect(JSON.stringify(results.runs.hashing, null, 2)).toBe(written);
  });

  it("matches the published Exp. 6 hashing numbers", () => {
    const reference = (
      JSON.parse(readFileSync(REFERENCE, "utf8")) as {
        runs: { hashing: { strategies: Record<string, Record<string, unknown>>; gate: unknown } };
      }
    ).runs.hashing;
    const mine = results.runs.hashing as { strategies: Record<string, Record<string, unknown>>; gate: unknown };
    expect(Object.keys(mine.strategies)).toEqual(Object.keys(reference.strategies));
    for (const [strategy, expected] of Object.entries(reference.strategies)) {
      for (const [group, value] of Object.entries(expected))
        expect(mine.strategies[strategy]![group], `${strategy} ${group}`).toEqual(value);
    }
    expect(mine.gate).toEqual(reference.gate);
    const overall = (s: string) => (mine.strategies[s]!.overall as { r3: number }).r3;
    expect([overall("similarity-only"), overall("fused (Persode)"), overall("gated (Persode)")]).toEqual([0.552, 0.518, 0.55]);
  });

  it("official reports differ from EpiRec's only in benchmark and data_sha256", () => {
    for (const o of exp6.outputs) {
      const mine = readFileSync(join(out, `corpus_${NAME}_rankings`, `hashing_${o.strategy.slug}.official.json`), "utf8");
      // Exp. 6's own report for the paper's five is the published one (checked below); for the extended set, Exp. 6's computed report
      const isPaper = (SLUGS as readonly string[]).includes(o.strategy.slug);
      const published = isPaper ? readFileSync(join(EPIREC_FIXTURES, `hashing_${o.strategy.slug}.official.json`), "utf8") : o.official;
      expect(mine).not.toBe(published);
      expect(withEpiRecHeader(mine, NAME, csvSha, epirec), o.strategy.slug).toBe(published);
      expect(o.official, o.strategy.slug).toBe(published);
      const a = JSON.parse(mine) as Record<string, unknown>;
      const b = JSON.parse(published) as Record<string, unknown>;
      expect(Object.keys(a)).toEqual(Object.keys(b));
      for (const k of Object.keys(b)) if (k !== "benchmark" && k !== "data_sha256") expect(a[k], `${o.strategy.slug} ${k}`).toEqual(b[k]);
    }
  });
});
