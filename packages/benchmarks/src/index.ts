/** @persode/benchmarks — the paper's six experiments behind `pnpm bench`, plus the EpiRec evaluator. */
export { main as runCli, sameFile, type RunHooks } from "./cli.js";
export { StagedResults, type StagedFile } from "./staging.js";
export { EXPERIMENTS, findExperiment } from "./experiments/index.js";
export type { RunnableExperiment, ExperimentContext, ExperimentReport } from "./experiments/experiment.js";
export { runExp1, linspace } from "./experiments/exp1-forgetting.js";
export { runExp2 } from "./experiments/exp2-scoring.js";
export { runExp3, EXP3_PROTOCOL } from "./experiments/exp3-retrieval.js";
export { runExp4 } from "./experiments/exp4-journals.js";
export {
  runExp5,
  selectQuestions,
  turnText,
  LOCOMO_CATEGORIES,
  EXP5_PROTOCOL,
  type LocomoQuestion,
  type Exp5Run,
  type Exp5Hooks,
} from "./experiments/exp5-locomo.js";
export {
  AuditScorer,
  auditedGold,
  topKGuard,
  EXP5_AUDIT_PROTOCOL,
  type AuditedGold,
  type EvidenceChanges,
  type TopKGuard,
} from "./experiments/exp5-audit.js";
export { runEpisodic, EPISODIC_PROTOCOL, FACTUAL, type EpisodicRun } from "./episodic.js";
export { runCorpusCommand, corpusSlug } from "./corpus-command.js";
export { loadScenario, scenarioStore, scenarioMemoryInit, type Scenario, type ScenarioMemory, type ScenarioProbe } from "./scenario.js";
export { mean, pstdev, rankOf, rankingMetrics } from "./metrics.js";
export {
  LADDER_MEASURES,
  LOCOMO_QUESTION_SETS,
  measure,
  parseMeasure,
  protocol,
  relevantRanks,
  scoreQuestion,
  scoreRanks,
  sessionRanks,
  type Granularity,
  type LocomoGold,
  type LocomoQuestionSet,
  type Measure,
  type MeasureKind,
  type Protocol,
} from "./protocols.js";
export {
  evaluateLocomoRankings,
  parseLocomoRankings,
  RankingsInputError,
  type LocomoEvalReport,
  type LocomoRankingLine,
} from "./locomo-eval.js";
export { embedDistinct } from "./embed.js";
export { writeAtomic, mergeRuns, DEFAULT_SEED, DEFAULT_SAMPLES } from "./result-records.js";
export { RankingsWriter, type EncodedIds } from "./rankings-writer.js";
export { PyRandom, MT19937, cpythonSeedKey } from "./stats/mt19937.js";
export { exactMean, ratioToDouble } from "./stats/exact-mean.js";
export { pythonPercentileCI, percentileRanks } from "./stats/python-bootstrap.js";
export { resampleTable, percentileInterval, pairedInterval, type BootstrapSpec } from "./stats/bootstrap.js";
export {
  DEFAULT_PERMUTATIONS,
  TIE_TOLERANCE,
  drawSignFlips,
  randomizationTest,
  type SignFlips,
  type RandomizationResult,
} from "./stats/randomization.js";
export { pairedTTest, type PairedTTest } from "./stats/t-test.js";
export { holm } from "./stats/holm.js";
export {
  compareWithBaseline,
  pairedTest,
  type PairedTestSpec,
  type PairedTest,
  type AdjustedPairedTest,
  type SystemScores,
} from "./stats/paired-comparison.js";
export {
  extendedStrategyResults,
  significanceBlock,
  EXTENDED_BASELINE,
  EXTENDED_ALPHA,
  GATE_ON_HYBRID,
  type ExtendedSystem,
} from "./extended-results.js";
export { indexCorpus, ageBucket, type EvaluatedCorpus, type AgeBucket } from "./epirec/corpus-index.js";
export { RankingsError, parseRankingsJsonl, validateRankings } from "./epirec/rankings.js";
export {
  evaluateRankings,
  formatOfficialReport,
  compareCodePoints,
  OFFICIAL_DEFAULTS,
  type OfficialOptions,
  type OfficialReport,
  type OfficialGroup,
} from "./epirec/official.js";
export { pyJsonDumps, pyFloatRepr, pyStringLiteral, PyFloat, PyDict, type PyJson } from "./epirec/python-json.js";
export { buildEmbedder, runKey, declaredEmbedderName, selectedDeclaration, DEFAULT_NEURAL_MODEL } from "./embedder-setup.js";
export {
  OFFICIAL_KS,
  officialCorpus,
  correctDocs,
  evaluateRetrieval,
  evaluateTurnToSession,
  officialQuestionMetrics,
  officialAverages,
  officialSkip,
  bm25OkapiScores,
  rankByScore,
  tieBounds,
  tieSensitive,
  flatBm25,
  officialTokens,
  numpySum,
  numpyMean,
  type OfficialCorpus,
  type OfficialGranularity,
  type OfficialMetrics,
} from "./longmemeval/official.js";
export {
  evaluateLongMemEvalRankings,
  parseLongMemEvalRankings,
  LongMemEvalRankingsError,
  type LongMemEvalEvalReport,
} from "./longmemeval/eval.js";
export {
  runExp8,
  runOfficialFlatBm25,
  runPersodeProtocol,
  EXP8_OFFICIAL_PROTOCOL,
  EXP8_PERSODE_PROTOCOL,
} from "./experiments/exp8-longmemeval.js";
export { EXP8_FILE, EXP8_RANKINGS_DIR } from "./experiments/exp8.js";
