import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HashingEmbedder,
  LexiconAnalyzer,
  OpenAiLlm,
  afinnEstimator,
  afinnScore,
  calibrate,
  checkEstimate,
  createEstimator,
  ESTIMATOR_NAMES,
  EMOTION_EXEMPLARS,
  estimatorAnalyzer,
  fitEmoBankModel,
  emobankEstimator,
  lexiconEstimator,
  llmEstimator,
  oracleEstimator,
  prototypeCalibration,
  prototypeEstimator,
  prototypeSpace,
  quantilesOf,
  vaderEstimator,
  vaderScores,
  type EmoBankExample,
} from "../src/index.js";
import { chatReply, MockLlmServer, sendJson } from "./mock-llm-server.js";

describe("VADER estimator", () => {
  // Compound scores published in the VADER README (Hutto & Gilbert, vaderSentiment).
  const published: [string, number][] = [
    ["VADER is smart, handsome, and funny.", 0.8316],
    ["VADER is smart, handsome, and funny!", 0.8439],
    ["VADER is very smart, handsome, and funny.", 0.8545],
    ["VADER is VERY SMART, handsome, and FUNNY.", 0.9227],
    ["VADER is not smart, handsome, nor funny.", -0.7424],
    ["The book was good.", 0.4404],
    ["A really bad, horrible book.", -0.8211],
    ["At least it isn't a horrible book.", 0.431],
  ];
  it("reproduces VADER's published compound scores", () => {
    for (const [text, compound] of published) expect(vaderScores(text).compound, text).toBe(compound);
  });
  // The port's own demo test (vader-sentiment 1.1.3, tests/SentimentIntensityAnalyzer_tests.js): whole score
  // dicts. Most of these tokens carry punctuation ("funny!!!", "SUX!", "lol"), so they also check that the
  // patched word splitting (patches/vader-sentiment@1.1.3.patch) strips it exactly as the port's table does.
  const demo: [string, { neg: number; neu: number; pos: number; compound: number }][] = [
    ["VADER is smart, handsome, and funny.", { neg: 0.0, neu: 0.254, pos: 0.746, compound: 0.8316 }],
    ["VADER is not smart, handsome, nor funny.", { neg: 0.646, neu: 0.354, pos: 0.0, compound: -0.7424 }],
    ["VADER is smart, handsome, and funny!", { neg: 0.0, neu: 0.248, pos: 0.752, compound: 0.8439 }],
    ["VADER is very smart, handsome, and funny.", { neg: 0.0, neu: 0.299, pos: 0.701, compound: 0.8545 }],
    ["VADER is VERY SMART, handsome, and FUNNY.", { neg: 0.0, neu: 0.246, pos: 0.754, compound: 0.9227 }],
    ["VADER is VERY SMART, handsome, and FUNNY!!!", { neg: 0.0, neu: 0.233, pos: 0.767, compound: 0.9342 }],
    ["VADER is VERY SMART, uber handsome, and FRIGGIN FUNNY!!!", { neg: 0.0, neu: 0.294, pos: 0.706, compound: 0.9469 }],
    ["The book was good.", { neg: 0.0, neu: 0.508, pos: 0.492, compound: 0.4404 }],
    ["The book was kind of good.", { neg: 0.0, neu: 0.657, pos: 0.343, compound: 0.3832 }],
    [
      "The plot was good, but the characters are uncompelling and the dialog is not great.",
      { neg: 0.327, neu: 0.579, pos: 0.094, compound: -0.7042 },
    ],
    ["At least it isn't a horrible book.", { neg: 0.0, neu: 0.637, pos: 0.363, compound: 0.431 }],
    ["Make sure you :) or :D today!", { neg: 0.0, neu: 0.294, pos: 0.706, compound: 0.8633 }],
    ["Today SUX!", { neg: 0.779, neu: 0.221, pos: 0.0, compound: -0.5461 }],
    ["Today only kinda sux! But I'll get by, lol", { neg: 0.179, neu: 0.569, pos: 0.251, compound: 0.2228 }],
  ];
  it("reproduces the port's own demo output, punctuation-stripped tokens included", () => {
    for (const [text, scores] of demo) expect(vaderScores(text), text).toEqual(scores);
  });
  it("maps |compound| to E and its sign to valence, with VADER's ±0.05 neutral band", async () => {
    const est = await vaderEstimator().estimate(published.map(([t]) => t).concat(["The meeting is on Tuesday."]));
    published.forEach(([, c], i) => {
      expect(est[i]!.intensity).toBe(Math.abs(c));
      expect(est[i]!.valence).toBe(c);
      expect(est[i]!.polarity).toBe(c > 0 ? 1 : -1);
    });
    expect(est.at(-1)).toEqual({ intensity: 0, valence: 0, polarity: 0 });
  });
});

describe("AFINN estimator", () => {
  it("sums AFINN-165 scores like the sentiment package's README examples", () => {
    expect(afinnScore("Cats are stupid.")).toBe(-2);
    expect(afinnScore("Cats are totally amazing!")).toBe(4);
  });
  it("squashes the sum with x/√(x²+15) into E and signed valence", async () => {
    const [neg, pos, none] = await afinnEstimator().estimate(["Cats are stupid.", "Cats are totally amazing!", "The bus left at nine."]);
    expect(neg).toEqual({ intensity: 2 / Math.sqrt(19), valence: -2 / Math.sqrt(19), polarity: -1 });
    expect(pos!.intensity).toBe(4 / Math.sqrt(31));
    expect(pos!.polarity).toBe(1);
    expect(none).toEqual({ intensity: 0, valence: 0, polarity: 0 });
  });
});

describe("lexicon estimator", () => {
  it("is the paper's analyzer: same E, the emotion's valence", async () => {
    const analyzer = new LexiconAnalyzer();
    const texts = ["I am so happy and thrilled today!!", "I bought bread.", "My dog died and I am heartbroken."];
    const est = await lexiconEstimator(analyzer).estimate(texts);
    texts.forEach((t, i) => {
      const a = analyzer.analyzeSync(t);
      expect(est[i]!.intensity).toBe(a.intensity);
      expect(est[i]!.polarity).toBe(Math.sign(a.valence));
    });
    expect(est[1]!.intensity).toBe(0.2); // the neutral emotion's base E (lexicon.json)
  });
});

describe("quantile calibration", () => {
  it("stores numpy-style percentiles and maps scores to their CDF position", () => {
    const q = quantilesOf([5, 1, 4, 2, 3]);
    expect(q).toHaveLength(101);
    expect([q[0], q[25], q[50], q[75], q[100]]).toEqual([1, 2, 3, 4, 5]);
    expect(q[10]).toBeCloseTo(1.4, 12);
    expect(calibrate(q, 0)).toBe(0);
    expect(calibrate(q, 3)).toBe(0.5);
    expect(calibrate(q, 9)).toBe(1);
    expect(calibrate(q, 2.5)).toBeCloseTo(0.375, 12);
  });
});

/** A small synthetic EmoBank: arousal and valence driven by a few words, deterministic. */
function syntheticEmoBank(embedder: HashingEmbedder): EmoBankExample[] {
  const words = ["furious", "thrilled", "calm", "table", "ecstatic", "gloomy", "paper", "screaming", "quiet", "lovely"];
  const arousalOf: Record<string, number> = {
    furious: 4.5,
    thrilled: 4.4,
    ecstatic: 4.6,
    screaming: 4.3,
    calm: 1.8,
    quiet: 1.9,
    gloomy: 2.4,
    lovely: 3.2,
    table: 3,
    paper: 3,
  };
  const valenceOf: Record<string, number> = {
    furious: 1.5,
    thrilled: 4.5,
    ecstatic: 4.7,
    screaming: 2,
    calm: 3.4,
    quiet: 3,
    gloomy: 1.8,
    lovely: 4.2,
    table: 3,
    paper: 3,
  };
  const out: EmoBankExample[] = [];
  let k = 0;
  for (const a of words) {
    for (const b of words) {
      const text = `the ${a} day and the ${b} night`;
      const split = k % 5 === 0 ? "dev" : k % 7 === 0 ? "test" : "train";
      out.push({
        split,
        features: embedder.embedSync(text),
        arousal: (arousalOf[a]! + arousalOf[b]!) / 2,
        valence: (valenceOf[a]! + valenceOf[b]!) / 2,
      });
      k++;
    }
  }
  return out;
}

describe("EmoBank estimator", () => {
  const embedder = new HashingEmbedder();
  const data = syntheticEmoBank(embedder);

  it("fits bit for bit reproducibly and records its licence", () => {
    const a = JSON.stringify(fitEmoBankModel(data, embedder));
    const b = JSON.stringify(fitEmoBankModel(data, embedder));
    expect(a).toBe(b);
    const m = JSON.parse(a);
    expect(m.license).toContain("CC BY-SA 4.0");
    expect(m.arousal.weights).toHaveLength(256);
    expect(m.training.dev_pearson.length).toBe(m.training.lambdas.length);
  });

  it("ranks intense sentences above calm ones and reads valence", async () => {
    const model = fitEmoBankModel(data, embedder);
    const est = await emobankEstimator(model, embedder).estimate([
      "the furious day and the screaming night",
      "the calm day and the quiet night",
      "the ecstatic day and the thrilled night",
    ]);
    expect(est[0]!.intensity).toBeGreaterThan(est[1]!.intensity);
    expect(est[2]!.polarity).toBe(1);
    expect(est[0]!.polarity).toBe(-1);
    for (const e of est) expect(e.intensity >= 0 && e.intensity <= 1).toBe(true);
  });

  it("refuses a model fitted with another embedder", () => {
    const model = fitEmoBankModel(data, embedder);
    expect(() => emobankEstimator(model, new HashingEmbedder(64))).toThrow(/fitted with embedder "hashing-md5-256"/);
  });
});

describe("prototype estimator", () => {
  it("gives an intense exemplar a higher E than a calm one, and the nearer set's valence", async () => {
    const embedder = new HashingEmbedder();
    const space = await prototypeSpace(embedder);
    const reference = [
      ...EMOTION_EXEMPLARS.neutral,
      "I walked to the shop.",
      "The printer is out of paper.",
      "I cried with joy.",
      "I am furious.",
    ];
    const quantiles = await prototypeCalibration(embedder, space, reference);
    const est = await prototypeEstimator(embedder, space, quantiles).estimate([
      EMOTION_EXEMPLARS.negative[0]!,
      EMOTION_EXEMPLARS.neutral[0]!,
      EMOTION_EXEMPLARS.positive[0]!,
    ]);
    expect(est[0]!.intensity).toBeGreaterThan(est[1]!.intensity);
    expect(est[0]!.polarity).toBe(-1);
    expect(est[1]!.polarity).toBe(0);
    expect(est[2]!.polarity).toBe(1);
  });
});

describe("LLM estimator (local mock server)", () => {
  const server = new MockLlmServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it("takes E and valence from the model's JSON and falls back to the lexicon on a bad reply", async () => {
    const replies = [
      { event: "lost dog", emotion: "sad", intensity: 0.9, valence: -1, hashtags: ["#Dog"], title: "Lost Dog" },
      "not json at all",
    ];
    let i = 0;
    server.handler = (_req, res) => {
      const r = replies[i++]!;
      sendJson(res, 200, chatReply(typeof r === "string" ? r : JSON.stringify(r)));
    };
    const est = llmEstimator({ llm: new OpenAiLlm({ apiKey: "k", baseUrl: server.baseUrl, timeoutMs: 5_000 }) });
    const [a, b] = await est.estimate(["My dog ran away.", "I bought bread."]);
    expect(a).toEqual({ intensity: 0.9, valence: -1, polarity: -1 });
    expect(b!.intensity).toBe(new LexiconAnalyzer().analyzeSync("I bought bread.").intensity);
    expect(est.analyzer.fallbackCounts.parse).toBe(1);
    expect(server.seen).toHaveLength(2);
  });
});

describe("oracle and registry", () => {
  it("the oracle is labelled an upper bound and knows only its labelled texts", async () => {
    const o = oracleEstimator(new Map([["a", { intensity: 0.5, polarity: 1 as const }]]), "test labels");
    expect(o.upperBound).toBe(true);
    expect(o.description).toMatch(/^UPPER BOUND/);
    expect(await o.estimate(["a"])).toEqual([{ intensity: 0.5, polarity: 1 }]);
    await expect(o.estimate(["b"])).rejects.toThrow(/no gold label/);
  });

  it("builds each estimator by name and says what a missing part is", () => {
    expect(ESTIMATOR_NAMES).toEqual(["lexicon", "vader", "afinn", "emobank", "prototype", "llm", "oracle"]);
    for (const n of ["lexicon", "vader", "afinn"]) expect(createEstimator(n).name).toBe(n);
    expect(() => createEstimator("emobank")).toThrow(/needs a fitted EmoBank model/);
    expect(() => createEstimator("llm")).toThrow(/needs LLM options/);
    expect(() => createEstimator("nope")).toThrow(/unknown estimator "nope"; known: lexicon, vader/);
  });

  it("range-checks an estimate, naming the estimator and the text", () => {
    expect(checkEstimate({ intensity: 0.4, valence: -0.2 }, "x", "t")).toEqual({ intensity: 0.4, valence: -0.2 });
    expect(() => checkEstimate({ intensity: 1.2 }, 'estimator "llm"', "a very long text")).toThrow(
      /estimator "llm": E must be in \[0, 1\], got 1.2 for "a very long text"/,
    );
    expect(() => checkEstimate({ intensity: 0.5, valence: 2 }, "x", "t")).toThrow(/valence must be in/);
    expect(() => checkEstimate({ intensity: Number.NaN }, "x", "t")).toThrow(/E must be in/);
  });

  it("puts any estimator behind the EmotionAnalyzer interface", async () => {
    const a = await estimatorAnalyzer(vaderEstimator()).analyze("VADER is smart, handsome, and funny.");
    expect(a.intensity).toBe(0.832);
    expect(a.significant).toBe(true);
    expect(a.valence).toBe(1);
  });
});
