/**
 * Published retrieval numbers, each labelled with the protocol it was measured under (granularity, k, question
 * set, source). They are claims: stated as their source states them, and reproduced here only where
 * `protocol` names the ladder's protocol that computes the same thing (docs/spec.md §9). A number whose
 * protocol could not be verified from its source is left out.
 */
import type { PublishedClaim } from "@persode/results";

/** The claims the protocol ladder shows beside its own numbers. */
export const PUBLISHED_CLAIMS: readonly PublishedClaim[] = [
  {
    system: "Persode reference implementation, similarity-only (hashing embedder)",
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
];
