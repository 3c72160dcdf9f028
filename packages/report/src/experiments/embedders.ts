/** "Does it hold with stronger embedders?" in the report: the extended files of Exp. 5 and 6 and Exp. 7's file, one section (issue 21). */
import { embeddersSection, hasStrongerEmbedders, type EmbeddersDocs } from "../sections/embedders.js";
import { reportExperiment } from "./experiment.js";

/** Present when the extended files hold runs of more than one neural embedder. */
export const embedders = reportExperiment<EmbeddersDocs>({
  id: "embedders",
  files: (d) => [d.exp5.file, d.exp6.file, ...(d.exp7 ? [d.exp7.file] : [])],
  select: (set) => {
    const exp5 = set.extended.exp5;
    const exp6 = set.extended.exp6;
    if (!exp5 || !exp6 || !hasStrongerEmbedders(exp5, exp6)) return undefined;
    return { exp5, exp6, ...(set.docs.exp7 ? { exp7: set.docs.exp7 } : {}) };
  },
  section: embeddersSection,
  figures: () => [],
});
