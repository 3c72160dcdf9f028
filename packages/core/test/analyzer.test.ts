import { describe, expect, it } from "vitest";
import { prng } from "./prng.js";
import { defaultLexicon, LexiconAnalyzer, SIGNIFICANCE_THRESHOLD, validateLexicon, type Analysis } from "../src/index.js";

// Expected values are derived by hand from docs/spec.md §3 and data/lexicon.json; each comment shows the
// arithmetic (base intensity + 0.08 per "!" + 0.06 booster + 0.05 ALL-CAPS, clamp, round 3).

const analyzer = new LexiconAnalyzer();
const a = (text: string) => analyzer.analyzeSync(text);
const pick = (r: Analysis) => ({ emotion: r.emotion, intensity: r.intensity, event: r.event, hashtags: r.hashtags, title: r.title });

describe("LexiconAnalyzer.analyzeSync (docs/spec.md §3)", () => {
  it("the shipped lexicon has docs/spec.md §3's emotion order and constants", () => {
    const lx = defaultLexicon();
    expect(lx.emotions.map((e) => e.emotion)).toEqual([
      "joyful",
      "content",
      "sad",
      "angry",
      "anxious",
      "reflective",
      "surprised",
      "neutral",
    ]);
    expect(lx.emphasis).toEqual({ per_exclamation_mark: 0.08, booster_token: 0.06, all_caps_word: 0.05 });
    expect(lx.significance_threshold).toBe(0.6);
    expect(SIGNIFICANCE_THRESHOLD).toBe(0.6);
  });

  it("a celebration: three joyful hits, one '!'", () => {
    // tokens i, celebrated, my, graduation, today; joyful hits: celebrate (prefix), celebrated, graduation
    // E = 0.85 + 0.08·1 = 0.93; content words (stopwords i/my/today dropped): celebrated graduation
    // hashtags: both content words are keywords → none, then #Joyful
    const r = a("  I celebrated my graduation today!  ");
    expect(r.text).toBe("I celebrated my graduation today!");
    expect(pick(r)).toEqual({
      emotion: "joyful",
      intensity: 0.93,
      event: "celebrated graduation",
      hashtags: ["#Joyful"],
      title: "Celebrated Graduation",
    });
    expect(r.valence).toBe(1);
    expect(r.significant).toBe(true);
  });

  it("a neutral day: no hits ⇒ neutral, E 0.2, no emotion hashtag", () => {
    // tokens took, the, bus, to, work → content took bus work; hashtags (len > 3): took, work
    const r = a("Took the bus to work.");
    expect(pick(r)).toEqual({
      emotion: "neutral",
      intensity: 0.2,
      event: "took bus work",
      hashtags: ["#Took", "#Work"],
      title: "Took Bus Work",
    });
    expect(r.valence).toBe(0);
    expect(r.significant).toBe(false);
  });

  it("emphasis: '!' adds 0.08 each", () => {
    expect(a("Wow").intensity).toBe(0.2); // neutral, "Wow" is not all-caps
    expect(a("Wow!").intensity).toBe(0.28); // 0.2 + 0.08
    expect(a("Wow!!!").intensity).toBe(0.44); // 0.2 + 3·0.08 = 0.44000000000000006 → 0.44
    expect(a("I was so worried!!").intensity).toBe(0.92); // anxious 0.7 + 2·0.08 + 0.06 (so) = 0.92
  });

  it("emphasis: a booster token adds 0.06 once", () => {
    expect(a("I feel calm").intensity).toBe(0.45); // content 0.45
    expect(a("I feel really calm").intensity).toBe(0.51); // 0.45 + 0.06
    expect(a("I feel really very deeply calm").intensity).toBe(0.51); // still + 0.06 once
    expect(a("Really?").intensity).toBe(0.26); // neutral 0.2 + 0.06 (case-insensitive token)
  });

  it("emphasis: an ALL-CAPS word of 3+ letters adds 0.05", () => {
    expect(a("The BUS was late").intensity).toBe(0.25); // 0.2 + 0.05
    expect(a("The Bus was late").intensity).toBe(0.2);
    expect(a("OK then").intensity).toBe(0.2); // OK has only 2 letters
    expect(a("I'M here").intensity).toBe(0.2); // I'M is not 3+ consecutive capitals
    expect(a("BUS and TRAIN").intensity).toBe(0.25); // + 0.05 once
    expect(a("BUS2 stop").intensity).toBe(0.2); // no word boundary after BUS
    expect(a("CAFE stop").intensity).toBe(0.25);
    // Unicode word boundaries: "CAFÉ" is one word that is not all [A-Z], so no bonus
    expect(a("CAFÉ stop").intensity).toBe(0.2);
  });

  it("clamps at 1 and rounds to 3 decimals", () => {
    // joyful 0.85 + 3·0.08 + 0.06 (so) + 0.05 (HAPPY) = 1.2 → 1
    expect(a("I am SO HAPPY!!!").intensity).toBe(1);
    // angry 0.82 + 0.08 = 0.8999999999999999 in float64 → 0.9
    expect(a("I am furious!").intensity).toBe(0.9);
    // surprised 0.6 + 0.06 + 0.05 = 0.7100000000000001 → 0.71
    expect(a("Truly SHOCKED").intensity).toBe(0.71);
  });

  it("prefix matching for keywords of length ≥ 4 only", () => {
    // "cried" does not hit "cry" (3 letters: exact match only); "all" is a booster: 0.2 + 0.06
    expect(pick(a("I cried all night"))).toEqual({
      emotion: "neutral",
      intensity: 0.26,
      event: "cried all night",
      hashtags: ["#Cried", "#Night"],
      title: "Cried All Night",
    });
    expect(a("I cry").emotion).toBe("sad"); // exact hit on "cry"
    // 3-letter keywords (joy, sad, mad, cry) never match as prefixes: joyride, saddle, made, crystal
    expect(pick(a("a joyride on a saddle made of crystal"))).toEqual({
      emotion: "neutral",
      intensity: 0.2,
      event: "joyride saddle made crystal",
      hashtags: ["#Joyride", "#Saddle", "#Made"],
      title: "Joyride Saddle Made Crystal",
    });
    // "missed" starts with "miss" (4 letters) → sad 0.8
    expect(a("I missed him").emotion).toBe("sad");
    // "celebrates" hits "celebrate" by prefix: joyful 1 vs sad 1, tie → joyful (earlier)
    expect(a("sad but she celebrates").emotion).toBe("joyful");
    // "celebrated" hits celebrate (prefix) and celebrated (exact) = 2 vs sad 2 (sad, tears) → joyful
    expect(a("sad tears, then we celebrated").emotion).toBe("joyful");
    // a keyword that is only a prefix of the token counts once per keyword: "worrying" → worry (prefix)
    expect(a("worrying").emotion).toBe("anxious");
  });

  it("ties go to the emotion listed first in the lexicon, not the first in the text", () => {
    expect(a("happy but sad").emotion).toBe("joyful"); // 1 vs 1
    expect(a("sad but happy").emotion).toBe("joyful");
    expect(a("anxious and angry").emotion).toBe("angry"); // angry precedes anxious
    expect(a("anxious and angry").intensity).toBe(0.82);
    // strictly more hits wins regardless of order: sad 2 (sad, lonely) vs joyful 1
    expect(a("happy, sad and lonely").emotion).toBe("sad");
    expect(a("happy, sad and lonely").valence).toBe(-1);
  });

  it("significance is E ≥ 0.6, inclusive", () => {
    const s = a("I was surprised"); // surprised 0.6
    expect(s.intensity).toBe(0.6);
    expect(s.significant).toBe(true);
    const r = a("I think"); // reflective 0.5
    expect(r.intensity).toBe(0.5);
    expect(r.significant).toBe(false);
  });

  it("hashtags: not stopwords, longer than 3, not keywords, deduplicated, at most 3, then the emotion", () => {
    // joyful (wonderful); candidates picnic grandma sandwiches lemonade kites (wonderful is a keyword)
    const r = a("Wonderful picnic with grandma, grandma's sandwiches, sandwiches, lemonade and kites");
    expect(r.hashtags).toEqual(["#Picnic", "#Grandma", "#Grandma's", "#Joyful"]);
    const s = a("Wonderful picnic with grandma, sandwiches, lemonade and kites");
    expect(s.hashtags).toEqual(["#Picnic", "#Grandma", "#Sandwiches", "#Joyful"]);
    // stopword "feeling" and 3-letter "bus" never become hashtags; capitalisation lowers the rest
    expect(a("Feeling BUS MAYHEM").hashtags).toEqual(["#Mayhem"]);
  });

  it("event: content words (> 2 letters, not stopwords) in first-occurrence order, deduplicated, at most 8", () => {
    expect(a("dog dog cat dog").event).toBe("dog cat");
    expect(a("Alpha bravo charlie delta echo foxtrot golf hotel india juliet").event).toBe(
      "alpha bravo charlie delta echo foxtrot golf hotel",
    );
    expect(a("Alpha bravo charlie delta echo").title).toBe("Alpha Bravo Charlie Delta");
    expect(a("It's 5 o'clock at the café").event).toBe("o'clock caf"); // tokens are [a-zA-Z']+: "café" → "caf"
  });

  it("event falls back to the first 60 characters when there is no content word", () => {
    // tokens i, am, so, ok: stopwords or ≤ 2 letters; so is a booster: 0.2 + 0.06
    expect(pick(a("I am so ok"))).toEqual({ emotion: "neutral", intensity: 0.26, event: "I am so ok", hashtags: [], title: "I Am So Ok" });
    const long = "ok ".repeat(30).trim(); // 89 characters
    expect(a(long).event).toBe("ok ".repeat(20)); // characters 0..59
    expect(a(long).title).toBe("Ok Ok Ok Ok");
    // 60 characters, not 60 UTF-16 code units: never half an emoji
    const party = "🎉".repeat(70);
    expect(a(party).event).toBe("🎉".repeat(60));
  });

  it("empty text: neutral, empty event and the title 'Untitled'", () => {
    for (const t of ["", "   \n\t "]) {
      const r = a(t);
      expect(pick(r)).toEqual({ emotion: "neutral", intensity: 0.2, event: "", hashtags: [], title: "Untitled" });
      expect(r.text).toBe("");
    }
  });

  it("non-string input is a TypeError", () => {
    expect(() => analyzer.analyzeSync(undefined as unknown as string)).toThrow(TypeError);
    expect(() => analyzer.analyzeSync(42 as unknown as string)).toThrow(/analyzer: text must be a string, got 42/);
    expect(() => analyzer.segment(null as unknown as string)).toThrow(/text must be a string, got null/);
  });

  it("intensity() is analyzeSync().intensity on 5 000 generated texts (keywords, prefixes, boosters, caps, '!')", () => {
    const lex = defaultLexicon();
    const vocab = [
      ...lex.emotions.flatMap((e) => e.keywords.flatMap((k) => [k, k + "ing", k.toUpperCase(), k.slice(0, 4)])),
      ...lex.boosters,
      ...lex.stopwords.slice(0, 20),
      "CAFÉ",
      "ÉCOLE",
      "OK",
      "NASA",
      "don't",
      "😀",
      "!",
      "!!",
      "ok.",
      "  ",
    ];
    const next = prng(12345);
    const mismatches: string[] = [];
    let emphasised = 0;
    for (let k = 0; k < 5000; k++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 12) }, () => vocab[Math.floor(next() * vocab.length)]!);
      const text = words.join(next() < 0.5 ? " " : "");
      const full = analyzer.analyzeSync(text);
      if (full.intensity !== analyzer.intensity(text))
        mismatches.push(`${JSON.stringify(text)}: ${full.intensity} vs ${analyzer.intensity(text)}`);
      if (full.intensity !== lex.emotions.find((e) => e.emotion === full.emotion)!.intensity) emphasised++;
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // the texts exercise the emphasis cues, not only the base intensities
    expect(emphasised).toBeGreaterThan(1000);
    expect(() => analyzer.intensity(7 as unknown as string)).toThrow(/analyzer: text must be a string, got 7/);
  });

  it("analyze() is the async form of analyzeSync()", async () => {
    const t = "I am SO HAPPY!!!";
    expect(await analyzer.analyze(t)).toEqual(analyzer.analyzeSync(t));
  });
});

describe("LexiconAnalyzer.segment", () => {
  it("splits after . ! ? + whitespace and merges consecutive same-emotion sentences", () => {
    const eps = analyzer.segment("I graduated today! The ceremony was amazing. Then I missed the bus. I felt sad and lonely.");
    // s1 joyful (graduated), s2 joyful (amazing) → merged and re-analysed: 0.85 + 0.08 = 0.93
    // s3 sad ("missed" hits "miss"), s4 sad (sad, lonely) → merged: sad 0.8
    expect(eps.map(pick)).toEqual([
      {
        emotion: "joyful",
        intensity: 0.93,
        event: "graduated ceremony amazing",
        hashtags: ["#Ceremony", "#Joyful"],
        title: "Graduated Ceremony Amazing",
      },
      { emotion: "sad", intensity: 0.8, event: "missed bus sad lonely", hashtags: ["#Missed", "#Sad"], title: "Missed Bus Sad Lonely" },
    ]);
    expect(eps.map((e) => e.text)).toEqual([
      "I graduated today! The ceremony was amazing.",
      "Then I missed the bus. I felt sad and lonely.",
    ]);
  });

  it("merges a run of three, and keeps non-consecutive repeats apart", () => {
    expect(analyzer.segment("Happy. Great. Wonderful.").map((e) => e.text)).toEqual(["Happy. Great. Wonderful."]);
    expect(analyzer.segment("Happy. Sad. Happy.").map((e) => e.emotion)).toEqual(["joyful", "sad", "joyful"]);
  });

  it("needs whitespace after the punctuation to split, and skips empty pieces", () => {
    // "Wait...what?" is neutral, "Happy!Yes" joyful: two episodes, and "!Y" is not a sentence break
    expect(analyzer.segment("Wait...what? Happy!Yes").map((e) => e.text)).toEqual(["Wait...what?", "Happy!Yes"]);
    expect(analyzer.segment("   ")).toEqual([]);
    expect(analyzer.segment("One calm day")).toHaveLength(1);
  });
});

describe("validateLexicon", () => {
  it("names the offending path", () => {
    const lx = structuredClone(defaultLexicon()) as unknown as Record<string, unknown>;
    (lx.emotions as Record<string, unknown>[])[2]!.intensity = 1.5;
    expect(() => validateLexicon(lx, "my.json")).toThrow("my.json: emotions[2].intensity must be a number in [0, 1]");
    const noNeutral = structuredClone(defaultLexicon());
    noNeutral.emotions = noNeutral.emotions.filter((e) => e.emotion !== "neutral");
    expect(() => validateLexicon(noNeutral)).toThrow(/must include a "neutral" entry/);
  });
});
