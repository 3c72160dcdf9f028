/**
 * @persode/results — the results format in one place: the file names, the typed documents, the
 * strategy and gate records, the envelope check, the one writer benchmarks uses and the one reader
 * the report uses (docs/results-format.md). Depends on nothing but @persode/util.
 */
/**
 * Experiments as declarations: the one list every file name, document kind, runner and report module derives from or is checked against.
 */
export {
  EXPERIMENT_DECLARATIONS,
  EXPERIMENTS,
  experimentDeclaration,
  experimentsReading,
  type Experiment,
  type ExperimentDeclaration,
  type ExperimentRunner,
  type Envelope,
  type StrategyTables,
} from "./experiments.js";
export {
  HASHING_RUN,
  RESULT_FILES,
  EXTENDED_FILES,
  EXP7_PER_ITEM_FILE,
  emobankModelFile,
  perRunFile,
  perRunKeyOf,
  rankingsDir,
  rankingsStem,
  corpusFiles,
  benchTarget,
  type ExtendedExperiment,
  type PerRunExperiment,
} from "./files.js";
export { strategyRecords, gateRecord, type StrategyRecord, type GateRecord, type GateSource } from "./records.js";
export type {
  Interval,
  ResultMeta,
  DatasetProvenance,
  ResultDocument,
  BootstrapRecord,
  EmbedderRecord,
  Exp1File,
  Exp2File,
  Exp2Weighting,
  Exp3File,
  Exp3AlphaPoint,
  Exp4File,
  BenchmarkRun,
  GatedRun,
  BenchmarkFile,
  AuditedFile,
  ProtocolsFile,
  SignificanceRecord,
  ExtendedFile,
  Exp7File,
  ResultFileTypes,
  Exp7PerItemFile,
  DocumentTypes,
} from "./documents.js";
export { envelopeProblems, type DocumentKind } from "./envelope.js";
export { writeResultFile, writeResultText, formatResultJson, ResultsFormatError } from "./write.js";
export {
  readResults,
  presentExperiments,
  getValue,
  getNumber,
  getString,
  getBoolean,
  getArray,
  getNumberArray,
  getStringArray,
  getKeys,
  hasPath,
  strategyRecordsOf,
  strategyRecordOf,
  orderedStrategies,
  orderedStrategyRecords,
  strategySlugOf,
  type ResultDoc,
  type ResultSet,
} from "./read.js";
export { formatPath, parsePath, resolvePath, type PathSegment } from "./json-path.js";
/**
 * The reproducibility contract (docs/reproducibility.md): each file's class, the tolerances of model-derived values, and the checker behind
 * `pnpm results:check`.
 */
export {
  reproducibilityOf,
  toleranceFor,
  TOLERANCE_RULES,
  FITTED_DECIMALS,
  CONTRACT_DOC,
  type ReproducibilityClass,
  type ReproducibilityRecord,
  type ToleranceRule,
} from "./reproducibility.js";
export { checkResults, type CheckReport, type FileCheck, type FileTree, type Deviation } from "./check.js";
export { PUBLISHED_CLAIMS, type PublishedClaim } from "./published-claims.js";
