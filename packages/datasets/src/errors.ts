/** One problem found in a data file, located by a field path (JSON) or file and line (CSV). */
export interface DataIssue {
  /** Where: a field path like `personas[3].episodes[7].probes[1].type`, or `episodes.csv:12`. */
  where: string;
  /** What is wrong and, where possible, how to fix it. */
  message: string;
}

/** Base class of every error this package throws, so callers can tell data problems from bugs. */
export class DatasetError extends Error {
  override name = "DatasetError";
}

/** The data is nowhere to be found (or downloading is disabled); the message says how to provide it. */
export class DatasetUnavailableError extends DatasetError {
  override name = "DatasetUnavailableError";
}

/** Bytes whose sha256 differs from the pinned one; they were not used and not cached. */
export class DatasetIntegrityError extends DatasetError {
  override name = "DatasetIntegrityError";
  constructor(
    message: string,
    /** sha256 of the rejected bytes. */
    readonly actualSha256: string,
    /** The pinned sha256 that was expected. */
    readonly expectedSha256: string,
  ) {
    super(message);
  }
}

/** A download failed (HTTP status, network error, truncation or stall); nothing was written to the cache. */
export class DatasetDownloadError extends DatasetError {
  override name = "DatasetDownloadError";
}

/** A file parsed but does not have the expected shape; `issues` lists every problem with its exact location. */
export class DatasetFormatError extends DatasetError {
  override name = "DatasetFormatError";
  constructor(
    /** What was being read, e.g. "EpiRec v1.0 (/path/epirec_v1.json)". */
    readonly subject: string,
    readonly issues: DataIssue[],
    /** Maximum number of issues spelled out in the message. */
    shown = 20,
  ) {
    super(formatIssues(subject, issues, shown));
  }
}

function formatIssues(subject: string, issues: DataIssue[], shown: number): string {
  const lines = issues.slice(0, shown).map((i) => `  - ${i.where}: ${i.message}`);
  if (issues.length > shown) lines.push(`  … and ${issues.length - shown} more`);
  const n = issues.length;
  return `${subject} is invalid (${n} problem${n === 1 ? "" : "s"}):\n${lines.join("\n")}`;
}
