/**
 * The report's content model: a list of sections made of blocks whose numbers are manifest
 * references, rendered both to README Markdown and to the HTML report, so the two always say the
 * same thing and every stated number traces to results/manifest.json.
 */
import type { Experiment } from "@persode/results";
import type { Ref } from "./manifest.js";

/** A report section: one per experiment, plus "beyond" for the extended results and "embedders" for the stronger embedders (issue 21). */
export type SectionId = Experiment | "beyond" | "embedders";

/** A run of text: literal text, a stated value (by manifest id), inline code or a bold lead-in. */
export type Inline = string | Ref | { code: string } | { strong: string };

/** A table cell. */
export type Cell = Inline[];

/** The fusion costs the published evaluation states; each must stay stated next to its gains. */
export const COST_IDS = [
  "exp3-plain-loss",
  "exp3-vague-costs",
  "exp5-ungated-gap",
  "exp6-every-stratum",
  "gate-provenance",
  "exp7-fusion-cost",
  "embedders-fusion-cost",
] as const;
/** One cost statement's identifier. */
export type CostId = (typeof COST_IDS)[number];

/** What each cost statement is about, for guard messages. */
export const COST_TOPICS: Readonly<Record<CostId, string>> = {
  "exp3-plain-loss": "Exp. 3 plain-probe loss (fused vs similarity-only recall@3)",
  "exp3-vague-costs": "Exp. 3 vague-probe costs (neutral-recent recall lost, higher emotional intrusion)",
  "exp5-ungated-gap": "Exp. 5 LoCoMo recall gap of ungated fusion",
  "exp6-every-stratum": "Exp. 6 EpiRec: always-on fusion below similarity-only on every probe type",
  "exp7-fusion-cost":
    "Exp. 7: always-on fusion below similarity-only on reflective probes with every real emotion estimator, the oracle's own cost, " +
    "and the oracle stated as an upper bound",
  "gate-provenance": "provenance of the gate (added after the ungated cost was seen; rule fixed before evaluation)",
  "embedders-fusion-cost": "stronger embedders: always-on fusion below similarity-only with every neural embedder on LoCoMo and EpiRec",
};

/** A claim a cost statement depends on: manifest value `left` is below (or above) `right`. */
export interface Comparison {
  left: string;
  op: "<" | ">";
  right: string;
}

/** One block of a section; a table's `paper` marks the one laid out as the paper lays it out (the README's front tables show only it). */
export type Block =
  | { kind: "paragraph"; parts: Inline[] }
  | { kind: "cost"; cost: CostId; parts: Inline[]; requires: Comparison[]; requiresText?: string[] }
  | {
      kind: "table";
      caption: string;
      header: string[];
      numeric: boolean[];
      rows: Cell[][];
      paper?: boolean;
      /** false: the HTML report only (default: the Markdown documents too). */ inReadme?: boolean;
    }
  | { kind: "figure"; figure: string; alt: string; inReadme: boolean }
  | { kind: "list"; items: Inline[][] };

/** One experiment's part of the report. */
export interface Section {
  experiment: SectionId;
  /** Heading text, e.g. "Exp. 5 — LoCoMo evidence retrieval". */
  title: string;
  blocks: Block[];
  /** Protocol and provenance notes shown in the HTML report only (not stated in the README). */
  notes: Array<{ label: string; text: string }>;
}

/** A bold lead-in such as "Cost." */
export function strong(text: string): { strong: string } {
  return { strong: text };
}
