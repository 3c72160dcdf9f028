/** Exp. 5 section: LoCoMo evidence retrieval with bootstrap CIs, the ungated cost and the gate's provenance (docs/spec.md §7 Exp. 5). */
import { strong, type Cell, type Comparison, type Inline, type Section } from "../content.js";
import type { ManifestRecorder, Ref } from "../manifest.js";
import { getKeys, getString, hasPath, orderedStrategies, strategySlugOf, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import {
  FUSED,
  GATED,
  SIMILARITY,
  bootstrapSentence,
  embedderCaption,
  datasetNotes,
  paperTable,
  embeddersOf,
  pairedDifference,
  requireStrategies,
  toleranceOf,
  valueWithCi,
} from "./common.js";

/** The metrics the README states for Exp. 5, with their column names. */
export const EXP5_METRICS: ReadonlyArray<{ key: string; label: string; short: string }> = [
  { key: "evidence_recall@5", label: "evidence recall@5", short: "recall@5" },
  { key: "evidence_recall@10", label: "evidence recall@10", short: "recall@10" },
  { key: "hit@5", label: "hit@5", short: "hit@5" },
  { key: "mrr", label: "MRR", short: "MRR" },
];

/** Readable names of the LoCoMo exclusion counters (docs/spec.md §7 Exp. 5). */
const EXCLUSION_LABELS: Readonly<Record<string, string>> = {
  adversarial_cat5: "adversarial questions (category 5)",
  no_evidence: "without evidence",
  unresolvable_evidence: "with unresolvable evidence",
};

/** Build the Exp. 5 section, recording every stated number. */
export function exp5Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const embedders = embeddersOf(doc);
  const blocks: Section["blocks"] = [
    {
      kind: "figure",
      figure: "exp5_locomo",
      alt: "LoCoMo evidence recall, hit rate and MRR per strategy with 95% bootstrap CIs, one panel per embedder",
      inReadme: true,
    },
    { kind: "figure", figure: "exp5_paired", alt: "Paired differences to similarity-only with 95% bootstrap CIs", inReadme: false },
  ];
  const first = embedders[0]!;
  const run0 = ["runs", first];
  const anyStrategy = orderedStrategies(doc, getKeys(doc, [...run0, "strategies"]))[0]!;
  const questions = rec.num(doc, [...run0, "strategies", anyStrategy, "query_count"], "exp5.query_count", 0);
  const conversations = rec.num(
    doc,
    [...run0, "strategies", anyStrategy, "recall@5_by_conversation", "n_conversations"],
    "exp5.n_conversations",
    0,
  );
  const intro: Inline[] = [questions, " questions over ", conversations, " conversations, one memory per turn; excluded a priori: "];
  getKeys(doc, [...run0, "excluded"]).forEach((k, i, all) => {
    intro.push(
      rec.num(doc, [...run0, "excluded", k], `exp5.excluded.${k}`, 0),
      ` ${EXCLUSION_LABELS[k] ?? k.replace(/_/g, " ")}`,
      i < all.length - 1 ? ", " : ".",
    );
  });
  intro.push(...bootstrapSentence(doc, rec, "exp5"));
  blocks.push({ kind: "paragraph", parts: intro });

  const gapParts: Inline[] = [strong("Cost."), " Ungated fusion trails similarity-only in evidence recall@5"];
  const gapChecks: Comparison[] = [];
  const gateParts: Inline[] = [strong("Gain of the gate."), " Gating fusion on the query's emotion recovers similarity-only's recall"];
  let rule: Ref | undefined;
  const paperAt = blocks.length;
  embedders.forEach((emb, ei) => {
    const tol = toleranceOf(emb);
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]));
    requireStrategies(doc, strategies, `runs.${emb}.strategies`, "exp5");
    const id = (s: string, m: string) => `exp5.${emb}.${strategySlugOf(doc, s)}.${m}`;
    const rows: Cell[][] = strategies.map((s) => {
      const base = ["runs", emb, "strategies", s];
      return [
        [s],
        ...EXP5_METRICS.map((m) => valueWithCi(rec, doc, [...base, m.key], [...base, "ci95", m.key], id(s, m.key), 4, tol).cell),
      ];
    });
    blocks.push({
      kind: "table",
      caption: `Exp. 5 — LoCoMo, ${embedderCaption(doc, emb)}`,
      header: ["strategy", ...EXP5_METRICS.map((m) => m.label)],
      numeric: [false, ...EXP5_METRICS.map(() => true)],
      rows,
    });
    const fused = { ref: id(FUSED, "evidence_recall@5") };
    const sim = { ref: id(SIMILARITY, "evidence_recall@5") };
    gapParts.push(ei === 0 ? " — " : "; ", `${embedderName(emb)} `, fused, " against ", sim);
    const paired = ["runs", emb, "strategies", FUSED, "paired_vs_similarity", "evidence_recall@5"];
    if (hasPath(doc, paired)) {
      const pid = `${id(FUSED, "paired")}.evidence_recall@5`;
      gapParts.push(" (", ...pairedDifference(rec, doc, paired, pid, 4, tol), ")");
    }
    gapChecks.push({ left: fused.ref, op: "<", right: sim.ref });
    const gate = rec.num(doc, ["runs", emb, "gate", "fused_fraction"], `exp5.${emb}.gate.fused_fraction`, 4);
    if (strategies.includes(GATED)) {
      gateParts.push(
        ei === 0 ? " — " : "; ",
        `${embedderName(emb)} `,
        { ref: id(GATED, "evidence_recall@5") },
        " against ",
        sim,
        ", fusing on ",
        gate,
        " of the questions",
      );
    }
    if (ei === 0) rule = rec.text(doc, ["runs", emb, "gate", "rule"], "exp5.gate.rule");
  });
  if (embedders.length > 1) {
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", embedders[0]!, "strategies"])).filter((s) =>
      embedders.every((e) => hasPath(doc, ["runs", e, "strategies", s])),
    );
    blocks.splice(
      paperAt,
      0,
      paperTable(rec, doc, embedders, strategies, {
        experiment: "exp5",
        caption: "Exp. 5 — LoCoMo as the paper lays it out",
        headline: { key: "evidence_recall@5", label: "recall@5" },
        mrrKey: "mrr",
      }),
    );
  }
  gapParts.push(".");
  gateParts.push(".");
  blocks.push({ kind: "paragraph", parts: gateParts });
  blocks.push({ kind: "cost", cost: "exp5-ungated-gap", parts: gapParts, requires: gapChecks });
  const provenance = rec.text(doc, ["protocol", "gate_provenance"], "exp5.protocol.gate_provenance");
  blocks.push({
    kind: "cost",
    cost: "gate-provenance",
    parts: [
      strong("Provenance of the gate."),
      " The gated strategy is not part of the original design: it was added after the first LoCoMo run showed the recall cost of ungated fusion. Its rule (",
      rule!,
      ") was fixed before the gated strategy was evaluated and was not tuned on these results.",
    ],
    requires: [],
    requiresText: [provenance.ref],
  });

  const notes = datasetNotes(doc);
  notes.push({ label: "Gate provenance (as recorded by the runner)", text: getString(doc, ["protocol", "gate_provenance"]) });
  return { experiment: "exp5", title: "Exp. 5 — LoCoMo evidence retrieval", blocks, notes };
}
