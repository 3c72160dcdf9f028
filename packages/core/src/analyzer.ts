import { describe, pyRound } from "@persode/util";
import { defaultLexicon, type Lexicon } from "./lexicon.js";
import { clip } from "./numeric.js";

/** An analysed episode (docs/spec.md §3): event, emotion, intensity E, valence, hashtags, title. */
export interface Analysis {
  text: string;
  event: string;
  emotion: string;
  /** E, emotional intensity in [0, 1], rounded to 3 decimals. */
  intensity: number;
  valence: number;
  hashtags: string[];
  title: string;
  /** E ≥ the significance threshold (0.6). */
  significant: boolean;
}

/** Anything that turns text into an Analysis (lexicon offline, or an LLM with lexicon fallback). */
export interface EmotionAnalyzer {
  analyze(text: string): Promise<Analysis>;
}

/** E at or above which an episode is "emotionally significant" (docs/spec.md §3). */
export const SIGNIFICANCE_THRESHOLD = 0.6;

const WORD_RE = /[a-zA-Z']+/g;
// `\b[A-Z]{3,}\b` with Unicode word boundaries (as in the reference): JavaScript's \b only knows
// ASCII word characters, so "CAFÉ" would wrongly count as the all-caps word "CAF".
const ALL_CAPS_RE = /(?<![\p{L}\p{N}_])[A-Z]{3,}(?![\p{L}\p{N}_])/u;
/** A cheap necessary condition for ALL_CAPS_RE. */
const THREE_CAPS_RE = /[A-Z]{3}/;
const SENTENCE_SPLIT_RE = /(?<=[.!?])\s+/;

/** Python's str.capitalize for ASCII-ish tokens: first character upper, the rest lower. */
function capitalize(w: string): string {
  return w.length === 0 ? w : w[0]!.toUpperCase() + w.slice(1).toLowerCase();
}

/**
 * The offline Event-Emotion Analyzer (paper §3.2, docs/spec.md §3): keyword hits pick the emotion,
 * emphasis cues (!, boosters, ALL-CAPS) raise E, content words form the event and hashtags.
 */
export class LexiconAnalyzer implements EmotionAnalyzer {
  readonly lexicon: Lexicon;
  private readonly stop: Set<string>;
  private readonly boosters: Set<string>;
  private readonly keywords: Set<string>;
  /** The keywords of 4+ letters by their first four letters (the candidates a longer token may start with). */
  private readonly prefixKeywords: Map<string, string[]>;
  private readonly neutral: { intensity: number; valence: number };

  constructor(lexicon: Lexicon = defaultLexicon()) {
    this.lexicon = lexicon;
    this.stop = new Set(lexicon.stopwords);
    this.boosters = new Set(lexicon.boosters);
    this.keywords = new Set(lexicon.emotions.flatMap((e) => e.keywords));
    this.prefixKeywords = new Map();
    for (const kw of this.keywords) {
      if (kw.length < 4) continue;
      const stem = kw.slice(0, 4);
      const list = this.prefixKeywords.get(stem);
      if (list) list.push(kw);
      else this.prefixKeywords.set(stem, [kw]);
    }
    const n = lexicon.emotions.find((e) => e.emotion === "neutral")!;
    this.neutral = { intensity: n.intensity, valence: n.valence };
  }

  /** The significance threshold of this lexicon. */
  get threshold(): number {
    return this.lexicon.significance_threshold;
  }

  /** Analyse one text synchronously. */
  analyzeSync(input: string): Analysis {
    const { text, tokens, emotion, valence, intensity: E } = this.emotionOf(input);

    // content words: tokens of 3+ letters that are not stopwords, each at its first place
    const content: string[] = [];
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.length > 2 && !this.stop.has(t) && !seen.has(t)) {
        seen.add(t);
        content.push(t);
      }
    }
    // unique-then-filter equals filter-then-unique for a per-token test: the hashtags are the first three content
    // words of 4+ letters that are not keywords
    const hashtags: string[] = [];
    for (let i = 0; i < content.length && hashtags.length < 3; i++) {
      const t = content[i]!;
      if (t.length > 3 && !this.keywords.has(t)) hashtags.push("#" + capitalize(t));
    }
    if (emotion !== "neutral") hashtags.push("#" + capitalize(emotion));

    let event: string;
    let words: string[];
    if (content.length > 0) {
      // tokens hold no whitespace, so the event's words are its tokens
      words = content.slice(0, 8);
      event = words.join(" ");
    } else {
      event = Array.from(text).slice(0, 60).join(""); // 60 code points, never half an emoji
      words = event.split(/\s+/).filter((w) => w.length > 0);
    }
    const title = words.length > 0 ? words.slice(0, 4).map(capitalize).join(" ") : "Untitled";

    return { text, event, emotion, intensity: E, valence, hashtags, title, significant: E >= this.threshold };
  }

  /**
   * E alone (docs/spec.md §3), equal to analyzeSync(text).intensity without building the event, hashtags and title:
   * for a caller that ranks by E and reads nothing else of the analysis (Exp. 5's stores and queries).
   */
  intensity(input: string): number {
    return this.emotionOf(input).intensity;
  }

  /** The trimmed text, its tokens, the emotion the keyword hits pick and E with the emphasis cues (docs/spec.md §3). */
  private emotionOf(input: string): { text: string; tokens: string[]; emotion: string; valence: number; intensity: number } {
    if (typeof input !== "string") throw new TypeError(`analyzer: text must be a string, got ${describe(input)}`);
    const text = input.trim();
    const tokens = text.toLowerCase().match(WORD_RE) ?? [];

    // A keyword hits when some token equals it, or (keywords of 4+ letters) some token starts with it.
    const matched = new Set<string>();
    for (const t of tokens) {
      if (this.keywords.has(t)) matched.add(t);
      if (t.length <= 4) continue;
      // the keywords among t's prefixes of 4 … length − 1 letters: those sharing its first four letters that it starts with
      const candidates = this.prefixKeywords.get(t.slice(0, 4));
      if (candidates) for (const kw of candidates) if (kw.length < t.length && t.startsWith(kw)) matched.add(kw);
    }
    let emotion = "neutral";
    let base = this.neutral.intensity;
    let valence = this.neutral.valence;
    let best = 0;
    if (matched.size > 0) {
      for (const e of this.lexicon.emotions) {
        let hits = 0;
        for (const kw of e.keywords) if (matched.has(kw)) hits++;
        if (hits > best) {
          best = hits;
          emotion = e.emotion;
          base = e.intensity;
          valence = e.valence;
        }
      }
    }

    const em = this.lexicon.emphasis;
    let E = base;
    let bangs = 0;
    for (let at = text.indexOf("!"); at >= 0; at = text.indexOf("!", at + 1)) bangs++;
    E += em.per_exclamation_mark * bangs;
    if (tokens.some((t) => this.boosters.has(t))) E += em.booster_token;
    // three ASCII capitals in a row are necessary for an all-caps word: the Unicode-aware test runs only then
    if (THREE_CAPS_RE.test(text) && ALL_CAPS_RE.test(text)) E += em.all_caps_word;
    return { text, tokens, emotion, valence, intensity: pyRound(clip(E, 0, 1), 3) };
  }

  /** Analyse one text (async form of analyzeSync, for the EmotionAnalyzer interface). */
  async analyze(text: string): Promise<Analysis> {
    return this.analyzeSync(text);
  }

  /**
   * Split a multi-sentence text into episodes (docs/spec.md §3): sentences end at . ! or ? followed by
   * whitespace; consecutive sentences with the same emotion are merged and re-analysed.
   */
  segment(input: string): Analysis[] {
    if (typeof input !== "string") throw new TypeError(`analyzer: text must be a string, got ${describe(input)}`);
    const episodes: Analysis[] = [];
    for (const raw of input.trim().split(SENTENCE_SPLIT_RE)) {
      const sentence = raw.trim();
      if (sentence === "") continue;
      const a = this.analyzeSync(sentence);
      const prev = episodes[episodes.length - 1];
      if (prev && prev.emotion === a.emotion) episodes[episodes.length - 1] = this.analyzeSync(prev.text + " " + sentence);
      else episodes.push(a);
    }
    return episodes;
  }
}
