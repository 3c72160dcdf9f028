/**
 * Exp. 8 section: LongMemEval under the official protocol (flat-bm25) and Persode's (every strategy), as far as results are present
 * (docs/spec.md §7 Exp. 8).
 */
import {
  PUBLISHED_CLAIMS,
  getKeys,
  getNumber,
  getString,
  hasPath,
  orderedStrategies,
  strategySlugOf,
  type ResultDoc,
} from "@persode/results";
import { strong, type Cell, type Inline, type Section } from "../content.js";
import { fixed } from "../format.js";
import type { ManifestRecorder } from "../manifest.js";
import { bootstrapSentence, datasetNotes, embedderCaption, embeddersOf, toleranceOf, valueWithCi } from "./common.js";

const OFFICIAL_KS = [1, 5, 10] as const;

/** The published LongMemEval figures the section sets beside ours, as claims. */
const LONGMEMEVAL_CLAIMS = PUBLISHED_CLAIMS.filter((c) => c.dataset.startsWith("LongMemEval"));

/** Build the Exp. 8 section, recording every stated number. */
export function exp8Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const pinned = hasPath(doc, ["benchmark", "provenance", "pinned"]) && getString(doc, ["benchmark", "provenance", "dataset"]) !== "file";
  const data: Inline[] = pinned
    ? [strong("Data."), " The pinned ", { code: getString(doc, ["benchmark", "provenance", "dataset"]) }, " file, sha256-verified."]
    : [
        strong("Data."),
        " Not the official LongMemEval data: a LongMemEval-format file given with ",
        { code: "--data" },
        " (",
        { code: getString(doc, ["benchmark", "provenance", "file"]) },
        ", sha256 ",
        { code: getString(doc, ["benchmark", "data_sha256"]).slice(0, 12) },
        "…). The committed results hold no LongMemEval numbers.",
      ];
  const questions = rec.num(doc, ["benchmark", "questions"], "exp8.benchmark.questions", 0);
  const blocks: Section["blocks"] = [{ kind: "paragraph", parts: [...data, " ", questions, " questions."] }];
  // (a) The official protocol.
  const rows: Cell[][] = [];
  for (const [g, level, label] of [
    ["turn", "turn", "turn"],
    ["turn", "session", "session from turns"],
    ["session", "session", "session"],
  ] as const) {
    const base = ["official", "flat-bm25", g, "metrics", level];
    if (!hasPath(doc, base)) continue;
    const cells: Cell[] = [[label]];
    for (const k of OFFICIAL_KS)
      for (const m of ["recall_any", "recall_all", "ndcg_any"])
        cells.push([rec.num(doc, [...base, `${m}@${k}`], `exp8.official.${g}.${level}.${m}@${k}`, 4)]);
    rows.push(cells);
  }
  blocks.push({
    kind: "table",
    caption: "Exp. 8 (a) — flat-bm25 under LongMemEval's official protocol (its run_retrieval.py, reimplemented)",
    header: ["granularity", ...OFFICIAL_KS.flatMap((k) => [`any@${k}`, `all@${k}`, `nDCG@${k}`])],
    numeric: [false, ...OFFICIAL_KS.flatMap(() => [true, true, true])],
    rows,
  });
  const t = ["official", "flat-bm25", "turn"];
  blocks.push({
    kind: "paragraph",
    parts: [
      "Averaged over ",
      rec.num(doc, [...t, "averaged_questions"], "exp8.official.averaged_questions", 0),
      " questions; skipped as the official code skips them: ",
      rec.num(doc, [...t, "ignored_abstention"], "exp8.official.ignored_abstention", 0),
      " abstention questions and ",
      rec.num(doc, [...t, "ignored_no_target"], "exp8.official.ignored_no_target", 0),
      " without a user-side evidence turn. Equal BM25 scores could change the metrics of ",
      rec.num(doc, [...t, "tie_sensitive_questions"], "exp8.official.turn.tie_sensitive_questions", 0),
      " questions at turn level (the file gives every average with ties broken for and against the evidence).",
    ],
  });
  // Published figures beside ours: claims, each under its own protocol (PUBLISHED_CLAIMS of @persode/results).
  blocks.push({
    kind: "table",
    caption: "Published LongMemEval_S retrieval figures — claims under their own protocols, not measured here",
    header: ["system", "kind", "granularity", "measure", "k", "value", "question set", "setup", "source"],
    numeric: [false, false, false, false, true, true, false, false, false],
    rows: LONGMEMEVAL_CLAIMS.map((c) => [
      [c.system],
      [c.kind],
      [c.granularity],
      [c.measure],
      [String(c.k)],
      [fixed(c.value, 4)],
      [c.question_set],
      [c.setup],
      [{ code: c.source }],
    ]),
  });
  blocks.push({
    kind: "paragraph",
    parts: [
      strong("Published figures."),
      " Each was measured its own way (what is ranked, which questions are averaged, what is indexed), so none is directly " +
        "comparable with the tables above; the closest to the official protocol's session ",
      { code: "recall_any@5" },
      " are the session-level ones, and those still average over other question sets. The LongMemEval paper's own retrieval table is " +
        "not listed: no copy of it could be checked here.",
    ],
  });
  // (b) Persode's protocol.
  for (const emb of embeddersOf(doc)) {
    const tol = toleranceOf(emb);
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]));
    const id = (s: string, m: string) => `exp8.${emb}.${strategySlugOf(doc, s)}.${m}`;
    blocks.push({
      kind: "table",
      caption: `Exp. 8 (b) — every strategy under Persode's protocol, ${embedderCaption(doc, emb)}`,
      header: ["strategy", "evidence recall@5", "MRR", "session any@5"],
      numeric: [false, true, true, true],
      rows: strategies.map((s) => {
        const base = ["runs", emb, "strategies", s];
        return [
          [s],
          ...["evidence_recall@5", "mrr", "session_recall_any@5"].map(
            (m) => valueWithCi(rec, doc, [...base, m], [...base, "ci95", m], id(s, m), 4, tol).cell,
          ),
        ];
      }),
    });
    const types = getKeys(doc, ["runs", emb, "by_question_type"]);
    blocks.push({
      kind: "table",
      caption: `Exp. 8 (b) — evidence recall@5 per question type, ${embedderCaption(doc, emb)}`,
      header: ["strategy", ...types.map((ty) => `${ty} (n = ${getNumber(doc, ["runs", emb, "by_question_type", ty, "n"])})`)],
      numeric: [false, ...types.map(() => true)],
      rows: strategies.map((s) => [
        [s],
        ...types.map(
          (ty) =>
            [
              rec.num(
                doc,
                ["runs", emb, "by_question_type", ty, "strategies", s, "evidence_recall@5"],
                `exp8.${emb}.${strategySlugOf(doc, s)}.${ty}.evidence_recall@5`,
                4,
                tol,
              ),
            ] as Cell,
        ),
      ]),
    });
    blocks.push({
      kind: "paragraph",
      parts: [
        strong("Gate."),
        ` The gate fused on `,
        rec.num(doc, ["runs", emb, "gate", "fired_fraction"], `exp8.${emb}.gate.fired_fraction`, 4),
        " of the questions.",
        ...bootstrapSentence(doc, rec, "exp8"),
      ],
    });
  }
  return { experiment: "exp8", title: "Exp. 8 — LongMemEval retrieval", blocks, notes: datasetNotes(doc) };
}
