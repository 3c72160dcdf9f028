/** Every figure spec for the experiments present, in presentation order. */
import type { ResultSet } from "@persode/results";
import { presentReportExperiments } from "../experiments/index.js";
import type { FigureSpec } from "./common.js";

/** Build the figure specs of every experiment present in `set`. */
export function buildFigureSpecs(set: ResultSet): FigureSpec[] {
  return presentReportExperiments(set).flatMap((e) => e.figures());
}
