/** Exp. 5 in the report: its results file, section and figures. */
import type { ResultDoc } from "@persode/results";
import { exp5Figures } from "../figures/exp5.js";
import { exp5Section } from "../sections/exp5.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 5: reads its paper-format results file. */
export const exp5 = reportExperiment<ResultDoc>({
  id: "exp5",
  files: (doc) => [doc.file],
  select: (set) => set.docs.exp5,
  section: exp5Section,
  figures: exp5Figures,
});
