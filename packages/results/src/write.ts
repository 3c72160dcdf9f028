/** Writing a results file: check its envelope, serialize byte-stably, replace atomically (never a partial or malformed file). */
import { writeFileAtomicExplained } from "@persode/util";
import type { DocumentTypes } from "./documents.js";
import { envelopeProblems, type DocumentKind } from "./envelope.js";
import { reproducibilityOf } from "./reproducibility.js";

/** A results document that does not have its kind's envelope; nothing was written. */
export class ResultsFormatError extends Error {
  override name = "ResultsFormatError";
}

/** Serialize a results document: two-space indent, keys in insertion order, trailing newline (byte-stable). */
export function formatResultJson(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + "\n";
}

/**
 * Check `doc` against its kind's envelope, then write it atomically to `path` (temp file + rename).
 * `meta.reproducibility` is set from the document's embedder runs (docs/reproducibility.md), so every
 * file says which of its values are exact and which depend on a neural model.
 * `format` replaces the default serializer (e.g. Exp. 7's compact per-item arrays). A malformed
 * document is a ResultsFormatError and the file on disk is left as it was.
 */
export async function writeResultFile<K extends DocumentKind>(path: string, kind: K, doc: DocumentTypes[K], format: (doc: unknown) => string = formatResultJson): Promise<void> {
  const meta = (doc as { meta?: object }).meta;
  if (meta && typeof meta === "object") doc = { ...doc, meta: { ...meta, reproducibility: reproducibilityOf(doc) } };
  const problems = envelopeProblems(kind, doc);
  if (problems.length > 0) {
    throw new ResultsFormatError(`refusing to write ${path}: it is not a well-formed ${kind} results file (${problems.join("; ")}); ${path} was left unchanged. This is a bug in the runner that built it.`);
  }
  await writeFileAtomicExplained(path, format(doc));
}
