/**
 * The typed shape of every results file (docs/results-format.md). Benchmarks builds these values and writes
 * them through `writeResultFile`; the report reads them through `readResults`. The reader checks the
 * envelope of every file (`meta`, the strategy records, the top-level blocks); the report's accessors
 * (`getNumber`, …) check each value they read and name the file and path when one is missing.
 */
import type { PublishedClaim } from "./published-claims.js";
import type { Experiment } from "./experiments.js";
import type { GateRecord, StrategyRecord } from "./records.js";
import type { ReproducibilityRecord } from "./reproducibility.js";

/** A value with its 95 % percentile-bootstrap interval. */
export type Interval = [number, number];

/**
 * Where one input of a results file came from (issue 27): for a dataset of the registry (packages/datasets,
 * `DATASETS`) its id, title, file name, sha256 and pinned source, written from that registry; for the
 * hand-labelled scenario or a user's file (`--data`) the same fields with what is known of it.
 */
export interface DatasetProvenance {
  /** Registry id (e.g. "locomo"), or "scenario" / "file" for an input outside the registry. */
  id: string;
  title: string;
  /** File name (a `--data` file: the path as given). */
  file: string;
  sha256: string;
  /** The pinned, commit-addressed URL; a repository path or "--data" for inputs outside the registry. */
  source: string;
}

/** The block closing every results file: who wrote it, with which seed, runs and inputs. */
export interface ResultMeta {
  package: string;
  version: string;
  seed: number;
  /** Run keys of the embedder runs the file holds (empty for embedder-free experiments). */
  embedders: string[];
  /** The command that wrote the file, e.g. "pnpm bench all". */
  generated_by: string;
  /** sha256 of the input data (scenario file or pinned dataset). */
  data_sha256: string;
  /** sha256 of the LoCoMo audit (the audited-gold file only). */
  audit_sha256?: string;
  /** Provenance of every input dataset the file was computed from, in the order the experiment declares them. */
  datasets?: DatasetProvenance[];
  /** Every strategy the file reports, in presentation order (files with strategy tables only). */
  strategies?: StrategyRecord[];
  /** Which values are exact and which model-derived (docs/reproducibility.md); set by writeResultFile. */
  reproducibility?: ReproducibilityRecord;
}

/** What every results file has: a closing `meta` (its other blocks are typed per file below). */
export interface ResultDocument {
  meta: ResultMeta;
}

/** The bootstrap block: one set of resamples per experiment and embedder, shared by every strategy. */
export interface BootstrapRecord {
  samples: number;
  seed: number;
  unit: string;
  method: "percentile";
}

/** A run's embedder identity: name, and for a model its id, revision and dtype; the exact id; the dimension. */
export interface EmbedderRecord {
  name: string;
  model?: string;
  revision?: string;
  dtype?: string;
  id: string;
  dim: number;
}

/** Exp. 1: the forgetting curve and consolidation. */
export interface Exp1File extends ResultDocument {
  lambda_per_day: number;
  retention_at_6_days: number;
  half_life_days: number;
  retention_samples: Record<string, number>;
  strength_at_30_days: Record<string, number>;
  consolidation_note: string;
  short_term_window_days: number;
  curves: { age_days: number[]; decay: number[]; profiles: unknown[] };
}

/** One Eq. 1 weighting of Exp. 2. */
export interface Exp2Weighting {
  label: string;
  w_emotion: number;
  w_recall: number;
  w_context: number;
}

/** Exp. 2: the scenario memories ranked under each Eq. 1 weighting. */
export interface Exp2File extends ResultDocument {
  reference_now: string;
  rankings: Record<string, unknown[]>;
  weightings: Exp2Weighting[];
  focus: {
    event: string;
    rank_by_weighting: Record<string, number>;
    S_by_weighting: Record<string, number>;
    ratio_emotion_heavy_vs_balanced: number;
  };
  /** What the runner concluded, stated by the report as is. */
  findings: {
    /** The label of the weighting that weights emotion most (the one the ratio compares with balanced). */
    emotion_heavy_weighting: string;
  };
}

/** One point of Exp. 3's α sweep. */
export interface Exp3AlphaPoint {
  alpha: number;
  long_term_recall: number;
  [metric: string]: number;
}

/** Exp. 3: salience-aware retrieval on the scenario probes (one embedder run per file). */
export interface Exp3File extends ResultDocument {
  reference_now: string;
  protocol: Record<string, unknown> & { alpha: number; top_k: number; query_count: number };
  conditions: Record<"vague" | "plain", Record<string, Record<string, unknown>>>;
  alpha_curve: Exp3AlphaPoint[];
  salience_prioritization: Record<string, unknown>;
  notes: Record<string, string>;
  /** What the runner concluded, stated by the report as is. */
  findings: {
    /**
     * The α range over which long-term emotional recall stays at its maximum: the contiguous run of sweep
     * points at the maximum that contains the pre-registered α (else the first such run).
     */
    long_term_plateau: { from_alpha: number; to_alpha: number; long_term_recall: number };
  };
  embedder?: EmbedderRecord;
}

/** Exp. 4: the personalization check and each profile's journal. */
export interface Exp4File extends ResultDocument {
  reference_now: string;
  personalization: Record<string, unknown>;
  journals: unknown[];
}

/** A benchmark run of one embedder: its identity, per-strategy results (`strategies`) and the run's other blocks. */
export interface BenchmarkRun {
  embedder: EmbedderRecord;
  [block: string]: unknown;
}

/** Exp. 5 and 6 runs also record the gate and how often it fused. */
export interface GatedRun extends BenchmarkRun {
  gate?: GateRecord & Record<string, unknown>;
}

/** Exp. 5 (LoCoMo) or Exp. 6 (EpiRec) in the paper's format, and `pnpm bench corpus` files. */
export interface BenchmarkFile extends ResultDocument {
  benchmark: Record<string, unknown> & { data_sha256: string };
  protocol: Record<string, unknown>;
  bootstrap: BootstrapRecord;
  runs: Record<string, GatedRun>;
}

/** Exp. 5 on the original and the audited LoCoMo gold. */
export interface AuditedFile extends ResultDocument {
  benchmark: Record<string, unknown> & { data_sha256: string; audit: Record<string, unknown> };
  protocol: Record<string, unknown>;
  bootstrap: BootstrapRecord;
  runs: Record<string, BenchmarkRun>;
}

/** The protocol ladder of Exp. 5: every strategy × embedder on LoCoMo under every protocol (docs/spec.md §11), and the published claims. */
export interface ProtocolsFile extends ResultDocument {
  benchmark: Record<string, unknown> & { data_sha256: string };
  protocol: Record<string, unknown>;
  bootstrap: BootstrapRecord;
  claims: PublishedClaim[];
  runs: Record<string, BenchmarkRun>;
}

/** How every p-value of a file was computed. */
export interface SignificanceRecord {
  samples: number;
  seed: number;
  alpha: number;
  [field: string]: unknown;
}

/** The extended ("beyond the paper") file of Exp. 5, Exp. 6 or a corpus. */
export interface ExtendedFile extends ResultDocument {
  benchmark: Record<string, unknown> & { data_sha256: string };
  protocol: Record<string, unknown> & { gate: GateRecord };
  bootstrap: BootstrapRecord;
  significance: SignificanceRecord;
  runs: Record<string, BenchmarkRun>;
}

/** Exp. 7: emotion estimators, their quality and what they do to retrieval. */
export interface Exp7File extends ResultDocument {
  benchmark: Record<string, unknown>;
  protocol: Record<string, unknown> & { gate: GateRecord };
  bootstrap: BootstrapRecord;
  significance: SignificanceRecord;
  runs: Record<string, BenchmarkRun>;
}

/** The document type of each experiment's paper-format file. */
export interface ResultFileTypes {
  exp1: Exp1File;
  exp2: Exp2File;
  exp3: Exp3File;
  exp4: Exp4File;
  exp5: BenchmarkFile;
  "exp5-audit": AuditedFile;
  "exp5-protocols": ProtocolsFile;
  exp6: BenchmarkFile;
  exp7: Exp7File;
  exp8: BenchmarkFile & { official: Record<string, unknown> };
}

/** Compiles only while `ResultFileTypes` has exactly one document type per declared experiment (experiments.ts). */
type DeclaredDocumentTypes = [keyof ResultFileTypes] extends [Experiment] ? ([Experiment] extends [keyof ResultFileTypes] ? ResultFileTypes : never) : never;
const everyDeclaredExperimentHasItsType: DeclaredDocumentTypes extends never ? false : true = true;
void everyDeclaredExperimentHasItsType;

/** Exp. 7's per-item scores: the paired inputs of every comparison, aligned on `probe_ids`. */
export interface Exp7PerItemFile extends ResultDocument {
  note: string;
  probe_ids: string[];
  runs: Record<string, Record<string, unknown>>;
  [block: string]: unknown;
}

/** The document type written for each kind of results file (see `DocumentKind`). */
export interface DocumentTypes extends ResultFileTypes {
  "exp7-per-item": Exp7PerItemFile;
  extended: ExtendedFile;
  corpus: BenchmarkFile & { warnings: string[] };
}
