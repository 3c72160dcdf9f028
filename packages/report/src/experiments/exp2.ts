/** Exp. 2 (Eq. 1 weight ablation) in the report: its paper-format results file, section and figures. */
import { exp2Figures } from "../figures/exp2.js";
import { exp2Section } from "../sections/exp2.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 2 (Eq. 1 weight ablation). */
export const exp2 = singleFileExperiment("exp2", exp2Section, exp2Figures);
