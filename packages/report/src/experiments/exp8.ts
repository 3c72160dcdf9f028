/** Exp. 8 (LongMemEval) in the report: present only when `pnpm bench exp8` wrote its file into the results folder. */
import { exp8Section } from "../sections/exp8.js";
import { singleFileExperiment } from "./experiment.js";

/** Exp. 8 (LongMemEval); no figures. */
export const exp8 = singleFileExperiment("exp8", exp8Section, () => []);
