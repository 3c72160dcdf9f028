/**
 * The report model: every section built from the results present, plus the manifest of every
 * value those sections state. README, HTML report and manifest all derive from this one pass.
 */
import type { Section } from "./content.js";
import { ManifestRecorder, type Manifest } from "./manifest.js";
import type { ResultSet } from "@persode/results";
import { presentReportExperiments } from "./experiments/index.js";

/** Sections in experiment order and the manifest of their stated values. */
export interface ReportModel {
  sections: Section[];
  manifest: Manifest;
}

/** Build every section for the experiments present in `set`, recording the manifest as it goes. */
export function buildReportModel(set: ResultSet): ReportModel {
  const rec = new ManifestRecorder();
  const present = presentReportExperiments(set);
  const sections = present.map((e) => e.section(rec));
  return { sections, manifest: rec.manifest(present.flatMap((e) => e.files)) };
}

/** The regression manifest for the results in `set` (every number and fact the README states). */
export function buildManifest(set: ResultSet): Manifest {
  return buildReportModel(set).manifest;
}
