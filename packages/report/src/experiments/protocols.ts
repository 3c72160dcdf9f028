/** The protocol ladder in the report: its results file (written by Exp. 5), section and figure. */
import { protocolsFigures } from "../figures/protocols.js";
import { protocolsSection } from "../sections/protocols.js";
import { singleFileExperiment } from "./experiment.js";

/** The protocol ladder on LoCoMo. */
export const protocols = singleFileExperiment("exp5-protocols", protocolsSection, protocolsFigures);
