/** Exp. 1 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp1Figures } from "../figures/exp1.js";
import { exp1Section } from "../sections/exp1.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 1: reads its paper-format results file. */
export const exp1 = reportExperiment<ResultDoc>({
  id: "exp1",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp1,
  section: exp1Section,
  figures: exp1Figures,
});
