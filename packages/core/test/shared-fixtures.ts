// The test data core's tests share with the harness, each kept once in the repository: the
// hand-labelled scenario is the harness's input (packages/benchmarks/data/scenario.json), and the
// published reference results live with the parity tests (packages/benchmarks/test/fixtures/reference/).
// Core's code never reads them; only these tests check the memory model against them.
import { readFileSync } from "node:fs";

const SCENARIO_URL = new URL("../../benchmarks/data/scenario.json", import.meta.url);
const REFERENCE_URL = new URL("../../benchmarks/test/fixtures/reference/", import.meta.url);

/** The scenario of Exp. 1–4 (docs/spec.md §7), parsed. */
export function scenarioJson(): unknown {
  return JSON.parse(readFileSync(SCENARIO_URL, "utf8"));
}

/** One published reference results file, e.g. "exp1_forgetting_curve.json", parsed. */
export function referenceJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, REFERENCE_URL), "utf8"));
}
