/** Exp. 7 (emotion estimators) in the report: its paper-format results file, section and figures. */
import { exp7Figures } from "../figures/exp7.js";
import { exp7Section } from "../sections/exp7.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 7 (emotion estimators). */
export const exp7 = singleFileExperiment("exp7", exp7Section, exp7Figures);
