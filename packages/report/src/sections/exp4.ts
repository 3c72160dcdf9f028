/** Exp. 4 section: the dual-template personalization check and the generated journals (docs/spec.md §7 Exp. 4). */
import type { Section } from "../content.js";
import type { ManifestRecorder } from "../manifest.js";
import { getArray, getString, type ResultDoc } from "@persode/results";

/** Build the Exp. 4 section, recording every stated number and check. */
export function exp4Section(doc: ResultDoc, rec: ManifestRecorder): Section {
  const present = rec.num(doc, ["personalization", "descriptor_coverage", "present"], "exp4.descriptor_coverage.present", 0);
  const total = rec.num(doc, ["personalization", "descriptor_coverage", "total"], "exp4.descriptor_coverage.total", 0);
  const differ = rec.text(doc, ["personalization", "profiles_differ"], "exp4.profiles_differ");
  const mood = rec.text(doc, ["personalization", "shared_mood_cue"], "exp4.shared_mood_cue");
  const notes: Section["notes"] = getArray(doc, ["journals"]).map((_, i) => ({
    label: `${getString(doc, ["journals", i, "profile"])} — “${getString(doc, ["journals", i, "entry", "title"])}”`,
    text: `${getString(doc, ["journals", i, "entry", "diary"])}\n\nImage prompt: ${getString(doc, ["journals", i, "entry", "visual_prompt"])}`,
  }));
  return {
    experiment: "exp4",
    title: "Exp. 4 — dual-template personalization",
    blocks: [
      {
        kind: "figure",
        figure: "exp4_personalization",
        alt: "Which profile descriptors appear in each generated image prompt",
        inReadme: true,
      },
      {
        kind: "paragraph",
        parts: [
          present,
          " of ",
          total,
          " profile descriptors appear in the image prompts; the two profiles' prompts differ: ",
          differ,
          "; both carry the emotion's mood cue: ",
          mood,
          ".",
        ],
      },
    ],
    notes,
  };
}
