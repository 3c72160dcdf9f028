/**
 * Experiments as declarations (issue 27): one value per experiment — id, title, the datasets it reads,
 * its paper-format results file and that file's envelope, and the `pnpm bench` target that writes it. The
 * file names (`RESULT_FILES`), the document kinds (`DocumentKind`), the envelope check, benchmarks'
 * runners (`packages/benchmarks/src/experiments/index.ts`, one runner per declared target) and the report's
 * modules (`packages/report/src/experiments/index.ts`, one per declared id) all derive from, or are
 * checked against, this list. This package is the lowest that benchmarks and report both read.
 */

/** Where a document's strategy keys live: its per-run strategy tables, Exp. 3's conditions, or nowhere. */
export type StrategyTables = "runs" | "conditions" | "none";

/** The top-level blocks a results file must have (besides `meta`) and where its strategy tables are. */
export interface Envelope {
  blocks: readonly string[];
  strategies: StrategyTables;
}

/** One experiment, declared once. */
export interface ExperimentDeclaration {
  /** Its key, e.g. "exp5"; also the key of its document type in `ResultFileTypes`. */
  readonly id: string;
  /** What `pnpm bench --help` lists it as. */
  readonly title: string;
  /**
   * The ids of the datasets it reads, in the registry of packages/datasets (`DATASETS`); empty for the
   * experiments on the hand-labelled scenario (packages/benchmarks/data/scenario.json). A test checks every
   * id against the registry and the registry's `experiments` lists against these.
   */
  readonly datasets: readonly string[];
  /** Its paper-format results file (docs/spec.md §7, docs/results.md). */
  readonly file: string;
  readonly envelope: Envelope;
  /** The `pnpm bench` target whose runner writes the file: the experiment's own id, or the one it is part of. */
  readonly runner: string;
}

const declare = <const T extends readonly ExperimentDeclaration[]>(xs: T): T => Object.freeze(xs);

/** Every experiment with a paper-format results file, in the order the report presents them. */
export const EXPERIMENT_DECLARATIONS = declare([
  {
    id: "exp1",
    title: "Exp. 1 — forgetting curve and consolidation",
    datasets: [],
    file: "exp1_forgetting_curve.json",
    envelope: { blocks: ["lambda_per_day", "retention_at_6_days", "half_life_days", "retention_samples", "strength_at_30_days", "curves"], strategies: "none" },
    runner: "exp1",
  },
  {
    id: "exp2",
    title: "Exp. 2 — Eq. 1 weight ablation",
    datasets: [],
    file: "exp2_memory_scoring.json",
    envelope: { blocks: ["rankings", "weightings", "focus", "findings"], strategies: "none" },
    runner: "exp2",
  },
  {
    id: "exp3",
    title: "Exp. 3 — salience-aware retrieval on the scenario",
    datasets: [],
    file: "exp3_retrieval.json",
    envelope: { blocks: ["protocol", "conditions", "alpha_curve", "salience_prioritization", "findings"], strategies: "conditions" },
    runner: "exp3",
  },
  {
    id: "exp4",
    title: "Exp. 4 — dual-template generation",
    datasets: [],
    file: "exp4_journals.json",
    envelope: { blocks: ["personalization", "journals"], strategies: "none" },
    runner: "exp4",
  },
  {
    id: "exp5",
    title: "Exp. 5 — LoCoMo evidence retrieval",
    datasets: ["locomo"],
    file: "exp5_locomo.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
    runner: "exp5",
  },
  {
    id: "exp5-audit",
    title: "Exp. 5 — LoCoMo with audited evidence",
    datasets: ["locomo", "locomo-audit"],
    file: "exp5_locomo_audited.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
    runner: "exp5",
  },
  {
    id: "exp5-protocols",
    title: "Exp. 5 — LoCoMo under every published protocol (the protocol ladder)",
    datasets: ["locomo", "locomo-audit"],
    file: "exp5_locomo_protocols.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "claims", "runs"], strategies: "runs" },
    runner: "exp5",
  },
  {
    id: "exp6",
    title: "Exp. 6 — EpiRec v1.0 episodic recall",
    datasets: ["epirec"],
    file: "exp6_epirec.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "runs"], strategies: "runs" },
    runner: "exp6",
  },
  {
    id: "exp7",
    title: "Exp. 7 — which emotion estimator makes salience earn its keep",
    datasets: ["epirec", "emobank", "locomo"],
    file: "exp7_estimators.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "significance", "runs"], strategies: "none" },
    runner: "exp7",
  },
  {
    id: "exp8",
    title: "Exp. 8 — LongMemEval retrieval (official protocol and Persode's)",
    // the pinned LongMemEval_S by default; the oracle file (or any LongMemEval-format file) through --data
    datasets: ["longmemeval-s", "longmemeval-oracle"],
    file: "exp8_longmemeval.json",
    envelope: { blocks: ["benchmark", "protocol", "bootstrap", "official", "runs"], strategies: "runs" },
    runner: "exp8",
  },
]);

/** One experiment key. */
export type Experiment = (typeof EXPERIMENT_DECLARATIONS)[number]["id"];

/** A `pnpm bench` target that writes a declared experiment's file (benchmarks registers one runner per target). */
export type ExperimentRunner = (typeof EXPERIMENT_DECLARATIONS)[number]["runner"];

/** The experiment keys, in presentation order (Exp. 8's file is written only by `pnpm bench exp8`, never by `all`). */
export const EXPERIMENTS: readonly Experiment[] = EXPERIMENT_DECLARATIONS.map((d) => d.id);

/** The declaration of an experiment. */
export function experimentDeclaration(id: Experiment): (typeof EXPERIMENT_DECLARATIONS)[number] {
  return EXPERIMENT_DECLARATIONS.find((d) => d.id === id)!;
}

/** The declared experiments that read a dataset (by its registry id), in declaration order. */
export function experimentsReading(datasetId: string): Experiment[] {
  return EXPERIMENT_DECLARATIONS.filter((d) => (d.datasets as readonly string[]).includes(datasetId)).map((d) => d.id);
}
