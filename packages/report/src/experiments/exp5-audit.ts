/** Exp. 5 on audited LoCoMo evidence in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp5AuditFigures } from "../figures/exp5-audit.js";
import { exp5AuditSection } from "../sections/exp5-audit.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 5 on the audited gold: reads `exp5_locomo_audited.json`. */
export const exp5Audit = reportExperiment<ResultDoc>({
  id: "exp5-audit",
  files: (doc) => [doc.file],
  select: (set) => set.docs["exp5-audit"],
  section: exp5AuditSection,
  figures: exp5AuditFigures,
});
