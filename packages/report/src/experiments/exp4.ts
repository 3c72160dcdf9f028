/** Exp. 4 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp4Figures } from "../figures/exp4.js";
import { exp4Section } from "../sections/exp4.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 4: reads its paper-format results file. */
export const exp4 = reportExperiment<ResultDoc>({
  id: "exp4",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp4,
  section: exp4Section,
  figures: exp4Figures,
});
