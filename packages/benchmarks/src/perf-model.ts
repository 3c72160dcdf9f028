/**
 * The MiniLM half of `pnpm bench:perf` (issue 12): sentence embedding throughput on the exact texts
 * Exp. 5 and 6 embed, cold (fresh embedding cache) and warm (the cache a previous run filled), and the
 * wall time of whole `pnpm bench all` runs — both embedders cold and warm, against hashing only.
 * Timings are machine-dependent and never asserted.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HashingEmbedder, type Embedder, type EmbedderOptions } from "@persode/core";
import { loadEpiRec, loadLocomo } from "@persode/datasets";
import { buildEmbedder } from "./embedder-setup.js";
import { runEpisodic } from "./episodic.js";
import { runExp5 } from "./experiments/exp5-locomo.js";

/** The distinct texts Exp. 5 and 6 embed, in first-use order (recorded from a hashing run, so nothing is guessed). */
export async function benchmarkTexts(): Promise<string[]> {
  const inner = new HashingEmbedder();
  const seen = new Set<string>();
  const recorder: Embedder = {
    name: inner.name,
    id: inner.id,
    dim: inner.dim,
    embed: async (t) => (seen.add(t), inner.embed(t)),
    embedBatch: async (ts) => (ts.forEach((t) => seen.add(t)), inner.embedBatch(ts)),
  };
  const spec = { seed: 1, samples: 1 };
  await runExp5(await loadLocomo(), recorder, spec);
  await runEpisodic(await loadEpiRec(), recorder, spec, "perf");
  return [...seen];
}

/** One embedding measurement. */
export interface EmbeddingTiming {
  label: string;
  texts: number;
  seconds: number;
  /** Process CPU time (user + system, all threads) over the same span. */
  cpuSeconds: number;
}

/** Embed `texts` with the MiniLM embedder over a fresh embedding cache (cold), then again from that cache (warm, a new process-level embedder). */
export async function measureEmbedding(texts: readonly string[], settings: EmbedderOptions): Promise<EmbeddingTiming[]> {
  const cacheDir = await mkdtemp(join(tmpdir(), "persode-perf-emb-"));
  const out: EmbeddingTiming[] = [];
  try {
    for (const label of ["cold (empty embedding cache)", "warm (embedding cache)"]) {
      const { embedder } = await buildEmbedder("minilm", { ...settings, cacheDir });
      try {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        // One call, like embedDistinct's batches: the embedder sorts by length and batches internally.
        for (let i = 0; i < texts.length; i += 512) await embedder.embedBatch(texts.slice(i, i + 512));
        const c = process.cpuUsage(c0);
        out.push({ label, texts: texts.length, seconds: (performance.now() - t0) / 1000, cpuSeconds: (c.user + c.system) / 1e6 });
      } finally {
        await embedder.dispose?.();
      }
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
  return out;
}

/** Wall seconds of whole `node scripts/bench.mjs all` runs in a scratch cache: hashing only, then both embedders cold and warm. */
export async function measureBenchAll(benchScript: string, env: NodeJS.ProcessEnv): Promise<EmbeddingTiming[]> {
  const dir = await mkdtemp(join(tmpdir(), "persode-perf-all-"));
  const out: EmbeddingTiming[] = [];
  try {
    const runEnv = { ...env, PERSODE_DATA_DIR: join(dir, "cache") };
    const runs: [string, string[]][] = [
      ["pnpm bench all --embedder hashing", ["--embedder", "hashing"]],
      ["pnpm bench all (both embedders), cold", []],
      ["pnpm bench all (both embedders), warm", []],
    ];
    for (const [label, extra] of runs) {
      const args = [benchScript, "all", "--out", join(dir, "results"), ...extra];
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { env: runEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      const seconds = (performance.now() - t0) / 1000;
      if (r.error) throw new Error(`could not start ${process.execPath} ${args.join(" ")}: ${r.error.message}`);
      if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${r.status}:\n${r.stderr.trim()}`);
      out.push({ label, texts: 0, seconds, cpuSeconds: 0 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** Write the texts as a JSON array (for timing another implementation, e.g. sentence-transformers, on the same texts). */
export async function writeTexts(path: string, texts: readonly string[]): Promise<void> {
  await writeFile(path, JSON.stringify(texts));
}
