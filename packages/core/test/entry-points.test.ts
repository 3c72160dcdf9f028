import { describe, expect, it } from "vitest";

// The three entry points of package.json "exports" (docs/spec.md §4 for MiniLM), read from the built dist/
// through the package's own name, exactly as a user of the library resolves them.
describe("entry points", () => {
  it("the root is the memory model: no MiniLM loader, no cache, no test-model generator", async () => {
    const root = await import("@persode/core");
    for (const name of ["MemoryStore", "PersodeAgent", "HashingEmbedder", "createEmbedder", "gated", "DAY_MS"]) {
      expect(root, name).toHaveProperty(name);
    }
    for (const name of ["TransformersEmbedder", "EmbeddingCache", "writeTinyBertModel", "blasDot", "pyRound", "writeFileAtomic"]) {
      expect(root, name).not.toHaveProperty(name);
    }
  });

  it("@persode/core/transformers holds the semantic embedders and their cache", async () => {
    const transformers = await import("@persode/core/transformers");
    expect(typeof transformers.loadTransformersEmbedder).toBe("function");
    expect(typeof transformers.EmbeddingCache).toBe("function");
    expect(transformers.MINILM_DEFAULT_MODEL).toBe("Xenova/all-MiniLM-L6-v2");
  });

  it("@persode/core/testing holds the tiny-model generator", async () => {
    const testing = await import("@persode/core/testing");
    expect(typeof testing.writeTinyBertModel).toBe("function");
    expect(testing).not.toHaveProperty("MemoryStore");
  });
});
