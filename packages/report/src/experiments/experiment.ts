/**
 * What the report knows about one experiment: its id, the results files it reads, how to find them in a
 * result set, its section and its figures. Adding an experiment to the report is one module like this
 * plus one line in `experiments/index.ts`.
 */
import type { Experiment, ResultDoc, ResultSet } from "@persode/results";
import type { Section, SectionId } from "../content.js";
import type { FigureSpec } from "../figures/common.js";
import type { ManifestRecorder } from "../manifest.js";

/** One experiment of the report; `D` is what its section and figures read (one document, or several). */
export interface ReportExperiment<D = unknown> {
  id: SectionId;
  /** The results files it reads, in the order the manifest lists them; present ones only. */
  files(d: D): string[];
  /** Its documents in a result set, or undefined when the results are absent (the section is left out). */
  select(set: ResultSet): D | undefined;
  /** The section, recording every value it states. */
  section(d: D, rec: ManifestRecorder): Section;
  figures(d: D): FigureSpec[];
}

/** Declare an experiment (keeps `D` checked between select, section and figures). */
export function reportExperiment<D>(e: ReportExperiment<D>): ReportExperiment<D> {
  return e;
}

/** An experiment that reads its one paper-format results file (most of them): which file comes from @persode/results. */
export function singleFileExperiment(
  id: Experiment,
  section: (doc: ResultDoc, rec: ManifestRecorder) => Section,
  figures: (doc: ResultDoc) => FigureSpec[],
): ReportExperiment<ResultDoc> {
  return reportExperiment<ResultDoc>({ id, files: (doc) => [doc.file], select: (set) => set.docs[id], section, figures });
}
