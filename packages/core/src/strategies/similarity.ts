import type { RetrievalStrategy } from "./strategy.js";

/** Similarity-only baseline: plain RAG, α = 1. */
export const similarityOnly: RetrievalStrategy = {
  key: "similarity-only",
  slug: "similarity-only",
  description: "cosine similarity only (α = 1)",
  rank: (ctx) => ctx.fusedOrder(1, true),
  fusion: () => ({ alpha: 1, useQueryRelevance: true }),
};
