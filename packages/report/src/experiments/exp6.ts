/** Exp. 6 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp6Figures } from "../figures/exp6.js";
import { exp6Section } from "../sections/exp6.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 6: reads its paper-format results file. */
export const exp6 = reportExperiment<ResultDoc>({
  id: "exp6",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp6,
  section: exp6Section,
  figures: exp6Figures,
});
