/** Exp. 4 figure: the personalization check — which profile descriptors reach each image prompt (docs/spec.md §7 Exp. 4). */
import { fixed } from "../format.js";
import { getArray, getBoolean, getNumber, getString, type ResultDoc } from "@persode/results";
import { SERIES_COLOURS } from "../style.js";
import { topLevel, type FigureSpec } from "./common.js";

/** Build the Exp. 4 figure spec. */
export function exp4Figures(doc: ResultDoc): FigureSpec[] {
  const base = ["personalization"];
  const utterances: string[] = [];
  const profiles: string[] = [];
  const cells: Array<{ profile: string; utterance: string; descriptor: string; status: string; mark: string }> = [];
  getArray(doc, [...base, "cases"]).forEach((_, i) => {
    const profile = getString(doc, [...base, "cases", i, "profile"]);
    const utterance = getString(doc, [...base, "cases", i, "utterance"]);
    if (!utterances.includes(utterance)) utterances.push(utterance);
    if (!profiles.includes(profile)) profiles.push(profile);
    const emotion = getString(doc, [...base, "cases", i, "emotion"]);
    const column = `utterance ${utterances.indexOf(utterance) + 1} (${emotion})`;
    getArray(doc, [...base, "cases", i, "descriptors"]).forEach((__, k) => {
      const present = getBoolean(doc, [...base, "cases", i, "descriptors", k, "present"]);
      cells.push({
        profile,
        utterance: column,
        descriptor: getString(doc, [...base, "cases", i, "descriptors", k, "text"]),
        status: present ? "in the image prompt" : "missing",
        mark: present ? "✓" : "✗",
      });
    });
  });
  const present = getNumber(doc, [...base, "descriptor_coverage", "present"]);
  const total = getNumber(doc, [...base, "descriptor_coverage", "total"]);
  const differ = getBoolean(doc, [...base, "profiles_differ"]);
  const mood = getBoolean(doc, [...base, "shared_mood_cue"]);
  const columns = [...new Set(cells.map((c) => c.utterance))];
  const y = {
    field: "descriptor",
    type: "nominal",
    sort: null,
    title: null,
    axis: { labelLimit: 300, labelFontSize: 11, labelColor: "#222222" },
  };
  const x = { field: "utterance", type: "nominal", sort: columns, title: null, axis: { orient: "top", labelAngle: 0, labelLimit: 220 } };
  return [
    {
      id: "exp4_personalization",
      experiment: "exp4",
      caption: "Exp. 4 — each profile's visual descriptors checked in the image prompt generated for each utterance.",
      spec: topLevel(
        `Exp. 4 — personalization check: ${fixed(present, 0)}/${fixed(total, 0)} descriptors in the image prompts`,
        `profiles' prompts differ: ${differ ? "yes" : "no"} · shared mood cue per emotion: ${mood ? "yes" : "no"}`,
        {
          data: { values: cells },
          spacing: 18,
          vconcat: profiles.map((profile) => ({
            title: { text: profile, fontSize: 13, anchor: "start" },
            transform: [{ filter: { field: "profile", equal: profile } }],
            width: 440,
            height: { step: 22 },
            layer: [
              {
                mark: { type: "rect", stroke: "#ffffff", strokeWidth: 2 },
                encoding: {
                  x,
                  y,
                  color: {
                    field: "status",
                    type: "nominal",
                    scale: { domain: ["in the image prompt", "missing"], range: [SERIES_COLOURS.indigo, SERIES_COLOURS.wine] },
                    legend: { title: null },
                  },
                },
              },
              { mark: { type: "text", color: "#ffffff", fontSize: 13, fontWeight: "bold" }, encoding: { x, y, text: { field: "mark" } } },
            ],
          })),
          resolve: { scale: { y: "independent" } },
        },
      ),
    },
  ];
}
