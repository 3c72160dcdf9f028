/** Exp. 2 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp2Figures } from "../figures/exp2.js";
import { exp2Section } from "../sections/exp2.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 2: reads its paper-format results file. */
export const exp2 = reportExperiment<ResultDoc>({
  id: "exp2",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp2,
  section: exp2Section,
  figures: exp2Figures,
});
