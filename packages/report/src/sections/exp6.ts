/** Exp. 6 section: EpiRec retrieval by probe type with bootstrap CIs and the every-stratum cost (docs/spec.md §7 Exp. 6). */
import { strong, type Cell, type Comparison, type Inline, type Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { getKeys, hasPath, orderedStrategies, strategySlugOf, type ResultDoc } from "@persode/results";
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

/** EpiRec probe types in presentation order, with their display names. */
export const PROBE_TYPES: ReadonlyArray<{ key: string; label: string }> = [
  { key: "factual", label: "factual" },
  { key: "reflective_explicit", label: "reflective explicit" },
  { key: "reflective_implicit", label: "reflective implicit" },
];

/** Build the Exp. 6 section, recording every stated number. */
export function exp6Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const embedders = embeddersOf(doc);
  const probes = rec.num(doc, ["benchmark", "probes"], "exp6.benchmark.probes", 0);
  const personas = rec.num(doc, ["benchmark", "personas"], "exp6.benchmark.personas", 0);
  const intro: Inline[] = [probes, " probes over ", personas, " personas, one store per persona, each probe targeting its own episode."];
  intro.push(...bootstrapSentence(doc, rec, "exp6"));
  const blocks: Section["blocks"] = [
    {
      kind: "figure",
      figure: "exp6_epirec",
      alt: "EpiRec recall@3 by probe type per strategy with 95% bootstrap CIs, one panel per embedder",
      inReadme: true,
    },
    {
      kind: "figure",
      figure: "exp6_paired",
      alt: "Paired differences to similarity-only in recall@3 with 95% bootstrap CIs",
      inReadme: false,
    },
    { kind: "paragraph", parts: intro },
  ];
  const costParts: Inline[] = [strong("Cost."), " Always-on fusion scores below similarity-only on every probe type (recall@3)"];
  const costChecks: Comparison[] = [];
  const gateParts: Inline[] = [strong("Gate."), " The gate fuses on"];
  const paperAt = blocks.length;
  embedders.forEach((emb, ei) => {
    const tol = toleranceOf(emb);
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]));
    requireStrategies(doc, strategies, `runs.${emb}.strategies`, "exp6");
    const id = (s: string, m: string) => `exp6.${emb}.${strategySlugOf(doc, s)}.${m}`;
    const rows: Cell[][] = strategies.map((s) => {
      const base = ["runs", emb, "strategies", s];
      const overall = ["r3", "r1", "mrr"].map(
        (m) => valueWithCi(rec, doc, [...base, "overall", m], [...base, "ci95", `overall.${m}`], id(s, `overall.${m}`), 3, tol).cell,
      );
      const types = PROBE_TYPES.map((t) => [rec.num(doc, [...base, t.key, "r3"], id(s, `${t.key}.r3`), 3, tol)] as Cell);
      return [[s], ...overall, ...types];
    });
    blocks.push({
      kind: "table",
      caption: `Exp. 6 — EpiRec, ${embedderCaption(doc, emb)}`,
      header: ["strategy", "recall@3", "recall@1", "MRR", ...PROBE_TYPES.map((t) => `${t.label} recall@3`)],
      numeric: [false, true, true, true, ...PROBE_TYPES.map(() => true)],
      rows,
    });
    costParts.push(ei === 0 ? " — " : "; ", `${embedderName(emb)}: `);
    PROBE_TYPES.forEach((t, ti) => {
      const f = id(FUSED, `${t.key}.r3`);
      const s = id(SIMILARITY, `${t.key}.r3`);
      costParts.push(ti === 0 ? "" : ", ", `${t.label} `, { ref: f }, " against ", { ref: s });
      costChecks.push({ left: f, op: "<", right: s });
    });
    costParts.push(" (overall ", { ref: id(FUSED, "overall.r3") }, " against ", { ref: id(SIMILARITY, "overall.r3") });
    const paired = ["runs", emb, "strategies", FUSED, "paired_vs_similarity", "overall.r3"];
    if (hasPath(doc, paired)) {
      const pid = `${id(FUSED, "paired")}.overall.r3`;
      costParts.push(", ", ...pairedDifference(rec, doc, paired, pid, 3, tol));
    }
    costParts.push(")");
    const gate = rec.num(doc, ["runs", emb, "gate", "reflective_fused_fraction"], `exp6.${emb}.gate.reflective_fused_fraction`, 4);
    gateParts.push(ei === 0 ? " " : "; ", gate, ` of the reflective probes (${embedderName(emb)})`);
    if (strategies.includes(GATED))
      gateParts.push(", reaching overall recall@3 ", { ref: id(GATED, "overall.r3") }, " against similarity-only's ", {
        ref: id(SIMILARITY, "overall.r3"),
      });
  });
  if (embedders.length > 1) {
    const strategies = orderedStrategies(doc, getKeys(doc, ["runs", embedders[0]!, "strategies"])).filter((s) =>
      embedders.every((e) => hasPath(doc, ["runs", e, "strategies", s])),
    );
    blocks.splice(
      paperAt,
      0,
      paperTable(rec, doc, embedders, strategies, {
        experiment: "exp6",
        caption: "Exp. 6 — EpiRec as the paper lays it out",
        headline: { key: "overall.r3", label: "recall@3" },
        mrrKey: "overall.mrr",
      }),
    );
  }
  costParts.push(".");
  gateParts.push(".");
  blocks.push({ kind: "paragraph", parts: gateParts });
  blocks.push({ kind: "cost", cost: "exp6-every-stratum", parts: costParts, requires: costChecks });
  return { experiment: "exp6", title: "Exp. 6 — EpiRec episodic recall", blocks, notes: datasetNotes(doc) };
}
