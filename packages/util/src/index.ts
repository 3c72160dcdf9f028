/** @persode/util — dependency-free helpers every Persode package shares (no memory model, no ML runtime). */
export { DAY_MS, MAX_TIMER_MS, requireTimerMs } from "./time.js";
export { parseIsoInstant, parseIsoDateTime, type IsoParse } from "./iso.js";
export { pyRound } from "./round.js";
export { describe } from "./describe.js";
export { writeFileAtomic, writeFileAtomicExplained } from "./atomic-write.js";
export { parseEnvFlag, offlineFromEnv } from "./env-flag.js";
export { persodeCacheDir } from "./paths.js";
export { Progress, type ProgressOptions, type ProgressUnit } from "./progress.js";
export { fetchWithIdleTimeout, IdleTimeoutError } from "./fetch.js";
export { WriteError, explainWriteError } from "./write-error.js";
export { StampedMarks } from "./marks.js";
