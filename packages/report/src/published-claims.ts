/**
 * Published LongMemEval retrieval figures, each with its protocol and its source (issue 27 item 5): what
 * others report, shown beside Exp. 8 as claims — never recomputed here and never compared as if measured
 * the same way, since granularity, measure, k, question set and indexed text differ between them. One small
 * data module so the protocol ladder (issue 23) can read the same records. Only what could be read at its
 * source is listed; add a record only with the source's URL and every protocol field it states.
 */

/** One published retrieval figure and the protocol it was measured under. */
export interface PublishedClaim {
  /** The system as its source names it. */
  system: string;
  /** "paper": peer-reviewed with its evaluation code; "vendor claim": a project's own report, not independently checked. */
  kind: "paper" | "vendor claim";
  /** The data, e.g. "LongMemEval_S (cleaned)". */
  dataset: string;
  /** Which questions the average is over, as the source states it. */
  questionSet: string;
  /** What is ranked and counted as a hit: "session", "turn", or "not stated". */
  granularity: "session" | "turn" | "not stated";
  /** The measure as the source names it, and ours where it maps onto the official one (e.g. "recall_any"). */
  measure: string;
  k: number;
  /** The value as a fraction (95.2 % is 0.952). */
  value: number;
  /** What was indexed and how it was embedded, as far as the source says. */
  setup: string;
  /** Where the figure is published. */
  source: string;
}

/**
 * The published LongMemEval_S retrieval figures that could be read at their sources (checked 2026-12-01). Not
 * included: the LongMemEval paper's own retrieval table (Wu et al., ICLR 2025, arXiv 2410.10813), because no
 * copy of its table could be read from this machine (only the abstract); it belongs here with its table
 * number once someone checks it against the paper.
 */
export const LONGMEMEVAL_PUBLISHED_CLAIMS: readonly PublishedClaim[] = Object.freeze([
  {
    system: "agentmemory (BM25 + vector)",
    kind: "vendor claim",
    dataset: "LongMemEval_S (cleaned, xiaowu0162/longmemeval-cleaned)",
    questionSet: "500 questions (its per-type counts sum to 500: abstention questions are not skipped as the official averages skip them)",
    granularity: "session",
    measure: "recall_any (any evidence session in the top k)",
    k: 5,
    value: 0.952,
    setup: "BM25 with stemming and synonym expansion fused with all-MiniLM-L6-v2 vectors; no LLM",
    source: "https://github.com/rohitg00/agentmemory/blob/main/benchmark/LONGMEMEVAL.md",
  },
  {
    system: "agentmemory (BM25 only)",
    kind: "vendor claim",
    dataset: "LongMemEval_S (cleaned, xiaowu0162/longmemeval-cleaned)",
    questionSet: "500 questions (as above)",
    granularity: "session",
    measure: "recall_any (any evidence session in the top k)",
    k: 5,
    value: 0.862,
    setup: "BM25 with stemming and synonym expansion; no LLM",
    source: "https://github.com/rohitg00/agentmemory/blob/main/benchmark/LONGMEMEVAL.md",
  },
  {
    system: "memweave (ECR + IDF + CAATB post-processors)",
    kind: "vendor claim",
    dataset: "LongMemEval_S (cleaned, xiaowu0162/longmemeval-cleaned)",
    questionSet: "a 450-question held-out split, parameters tuned on the other 50 questions",
    granularity: "session",
    measure: "Recall@K (the session(s) containing the answer retrieved)",
    k: 5,
    value: 0.98,
    setup: "user turns only, all-MiniLM-L6-v2 via Ollama; no LLM",
    source: "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/discussions/2",
  },
  {
    system: "memweave (ECR + IDF + CAATB post-processors)",
    kind: "vendor claim",
    dataset: "LongMemEval_S (cleaned, xiaowu0162/longmemeval-cleaned)",
    questionSet: "the same 450-question held-out split",
    granularity: "session",
    measure: "NDCG@K",
    k: 5,
    value: 0.9375,
    setup: "user turns only, all-MiniLM-L6-v2 via Ollama; no LLM",
    source: "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/discussions/2",
  },
] satisfies PublishedClaim[]);
