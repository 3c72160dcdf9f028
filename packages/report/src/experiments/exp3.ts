/** Exp. 3 in the report: the hashing run's file plus every model run's, its section and figures. */
import type { ResultDoc, ResultSet } from "@persode/results";
import { exp3Figures } from "../figures/exp3.js";
import { exp3Section } from "../sections/exp3.js";
import { reportExperiment } from "./experiment.js";

/** Exp. 3: the hashing run (`exp3_retrieval.json`) and the model runs (`exp3_retrieval_<run key>.json`). */
export const exp3 = reportExperiment<{ doc: ResultDoc; models: ResultSet["exp3Models"] }>({
  id: "exp3",
  files: ({ doc, models }) => [doc.file, ...models.map((m) => m.doc.file)],
  select: (set) => (set.docs.exp3 ? { doc: set.docs.exp3, models: set.exp3Models } : undefined),
  section: ({ doc, models }, rec) => exp3Section(doc, rec, models),
  figures: ({ doc }) => exp3Figures(doc),
});
