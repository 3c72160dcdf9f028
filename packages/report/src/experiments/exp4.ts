/** Exp. 4 (dual-template generation) in the report: its paper-format results file, section and figures. */
import { exp4Figures } from "../figures/exp4.js";
import { exp4Section } from "../sections/exp4.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 4 (dual-template generation). */
export const exp4 = singleFileExperiment("exp4", exp4Section, exp4Figures);
