/**
 * The neural half of `pnpm bench:perf` (issues 12 and 21): sentence embedding throughput of every declared
 * model on the exact texts Exp. 5 and 6 embed, each in its role, cold (fresh embedding cache) and warm (the
 * cache a previous run filled), in texts and word pieces per second; and the wall time of whole `pnpm bench
 * all` runs — every embedder cold and warm, against hashing only. Timings are machine-dependent and never asserted.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedEmbedder, TransformersEmbedder } from "@persode/core/transformers";
import { HashingEmbedder, type EmbedRole, type Embedder, type EmbedderOptions } from "@persode/core";
import { loadEpiRec, loadLocomo } from "@persode/datasets";
import { rolesAlike } from "./embed.js";
import { timeProcess } from "./perf-phases.js";
import { buildEmbedder } from "./embedder-setup.js";
import { runEpisodic } from "./episodic.js";
import { runExp5 } from "./experiments/exp5-locomo.js";

/**
 * The distinct texts Exp. 5 and 6 embed per role, in first-use order (recorded from a hashing run made to tell the roles apart, so nothing
 * is guessed).
 */
export async function benchmarkTexts(): Promise<Record<EmbedRole, string[]>> {
  const inner = new HashingEmbedder();
  const seen: Record<EmbedRole, Set<string>> = { query: new Set(), document: new Set() };
  const recorder: Embedder = {
    name: inner.name,
    id: inner.id,
    dim: inner.dim,
    // Distinct prefixes make the run embed each role separately (embedByRole), as a prefixed model's run does.
    prefixes: { query: "q", document: "d" },
    embed: async (t, role = "document") => (seen[role].add(t), inner.embed(t)),
    embedBatch: async (ts, role = "document") => (ts.forEach((t) => seen[role].add(t)), inner.embedBatch(ts)),
  };
  const spec = { seed: 1, samples: 1 };
  await runExp5(await loadLocomo(), recorder, spec, {}, { extended: false });
  await runEpisodic(await loadEpiRec(), recorder, spec, "perf");
  return { document: [...seen.document], query: [...seen.query] };
}

/** One embedding measurement. */
export interface EmbeddingTiming {
  label: string;
  texts: number;
  /** Word pieces the model saw (role prefixes, [CLS] and [SEP] included, after truncation); 0 when not counted. */
  wordPieces: number;
  seconds: number;
  /** Process CPU time (user + system, all threads) over the same span. */
  cpuSeconds: number;
}

/** The texts a run of this embedder embeds: one list per role when its prefixes differ, else the union once (as embedByRole does). */
function textsFor(embedder: Embedder, texts: Record<EmbedRole, string[]>): [EmbedRole, string[]][] {
  return rolesAlike(embedder)
    ? [["document", [...new Set([...texts.document, ...texts.query])]]]
    : [
        ["document", texts.document],
        ["query", texts.query],
      ];
}

/**
 * Embed the texts with a declared model over a fresh embedding cache (cold), then again from that cache (warm, a new process-level
 * embedder).
 */
export async function measureEmbedding(
  model: string,
  texts: Record<EmbedRole, string[]>,
  settings: EmbedderOptions,
): Promise<EmbeddingTiming[]> {
  const cacheDir = await mkdtemp(join(tmpdir(), "persode-perf-emb-"));
  const out: EmbeddingTiming[] = [];
  try {
    for (const label of ["cold (empty embedding cache)", "warm (embedding cache)"]) {
      const { embedder } = await buildEmbedder(model, { ...settings, cacheDir });
      try {
        const work = textsFor(embedder, texts);
        const inner = embedder instanceof CachedEmbedder ? embedder.inner : embedder;
        let wordPieces = 0;
        if (inner instanceof TransformersEmbedder)
          for (const [role, ts] of work) wordPieces += (await inner.wordPieces(ts, role)).reduce((a, b) => a + b, 0);
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        // Batches of 512, like embedDistinct's: the embedder sorts by length and batches internally.
        for (const [role, ts] of work) for (let i = 0; i < ts.length; i += 512) await embedder.embedBatch(ts.slice(i, i + 512), role);
        const c = process.cpuUsage(c0);
        const n = work.reduce((k, [, ts]) => k + ts.length, 0);
        out.push({
          label: `${model}, ${label}`,
          texts: n,
          wordPieces,
          seconds: (performance.now() - t0) / 1000,
          cpuSeconds: (c.user + c.system) / 1e6,
        });
      } finally {
        await embedder.dispose?.();
      }
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
  return out;
}

/**
 * Wall seconds of whole `node scripts/bench.mjs all` runs in a scratch cache: hashing only, then every embedder cold,
 * warm and recomputed (warm embeddings, `--no-cache`), and warm again (every experiment replayed from the result cache).
 */
export async function measureBenchAll(benchScript: string, env: NodeJS.ProcessEnv): Promise<EmbeddingTiming[]> {
  const dir = await mkdtemp(join(tmpdir(), "persode-perf-all-"));
  const out: EmbeddingTiming[] = [];
  try {
    const runEnv = { ...env, PERSODE_DATA_DIR: join(dir, "cache") };
    // Each run writes into a fresh folder, so the last one reads what the cold run read and replays every experiment.
    const runs: [string, string[]][] = [
      ["pnpm bench all --embedder hashing", ["--embedder", "hashing"]],
      ["pnpm bench all (every embedder), cold", []],
      ["pnpm bench all --no-cache (every embedder), warm embeddings, recomputed", ["--no-cache"]],
      ["pnpm bench all (every embedder), warm (replayed from the result cache)", []],
    ];
    for (const [i, [label, extra]] of runs.entries()) {
      const { wall } = timeProcess([process.execPath, benchScript, "all", "--out", join(dir, `results-${i}`), ...extra], runEnv);
      out.push({ label, texts: 0, wordPieces: 0, seconds: wall, cpuSeconds: 0 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** Write the texts as a JSON array (for timing another implementation, e.g. sentence-transformers, on the same texts). */
export async function writeTexts(path: string, texts: Record<EmbedRole, string[]>): Promise<void> {
  await writeFile(path, JSON.stringify(texts));
}
