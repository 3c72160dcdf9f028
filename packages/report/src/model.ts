/**
 * The report model: every section built from the results present, plus the manifest of every
 * value those sections state. README, HTML report and manifest all derive from this one pass.
 */
import type { Section } from "./content.js";
import { ManifestRecorder, type Manifest } from "./manifest.js";
import { EXPERIMENTS, EXTENDED_FILES, RESULT_FILES, type Experiment, type ResultDoc, type ResultSet } from "./results.js";
import { exp1Section } from "./sections/exp1.js";
import { exp2Section } from "./sections/exp2.js";
import { exp3Section } from "./sections/exp3.js";
import { exp4Section } from "./sections/exp4.js";
import { exp5Section } from "./sections/exp5.js";
import { exp5AuditSection } from "./sections/exp5-audit.js";
import { exp6Section } from "./sections/exp6.js";
import { beyondSection } from "./sections/beyond.js";
import { exp7Section } from "./sections/exp7.js";

/** Sections in experiment order and the manifest of their stated values. */
export interface ReportModel {
  sections: Section[];
  manifest: Manifest;
}

const BUILDERS: Readonly<Record<Experiment, (doc: ResultDoc, rec: ManifestRecorder, set: ResultSet) => Section>> = {
  exp1: exp1Section,
  exp2: exp2Section,
  exp3: (doc, rec, set) => exp3Section(doc, rec, set.exp3Models ?? []),
  exp4: exp4Section,
  exp5: exp5Section,
  "exp5-audit": exp5AuditSection,
  exp6: exp6Section,
  exp7: exp7Section,
};

/** Build every section for the experiments present in `set`, recording the manifest as it goes. */
export function buildReportModel(set: ResultSet): ReportModel {
  const rec = new ManifestRecorder();
  const sections: Section[] = [];
  for (const e of EXPERIMENTS) {
    const doc = set.docs[e];
    if (doc) sections.push(BUILDERS[e](doc, rec, set));
  }
  const extended = EXPERIMENTS.flatMap((e) => (set.extended[e] ? [set.extended[e]!] : []));
  if (extended.length > 0) sections.push(beyondSection(extended, rec));
  const order = [
    ...EXPERIMENTS.flatMap((e) => [RESULT_FILES[e], ...(e === "exp3" ? (set.exp3Models ?? []).map((m) => m.doc.file) : [])]),
    ...EXPERIMENTS.flatMap((e) => (EXTENDED_FILES[e] ? [EXTENDED_FILES[e]!] : [])),
  ];
  return { sections, manifest: rec.manifest(order) };
}

/** The regression manifest for the results in `set` (every number and fact the README states). */
export function buildManifest(set: ResultSet): Manifest {
  return buildReportModel(set).manifest;
}
