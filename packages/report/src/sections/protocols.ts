/**
 * The protocol ladder (docs/spec.md §11): what the same LoCoMo rankings score under each protocol the field
 * publishes — turn or session level, k, question set, gold — with bootstrap CIs, and the published claims beside
 * them, each labelled with its protocol.
 */
import { getArray, getKeys, getNumber, getString, hasPath, orderedStrategies, strategySlugOf, type ResultDoc } from "@persode/results";
import { strong, type Cell, type Inline, type Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { embedderName } from "../style.js";
import { bootstrapSentence, embeddersOf, toleranceOf, valueWithCi } from "./common.js";

/** One rung of the ladder: a measure on a question set and gold. */
export interface Rung {
  family: string;
  measure: string;
}

/** The rungs the README table and the figure show, from Persode's protocol to the vendors' (the results file holds every measure). */
export const LADDER_RUNGS: readonly Rung[] = [
  { family: "persode/original", measure: "turn.recall@5" },
  { family: "persode/original", measure: "turn.ndcg@10" },
  { family: "persode/original", measure: "turn.mrr" },
  { family: "all/original", measure: "turn.recall@5" },
  { family: "persode/original", measure: "turn.any@5" },
  { family: "persode/original", measure: "session.recall@5" },
  { family: "persode/original", measure: "session.any@5" },
  { family: "all/original", measure: "session.any@5" },
  { family: "all/audited", measure: "session.any@5" },
  { family: "all/original", measure: "session.any@10" },
];

const KIND_LABELS: Readonly<Record<string, string>> = { recall: "recall", any: "any", all: "all", ndcg: "nDCG", mrr: "MRR" };

/** "turn recall@5 · persode · original" (granularity and measure · question set · gold). */
export function rungLabel(r: Rung): string {
  const [g, rest] = r.measure.split(".") as [string, string];
  const [kind, k] = rest.split("@") as [string, string | undefined];
  const [set, gold] = r.family.split("/") as [string, string];
  return `${g} ${KIND_LABELS[kind] ?? kind}${k ? `@${k}` : ""} · ${set} · ${gold}`;
}

/** The systems of the README table: BM25 (embedder-free; the hashing run's) and similarity-only with each embedder. */
function columns(doc: ResultDoc): { emb: string; strategy: string; label: string }[] {
  const embedders = embeddersOf(doc);
  const out: { emb: string; strategy: string; label: string }[] = [];
  if (embedders.includes("hashing") && hasPath(doc, ["runs", "hashing", "strategies", "bm25"]))
    out.push({ emb: "hashing", strategy: "bm25", label: "BM25" });
  for (const emb of embedders)
    if (hasPath(doc, ["runs", emb, "strategies", "similarity-only"]))
      out.push({ emb, strategy: "similarity-only", label: `similarity, ${embedderName(emb)}` });
  // An outside system scored by `pnpm bench locomo-eval --report` (a strategy that is not built in) gets its own column.
  for (const emb of embedders.filter((e) => getString(doc, ["runs", e, "embedder", "name"]) === "outside")) {
    for (const s of orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]))) out.push({ emb, strategy: s, label: s });
  }
  return out;
}

/** Build the ladder section, recording every stated number. */
export function protocolsSection(doc: ResultDoc, rec: ManifestRecorder): Section {
  const embedders = embeddersOf(doc);
  const first = embedders[0]!;
  const q = (f: string) => rec.num(doc, ["runs", first, "questions", f], `exp5-protocols.questions.${f}`, 0);
  const blocks: Section["blocks"] = [
    {
      kind: "paragraph",
      parts: [
        "One set of rankings — every strategy of Exp. 5 with every embedder — scored under each protocol the field publishes: turn " +
          "level or session level (sessions ranked by their best-ranked turn), k, the question set (",
        strong("persode"),
        ": categories 1–4, ",
        q("persode/original"),
        " questions; ",
        strong("all"),
        ": every category, adversarial included, ",
        q("all/original"),
        ") and the gold (the dataset's, or the label audit's: ",
        q("all/audited"),
        " questions in the all set). Definitions: docs/spec.md §11; any system's rankings get the same table with ",
        { code: "pnpm bench locomo-eval" },
        ".",
        ...bootstrapSentence(doc, rec, "exp5-protocols"),
      ],
    },
  ];
  const cols = columns(doc);
  const id = (c: { emb: string; strategy: string }, r: Rung) =>
    `exp5-protocols.${c.emb}.${strategySlugOf(doc, c.strategy)}.${r.family}.${r.measure}`;
  const rows: Cell[][] = LADDER_RUNGS.map((r) => [
    [rungLabel(r)],
    ...cols.map((c) => {
      const base = ["runs", c.emb, "strategies", c.strategy, r.family];
      // Value to 3 decimals, its CI to 2 (the table must fit a 1,400 px page; every CI to 4 decimals is in the file).
      const t = toleranceOf(c.emb);
      const i = id(c, r);
      return [
        rec.num(doc, [...base, "values", r.measure], i, 3, t),
        " [",
        rec.num(doc, [...base, "ci95", r.measure, 0], `${i}.ci95.lo`, 2, t),
        ", ",
        rec.num(doc, [...base, "ci95", r.measure, 1], `${i}.ci95.hi`, 2, t),
        "]",
      ];
    }),
  ]);
  blocks.push({
    kind: "table",
    caption:
      "The protocol ladder on LoCoMo — the same rankings under each protocol (granularity measure@k · question set · gold; recall = " +
      "evidence recall; similarity = similarity-only; brackets: 95 % bootstrap CIs; every strategy, measure and gold: " +
      "results/exp5_locomo_protocols.json)",
    header: ["protocol", ...cols.map((c) => c.label)],
    numeric: [false, ...cols.map(() => true)],
    rows,
  });
  blocks.push({
    kind: "figure",
    figure: "protocol_ladder",
    alt: "Every strategy under each protocol of the ladder on LoCoMo, one panel per embedder, with 95% bootstrap CIs",
    inReadme: false,
  });

  // Every strategy of each embedder on the ladder's rungs (HTML report only).
  for (const emb of embedders) {
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]));
    const shown = LADDER_RUNGS.filter((_, i) => [0, 3, 5, 6, 7].includes(i));
    blocks.push({
      kind: "table",
      inReadme: false,
      caption: `The protocol ladder, every strategy, ${embedderName(emb)} embedder`,
      header: ["strategy", ...shown.map(rungLabel)],
      numeric: [false, ...shown.map(() => true)],
      rows: strategies.map((s) => [
        [s],
        ...shown.map((r) => {
          const base = ["runs", emb, "strategies", s, r.family];
          const rid = `exp5-protocols.${emb}.${strategySlugOf(doc, s)}.${r.family}.${r.measure}`;
          return rec.has(rid) ? [{ ref: rid }] : [rec.num(doc, [...base, "values", r.measure], rid, 3, toleranceOf(emb))];
        }),
      ]),
    });
  }

  // The published claims, each with its protocol.
  const items: Inline[][] = getArray(doc, ["claims"]).map((_, i) => {
    const c = ["claims", i];
    const s = (k: string) => getString(doc, [...c, k]);
    const item: Inline[] = [
      strong(s("system")),
      ": ",
      rec.num(doc, [...c, "value"], `exp5-protocols.claims.${i}.value`, 4),
      ` — ${s("measure")}, ${s("granularity")} level, k = ${getNumber(doc, [...c, "k"])}, ${s("dataset")}, ${s("question_set")}, ${getNumber(doc, [...c, "questions"])} questions; source: ${s("source")}. ${s("note")}`,
    ];
    if (hasPath(doc, [...c, "reproduced_by"]) && hasPath(doc, [...c, "protocol"])) {
      const run = getString(doc, [...c, "reproduced_by", "run"]);
      const strategy = getString(doc, [...c, "reproduced_by", "strategy"]);
      const [set, gold, measure] = s("protocol").split("/") as [string, string, string];
      const base = ["runs", run, "strategies", strategy, `${set}/${gold}`];
      if (hasPath(doc, base)) {
        const v = valueWithCi(
          rec,
          doc,
          [...base, "values", measure],
          [...base, "ci95", measure],
          `exp5-protocols.claims.${i}.ours`,
          4,
          toleranceOf(run),
        );
        item.push(": here ", ...v.cell, ` (${s("protocol")})`);
      }
    }
    item.push(".");
    return item;
  });
  blocks.push({
    kind: "paragraph",
    parts: [
      strong("Published claims, with their protocols."),
      " Numbers as their sources state them; a claim without a ladder protocol is not reproduced here. LongMemEval's own protocol is " +
        "Exp. 8's, whose results are present only after ",
      { code: "pnpm bench exp8" },
      " has run on the data.",
    ],
  });
  blocks.push({ kind: "list", items });

  return {
    experiment: "exp5-protocols",
    title: "The protocol ladder — one system, every protocol",
    blocks,
    notes: [
      { label: "Definitions", text: getString(doc, ["protocol", "definitions"]) },
      ...getKeys(doc, ["protocol", "question_sets"]).map((k) => ({
        label: `Question set ${k}`,
        text: getString(doc, ["protocol", "question_sets", k]),
      })),
      { label: "LoCoMo sha256", text: getString(doc, ["benchmark", "data_sha256"]) },
      { label: "Audit sha256", text: getString(doc, ["benchmark", "audit_sha256"]) },
    ],
  };
}
