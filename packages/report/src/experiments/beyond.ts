/** "Beyond the paper" in the report: the extended files of Exp. 5 and 6, one section and one figure. */
import type { ResultDoc } from "@persode/results";
import { beyondFigures } from "../figures/beyond.js";
import { beyondSection } from "../sections/beyond.js";
import { reportExperiment } from "./experiment.js";

/** Beyond the paper: reads every extended results file present (Exp. 5, then Exp. 6). */
export const beyond = reportExperiment<ResultDoc[]>({
  id: "beyond",
  files: (docs) => docs.map((d) => d.file),
  select: (set) => {
    const docs = [set.extended.exp5, set.extended.exp6].filter((d): d is ResultDoc => d !== undefined);
    return docs.length > 0 ? docs : undefined;
  },
  section: beyondSection,
  figures: beyondFigures,
});
