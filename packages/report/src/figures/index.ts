/** Every figure spec for the experiments present, in presentation order. */
import { EXPERIMENTS, type Experiment, type ResultDoc, type ResultSet } from "../results.js";
import type { FigureSpec } from "./common.js";
import { exp1Figures } from "./exp1.js";
import { exp2Figures } from "./exp2.js";
import { exp3Figures } from "./exp3.js";
import { exp4Figures } from "./exp4.js";
import { exp5Figures } from "./exp5.js";
import { exp5AuditFigures } from "./exp5-audit.js";
import { exp6Figures } from "./exp6.js";
import { beyondFigures } from "./beyond.js";
import { exp7Figures } from "./exp7.js";

const BUILDERS: Readonly<Record<Experiment, (doc: ResultDoc) => FigureSpec[]>> = {
  exp1: exp1Figures,
  exp2: exp2Figures,
  exp3: exp3Figures,
  exp4: exp4Figures,
  exp5: exp5Figures,
  "exp5-audit": exp5AuditFigures,
  exp6: exp6Figures,
  exp7: exp7Figures,
};

/** Build the figure specs of every experiment present in `set`. */
export function buildFigureSpecs(set: ResultSet): FigureSpec[] {
  const extended = EXPERIMENTS.flatMap((e) => (set.extended[e] ? [set.extended[e]!] : []));
  return [...EXPERIMENTS.flatMap((e) => (set.docs[e] ? BUILDERS[e](set.docs[e]!) : [])), ...(extended.length > 0 ? beyondFigures(extended) : [])];
}
