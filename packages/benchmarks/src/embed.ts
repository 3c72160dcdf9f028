import type { EmbedRole, Embedder } from "@persode/core";
import { Progress } from "@persode/util";
import { inPhaseAsync } from "./phases.js";

/**
 * Embed every distinct text once (Fast by design: a text seen as a memory and as a query, or
 * in two strategies, is embedded a single time per run). Batches of 512 (a neural embedder sorts
 * each by length, so larger batches pad less) with a progress bar.
 */
export async function embedDistinct(
  embedder: Embedder,
  texts: Iterable<string>,
  label: string,
  role: EmbedRole = "document",
): Promise<Map<string, Float64Array>> {
  const distinct = [...new Set(texts)];
  const out = new Map<string, Float64Array>();
  const progress = new Progress(`${label}: embedding (${embedder.name}${role === "query" ? ", queries" : ""})`, { total: distinct.length });
  const batch = 512;
  for (let i = 0; i < distinct.length; i += batch) {
    const chunk = distinct.slice(i, i + batch);
    const vecs = await embedder.embedBatch(chunk, role);
    chunk.forEach((t, j) => out.set(t, vecs[j]!));
    progress.tick(chunk.length);
  }
  progress.finish();
  return out;
}

/** A run's vectors by role (issue 21): memories are documents; questions and probes are queries. */
export interface RoleVectors {
  readonly document: ReadonlyMap<string, Float64Array>;
  readonly query: ReadonlyMap<string, Float64Array>;
}

/** Whether the embedder sees a query and a document of the same text alike (no prefixes, or equal ones). */
export function rolesAlike(embedder: Pick<Embedder, "prefixes">): boolean {
  return embedder.prefixes === undefined || embedder.prefixes.query === embedder.prefixes.document;
}

/**
 * Embed every (text, role) item, each distinct text once per role. For an embedder whose roles are alike
 * (all-MiniLM-L6-v2, hashing) this is one `embedDistinct` over the texts in the order given — the same
 * batches, so the same vectors, as before roles existed — and both roles share one map; otherwise the
 * documents and the queries are embedded separately, each with its role's prefix.
 */
export async function embedByRole(embedder: Embedder, items: Iterable<readonly [string, EmbedRole]>, label: string): Promise<RoleVectors> {
  return inPhaseAsync("embed", () => embedRoles(embedder, [...items], label));
}

async function embedRoles(embedder: Embedder, all: (readonly [string, EmbedRole])[], label: string): Promise<RoleVectors> {
  if (rolesAlike(embedder)) {
    const vectors = await embedDistinct(
      embedder,
      all.map(([t]) => t),
      label,
    );
    return { document: vectors, query: vectors };
  }
  const document = await embedDistinct(
    embedder,
    all.filter(([, r]) => r === "document").map(([t]) => t),
    label,
    "document",
  );
  const query = await embedDistinct(
    embedder,
    all.filter(([, r]) => r === "query").map(([t]) => t),
    label,
    "query",
  );
  return { document, query };
}

/** (text, role) items: every text of `texts` in `role`. */
export function inRole(texts: readonly string[], role: EmbedRole): (readonly [string, EmbedRole])[] {
  return texts.map((t) => [t, role] as const);
}
