/** Exp. 2 section: how Eq. 1's weights move the focus memory (docs/spec.md §7 Exp. 2). */
import type { Cell, Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { getKeys, getString, type ResultDoc } from "@persode/results";

/** Build the Exp. 2 section, recording every stated number. */
export function exp2Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const event = getString(doc, ["focus", "event"]);
  const labels = getKeys(doc, ["focus", "rank_by_weighting"]);
  const rows: Cell[][] = labels.map((label, i) => [
    [label],
    [rec.num(doc, ["focus", "rank_by_weighting", label], `exp2.focus.rank.w${i}`, 0)],
    [rec.num(doc, ["focus", "S_by_weighting", label], `exp2.focus.S.w${i}`, 4)],
  ]);
  const emo = getString(doc, ["findings", "emotion_heavy_weighting"]);
  const ratio = rec.num(doc, ["focus", "ratio_emotion_heavy_vs_balanced"], "exp2.focus.ratio_emotion_heavy_vs_balanced", 1);
  return {
    experiment: "exp2",
    title: "Exp. 2 — Eq. 1 weight ablation",
    blocks: [
      {
        kind: "figure",
        figure: "exp2_weight_ablation",
        alt: "Memory strength of the ten scenario memories under four Eq. 1 weightings",
        inReadme: true,
      },
      {
        kind: "table",
        caption: `Rank and strength of “${event}” under each weighting`,
        header: ["weighting (wE, wR, wC)", "rank", "S"],
        numeric: [false, true, true],
        rows,
      },
      {
        kind: "paragraph",
        parts: [`Weighting emotion up (${emo}) multiplies the strength of “${event}” by `, ratio, " relative to balanced weights."],
      },
    ],
    notes: [],
  };
}
