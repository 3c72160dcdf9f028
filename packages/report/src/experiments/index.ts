/** Every experiment of the report, in presentation order (the README, the HTML report and the manifest follow it). */
import type { ResultSet } from "@persode/results";
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
      return d === undefined ? undefined : { id: e.id, files: e.files(d), section: (rec) => e.section(d, rec), figures: () => e.figures(d) };
    },
  };
}

/** The report's experiments, in the order they are presented. */
const REPORT_EXPERIMENTS: readonly Binder[] = [binder(exp1), binder(exp2), binder(exp3), binder(exp4), binder(exp5), binder(exp5Audit), binder(protocols), binder(exp6), binder(exp7), binder(beyond), binder(embedders), binder(exp8)];

/** The experiments whose results are present in `set`, each bound to its documents, in presentation order. */
export function presentReportExperiments(set: ResultSet): PresentExperiment[] {
  return REPORT_EXPERIMENTS.flatMap((e) => e.bind(set) ?? []);
}
