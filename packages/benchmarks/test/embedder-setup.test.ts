// Run keys (issue 12): a run is filed under the model that produced it, never under a family guess.
import { describe, expect, it } from "vitest";
import { runKey } from "../src/index.js";

describe("runKey", () => {
  it("names a model's run by the model, with the dtype unless fp32", () => {
    expect(runKey({ model: { id: "Xenova/all-MiniLM-L6-v2", revision: "751bff3", dtype: "fp32" } }, "minilm")).toBe("all-MiniLM-L6-v2");
    expect(runKey({ model: { id: "Xenova/all-MiniLM-L6-v2", revision: "751bff3", dtype: "q8" } }, "minilm")).toBe("all-MiniLM-L6-v2-q8");
    expect(runKey({ model: { id: "persode/tiny-bert", revision: "main", dtype: "fp32" } }, "minilm")).toBe("tiny-bert");
  });

  it("keeps the registry name for an embedder without model weights", () => {
    expect(runKey({}, "hashing")).toBe("hashing");
    expect(runKey({}, "hashing128")).toBe("hashing128");
  });
});
