import type { Embedder } from "@persode/core";
import { Progress } from "@persode/util";

/**
 * Embed every distinct text once (Fast by design: a text seen as a memory and as a query, or
 * in two strategies, is embedded a single time per run). Batches of 512 (a neural embedder sorts
 * each by length, so larger batches pad less) with a progress bar.
 */
export async function embedDistinct(embedder: Embedder, texts: Iterable<string>, label: string): Promise<Map<string, Float64Array>> {
  const distinct = [...new Set(texts)];
  const out = new Map<string, Float64Array>();
  const progress = new Progress(`${label}: embedding (${embedder.name})`, { total: distinct.length });
  const batch = 512;
  for (let i = 0; i < distinct.length; i += batch) {
    const chunk = distinct.slice(i, i + batch);
    const vecs = await embedder.embedBatch(chunk);
    chunk.forEach((t, j) => out.set(t, vecs[j]!));
    progress.tick(chunk.length);
  }
  progress.finish();
  return out;
}
