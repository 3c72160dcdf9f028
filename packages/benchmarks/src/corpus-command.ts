import { basename, join } from "node:path";
import { buildEmbedder } from "./embedder-setup.js";
import { corpusCounts, loadCsvCorpus } from "@persode/datasets";
import { corpusFiles, rankingsStem, writeResultFile } from "@persode/results";
import { EPISODIC_PROTOCOL, runEpisodic } from "./episodic.js";
import { writeExtendedFile } from "./extended-results.js";
import { MAX_SAMPLES, MAX_SEED, UsageError, callerCwd, callerPath, embedderOption, embedderSettings, intOption } from "./options.js";
import { DEFAULT_SAMPLES, DEFAULT_SEED, meta, runsAfter, writeAtomic } from "./result-records.js";
import { StagedResults, resultsFolder } from "./staging.js";

/** Where `bench corpus` writes without `--out`: a folder of its own in the caller's folder, never the committed results/. */
const CORPUS_DEFAULT_OUT = "corpus-results";

type Values = Record<string, string | boolean | string[] | undefined>;

/** A file-name-safe corpus name. */
export function corpusSlug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "");
  if (s === "") throw new Error(`corpus name "${name}" has no usable characters for a file name; pass --name`);
  return s;
}

/**
 * `pnpm bench corpus`: the Exp. 6 protocol on a researcher's own journal corpus (two CSV files).
 * Relative paths resolve from the caller's folder. The corpus is fully loaded, validated and evaluated
 * before anything is written, and its files are staged and published together (as `pnpm bench` does).
 */
export async function runCorpusCommand(values: Values): Promise<number> {
  const episodes = values.episodes as string | undefined;
  const probes = values.probes as string | undefined;
  if (!episodes || !probes) {
    throw new UsageError('corpus needs --episodes FILE and --probes FILE (see the README section "Your own journal corpus")');
  }
  const embedderName = embedderOption(values.embedder);
  const seed = intOption(values.seed, "seed", DEFAULT_SEED, 0, MAX_SEED);
  const samples = intOption(values.samples, "samples", DEFAULT_SAMPLES, 1, MAX_SAMPLES);
  const settings = embedderSettings(embedderName, values);
  const out = resultsFolder(values.out as string | undefined, CORPUS_DEFAULT_OUT, callerCwd());
  const corpus = await loadCsvCorpus(callerPath(episodes), callerPath(probes), {
    ...(values.name ? { name: values.name as string } : {}),
    ...(values.now ? { now: values.now as string } : {}),
  });
  for (const w of corpus.warnings) process.stderr.write(`warning: ${w}\n`);
  const { embedder, key } = await buildEmbedder(embedderName, settings);
  const slug = corpusSlug(corpus.name);
  const t0 = performance.now();
  // runEpisodic seeds its bootstrap streams independently of the display label, so EpiRec converted
  // to CSV reproduces Exp. 6's CIs too, not only its means and rankings.
  const r = await runEpisodic(corpus, embedder, { seed, samples }, `corpus ${corpus.name}`);
  await embedder.dispose?.();

  // Nothing is written until everything has been computed; the files are then staged and published
  // together, so a failure or an interrupt leaves `out` exactly as it was.
  const names = corpusFiles(slug);
  const counts = corpusCounts(corpus);
  await StagedResults.within(out, async (staged) => {
    await writeCorpusFiles(staged.dir, { corpus, names, counts, key, embedder, seed, samples, r, episodes, probes });
    staged.publish();
  });
  const path = join(out, names.results);
  const extFile = names.extended;
  const seconds = (performance.now() - t0) / 1000;
  const strategies = r.run.strategies as Record<string, { overall: { r3: number; r1: number; mrr: number } }>;
  const w = Math.max(...Object.keys(strategies).map((k) => k.length));
  const lines = [
    `corpus "${corpus.name}": ${counts.personas} personas, ${counts.episodes} episodes, ${counts.probes} probes (${seconds.toFixed(2)} s, ${key})`,
  ];
  for (const [k, v] of Object.entries(strategies))
    lines.push(`  ${k.padEnd(w)}  recall@3 ${v.overall.r3} · recall@1 ${v.overall.r1} · MRR ${v.overall.mrr}`);
  lines.push(`  gate fires on ${(r.run.gate as { reflective_fused_fraction: number }).reflective_fused_fraction} of non-factual probes`);
  const extended = r.extended.strategies as Record<string, Record<string, unknown>>;
  const sig = (v: Record<string, unknown>) => {
    const t = (v.vs_similarity as Record<string, { p_holm: number; significant: boolean }> | undefined)?.["recall@3"];
    return t ? ` · vs similarity-only p_holm ${t.p_holm}${t.significant ? " *" : ""}` : "";
  };
  const we = Math.max(...Object.keys(extended).map((k) => k.length));
  lines.push("  beyond the paper (extended set, * = significant after Holm at 0.05):");
  for (const [k, v] of Object.entries(extended)) {
    if (k in strategies) continue;
    lines.push(`  ${k.padEnd(we)}  recall@3 ${v["recall@3"]} · recall@1 ${v["recall@1"]} · MRR ${v.mrr}${sig(v)}`);
  }
  lines.push(`results written to ${path}, ${join(out, extFile)} and ${join(out, names.rankings)}/`);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

/** What `writeCorpusFiles` writes: the corpus, its run and how it was made. */
interface CorpusRun {
  corpus: Awaited<ReturnType<typeof loadCsvCorpus>>;
  names: ReturnType<typeof corpusFiles>;
  counts: ReturnType<typeof corpusCounts>;
  key: string;
  embedder: Awaited<ReturnType<typeof buildEmbedder>>["embedder"];
  seed: number;
  samples: number;
  r: Awaited<ReturnType<typeof runEpisodic>>;
  episodes: string;
  probes: string;
}

/** Write the corpus's results, extended results and rankings into `out` (a staging folder), merging runs of other embedders. */
async function writeCorpusFiles(
  out: string,
  { corpus, names, counts, key, embedder, seed, samples, r, episodes, probes }: CorpusRun,
): Promise<void> {
  const file = names.results;
  const path = join(out, file);
  const { runs, strategies: records } = await runsAfter(path, corpus.sha256, { seed, samples }, key, embedder, r.run);
  for (const o of r.outputs) {
    const base = join(out, names.rankings, rankingsStem(key, o.strategy.slug));
    await writeAtomic(`${base}.jsonl`, o.jsonl);
    await writeAtomic(`${base}.official.json`, o.official);
  }
  // The corpus as both files describe it.
  const benchmark = {
    name: corpus.name,
    files: { episodes: basename(episodes), probes: basename(probes) },
    probes: counts.probes,
    personas: counts.personas,
    episodes: counts.episodes,
    reference_now: corpus.referenceNow,
    data_sha256: corpus.sha256,
  };
  await writeResultFile(path, "corpus", {
    benchmark,
    protocol: {
      note: "the Exp. 6 (EpiRec) protocol: one store per persona, analyzer E, every registered strategy; authored labels never enter retrieval",
      ...EPISODIC_PROTOCOL,
    },
    bootstrap: { samples, seed, unit: "probe", method: "percentile" },
    runs,
    warnings: corpus.warnings,
    meta: meta(seed, Object.keys(runs), `corpus --name ${corpus.name}`, corpus.sha256, { strategies: records }),
  });
  const extFile = names.extended;
  await writeExtendedFile({
    out,
    file: extFile,
    paperFile: file,
    benchmark,
    protocol: EPISODIC_PROTOCOL,
    unit: "probe",
    seed,
    samples,
    target: `corpus --name ${corpus.name}`,
    dataSha256: corpus.sha256,
    runKey: key,
    embedder,
    run: r.extended,
  });
}
