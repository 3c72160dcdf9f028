/** Writing a results file: check its envelope, serialize byte-stably, replace atomically (never a partial or malformed file). */
import { readFile } from "node:fs/promises";
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
  await writeResultText(path, format(doc));
}

/** A results file's text with its provenance line(s) (`"generated_by": "pnpm bench …"`) blanked out. */
function withoutProvenance(text: string): string {
  return text.replace(/"generated_by": "(?:[^"\\]|\\.)*"/g, '"generated_by": ""');
}

/**
 * Write a results file's text atomically, unless the file there already says exactly the same but for
 * `generated_by`: rerunning one experiment (`pnpm bench exp1`) then leaves a file that `pnpm bench all`
 * wrote as it is, instead of rewriting it only to name another command that produces the same bytes.
 */
export async function writeResultText(path: string, text: string): Promise<void> {
  let previous: string | undefined;
  try {
    previous = await readFile(path, "utf8");
  } catch {
    // no file yet (or unreadable: it is replaced)
  }
  if (previous !== undefined && previous !== text && withoutProvenance(previous) === withoutProvenance(text)) return;
  await writeFileAtomicExplained(path, text);
}
