/** Exp. 1 (forgetting curve) in the report: its paper-format results file, section and figures. */
import { exp1Figures } from "../figures/exp1.js";
import { exp1Section } from "../sections/exp1.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 1 (forgetting curve). */
export const exp1 = singleFileExperiment("exp1", exp1Section, exp1Figures);
