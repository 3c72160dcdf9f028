import { join, resolve } from "node:path";
import { createEmbedder, embedderNames } from "@persode/core";
import { corpusCounts, loadCsvCorpus } from "@persode/datasets";
import { EPISODIC_PROTOCOL, runEpisodic } from "./episodic.js";
import { DEFAULT_SAMPLES, DEFAULT_SEED, formatJson, mergeRuns, meta, readPrevious, writeAtomic } from "./results.js";

type Values = Record<string, string | boolean | undefined>;

/** A file-name-safe corpus name. */
export function corpusSlug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "");
  if (s === "") throw new Error(`corpus name "${name}" has no usable characters for a file name; pass --name`);
  return s;
}

/**
 * `pnpm bench corpus`: the Exp. 6 protocol on a researcher's own journal corpus (two CSV files).
 * The corpus is fully loaded and validated before anything is written.
 */
export async function runCorpusCommand(values: Values): Promise<number> {
  const episodes = values.episodes as string | undefined;
  const probes = values.probes as string | undefined;
  if (!episodes || !probes) {
    const { UsageError } = await import("./cli.js");
    throw new UsageError("corpus needs --episodes FILE and --probes FILE (see the README section \"Your own journal corpus\")");
  }
  const embedderName = (values.embedder as string | undefined) ?? "hashing";
  if (!embedderNames().includes(embedderName)) throw new Error(`unknown embedder "${embedderName}"; known: ${embedderNames().join(", ")}`);
  const corpus = await loadCsvCorpus(resolve(episodes), resolve(probes), {
    ...(values.name ? { name: values.name as string } : {}),
    ...(values.now ? { now: values.now as string } : {}),
  });
  for (const w of corpus.warnings) process.stderr.write(`warning: ${w}\n`);
  const seed = values.seed !== undefined ? Number(values.seed) : DEFAULT_SEED;
  const samples = values.samples !== undefined ? Number(values.samples) : DEFAULT_SAMPLES;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got "${values.seed}"`);
  if (!Number.isSafeInteger(samples) || samples < 1) throw new Error(`--samples must be a positive integer, got "${values.samples}"`);
  const out = resolve((values.out as string | undefined) ?? "results");
  const embedder = await createEmbedder(embedderName, { modelDir: process.env.PERSODE_MODEL_DIR, offline: process.env.PERSODE_OFFLINE === "1" });
  const slug = corpusSlug(corpus.name);
  const t0 = performance.now();
  // The label also names runEpisodic's bootstrap streams (`${seed}/${label}/…`): Exp. 6's label keeps the
  // protocol identical, so EpiRec converted to CSV reproduces Exp. 6's CIs, not only its means and rankings.
  const r = await runEpisodic(corpus, embedder, { seed, samples }, "exp6");
  await embedder.dispose?.();

  const file = `corpus_${slug}.json`;
  const path = join(out, file);
  const previous = await readPrevious(path);
  const sameData = (previous?.benchmark as { data_sha256?: string } | undefined)?.data_sha256 === corpus.sha256;
  const runs = mergeRuns(sameData ? previous : undefined, embedderName, r.run);
  for (const o of r.outputs) {
    const base = join(out, `corpus_${slug}_rankings`, `${embedderName}_${o.strategy.slug}`);
    await writeAtomic(`${base}.jsonl`, o.jsonl);
    await writeAtomic(`${base}.official.json`, o.official);
  }
  const counts = corpusCounts(corpus);
  await writeAtomic(
    path,
    formatJson({
      benchmark: { name: corpus.name, source: corpus.source, probes: counts.probes, personas: counts.personas, episodes: counts.episodes, reference_now: corpus.referenceNow, data_sha256: corpus.sha256 },
      protocol: { note: "the Exp. 6 (EpiRec) protocol: one store per persona, analyzer E, every registered strategy; authored labels never enter retrieval", ...EPISODIC_PROTOCOL },
      bootstrap: { samples, seed, unit: "probe", method: "percentile" },
      runs,
      warnings: corpus.warnings,
      meta: meta(seed, Object.keys(runs), `corpus --name ${corpus.name}`),
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const strategies = r.run.strategies as Record<string, { overall: { r3: number; r1: number; mrr: number } }>;
  const w = Math.max(...Object.keys(strategies).map((k) => k.length));
  const lines = [`corpus "${corpus.name}": ${counts.personas} personas, ${counts.episodes} episodes, ${counts.probes} probes (${seconds.toFixed(2)} s, ${embedderName})`];
  for (const [k, v] of Object.entries(strategies)) lines.push(`  ${k.padEnd(w)}  recall@3 ${v.overall.r3} · recall@1 ${v.overall.r1} · MRR ${v.overall.mrr}`);
  lines.push(`  gate fires on ${(r.run.gate as { reflective_fused_fraction: number }).reflective_fused_fraction} of non-factual probes`);
  lines.push(`results written to ${path} and ${join(out, `corpus_${slug}_rankings`)}/`);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}
