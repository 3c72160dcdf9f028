/** Exp. 5 (LoCoMo) in the report: its paper-format results file, section and figures. */
import { exp5Figures } from "../figures/exp5.js";
import { exp5Section } from "../sections/exp5.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 5 (LoCoMo). */
export const exp5 = singleFileExperiment("exp5", exp5Section, exp5Figures);
