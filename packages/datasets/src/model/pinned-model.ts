import type { PinnedModel } from "./declaration.js";
import { MINILM_MODEL } from "./models/all-minilm-l6-v2.js";
import { BGE_SMALL_EN_V15_MODEL } from "./models/bge-small-en-v1.5.js";
import { E5_SMALL_V2_MODEL } from "./models/e5-small-v2.js";

/**
 * Every declared embedding model, in the order `pnpm bench all` and `pnpm model fetch --all` run them. Adding a model is one file in
 * models/ and one entry here.
 */
export const DECLARED_MODELS: readonly PinnedModel[] = Object.freeze([MINILM_MODEL, BGE_SMALL_EN_V15_MODEL, E5_SMALL_V2_MODEL]);

/**
 * Human-readable label for messages, e.g. "embedding model Xenova/all-MiniLM-L6-v2 (fp32, revision 751bff3)" (a commit shortened, any other
 * label in full).
 */
export function modelLabel(m: PinnedModel): string {
  return `embedding model ${m.id} (${m.dtype}, revision ${/^[0-9a-f]{40}$/.test(m.revision) ? m.revision.slice(0, 7) : m.revision})`;
}

/** The declared model with this hub/transformers.js id, if the project declares one. */
export function pinnedModel(id: string): PinnedModel | undefined {
  return DECLARED_MODELS.find((m) => m.id === id);
}

/** The declared model with this name or alias ("all-MiniLM-L6-v2", "minilm", "bge-small-en-v1.5", …), if any. */
export function declaredModel(name: string): PinnedModel | undefined {
  return DECLARED_MODELS.find((m) => m.name === name || m.aliases.includes(name));
}
