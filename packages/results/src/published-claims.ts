/**
 * Published retrieval numbers, each labelled with the protocol it was measured under (granularity, measure, k,
 * question set, what was indexed, source): the one list the protocol ladder (Exp. 5's ladder file, `locomo-eval`)
 * and the LongMemEval section of the report show beside our own numbers. They are claims, stated as their source
 * states them, and reproduced here only where `protocol` names the ladder's protocol that computes the same
 * thing (docs/spec.md §11). Only what could be read at its source (checked 2026-12-01) is listed; add a record
 * only with the source's URL and every protocol field it states. Not included: the LongMemEval paper's own
 * retrieval table (Wu et al., ICLR 2025, arXiv 2410.10813), because no copy of it could be read from this
 * machine, and engram-search's LoCoMo and LongMemEval_S figures, whose source could not be found.
 */

/** A published number, labelled with the protocol it was measured under (a claim: not reproduced here unless `reproduced_by` says so). */
export interface PublishedClaim {
  /** The system as its source names it. */
  system: string;
  /**
   * "reference": the published values this project reproduces; "paper": peer-reviewed with its evaluation code; "vendor claim": a project's
   * own report, not independently checked.
   */
  kind: "reference" | "paper" | "vendor claim";
  value: number;
  /** e.g. "recall_any@5": the measure as the source names it. */
  measure: string;
  dataset: string;
  granularity: "turn" | "session";
  k: number;
  question_set: string;
  questions: number;
  source: string;
  /** The ladder's protocol that computes the same thing (`<set>/<gold>/<measure>`), when one does. */
  protocol?: string;
  /** The ladder's run and strategy that reproduce the claim, when one does. */
  reproduced_by?: { run: string; strategy: string };
  /** What was indexed and how it was embedded, as far as the source says. */
  setup: string;
  note: string;
}

/** Every published claim, in the order the ladder and the report list them. */
export const PUBLISHED_CLAIMS: readonly PublishedClaim[] = Object.freeze([
  {
    system: "Persode reference implementation, similarity-only (hashing embedder)",
    kind: "reference",
    setup: "every LoCoMo turn a memory; the hashing embedder",
    value: 0.1525,
    measure: "evidence recall@5",
    dataset: "LoCoMo",
    granularity: "turn",
    k: 5,
    question_set: "categories 1–4 with a resolvable evidence id",
    questions: 1535,
    source: "the reference results Persode-TS reproduces (docs/spec.md §7 Exp. 5)",
    protocol: "persode/original/turn.recall@5",
    reproduced_by: { run: "hashing", strategy: "similarity-only" },
    note: "Reproduced exactly (exact inputs)",
  },
  {
    system: "Persode reference implementation, similarity-only (all-MiniLM-L6-v2)",
    kind: "reference",
    setup: "every LoCoMo turn a memory; all-MiniLM-L6-v2",
    value: 0.3533,
    measure: "evidence recall@5",
    dataset: "LoCoMo",
    granularity: "turn",
    k: 5,
    question_set: "categories 1–4 with a resolvable evidence id",
    questions: 1535,
    source: "the reference results Persode-TS reproduces (docs/spec.md §7 Exp. 5)",
    protocol: "persode/original/turn.recall@5",
    reproduced_by: { run: "all-MiniLM-L6-v2", strategy: "similarity-only" },
    note: "Reproduced within the neural tolerance (docs/reproducibility.md)",
  },
  {
    system: "agentmemory, BM25 + vector (all-MiniLM-L6-v2)",
    kind: "vendor claim",
    setup: "BM25 with stemming and synonym expansion fused with all-MiniLM-L6-v2 vectors; no LLM",
    value: 0.952,
    measure: "recall_any@5 (any gold session in the top 5)",
    dataset: "LongMemEval_S",
    granularity: "session",
    k: 5,
    question_set: "every question, abstention included",
    questions: 500,
    source: "https://github.com/rohitg00/agentmemory/blob/main/benchmark/LONGMEMEVAL.md",
    note: "A vendor's claim, not reproduced here (the LongMemEval data is not on this machine); sessions, not turns, are the ranked unit",
  },
  {
    system: "agentmemory, BM25 only",
    kind: "vendor claim",
    setup: "BM25 with stemming and synonym expansion; no LLM",
    value: 0.862,
    measure: "recall_any@5 (any gold session in the top 5)",
    dataset: "LongMemEval_S",
    granularity: "session",
    k: 5,
    question_set: "every question, abstention included",
    questions: 500,
    source: "https://github.com/rohitg00/agentmemory/blob/main/benchmark/LONGMEMEVAL.md",
    note: "A vendor's claim, not reproduced here; that BM25 uses Porter stemming and synonym expansion, not textbook BM25",
  },
  {
    system: "memweave (ECR + IDF + CAATB post-processors)",
    kind: "vendor claim",
    value: 0.98,
    measure: "Recall@5 (the session(s) containing the answer retrieved)",
    dataset: "LongMemEval_S",
    granularity: "session",
    k: 5,
    question_set: "a 450-question held-out split, parameters tuned on the other 50 questions",
    questions: 450,
    source: "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/discussions/2",
    setup: "user turns only, all-MiniLM-L6-v2 via Ollama; no LLM",
    note: "A vendor's claim, not reproduced here",
  },
  {
    system: "memweave (ECR + IDF + CAATB post-processors)",
    kind: "vendor claim",
    value: 0.9375,
    measure: "NDCG@5",
    dataset: "LongMemEval_S",
    granularity: "session",
    k: 5,
    question_set: "the same 450-question held-out split",
    questions: 450,
    source: "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/discussions/2",
    setup: "user turns only, all-MiniLM-L6-v2 via Ollama; no LLM",
    note: "A vendor's claim, not reproduced here",
  },
]);
