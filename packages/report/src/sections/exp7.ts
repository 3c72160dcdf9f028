/**
 * Exp. 7 section: which emotion estimator makes salience earn its keep — estimator quality (part 1),
 * EpiRec recall@3 differences to similarity-only per stratum (part 2), the answer, and the cost of fusion.
 * The oracle reads EpiRec's authored labels: it is always labelled an upper bound, never a method.
 */
import { strong, type Cell, type Comparison, type Inline, type Section } from "../content.js";
import type { ManifestRecorder, Ref } from "../manifest.js";
import type { PathSegment } from "@persode/results";
import { getArray, getBoolean, getKeys, getNumber, getString, getStringArray, hasPath, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { significanceMark } from "./beyond.js";
import { bootstrapSentence, embeddersOf, toleranceOf } from "./common.js";

/** ▲/▼ after a paired difference when its Holm-adjusted randomization test rejects (results' `significant`). */
function holmMark(doc: ResultDoc, paired: PathSegment[]): string {
  const sig = [...paired, "significant"];
  return hasPath(doc, sig) && getBoolean(doc, sig) ? significanceMark(true, getNumber(doc, [...paired, "diff"])) : "";
}

/** The two E-dependent strategies and their display names. */
export const EXP7_MODES: ReadonlyArray<{ key: string; label: string }> = [
  { key: "fused", label: "fused" },
  { key: "gated", label: "gated" },
];

/**
 * The strata of the retrieval tables, in column order, with display names: the summary table (overall, reflective with CIs, each probe
 * type) and the type × band table.
 */
const EXP7_SUMMARY_STRATA: ReadonlyArray<{ key: string; label: string }> = [
  { key: "overall", label: "overall" },
  { key: "reflective", label: "reflective" },
  { key: "factual", label: "factual" },
  { key: "reflective_explicit", label: "refl. explicit" },
  { key: "reflective_implicit", label: "refl. implicit" },
];
const EXP7_BAND_STRATA: ReadonlyArray<{ key: string; label: string }> = ["factual", "reflective_explicit", "reflective_implicit"].flatMap(
  (t) =>
    ["low", "mild", "high"].map((b) => ({
      key: `${t}·${b}`,
      label: `${t.replace("reflective_", "refl. ").replace("factual", "fact.")} ${b}`,
    })),
);

/** Display name of a stratum key, e.g. "reflective_explicit·high" → "reflective explicit · high". */
function stratumLabel(key: string): string {
  return key.replace(/_/g, " ").replace("·", " · ");
}

/** Display name of an estimator: the oracle always carries "(upper bound)". */
export function estimatorLabel(doc: ResultDoc, emb: string, name: string): string {
  return getBoolean(doc, ["runs", emb, "estimators", name, "upper_bound"]) ? `${name} (upper bound)` : name;
}

/** Real estimators and upper bounds of one run, in file order. */
export function estimatorsOf(doc: ResultDoc, emb: string): { real: string[]; bounds: string[] } {
  const names = getKeys(doc, ["runs", emb, "estimators"]);
  const bound = (n: string) => getBoolean(doc, ["runs", emb, "estimators", n, "upper_bound"]);
  return { real: names.filter((n) => !bound(n)), bounds: names.filter(bound) };
}

function statCell(rec: ManifestRecorder, doc: ResultDoc, path: PathSegment[], id: string, tol: number): Cell {
  if (!hasPath(doc, path) || getValueIsNull(doc, path)) return ["—"];
  const v = rec.num(doc, [...path, "value"], id, 2, tol);
  if (!hasPath(doc, [...path, "ci95"]) || getValueIsNull(doc, [...path, "ci95"])) return [v];
  return [
    v,
    " [",
    rec.num(doc, [...path, "ci95", 0], `${id}.lo`, 2, tol),
    ", ",
    rec.num(doc, [...path, "ci95", 1], `${id}.hi`, 2, tol),
    "]",
  ];
}

function getValueIsNull(doc: ResultDoc, path: PathSegment[]): boolean {
  let v: unknown = doc.data;
  for (const seg of path) v = v === null || v === undefined ? undefined : (v as Record<string | number, unknown>)[seg as string | number];
  return v === null;
}

/** Build the Exp. 7 section, recording every stated number. */
export function exp7Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const embedders = embeddersOf(doc);
  // every column is compared with the baseline the file names (significance.baseline)
  const baseline = getString(doc, ["significance", "baseline"]);
  const blocks: Section["blocks"] = [
    {
      kind: "figure",
      figure: "exp7_quality_gain",
      alt:
        "Estimator quality (Spearman rho with EpiRec intensity band) against the paired recall@3 difference to similarity-only on " +
        "reflective probes, fused and gated, one panel per embedder",
      inReadme: true,
    },
  ];
  const probes = rec.num(doc, ["benchmark", "epirec", "probes"], "exp7.benchmark.epirec.probes", 0);
  const episodes = rec.num(doc, ["benchmark", "epirec", "episodes"], "exp7.benchmark.epirec.episodes", 0);
  const testN = rec.num(doc, ["benchmark", "emobank", "test"], "exp7.benchmark.emobank.test", 0);
  const intro: Inline[] = [
    "The paper's open problem — the salience prior needs a better emotion estimator — as a table. Each estimator supplies E for " +
      "every memory and every query; nothing is fitted on EpiRec labels. Quality: Spearman ρ of episode E with EpiRec's authored " +
      "intensity band and agreement of its valence class with the authored valence (",
    episodes,
    " episodes), Pearson r of E with EmoBank test arousal and of its valence with EmoBank valence (",
    testN,
    " sentences), and the AUC of query E separating reflective from factual probes (",
    probes,
    " probes). Retrieval: EpiRec with the Exp. 6 protocol, memory and query E from the estimator, always-on fusion (α = ",
    rec.num(doc, ["protocol", "alpha"], "exp7.protocol.alpha", 1),
    ") and the gate (fusion iff query E ≥ ",
    rec.num(doc, ["protocol", "gate", "threshold"], "exp7.protocol.gate.threshold", 1),
    ").",
    ...bootstrapSentence(doc, rec, "exp7"),
  ];
  blocks.push({ kind: "paragraph", parts: intro });
  const oracleNote: Inline[] = [
    strong("Oracle."),
    " The oracle is an upper bound, not a method: ",
    rec.text(doc, ["protocol", "oracle"], "exp7.protocol.oracle"),
    ".",
  ];
  blocks.push({ kind: "paragraph", parts: oracleNote });

  const answer: Inline[] = [strong("Answer.")];
  const cost: Inline[] = [
    strong("Cost."),
    " Always-on fusion scores below similarity-only on reflective probes (recall@3) with every real estimator",
  ];
  const costChecks: Comparison[] = [];
  embedders.forEach((emb, ei) => {
    const tol = toleranceOf(emb);
    const { real, bounds } = estimatorsOf(doc, emb);
    const all = [...real, ...bounds];
    const q = (name: string) => ["runs", emb, "quality", name];
    const qid = (name: string, m: string) => `exp7.${emb}.${name}.quality.${m}`;
    // Model line: EmoBank regressor.
    const model = ["runs", emb, "emobank_model"];
    blocks.push({
      kind: "paragraph",
      parts: [
        `EmoBank regressor (${embedderName(emb)}): ridge regression on `,
        `${embedderName(emb)} embeddings, λ = `,
        rec.num(doc, [...model, "lambda"], `exp7.${emb}.emobank_model.lambda`, getNumber(doc, [...model, "lambda"]) < 1 ? 2 : 0),
        " chosen on the dev split; on the test split Pearson r = ",
        rec.num(doc, [...model, "test_pearson", "arousal", "value"], `exp7.${emb}.emobank_model.test_r.arousal`, 2, tol),
        " (arousal) and ",
        rec.num(doc, [...model, "test_pearson", "valence", "value"], `exp7.${emb}.emobank_model.test_r.valence`, 2, tol),
        " (valence). Its weights (",
        { code: `results/${getString(doc, [...model, "file"])}` },
        ", written by ",
        { code: "pnpm bench exp7" },
        ") are derived from EmoBank and so licensed ",
        rec.text(doc, [...model, "license"], `exp7.${emb}.emobank_model.license`),
        ".",
      ],
    });
    blocks.push({
      kind: "table",
      caption: `Exp. 7 — estimator quality, ${embedderName(emb)} embedder`,
      header: [
        "estimator",
        "ρ with EpiRec band",
        "EpiRec valence agreement",
        "EmoBank r arousal",
        "EmoBank r valence",
        "reflective AUC",
        "gate rate factual / refl. explicit / refl. implicit",
      ],
      numeric: [false, true, true, true, true, true, true],
      rows: all.map((name) => [
        [estimatorLabel(doc, emb, name)],
        statCell(rec, doc, [...q(name), "epirec_episodes", "spearman_band"], qid(name, "spearman_band"), tol),
        statCell(rec, doc, [...q(name), "epirec_episodes", "valence_agreement"], qid(name, "valence_agreement"), tol),
        statCell(rec, doc, [...q(name), "emobank_test", "pearson_arousal"], qid(name, "pearson_arousal"), tol),
        statCell(rec, doc, [...q(name), "emobank_test", "pearson_valence"], qid(name, "pearson_valence"), tol),
        statCell(rec, doc, [...q(name), "epirec_probes", "auc_reflective"], qid(name, "auc_reflective"), tol),
        ["factual", "reflective_explicit", "reflective_implicit"].flatMap((t, ti) => [
          ti === 0 ? "" : " / ",
          rec.num(doc, [...q(name), "epirec_probes", "gate_rate", t], qid(name, `gate_rate.${t}`), 2, tol),
        ]) as Cell,
      ]),
    });
    const ret = (col: string) => ["runs", emb, "retrieval", col];
    const rid = (col: string, s: string, m: string) => `exp7.${emb}.${col}.${s}.${m}`;
    const diffTable = (strataCols: ReadonlyArray<{ key: string; label: string }>, caption: string) => {
      const baseRow: Cell[] = [
        [`${baseline} (recall@3)`],
        ...strataCols.map((s) => [rec.num(doc, [...ret(baseline), s.key, "r3"], rid(baseline, s.key, "r3"), 3, tol)] as Cell),
      ];
      const diffRows: Cell[][] = all.flatMap((name) =>
        EXP7_MODES.map((m) => {
          const col = `${name}/${m.key}`;
          return [
            [`${estimatorLabel(doc, emb, name)} · ${m.label}`],
            ...strataCols.map((s) => {
              const p = [...ret(col), s.key, "paired_vs_similarity"];
              const d = rec.num(doc, [...p, "diff"], rid(col, s.key, "diff"), 3, tol);
              const mark = holmMark(doc, p);
              if (s.key !== "overall" && s.key !== "reflective") return [d, mark] as Cell;
              return [
                d,
                " [",
                rec.num(doc, [...p, "ci95", 0], rid(col, s.key, "diff.lo"), 3, tol),
                ", ",
                rec.num(doc, [...p, "ci95", 1], rid(col, s.key, "diff.hi"), 3, tol),
                "]",
                mark,
              ] as Cell;
            }),
          ];
        }),
      );
      blocks.push({
        kind: "table",
        caption: `${caption}, ${embedderName(emb)} embedder`,
        header: ["estimator · strategy", ...strataCols.map((s) => s.label)],
        numeric: [false, ...strataCols.map(() => true)],
        rows: [baseRow, ...diffRows],
      });
    };
    diffTable(
      EXP7_SUMMARY_STRATA,
      "Exp. 7 — recall@3 difference to similarity-only on the same probes, overall and per probe type (paired; 95 % CI for overall " +
        "and reflective; ▲/▼ significant after Holm)",
    );
    diffTable(
      EXP7_BAND_STRATA,
      "Exp. 7 — recall@3 difference to similarity-only per probe type × intensity band (paired; ▲/▼ significant after Holm)",
    );

    // The answer, from the runner's answer block.
    const ans = ["runs", emb, "answer"];
    answer.push(ei === 0 ? " " : " ", `${embedderName(emb)} — on EpiRec `);
    answer.push(...holmClaim(doc, rec, [...ans, "holm"], `exp7.${emb}.answer.holm`, "any stratum", stratumLabel, 3, tol));
    const best = [...ans, "best_reflective"];
    if (hasPath(doc, [...best, "column"])) {
      answer.push(
        "; the best real point gain on reflective probes is ",
        getString(doc, [...best, "column"]),
        " at ",
        rec.num(doc, [...best, "diff"], `exp7.${emb}.answer.best_reflective.diff`, 3, tol),
        " [",
        rec.num(doc, [...best, "ci95", 0], `exp7.${emb}.answer.best_reflective.lo`, 3, tol),
        ", ",
        rec.num(doc, [...best, "ci95", 1], `exp7.${emb}.answer.best_reflective.hi`, 3, tol),
        "]",
      );
    }
    const head = [...ans, "headroom"];
    if (hasPath(doc, [...head, "stratum"])) {
      answer.push(
        ". Headroom: the oracle (upper bound) gains most on ",
        stratumLabel(getString(doc, [...head, "stratum"])),
        " (",
        getString(doc, [...head, "oracle_column"]),
        " ",
        rec.num(doc, [...head, "oracle_diff"], `exp7.${emb}.answer.headroom.oracle_diff`, 3, tol),
        " [",
        rec.num(doc, [...head, "oracle_ci95", 0], `exp7.${emb}.answer.headroom.oracle_lo`, 3, tol),
        ", ",
        rec.num(doc, [...head, "oracle_ci95", 1], `exp7.${emb}.answer.headroom.oracle_hi`, 3, tol),
        "]); the best real estimator there, ",
        getString(doc, [...head, "best_column"]),
        ", closes ",
        rec.num(doc, [...head, "best_closed"], `exp7.${emb}.answer.headroom.best_closed`, 2, tol),
        " of it",
      );
    }
    answer.push(".");

    // Cost: fused below similarity-only on reflective probes for every real estimator, and the oracle's own cost.
    const sim: Ref = { ref: rid(baseline, "reflective", "r3") };
    cost.push(ei === 0 ? " — " : "; ", `${embedderName(emb)}: `);
    real.forEach((name, ri) => {
      const col = `${name}/fused`;
      const id = rid(col, "reflective", "r3");
      const r: Ref = rec.num(doc, [...ret(col), "reflective", "r3"], id, 3, tol);
      cost.push(ri === 0 ? "" : ", ", `${name} `, r);
      costChecks.push({ left: id, op: "<", right: sim.ref });
    });
    cost.push(" against ", sim);
    for (const name of bounds) {
      const col = `${name}/fused`;
      const worst = "reflective_implicit·low";
      if (!hasPath(doc, [...ret(col), worst])) continue;
      const id = rid(col, worst, "r3");
      cost.push(
        "; even the ",
        `${name} (an upper bound)`,
        " pays where targets are low-intensity: reflective implicit·low ",
        rec.num(doc, [...ret(col), worst, "r3"], id, 3, tol),
        " against ",
        { ref: rid(baseline, worst, "r3") },
      );
      costChecks.push({ left: id, op: "<", right: rid(baseline, worst, "r3") });
    }
    // LoCoMo (Exp. 5 protocol): evidence recall@5 differences per category; no oracle (no emotion labels).
    const lret = (col: string) => ["runs", emb, "locomo", "retrieval", col];
    const lid = (col: string, s: string, m: string) => `exp7.${emb}.locomo.${col}.${s}.${m}`;
    if (hasPath(doc, ["runs", emb, "locomo"])) {
      const cats = getKeys(doc, lret(baseline));
      blocks.push({
        kind: "table",
        caption: `Exp. 7 — LoCoMo evidence recall@5 difference to similarity-only on the same questions (paired; 95 % CI overall; ▲/▼ significant after Holm), ${embedderName(emb)} embedder`,
        header: ["estimator · strategy", ...cats],
        numeric: [false, ...cats.map(() => true)],
        rows: [
          [
            [`${baseline} (recall@5)`],
            ...cats.map((c) => [rec.num(doc, [...lret(baseline), c, "recall5"], lid(baseline, c, "recall5"), 4, tol)] as Cell),
          ],
          ...real.flatMap((name) =>
            EXP7_MODES.map((m) => {
              const col = `${name}/${m.key}`;
              return [
                [`${name} · ${m.label}`],
                ...cats.map((c) => {
                  const p = [...lret(col), c, "paired_vs_similarity"];
                  const d = rec.num(doc, [...p, "diff"], lid(col, c, "diff"), 4, tol);
                  const mark = holmMark(doc, p);
                  if (c !== "overall") return [d, mark] as Cell;
                  return [
                    d,
                    " [",
                    rec.num(doc, [...p, "ci95", 0], lid(col, c, "diff.lo"), 4, tol),
                    ", ",
                    rec.num(doc, [...p, "ci95", 1], lid(col, c, "diff.hi"), 4, tol),
                    "]",
                    mark,
                  ] as Cell;
                }),
              ];
            }),
          ),
        ],
      });
      answer.push(" On LoCoMo (Exp. 5 protocol, no oracle: it has no emotion labels) ");
      answer.push(...holmClaim(doc, rec, [...ans, "locomo_holm"], `exp7.${emb}.answer.locomo_holm`, "any category", (c) => c, 4, tol));
      answer.push(".");
      // Which estimators' fusion trails similarity-only on temporal questions differs by embedder: the runner
      // lists them (answer.locomo_temporal_fusion); the clause names the ones below (each guarded "<") and,
      // apart, the ones above (guarded ">"), so a list that no longer matches the values fails the guard.
      const temporal = [...ans, "locomo_temporal_fusion"];
      const stated = hasPath(doc, [...temporal, "category"]); // null when the run has no such category
      const category = stated ? getString(doc, [...temporal, "category"]) : "";
      const losing = stated ? getStringArray(doc, [...temporal, "below"]) : [];
      const gaining = stated ? getStringArray(doc, [...temporal, "above"]) : [];
      const list = (names: readonly string[], op: "<" | ">") =>
        names.forEach((name, ri) => {
          const col = `${name}/fused`;
          const id = lid(col, category, "recall5");
          cost.push(ri === 0 ? "" : ", ", `${name} `, rec.num(doc, [...lret(col), category, "recall5"], id, 4, tol));
          costChecks.push({ left: id, op, right: lid(baseline, category, "recall5") });
        });
      if (losing.length > 0) {
        cost.push(
          losing.length === real.length
            ? `; on LoCoMo ${category} questions (evidence recall@5) always-on fusion loses with every real estimator: `
            : `; on LoCoMo ${category} questions (evidence recall@5) always-on fusion loses with `,
        );
        list(losing, "<");
        cost.push(" against ", { ref: lid(baseline, category, "recall5") });
        if (gaining.length > 0) {
          cost.push(" (but not with ");
          list(gaining, ">");
          cost.push(")");
        }
      }
    }
  });
  cost.push(".");
  blocks.push({ kind: "paragraph", parts: significanceNote(doc, rec) });
  blocks.push({ kind: "paragraph", parts: answer });
  blocks.push({ kind: "cost", cost: "exp7-fusion-cost", parts: cost, requires: costChecks, requiresText: ["exp7.protocol.oracle"] });
  const notes: Section["notes"] = [
    {
      label: "EpiRec",
      text: `${getString(doc, ["benchmark", "epirec", "url"])} (${getString(doc, ["benchmark", "epirec", "license"])}), sha256 ${getString(doc, ["benchmark", "epirec", "data_sha256"])}`,
    },
    {
      label: "EmoBank",
      text: `${getString(doc, ["benchmark", "emobank", "url"])} (${getString(doc, ["benchmark", "emobank", "license"])}), sha256 ${getString(doc, ["benchmark", "emobank", "data_sha256"])}`,
    },
    { label: "Protocol", text: getString(doc, ["protocol", "note"]) },
  ];
  return { experiment: "exp7", title: "Exp. 7 — which emotion estimator makes salience earn its keep", blocks, notes };
}

/** What the ▲/▼ marks mean: the paired randomization test, Holm-adjusted within each family (results' `significance`). */
function significanceNote(doc: ResultDoc, rec: ManifestRecorder): Inline[] {
  return [
    strong("Significance."),
    " Each difference is tested against similarity-only on the same items by a paired two-sided randomization (sign-flip) test with B = ",
    rec.num(doc, ["significance", "samples"], "exp7.significance.samples", 0),
    " seeded sign vectors (seed ",
    rec.num(doc, ["significance", "seed"], "exp7.significance.seed", 0),
    "); its p is Holm-adjusted across all real estimator·strategy columns within one embedder, dataset and stratum (the oracle's two " +
      "columns form their own family). ▲/▼: significantly above/below similarity-only after Holm at α = ",
    rec.num(doc, ["significance", "alpha"], "exp7.significance.alpha", 2),
    "; unmarked differences are not significant, whatever their CI. Raw and adjusted p, the paired t-test and W/T/L per cell are in ",
    { code: `results/${doc.file}` },
    ".",
  ];
}

/** The answer's claim from a Holm outcome block: significant wins (or none) out of N comparisons, and the count of significant losses. */
function holmClaim(
  doc: ResultDoc,
  rec: ManifestRecorder,
  path: PathSegment[],
  id: string,
  where: string,
  name: (s: string) => string,
  digits: number,
  tol: number,
): Inline[] {
  const n = getNumber(doc, [...path, "comparisons"]);
  const wins = getArray(doc, [...path, "significant_wins"]);
  const losses = getArray(doc, [...path, "significant_losses"]);
  const out: Inline[] = [];
  if (wins.length === 0) out.push(`no real estimator·strategy beats similarity-only on ${where} after Holm correction (${n} comparisons)`);
  else {
    out.push(`${wins.length} of ${n} comparisons beat similarity-only after Holm correction: `);
    wins.forEach((_, wi) => {
      const w = [...path, "significant_wins", wi];
      out.push(
        wi === 0 ? "" : "; ",
        getString(doc, [...w, "column"]),
        " on ",
        name(getString(doc, [...w, "stratum"])),
        " ",
        rec.num(doc, [...w, "diff"], `${id}.win${wi}.diff`, digits, tol),
        " [",
        rec.num(doc, [...w, "ci95", 0], `${id}.win${wi}.lo`, digits, tol),
        ", ",
        rec.num(doc, [...w, "ci95", 1], `${id}.win${wi}.hi`, digits, tol),
        "], p (Holm) ",
        rec.num(doc, [...w, "p_holm"], `${id}.win${wi}.p_holm`, 4, tol),
      );
    });
  }
  out.push(`; ${losses.length} of the ${n} are significantly below it`);
  return out;
}
