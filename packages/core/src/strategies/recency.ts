import type { RetrievalStrategy } from "./strategy.js";

/** Recency-only baseline: newest first, the query ignored. */
export const recencyOnly: RetrievalStrategy = {
  key: "recency-only",
  slug: "recency-only",
  description: "all memories by created_at, newest first (query ignored)",
  queryIndependent: true,
  rank: (ctx) => ctx.recencyOrder(),
};
