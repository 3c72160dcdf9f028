/** Exp. 7 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp7Figures } from "../figures/exp7.js";
import { exp7Section } from "../sections/exp7.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 7: reads its paper-format results file. */
export const exp7 = reportExperiment<ResultDoc>({
  id: "exp7",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp7,
  section: exp7Section,
  figures: exp7Figures,
});
