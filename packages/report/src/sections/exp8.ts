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
  // (a) The official protocol: flat-bm25, then any outside system scored by `pnpm bench longmemeval-eval --report`.
  const rows: Cell[][] = [];
  for (const system of officialSystems(doc)) {
    const bm25 = system === "flat-bm25";
    for (const [g, level, label] of [
      ["turn", "turn", "turn"],
      ["turn", "session", "session from turns"],
      ["session", "session", "session"],
    ] as const) {
      const base = ["official", system, g, "metrics", level];
      if (!hasPath(doc, base)) continue;
      const cells: Cell[] = [[system], [label]];
      const prefix = bm25 ? "exp8.official" : `exp8.official.${strategySlugOf(doc, system)}`;
      for (const k of OFFICIAL_KS)
        for (const m of ["recall_any", "recall_all", "ndcg_any"])
          cells.push([rec.num(doc, [...base, `${m}@${k}`], `${prefix}.${g}.${level}.${m}@${k}`, 4)]);
      rows.push(cells);
    }
  }
  blocks.push({
    kind: "table",
    caption:
      "Exp. 8 (a) — LongMemEval's official protocol (its run_retrieval.py, reimplemented): flat-bm25" +
      (officialSystems(doc).length > 1 ? ", and the outside system's rankings" : ""),
    header: ["system", "granularity", ...OFFICIAL_KS.flatMap((k) => [`any@${k}`, `all@${k}`, `nDCG@${k}`])],
    numeric: [false, false, ...OFFICIAL_KS.flatMap(() => [true, true, true])],
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
    const ladder = ladderTable(doc, rec, emb);
    // An outside system (longmemeval-eval --report) has only the ladder's measures.
    if (!hasPath(doc, ["runs", emb, "strategies"])) {
      if (ladder) blocks.push(ladder);
      continue;
    }
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
    if (ladder) blocks.push(ladder);
  }
  return { experiment: "exp8", title: "Exp. 8 — LongMemEval retrieval", blocks, notes: datasetNotes(doc) };
}

/** The systems of the official block: flat-bm25 first, then outside systems in file order. */
function officialSystems(doc: ResultDoc): string[] {
  const keys = getKeys(doc, ["official"]);
  return [...keys.filter((k) => k === "flat-bm25"), ...keys.filter((k) => k !== "flat-bm25")];
}

/** The ladder's measures the Exp. 8 table shows, turn level then session level (the file holds every measure of docs/spec.md §11). */
const EXP8_RUNGS = [
  "turn.recall@5",
  "turn.ndcg@10",
  "turn.mrr",
  "turn.any@5",
  "session.recall@5",
  "session.any@5",
  "session.all@5",
  "session.any@10",
] as const;

/**
 * "What the same system scores under each protocol" on LongMemEval: every strategy of a run (or the outside system) under the ladder's
 * measures, turn and session level, with 95 % bootstrap CIs; undefined when the run has no protocols block.
 */
function ladderTable(doc: ResultDoc, rec: ManifestRecorder, emb: string): Section["blocks"][number] | undefined {
  const base = ["runs", emb, "protocols"];
  if (!hasPath(doc, [...base, "strategies"])) return undefined;
  const family = getString(doc, [...base, "family"]);
  const strategies = orderedStrategies(doc, getKeys(doc, [...base, "strategies"]));
  const rungs = EXP8_RUNGS.filter((m) => strategies.some((s) => hasPath(doc, [...base, "strategies", s, family, "values", m])));
  const outside = getString(doc, ["runs", emb, "embedder", "name"]) === "outside";
  const t = toleranceOf(emb);
  return {
    kind: "table",
    caption:
      `Exp. 8 — the same rankings under each protocol of the ladder (docs/spec.md §11; ${family}, ` +
      `${getNumber(doc, [...base, "questions"])} questions), ${outside ? "outside system" : embedderCaption(doc, emb)}; ` +
      "recall = evidence recall; brackets: 95 % bootstrap CIs",
    header: ["strategy", ...rungs.map((m) => m.replace(".", " ").replace("ndcg", "nDCG").replace("mrr", "MRR"))],
    numeric: [false, ...rungs.map(() => true)],
    rows: strategies.map((s) => [
      [s],
      ...rungs.map((m): Cell => {
        const p = [...base, "strategies", s, family];
        if (!hasPath(doc, [...p, "values", m])) return ["—"];
        // Value to 3 decimals, its CI to 2 (as the LoCoMo ladder; every CI to 4 decimals is in the file).
        const i = `exp8.${emb}.${strategySlugOf(doc, s)}.protocols.${m}`;
        return [
          rec.num(doc, [...p, "values", m], i, 3, t),
          " [",
          rec.num(doc, [...p, "ci95", m, 0], `${i}.ci95.lo`, 2, t),
          ", ",
          rec.num(doc, [...p, "ci95", m, 1], `${i}.ci95.hi`, 2, t),
          "]",
        ];
      }),
    ]),
  };
}
