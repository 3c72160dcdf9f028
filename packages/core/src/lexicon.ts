import { readFileSync } from "node:fs";

/** One emotion of the analyzer lexicon, in evaluation order. */
export interface LexiconEmotion {
  emotion: string;
  keywords: string[];
  intensity: number;
  valence: number;
}

/** The offline Event-Emotion Analyzer lexicon (docs/spec.md §3; data file `data/lexicon.json`). */
export interface Lexicon {
  emotions: LexiconEmotion[];
  boosters: string[];
  stopwords: string[];
  significance_threshold: number;
  emphasis: { per_exclamation_mark: number; booster_token: number; all_caps_word: number };
}

let shipped: Lexicon | undefined;

/** The lexicon shipped with the package (loaded once, validated). */
export function defaultLexicon(): Lexicon {
  if (!shipped) {
    const url = new URL("../data/lexicon.json", import.meta.url);
    shipped = validateLexicon(JSON.parse(readFileSync(url, "utf8")), url.pathname);
  }
  return shipped;
}

/** Validate a lexicon object; errors name the offending path. */
export function validateLexicon(x: unknown, where = "lexicon"): Lexicon {
  const fail = (path: string, what: string): never => {
    throw new TypeError(`${where}: ${path} ${what}`);
  };
  if (x === null || typeof x !== "object") fail("(root)", "must be an object");
  const o = x as Record<string, unknown>;
  if (!Array.isArray(o.emotions) || o.emotions.length === 0) fail("emotions", "must be a non-empty array");
  (o.emotions as unknown[]).forEach((e, i) => {
    const r = e as Record<string, unknown>;
    if (typeof r?.emotion !== "string") fail(`emotions[${i}].emotion`, "must be a string");
    if (!Array.isArray(r.keywords) || r.keywords.some((k) => typeof k !== "string"))
      fail(`emotions[${i}].keywords`, "must be an array of strings");
    if (typeof r.intensity !== "number" || !(r.intensity >= 0 && r.intensity <= 1))
      fail(`emotions[${i}].intensity`, "must be a number in [0, 1]");
    if (typeof r.valence !== "number") fail(`emotions[${i}].valence`, "must be a number");
  });
  for (const k of ["boosters", "stopwords"]) {
    if (!Array.isArray(o[k]) || (o[k] as unknown[]).some((s) => typeof s !== "string")) fail(k, "must be an array of strings");
  }
  if (typeof o.significance_threshold !== "number") fail("significance_threshold", "must be a number");
  const em = o.emphasis as Record<string, unknown> | undefined;
  for (const k of ["per_exclamation_mark", "booster_token", "all_caps_word"]) {
    if (typeof em?.[k] !== "number") fail(`emphasis.${k}`, "must be a number");
  }
  if (!(o.emotions as LexiconEmotion[]).some((e) => e.emotion === "neutral")) fail("emotions", 'must include a "neutral" entry');
  return o as unknown as Lexicon;
}
