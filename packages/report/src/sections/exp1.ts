/** Exp. 1 section: forgetting curve and consolidation headline numbers (docs/spec.md §7 Exp. 1). */
import type { Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import type { ResultDoc } from "@persode/results";

/** Build the Exp. 1 section, recording every stated number. */
export function exp1Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const lambda = rec.num(doc, ["lambda_per_day"], "exp1.lambda_per_day", 4);
  const r6 = rec.num(doc, ["retention_at_6_days"], "exp1.retention_at_6_days", 2);
  const half = rec.num(doc, ["half_life_days"], "exp1.half_life_days", 1);
  const window = rec.num(doc, ["short_term_window_days"], "exp1.short_term_window_days", 0);
  const high = rec.num(doc, ["strength_at_30_days", "high_emotion_E0.95"], "exp1.strength_at_30_days.high", 4);
  const neutral = rec.num(doc, ["strength_at_30_days", "neutral_E0.15"], "exp1.strength_at_30_days.neutral", 4);
  const ratio = rec.num(doc, ["strength_at_30_days", "ratio"], "exp1.strength_at_30_days.ratio", 1);
  return {
    experiment: "exp1",
    title: "Exp. 1 — forgetting curve and consolidation",
    blocks: [
      {
        kind: "figure",
        figure: "exp1_forgetting",
        alt: "Ebbinghaus retention and memory strength by salience over 30 days, six-day window shaded",
        inReadme: true,
      },
      {
        kind: "paragraph",
        parts: [
          "Retention falls to d = ",
          r6,
          " at the end of the ",
          window,
          "-day short-term window (λ = ",
          lambda,
          " per day, half-life ",
          half,
          " days). Emotional salience slows the fall: at 30 days a high-emotion memory keeps S = ",
          high,
          " while a neutral one is down to S = ",
          neutral,
          " (×",
          ratio,
          ").",
        ],
      },
    ],
    notes: [],
  };
}
