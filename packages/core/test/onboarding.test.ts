import { describe, expect, it } from "vitest";
import {
  createPreferences,
  DEFAULT_ART_STYLE,
  descriptorString,
  preferencesFromProfile,
  stylePrompt,
  visualDescriptors,
  type PreferencesInput,
} from "../src/onboarding.js";
import { scenarioJson } from "./shared-fixtures.js";

const fixture = scenarioJson() as {
  exp4: { profiles: Record<string, unknown>[]; default_art_style: string };
};
const [mina, jun] = fixture.exp4.profiles.map((p) => preferencesFromProfile(p, fixture.exp4.default_art_style)) as [
  ReturnType<typeof preferencesFromProfile>,
  ReturnType<typeof preferencesFromProfile>,
];

const base: PreferencesInput = {
  name: "Ari",
  age: 30,
  glasses: false,
  fashionStyle: "sporty",
  hair: "a messy bun",
  backgroundTheme: "forest",
  backgroundStyle: "misty",
};

describe("visual descriptors", () => {
  it("follow the docs/spec.md §6 order: art, age, hair, glasses, fashion, background, extra tags", () => {
    const prefs = createPreferences({ ...base, artStyle: "ink sketch", glasses: true, extraTags: ["freckles", "a red scarf"] });
    expect(visualDescriptors(prefs)).toEqual([
      "ink sketch",
      "a 30-year-old character",
      "a messy bun",
      "wearing glasses",
      "sporty fashion",
      "misty forest background",
      "freckles",
      "a red scarf",
    ]);
    expect(descriptorString(prefs)).toBe(visualDescriptors(prefs).join(", "));
    expect(descriptorString(["x", "y z"])).toBe("x, y z");
  });

  it("render both scenario profiles", () => {
    expect(visualDescriptors(mina)).toEqual([
      "soft anime illustration",
      "a 15-year-old character",
      "dyed yellow hair",
      "no glasses",
      "trendy fashion",
      "vibrant city background",
    ]);
    expect(descriptorString(jun)).toBe(
      "soft anime illustration, a 27-year-old character, short black hair, wearing glasses, minimal fashion, minimal nature background",
    );
  });
});

describe("preferences", () => {
  it("fill the defaults", () => {
    const p = createPreferences(base);
    expect(p.artStyle).toBe(DEFAULT_ART_STYLE);
    expect(p.artStyle).toBe("soft anime illustration");
    expect(p.conversationStyle).toBe("default");
    expect(p.responseLength).toBe("detailed");
    expect(p.personality).toBe("empathetic");
    expect(p.extraTags).toEqual([]);
  });

  it("map the snake_case profile shape, with art_style overriding the default", () => {
    expect(mina.name).toBe("Mina");
    expect(mina.fashionStyle).toBe("trendy");
    expect(jun.responseLength).toBe("concise");
    const custom = preferencesFromProfile({ ...fixture.exp4.profiles[0], art_style: "pixel art", extra_tags: ["headphones"] }, "unused");
    expect(visualDescriptors(custom)[0]).toBe("pixel art");
    expect(visualDescriptors(custom).at(-1)).toBe("headphones");
    expect(preferencesFromProfile(fixture.exp4.profiles[0]!).artStyle).toBe(DEFAULT_ART_STYLE);
  });

  it("reject bad input with errors that name the field", () => {
    expect(() => createPreferences({ ...base, age: 0 })).toThrow(/"age" must be a positive integer/);
    expect(() => createPreferences({ ...base, age: 15.5 })).toThrow(/"age"/);
    expect(() => createPreferences({ ...base, age: "15" as unknown as number })).toThrow(/"age"/);
    expect(() => createPreferences({ ...base, name: "   " })).toThrow(/"name" must not be empty/);
    expect(() => createPreferences({ ...base, hair: 3 as unknown as string })).toThrow(/"hair" must be a string/);
    expect(() => createPreferences({ ...base, glasses: "yes" as unknown as boolean })).toThrow(/"glasses" must be true or false/);
    expect(() => createPreferences({ ...base, extraTags: ["ok", ""] })).toThrow(/extraTags\[1\]/);
    expect(() => createPreferences(null as unknown as PreferencesInput)).toThrow(/must be an object/);
    expect(() => preferencesFromProfile({ ...fixture.exp4.profiles[1], fashion: "x" })).toThrow(/unknown key "fashion".*allowed keys/);
    expect(() => preferencesFromProfile({ ...fixture.exp4.profiles[1], age: -3 })).toThrow(/profile "Jun.*"age"/);
  });
});

describe("a minimal profile in either spelling", () => {
  const snake = {
    name: "Ada",
    age: 30,
    glasses: true,
    fashion_style: "denim jacket",
    hair: "curly red hair",
    background_theme: "a harbour",
    background_style: "watercolour",
  };
  const camel = {
    name: "Ada",
    age: 30,
    glasses: true,
    fashionStyle: "denim jacket",
    hair: "curly red hair",
    backgroundTheme: "a harbour",
    backgroundStyle: "watercolour",
  };

  it("preferencesFromProfile takes snake_case and camelCase field names alike", () => {
    expect(preferencesFromProfile(camel)).toEqual(preferencesFromProfile(snake));
    expect(preferencesFromProfile(camel).fashionStyle).toBe("denim jacket");
    expect(createPreferences(camel)).toEqual(preferencesFromProfile(snake));
  });

  it("one field in both spellings is an error; createPreferences names snake_case keys and the fix", () => {
    expect(() => preferencesFromProfile({ ...snake, fashionStyle: "suit" })).toThrow(
      /"fashion_style" and "fashionStyle" name the same field/,
    );
    expect(() => createPreferences(snake as never)).toThrow(
      /"fashion_style", "background_theme", "background_style" are snake_case; createPreferences takes camelCase \("fashionStyle", "backgroundTheme", "backgroundStyle"\), or pass the object to preferencesFromProfile/,
    );
  });
});

describe("style prompt", () => {
  it("has one sentence per toggle after the introduction", () => {
    const prompt = stylePrompt(mina);
    expect(prompt).toContain("Mina");
    const sentences = prompt.split(/(?<=\.)\s+/);
    expect(sentences).toHaveLength(4);
  });

  it("changes with every toggle", () => {
    const variants = new Set<string>();
    for (const conversationStyle of ["default", "friendly", "thoughtful", "emotional"]) {
      for (const responseLength of ["detailed", "concise"]) {
        for (const personality of ["empathetic", "listener"]) {
          variants.add(stylePrompt(createPreferences({ ...base, conversationStyle, responseLength, personality })));
        }
      }
    }
    expect(variants.size).toBe(16);
  });

  it("falls back to the default sentence for unknown values", () => {
    const known = stylePrompt(
      createPreferences({ ...base, conversationStyle: "default", responseLength: "detailed", personality: "empathetic" }),
    );
    const unknown = stylePrompt(
      createPreferences({ ...base, conversationStyle: "sarcastic", responseLength: "epic", personality: "critic" }),
    );
    expect(unknown).toBe(known);
    // toggles are case-insensitive
    expect(stylePrompt(createPreferences({ ...base, conversationStyle: "Friendly" }))).toBe(
      stylePrompt(createPreferences({ ...base, conversationStyle: "friendly" })),
    );
  });
});
