/** Every experiment of the report, in presentation order (the README, the HTML report and the manifest follow it). */
import { EXPERIMENTS, type Experiment, type ResultDoc, type ResultSet } from "@persode/results";
import type { Section, SectionId } from "../content.js";
import type { FigureSpec } from "../figures/common.js";
import type { ManifestRecorder } from "../manifest.js";
import { beyond } from "./beyond.js";
import { embedders } from "./embedders.js";
import { exp1 } from "./exp1.js";
import { exp2 } from "./exp2.js";
import { exp3 } from "./exp3.js";
import { exp4 } from "./exp4.js";
import { exp5 } from "./exp5.js";
import { exp5Audit } from "./exp5-audit.js";
import { protocols } from "./protocols.js";
import { exp6 } from "./exp6.js";
import { exp7 } from "./exp7.js";
import { exp8 } from "./exp8.js";
import type { ReportExperiment } from "./experiment.js";

/** An experiment whose results are present, bound to its documents. */
export interface PresentExperiment {
  id: SectionId;
  /** The results files it reads, in manifest order. */
  files: string[];
  section(rec: ManifestRecorder): Section;
  figures(): FigureSpec[];
}

/** An experiment as the pipeline sees it: something to bind to a result set. */
interface Binder {
  id: SectionId;
  bind(set: ResultSet): PresentExperiment | undefined;
}

function binder<D>(e: ReportExperiment<D>): Binder {
  return {
    id: e.id,
    bind(set) {
      const d = e.select(set);
      if (d === undefined) return undefined;
      const files = e.files(d);
      return { id: e.id, files, section: (rec) => withProvenance(e.section(d, rec), docsIn(set, files)), figures: () => e.figures(d) };
    },
  };
}

/** The documents of `set` named in `files`, in that order. */
function docsIn(set: ResultSet, files: readonly string[]): ResultDoc[] {
  const all = [...Object.values(set.docs), ...Object.values(set.extended), ...set.exp3Models.map((m) => m.doc)].filter(
    (x): x is ResultDoc => x !== undefined,
  );
  return files.flatMap((f) => all.filter((doc) => doc.file === f));
}

/**
 * A section with the provenance of the datasets its files were computed from (their `meta.datasets`, which
 * benchmarks writes from the dataset registry) as one closing note; files written before provenance was recorded add none.
 */
function withProvenance(section: Section, docs: readonly ResultDoc[]): Section {
  const lines: string[] = [];
  for (const doc of docs) {
    for (const p of doc.data.meta.datasets ?? []) {
      const line = `${p.title}: ${p.file}, sha256 ${p.sha256}, ${p.source}`;
      if (!lines.includes(line)) lines.push(line);
    }
  }
  return lines.length ? { ...section, notes: [...section.notes, { label: "Dataset provenance", text: lines.join("\n") }] } : section;
}

/**
 * The report module of each declared experiment (EXPERIMENT_DECLARATIONS in @persode/results; the compiler refuses a declared id without
 * one).
 */
const MODULES: { readonly [E in Experiment]: Binder } = {
  exp1: binder(exp1),
  exp2: binder(exp2),
  exp3: binder(exp3),
  exp4: binder(exp4),
  exp5: binder(exp5),
  "exp5-audit": binder(exp5Audit),
  "exp5-protocols": binder(protocols),
  exp6: binder(exp6),
  exp7: binder(exp7),
  exp8: binder(exp8),
};

/** The report's own sections, which read several experiments' files, each presented after the experiment named. */
const CROSS_SECTIONS: ReadonlyArray<{ after: Experiment; binder: Binder }> = [
  { after: "exp7", binder: binder(beyond) },
  { after: "exp7", binder: binder(embedders) },
];

/**
 * The report's experiments, in the order they are presented: the declarations' order, each followed by the cross sections placed after it.
 */
const REPORT_EXPERIMENTS: readonly Binder[] = EXPERIMENTS.flatMap((id) => {
  const m = MODULES[id];
  if (m.id !== id) throw new Error(`the report module registered for ${id} is ${m.id}'s`);
  return [m, ...CROSS_SECTIONS.filter((c) => c.after === id).map((c) => c.binder)];
});

/** The experiments whose results are present in `set`, each bound to its documents, in presentation order. */
export function presentReportExperiments(set: ResultSet): PresentExperiment[] {
  return REPORT_EXPERIMENTS.flatMap((e) => e.bind(set) ?? []);
}
