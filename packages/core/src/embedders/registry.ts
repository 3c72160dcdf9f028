import type { Embedder } from "./embedder.js";
import { HashingEmbedder } from "./hashing.js";

/** Options every embedder factory accepts; factories ignore what they do not use. */
export interface EmbedderOptions {
  /** Hashing dimension (default 256). */
  dim?: number;
  /** Model id for neural embedders. */
  model?: string;
  /** Revision label of a neural embedder's weights (e.g. the pinned hub commit). */
  revision?: string;
  /** Weight dtype for neural embedders (e.g. "fp32", "q8"). */
  dtype?: string;
  /** Directory holding local model folders (PERSODE_MODEL_DIR). */
  modelDir?: string;
  /** Directory for the persistent embedding cache. */
  cacheDir?: string;
  /** Forbid any download. */
  offline?: boolean;
  /** Content fingerprint of a neural model's files when they were verified already (see TransformersEmbedderOptions.fingerprint). */
  fingerprint?: string;
}

/** A named way to build an embedder; adding an embedder is one entry here. */
export interface EmbedderFactory {
  readonly name: string;
  readonly description: string;
  create(options?: EmbedderOptions): Promise<Embedder>;
}

const factories = new Map<string, EmbedderFactory>();

/** Register an embedder factory under its name (throws on a duplicate name). */
export function registerEmbedder(factory: EmbedderFactory): void {
  if (factories.has(factory.name)) throw new Error(`embedder "${factory.name}" is already registered`);
  factories.set(factory.name, factory);
}

/** Names of all registered embedders, in registration order. */
export function embedderNames(): string[] {
  return [...factories.keys()];
}

/** Build a registered embedder by name, with a clear error listing the known names. */
export async function createEmbedder(name: string, options: EmbedderOptions = {}): Promise<Embedder> {
  const f = factories.get(name);
  if (!f) throw new Error(`unknown embedder "${name}"; known embedders: ${embedderNames().join(", ")}`);
  return f.create(options);
}

registerEmbedder({
  name: "hashing",
  description: "offline MD5 feature hashing, 256-d, exact (docs/spec.md §4)",
  create: async (o = {}) => new HashingEmbedder(o.dim ?? 256),
});

registerEmbedder({
  name: "minilm",
  description:
    "all-MiniLM-L6-v2 sentence embeddings via transformers.js (optional dependency), 384-d, mean-pooled, L2-normalised, cached (docs/spec.md §4)",
  // Imported on demand so hashing-only runs never load transformers.js or onnxruntime.
  create: async (o = {}) => (await import("./transformers.js")).createTransformersEmbedder(o),
});
