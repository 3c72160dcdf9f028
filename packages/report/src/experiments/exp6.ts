/** Exp. 6 (EpiRec) in the report: its paper-format results file, section and figures. */
import { exp6Figures } from "../figures/exp6.js";
import { exp6Section } from "../sections/exp6.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 6 (EpiRec). */
export const exp6 = singleFileExperiment("exp6", exp6Section, exp6Figures);
