export {
  LOCOMO,
  EPIREC,
  LOCOMO_AUDIT,
  EMOBANK,
  PINNED_DATASETS,
  LONGMEMEVAL_S,
  LONGMEMEVAL_ORACLE,
  LONGMEMEVAL_DATASETS,
  datasetLabel,
  type PinnedDataset,
} from "./pinned.js";
export { resolveDataset, DEFAULT_DOWNLOAD_TIMEOUT_MS, type ResolveOptions, type ResolvedFile } from "./resolve.js";
export {
  DatasetError,
  DatasetUnavailableError,
  DatasetIntegrityError,
  DatasetDownloadError,
  DatasetFormatError,
  type DataIssue,
} from "./errors.js";
export { sha256Hex } from "./hash.js";
export { parseLocomoDateTime, formatIsoUtc } from "./dates.js";
export {
  parseLocomo,
  loadLocomo,
  LOCOMO_CATEGORY_NAMES,
  type LocomoTurn,
  type LocomoSession,
  type LocomoQA,
  type LocomoConversation,
  type LocomoDataset,
} from "./locomo.js";
export {
  parseLocomoAudit,
  loadLocomoAudit,
  LOCOMO_AUDIT_ERROR_TYPES,
  type LocomoAudit,
  type LocomoAuditEntry,
  type LocomoAuditErrorType,
} from "./locomo-audit.js";
export { corpusCounts, type EpisodicProbe, type EpisodicEpisode, type EpisodicPersona, type EpisodicCorpus } from "./corpus.js";
export { parseEpiRec, loadEpiRec, EPIREC_PROBE_TYPES, EPIREC_INTENSITY_BANDS, EPIREC_VALENCES, EPIREC_SHAPE } from "./epirec.js";
export { loadCsvCorpus, parseCsvCorpus, EPISODE_COLUMNS, PROBE_COLUMNS, type CsvCorpusOptions, type CsvCorpusInput } from "./csv.js";
export { parseEmoBank, loadEmoBank, EMOBANK_SPLITS, EMOBANK_COLUMNS, type EmoBankSentence, type EmoBankDataset } from "./emobank.js";
export { DECLARED_MODELS, declaredModel, modelLabel, pinnedModel } from "./model/pinned-model.js";
/** The declared embedding models, one file each (issue 21). */
export { MINILM_MODEL } from "./model/models/all-minilm-l6-v2.js";
export type { PinnedModel, PinnedModelFile, MavenModelSource, HubModelSource, ModelPrefixes } from "./model/declaration.js";
export {
  provisionModel,
  parseModelSources,
  REMOTE_MODEL_SOURCES,
  type ProvisionOptions,
  type ProvisionedModel,
  type RemoteModelSource,
  type ModelFileSource,
} from "./model/provision.js";
export {
  parseLongMemEval,
  loadLongMemEval,
  parseLongMemEvalDate,
  type LongMemEvalTurn,
  type LongMemEvalSession,
  type LongMemEvalQuestion,
  type LongMemEvalQuirks,
  type LongMemEvalDataset,
  type LongMemEvalProvenance,
  type LongMemEvalLoadOptions,
} from "./longmemeval.js";
export {
  generateLongMemEval,
  syntheticLongMemEvalBytes,
  formatLongMemEvalDate,
  LONGMEMEVAL_QUESTION_TYPES,
  type SyntheticLongMemEvalOptions,
  type SyntheticQuestion,
  type SyntheticTurn,
} from "./longmemeval-synthetic.js";
export { DATASETS, findDataset, datasetsTable, sourceLabel, type DatasetDeclaration, type QuestionSet } from "./declarations.js";
