/** Exp. 5 on audited LoCoMo evidence in the report: its paper-format results file, section and figures. */
import { exp5AuditFigures } from "../figures/exp5-audit.js";
import { exp5AuditSection } from "../sections/exp5-audit.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 5 on audited LoCoMo evidence. */
export const exp5Audit = singleFileExperiment("exp5-audit", exp5AuditSection, exp5AuditFigures);
