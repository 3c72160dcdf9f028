/**
 * Exp. 5 on audited evidence: LoCoMo evidence recall on the original and the audited gold, and their paired difference (docs/spec.md §7
 * Exp. 5).
 */
import { strong, type Cell, type Inline, type Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { getArray, getBoolean, getKeys, getString, orderedStrategies, strategySlugOf, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { bootstrapSentence, embeddersOf, toleranceOf } from "./common.js";

/** The metrics the audited-gold table states, original and audited side by side. */
export const EXP5_AUDIT_METRICS: ReadonlyArray<{ key: string; label: string }> = [
  { key: "evidence_recall@5", label: "recall@5" },
  { key: "evidence_recall@10", label: "recall@10" },
];

/** Build the audited-gold section, recording every stated number. */
export function exp5AuditSection(doc: ResultDoc, rec: ManifestRecorder): Section {
  const embedders = embeddersOf(doc);
  const first = embedders[0]!;
  const run0 = ["runs", first];
  const n = (path: string[], id: string) => rec.num(doc, [...run0, ...path], `exp5-audit.${id}`, 0);
  const blocks: Section["blocks"] = [
    {
      kind: "figure",
      figure: "exp5_audited",
      alt: "LoCoMo evidence recall per strategy on the original and the audited gold with 95% bootstrap CIs, one panel per embedder",
      inReadme: true,
    },
    {
      kind: "figure",
      figure: "exp5_audited_paired",
      alt: "Paired differences audited minus original gold with 95% bootstrap CIs",
      inReadme: false,
    },
  ];
  const intro: Inline[] = [
    "The same rankings scored against a second label set, the LoCoMo gold-label audit (",
    rec.text(doc, ["benchmark", "audit", "license"], "exp5-audit.audit.license"),
    ", downloaded and verified on demand, never redistributed): ",
    n(["evidence_changes", "audit_entries"], "audit_entries"),
    " audited questions, ",
    n(["evidence_changes", "audit_entries_with_changed_evidence"], "audit_entries_with_changed_evidence"),
    " with corrected evidence. Of the questions Exp. 5 includes, ",
    n(["evidence_changes", "included_with_changed_evidence"], "included_with_changed_evidence"),
    " change evidence; left with no evidence: ",
    n(["evidence_changes", "became_empty"], "became_empty"),
    " (excluded from the audited gold, by a rule fixed before any audited score was computed); excluded before and resolvable now: ",
    n(["evidence_changes", "newly_included"], "newly_included"),
    ". ",
    n(["questions", "audited"], "questions.audited"),
    " questions on the audited gold, ",
    n(["questions", "paired"], "questions.paired"),
    " on both; differences are paired on those.",
    ...bootstrapSentence(doc, rec, "exp5-audit"),
  ];
  blocks.push({ kind: "paragraph", parts: intro });

  embedders.forEach((emb) => {
    const tol = toleranceOf(emb);
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]));
    const id = (s: string, m: string) => `exp5-audit.${emb}.${strategySlugOf(doc, s)}.${m}`;
    const rows: Cell[][] = strategies.map((s) => {
      const base = ["runs", emb, "strategies", s];
      const cells: Cell[] = [[s]];
      for (const m of EXP5_AUDIT_METRICS) {
        // Each gold's own CIs are in results/exp5_locomo_audited.json and the figure; the table states the
        // paired difference's CI, which is what the audit changes — so the table fits a 1,400 px page.
        cells.push([rec.num(doc, [...base, "original", m.key], id(s, `original.${m.key}`), 4, tol)]);
        cells.push([rec.num(doc, [...base, "audited", m.key], id(s, `audited.${m.key}`), 4, tol)]);
        const d = [...base, "audited_minus_original", m.key];
        const pid = id(s, `paired.${m.key}`);
        cells.push([
          rec.num(doc, [...d, "diff"], `${pid}.diff`, 4, tol),
          " [",
          rec.num(doc, [...d, "ci95", 0], `${pid}.ci95.lo`, 4, tol),
          ", ",
          rec.num(doc, [...d, "ci95", 1], `${pid}.ci95.hi`, 4, tol),
          "]",
        ]);
      }
      return cells;
    });
    blocks.push({
      kind: "table",
      caption: `Exp. 5 — LoCoMo on the original and the audited gold, ${embedderName(emb)} embedder (difference: audited − original on the same questions; brackets: 95 % CI of the paired difference)`,
      header: ["strategy", ...EXP5_AUDIT_METRICS.flatMap((m) => [`${m.label} original`, `${m.label} audited`, `${m.label} difference`])],
      numeric: [false, ...EXP5_AUDIT_METRICS.flatMap(() => [true, true, true])],
      rows,
    });
  });

  const guardParts: Inline[] = [strong("Top-k guard."), " "];
  embedders.forEach((emb, ei) => {
    const g = ["runs", emb, "top_k_guard"];
    const flagged = getBoolean(doc, [...g, "flagged"]);
    if (ei > 0) guardParts.push(" ");
    if (flagged) {
      const convs = getArray(doc, [...g, "conversations"])
        .map(String)
        .join(", ");
      guardParts.push(`${embedderName(emb)}: some stores hold no more memories than a top-k (${convs}): recall@k is trivially 1 there.`);
    } else {
      guardParts.push(
        `${embedderName(emb)}: every store holds more memories than the largest top-k (smallest `,
        rec.num(doc, [...g, "store_sizes", "min"], `exp5-audit.${emb}.top_k_guard.min_store`, 0),
        "), so no recall is trivially 1.",
      );
    }
  });
  blocks.push({ kind: "paragraph", parts: guardParts });
  blocks.push({
    kind: "paragraph",
    parts: [
      strong("Provenance of the audit."),
      " The ",
      rec.text(doc, ["benchmark", "audit", "name"], "exp5-audit.audit.name"),
      " was ",
      rec.text(doc, ["benchmark", "audit", "provenance"], "exp5-audit.audit.provenance"),
      ".",
    ],
  });

  const notes: Section["notes"] = [
    { label: "Audit source", text: getString(doc, ["benchmark", "audit", "url"]) },
    { label: "Audit sha256", text: getString(doc, ["benchmark", "audit", "data_sha256"]) },
    { label: "LoCoMo sha256", text: getString(doc, ["benchmark", "data_sha256"]) },
  ];
  for (const k of ["audited_gold", "inclusion", "empty_evidence_rule", "paired", "top_k_guard"]) {
    notes.push({ label: `Rule: ${k.replace(/_/g, " ")}`, text: getString(doc, ["protocol", "audited_gold", k]) });
  }
  return { experiment: "exp5-audit", title: "Exp. 5 — LoCoMo with audited evidence", blocks, notes };
}
