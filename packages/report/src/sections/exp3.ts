/** Exp. 3 section: salience-aware retrieval on the scenario, gains and costs (docs/spec.md §7 Exp. 3). */
import { strong, type Cell, type Inline, type Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { getKeys, getString, hasPath, orderedStrategies, strategySlugOf, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { FUSED, GATED, SEMANTIC_TOLERANCE, SIMILARITY, requireStrategies } from "./common.js";

/** Strategies of Exp. 3 in registry order (from the vague condition). */
export function exp3Strategies(doc: ResultDoc): string[] {
  return orderedStrategies(doc, getKeys(doc, ["conditions", "vague"]));
}

/** Build the Exp. 3 section, recording every stated number. */
export function exp3Section(doc: ResultDoc, rec: ManifestRecorder, models: readonly { key: string; doc: ResultDoc }[] = []): Section {
  const strategies = exp3Strategies(doc);
  requireStrategies(doc, strategies, "conditions.vague", "exp3");
  const cond = (c: string, s: string) => ["conditions", c, s];
  const id = (c: string, s: string, m: string) => `exp3.${c}.${strategySlugOf(doc, s)}.${m}`;
  const v = new Map<string, ReturnType<ManifestRecorder["num"]>>();
  for (const s of strategies) {
    v.set(id("vague", s, "recall@3"), rec.num(doc, [...cond("vague", s), "target_recall"], id("vague", s, "recall@3"), 2));
    v.set(id("vague", s, "mrr"), rec.num(doc, [...cond("vague", s), "target_mrr"], id("vague", s, "mrr"), 2));
    v.set(
      id("vague", s, "emotional_long"),
      rec.num(doc, [...cond("vague", s), "recall_by_category", "emotional_long"], id("vague", s, "emotional_long"), 2),
    );
    v.set(
      id("vague", s, "neutral_recent"),
      rec.num(doc, [...cond("vague", s), "recall_by_category", "neutral_recent"], id("vague", s, "neutral_recent"), 2),
    );
    v.set(id("vague", s, "intrusion"), rec.num(doc, [...cond("vague", s), "emotional_intrusion"], id("vague", s, "intrusion"), 2));
    v.set(id("plain", s, "recall@3"), rec.num(doc, [...cond("plain", s), "target_recall"], id("plain", s, "recall@3"), 2));
    v.set(id("plain", s, "mrr"), rec.num(doc, [...cond("plain", s), "target_mrr"], id("plain", s, "mrr"), 2));
    v.set(id("plain", s, "intrusion"), rec.num(doc, [...cond("plain", s), "emotional_intrusion"], id("plain", s, "intrusion"), 2));
  }
  const get = (key: string) => v.get(key)!;
  const rows: Cell[][] = strategies.map((s) => [
    [s],
    [get(id("vague", s, "recall@3"))],
    [get(id("vague", s, "emotional_long"))],
    [get(id("vague", s, "neutral_recent"))],
    [get(id("vague", s, "intrusion"))],
    [get(id("plain", s, "recall@3"))],
    [get(id("plain", s, "intrusion"))],
  ]);

  const queries = rec.num(doc, ["protocol", "query_count"], "exp3.protocol.query_count", 0);
  const topK = rec.num(doc, ["protocol", "top_k"], "exp3.protocol.top_k", 0);
  const alpha = rec.num(doc, ["protocol", "alpha"], "exp3.protocol.alpha", 1);
  const fusedVague = cond("vague", FUSED);
  const nLong = rec.num(doc, [...fusedVague, "query_count_by_category", "emotional_long"], "exp3.count.emotional_long", 0);
  const nRecent = rec.num(doc, [...fusedVague, "query_count_by_category", "emotional_recent"], "exp3.count.emotional_recent", 0);
  const nNeutral = rec.num(doc, [...fusedVague, "query_count_by_category", "neutral_recent"], "exp3.count.neutral_recent", 0);
  const plateau = ["findings", "long_term_plateau"];
  const bumpFrom = rec.num(doc, [...plateau, "from_alpha"], "exp3.alpha_sweep.bump_from", 2);
  const bumpTo = rec.num(doc, [...plateau, "to_alpha"], "exp3.alpha_sweep.bump_to", 2);
  const bumpValue = rec.num(doc, [...plateau, "long_term_recall"], "exp3.alpha_sweep.bump_long_term_recall", 2);
  const prioritized = rec.text(
    doc,
    ["salience_prioritization", "fused_ranks_significant_first"],
    "exp3.salience_prioritization.fused_ranks_significant_first",
  );

  const gainParts: Inline[] = [
    strong("Gain."),
    " On vague probes fusion recalls ",
    get(id("vague", FUSED, "recall@3")),
    " of the targets (similarity-only ",
    get(id("vague", SIMILARITY, "recall@3")),
    ") and ",
    get(id("vague", FUSED, "emotional_long")),
    " of the long-term emotional ones (similarity-only ",
    get(id("vague", SIMILARITY, "emotional_long")),
    "); the long-term recall stays at ",
    bumpValue,
    " for α from ",
    bumpFrom,
    " to ",
    bumpTo,
    " in the sweep. Given two memories with identical text, fusion ranks the emotionally significant one first: ",
    prioritized,
    ".",
  ];
  if (strategies.includes(GATED)) {
    gainParts.push(" The gated strategy keeps similarity-only's plain-probe recall (", get(id("plain", GATED, "recall@3")), ").");
  }
  const semantic: Section["blocks"] = models.map(({ key, doc: m }) => {
    const mid = (c: string, s: string) => `exp3.${key}.${c}.${strategySlugOf(m, s)}.recall@3`;
    const r = (c: string, s: string) => rec.num(m, [...cond(c, s), "target_recall"], mid(c, s), 2, SEMANTIC_TOLERANCE);
    const parts: Inline[] = [
      strong(`Semantic embedder (${embedderName(key)}).`),
      " The same probes with the sentence embeddings of ",
      rec.text(m, ["embedder", "model"], `exp3.${key}.embedder.model`),
      ": similarity-only recalls ",
      r("vague", SIMILARITY),
      " of the targets on vague probes and ",
      r("plain", SIMILARITY),
      " on plain ones (hashing ",
      get(id("vague", SIMILARITY, "recall@3")),
      " and ",
      get(id("plain", SIMILARITY, "recall@3")),
      "); fusion ",
      r("vague", FUSED),
      " / ",
      r("plain", FUSED),
    ];
    if (strategies.includes(GATED)) parts.push(", the gate ", r("vague", GATED), " / ", r("plain", GATED));
    parts.push(" (vague / plain).");
    return { kind: "paragraph", parts } as const;
  });
  const notes: Section["notes"] = [];
  if (hasPath(doc, ["protocol", "note"])) notes.push({ label: "Protocol", text: getString(doc, ["protocol", "note"]) });
  for (const key of hasPath(doc, ["notes"]) ? getKeys(doc, ["notes"]) : []) {
    const text = getString(doc, ["notes", key]);
    notes.push({ label: key.replace(/_/g, " "), text });
  }
  return {
    experiment: "exp3",
    title: "Exp. 3 — salience-aware retrieval (scenario probes)",
    blocks: [
      {
        kind: "figure",
        figure: "exp3_strategies",
        alt: "Target recall@3, MRR and topical precision@3 per strategy for vague and plain probes",
        inReadme: true,
      },
      {
        kind: "figure",
        figure: "exp3_categories",
        alt: "Recall@3 by target category and emotional intrusion per strategy",
        inReadme: true,
      },
      { kind: "figure", figure: "exp3_alpha_sweep", alt: "Recall, MRR and long-term recall over the fusion weight alpha", inReadme: false },
      {
        kind: "paragraph",
        parts: [
          "Pre-registered protocol: ",
          queries,
          " hand-labelled probes, each in a vague and a plain phrasing, top-",
          topK,
          ", α = ",
          alpha,
          " (",
          nLong,
          " long-term emotional, ",
          nRecent,
          " recent emotional and ",
          nNeutral,
          " neutral recent targets; emotional intrusion is measured on the neutral probes).",
        ],
      },
      {
        kind: "table",
        caption: "Exp. 3 — recall@3 and emotional intrusion per strategy",
        header: [
          "strategy",
          "recall@3 vague",
          "long-term emotional (vague)",
          "neutral recent (vague)",
          "intrusion (vague)",
          "recall@3 plain",
          "intrusion (plain)",
        ],
        numeric: [false, true, true, true, true, true, true],
        rows,
      },
      { kind: "paragraph", parts: gainParts },
      {
        kind: "cost",
        cost: "exp3-plain-loss",
        parts: [
          strong("Cost."),
          " On plain probes always-on fusion recalls ",
          get(id("plain", FUSED, "recall@3")),
          " of the targets against ",
          get(id("plain", SIMILARITY, "recall@3")),
          " for similarity-only.",
        ],
        requires: [{ left: id("plain", FUSED, "recall@3"), op: "<", right: id("plain", SIMILARITY, "recall@3") }],
      },
      {
        kind: "cost",
        cost: "exp3-vague-costs",
        parts: [
          strong("Cost."),
          " Under vague probes fusion finds ",
          get(id("vague", FUSED, "neutral_recent")),
          " of the neutral recent targets (similarity-only ",
          get(id("vague", SIMILARITY, "neutral_recent")),
          ") and lets more emotional memories intrude on neutral probes: intrusion ",
          get(id("vague", FUSED, "intrusion")),
          " against ",
          get(id("vague", SIMILARITY, "intrusion")),
          " for similarity-only.",
        ],
        requires: [
          { left: id("vague", FUSED, "neutral_recent"), op: "<", right: id("vague", SIMILARITY, "neutral_recent") },
          { left: id("vague", FUSED, "intrusion"), op: ">", right: id("vague", SIMILARITY, "intrusion") },
        ],
      },
      ...semantic,
    ],
    notes,
  };
}
