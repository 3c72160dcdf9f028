/**
 * "Beyond the paper" section: every strategy of the extended set (BM25, hybrids, published memory
 * models, the Persode gate on the hybrid) against similarity-only, from the extended results files
 * that Exp. 5 and 6 write beside their paper-format files — value with CI, paired difference with CI,
 * wins/ties/losses, randomization p raw and Holm-adjusted, paired t p, and the Holm decision.
 */
import { strong, type Cell, type Inline, type Section } from "../content.js";
import { fixed } from "../format.js";
import type { ManifestRecorder, Ref } from "../manifest.js";
import type { PathSegment } from "@persode/results";
import { getBoolean, getKeys, getNumber, getString, hasPath, strategySlugOf, type Experiment, type ResultDoc } from "@persode/results";
import { embedderName, isExactEmbedder } from "../style.js";
import { embeddersOf, toleranceOf, valueWithCi } from "./common.js";

/** Per experiment: the metric the section states and the dataset it is measured on. */
export const BEYOND_METRICS: Readonly<Partial<Record<Experiment, { key: string; label: string; dataset: string; digits: number }>>> = {
  exp5: { key: "evidence_recall@5", label: "evidence recall@5", dataset: "LoCoMo", digits: 4 },
  exp6: { key: "recall@3", label: "recall@3", dataset: "EpiRec", digits: 3 },
};

/** The extended strategies the headline sentences name. */
const BM25 = "bm25";

/** Decimals the section states p-values with; smaller values read "< 0.0001". */
const P_DIGITS = 4;

/** The metric block of an extended file's experiment, or an error naming the file. */
export function beyondMetric(doc: ResultDoc): { key: string; label: string; dataset: string; digits: number } {
  const m = BEYOND_METRICS[doc.experiment];
  if (!m) throw new Error(`${doc.file}: the report has no "beyond the paper" metric for ${doc.experiment}`);
  return m;
}

/**
 * "▲"/"▼" when the Holm-adjusted randomization test rejects at α (direction of the difference), else "".
 * Shared with the Exp. 7 section so both mark significance the same way; test/beyond.test.ts pins the marks.
 */
export function significanceMark(significant: boolean, diff: number): string {
  return significant ? (diff > 0 ? " ▲" : " ▼") : "";
}

function pCell(rec: ManifestRecorder, doc: ResultDoc, path: PathSegment[], id: string, tolerance: number): Cell {
  const ref = rec.num(doc, path, id, P_DIGITS, tolerance);
  return Number(fixed(getNumber(doc, path), P_DIGITS)) === 0 ? ["< 0.0001"] : [ref];
}

/** Build the section from the extended files present (Exp. 5, then Exp. 6), recording every stated value. */
export function beyondSection(docs: readonly ResultDoc[], rec: ManifestRecorder): Section {
  const first = docs[0]!;
  const samples = rec.num(first, ["significance", "samples"], "beyond.significance.samples", 0);
  const seed = rec.num(first, ["significance", "seed"], "beyond.significance.seed", 0);
  const alpha = rec.num(first, ["significance", "alpha"], "beyond.significance.alpha", 2);
  const blocks: Section["blocks"] = [
    {
      kind: "figure",
      figure: "beyond_paired",
      alt: "Paired difference of every extended strategy to similarity-only with 95% bootstrap CIs, coloured by the Holm-adjusted randomization test",
      inReadme: true,
    },
    {
      kind: "paragraph",
      parts: [
        "The paper compares five strategies. Here the same stores and questions are also ranked by textbook lexical and hybrid " +
          "retrieval (BM25 with k1 = 1.2, b = 0.75; reciprocal-rank fusion with k = 60; CombSUM of min-max-normalised BM25 and " +
          "cosine), by published memory models (Generative Agents, with the analyzer's E standing in for the LLM importance rating; " +
          "MemoryBank's retention-weighted similarity; MMR with λ = 0.5) and by the Persode emotion gate applied to the hybrid. Every " +
          "strategy is compared with similarity-only on the same items: Δ is the paired difference with its 95 % bootstrap CI, W/T/L " +
          "counts the items it wins, ties and loses, p is a two-sided paired randomization test (",
        samples,
        " sign flips, seed ",
        seed,
        "), Holm-adjusted over all strategies within the metric, with the paired t-test's p beside it. ▲/▼: significantly " +
          "above/below similarity-only after Holm at α = ",
        alpha,
        ". These results live in their own files; the paper-format results above are unchanged.",
      ],
    },
  ];
  const headline: Inline[] = [strong("Lexical baselines.")];
  const gate: Inline[] = [strong("The gate on a strong baseline.")];
  docs.forEach((doc, di) => {
    const metric = beyondMetric(doc);
    const embedders = embeddersOf(doc);
    embedders.forEach((emb, ei) => {
      const tol = toleranceOf(emb);
      const pTol = isExactEmbedder(emb) ? 0 : 0.05;
      const countTol = isExactEmbedder(emb) ? 0 : 10;
      const run = ["runs", emb, "strategies"];
      const strategies = getKeys(doc, run);
      // the baseline and the gate-on-hybrid pair are named by the file (significance), not by the report
      const baseline = getString(doc, ["significance", "baseline"]);
      const gatedHybrid = getString(doc, ["significance", "gate_on_hybrid_strategies", "gated"]);
      const hybrid = getString(doc, ["significance", "gate_on_hybrid_strategies", "hybrid"]);
      if (!strategies.includes(baseline))
        throw new Error(`${doc.file}: runs.${emb}.strategies has no "${baseline}" baseline — rerun \`pnpm bench ${doc.experiment}\``);
      const id = (s: string, m: string) => `beyond.${doc.experiment}.${emb}.${strategySlugOf(doc, s)}.${m}`;
      const values = new Map<string, Ref>();
      const rows: Cell[][] = strategies.map((s) => {
        const base = [...run, s];
        const v = valueWithCi(rec, doc, [...base, metric.key], [...base, "ci95", metric.key], id(s, metric.key), metric.digits, tol);
        values.set(s, v.value);
        const mrr = rec.num(doc, [...base, "mrr"], id(s, "mrr"), metric.digits, tol);
        const vs = [...base, "vs_similarity", metric.key];
        if (!hasPath(doc, vs)) return [[s], v.cell, [mrr], ["— (baseline)"], ["—"], ["—"], ["—"]];
        const diff = valueWithCi(rec, doc, [...vs, "diff"], [...vs, "ci95"], `${id(s, "vs")}.${metric.key}`, metric.digits, tol);
        const sig = getBoolean(doc, [...vs, "significant"]);
        const mark = significanceMark(sig, getNumber(doc, [...vs, "diff"]));
        const wtl = (k: string) => rec.num(doc, [...vs, k], `${id(s, "vs")}.${k}`, 0, countTol);
        return [
          [s],
          v.cell,
          [mrr],
          [...diff.cell, mark],
          [wtl("wins"), "/", wtl("ties"), "/", wtl("losses")],
          [
            ...pCell(rec, doc, [...vs, "p_randomization"], `${id(s, "vs")}.p_randomization`, pTol),
            " / ",
            ...pCell(rec, doc, [...vs, "p_holm"], `${id(s, "vs")}.p_holm`, pTol),
          ],
          pCell(rec, doc, [...vs, "p_t"], `${id(s, "vs")}.p_t`, pTol),
        ];
      });
      blocks.push({
        kind: "table",
        caption: `Beyond the paper — ${metric.dataset} (${doc.experiment === "exp5" ? "Exp. 5" : "Exp. 6"}), ${embedderName(emb)} embedder: ${metric.label} against similarity-only`,
        header: ["strategy", `${metric.label} [95 % CI]`, "MRR", "Δ vs similarity-only [95 % CI]", "W/T/L", "p / p (Holm)", "p (t-test)"],
        numeric: [false, true, true, true, true, true, true],
        rows,
      });
      const sim = values.get(baseline)!;
      const sep = di === 0 && ei === 0 ? " " : "; ";
      if (values.has(BM25))
        headline.push(
          sep,
          `${metric.dataset} ${metric.label} (${embedderName(emb)}): BM25 `,
          values.get(BM25)!,
          " against similarity-only ",
          sim,
        );
      if (values.has(gatedHybrid) && values.has(hybrid)) {
        gate.push(
          sep,
          `${metric.dataset} ${metric.label} (${embedderName(emb)}): gated hybrid `,
          values.get(gatedHybrid)!,
          " against CombSUM alone ",
          values.get(hybrid)!,
        );
        const vh = [...run, gatedHybrid, "vs_hybrid", metric.key];
        if (hasPath(doc, vh)) {
          const hid = `${id(gatedHybrid, "vs_hybrid")}.${metric.key}`;
          const wtl = (k: string) => rec.num(doc, [...vh, k], `${hid}.${k}`, 0, countTol);
          gate.push(
            " (paired difference ",
            rec.num(doc, [...vh, "diff"], `${hid}.diff`, metric.digits, tol),
            ", W/T/L ",
            wtl("wins"),
            "/",
            wtl("ties"),
            "/",
            wtl("losses"),
            ", randomization p ",
            ...pCell(rec, doc, [...vh, "p_randomization"], `${hid}.p_randomization`, pTol),
            ")",
          );
        }
      }
    });
  });
  if (headline.length > 1) blocks.push({ kind: "paragraph", parts: [...headline, "."] });
  if (gate.length > 1) {
    const threshold = rec.num(first, ["protocol", "gate", "threshold"], "beyond.protocol.gate.threshold", 1);
    blocks.push({
      kind: "paragraph",
      parts: [...gate, ". The gate changes a ranking only for queries whose own analyzer E reaches ", threshold, "."],
    });
  }
  const notes: Section["notes"] = docs.map((d) => ({ label: `Extended results file (${d.experiment})`, text: d.file }));
  return { experiment: "beyond", title: "Beyond the paper — strong baselines and published memory models", blocks, notes };
}
