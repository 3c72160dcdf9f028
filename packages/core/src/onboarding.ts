/**
 * Onboarding preferences (paper §3.1, docs/spec.md §6): who the user is and how they want to be talked
 * to and drawn. They yield the chatbot's style prompt and the ordered visual descriptors that
 * every image prompt starts with.
 */

/** Art style used when none is chosen (docs/spec.md §6). */
export const DEFAULT_ART_STYLE = "soft anime illustration";

/** Known conversation styles; anything else falls back to "default" in the style prompt. */
export const CONVERSATION_STYLES = ["default", "friendly", "thoughtful", "emotional"] as const;
/** Known response lengths; anything else falls back to "detailed". */
export const RESPONSE_LENGTHS = ["detailed", "concise"] as const;
/** Known personalities; anything else falls back to "empathetic". */
export const PERSONALITIES = ["empathetic", "listener"] as const;

/** The validated, complete onboarding preferences. */
export interface Preferences {
  name: string;
  age: number;
  glasses: boolean;
  fashionStyle: string;
  hair: string;
  backgroundTheme: string;
  backgroundStyle: string;
  artStyle: string;
  /** "default" | "friendly" | "thoughtful" | "emotional" (other values use the default sentence). */
  conversationStyle: string;
  /** "detailed" | "concise" (other values use the detailed sentence). */
  responseLength: string;
  /** "empathetic" | "listener" (other values use the empathetic sentence). */
  personality: string;
  /** Extra visual tags appended after the standard descriptors, in order. */
  extraTags: string[];
}

/** What a caller must supply; the last five fields have defaults. */
export interface PreferencesInput {
  name: string;
  age: number;
  glasses: boolean;
  fashionStyle: string;
  hair: string;
  backgroundTheme: string;
  backgroundStyle: string;
  artStyle?: string;
  conversationStyle?: string;
  responseLength?: string;
  personality?: string;
  extraTags?: readonly string[];
}

const REQUIRED_TEXT = ["name", "fashionStyle", "hair", "backgroundTheme", "backgroundStyle"] as const;

function text(value: unknown, field: string, where: string): string {
  if (typeof value !== "string") {
    throw new TypeError(`${where}: "${field}" must be a string, got ${value === null ? "null" : typeof value}`);
  }
  const t = value.replace(/\s+/g, " ").trim();
  if (t.length === 0) throw new RangeError(`${where}: "${field}" must not be empty`);
  return t;
}

function toggle(value: unknown, field: string, fallback: string, where: string): string {
  if (value === undefined || value === null) return fallback;
  return text(value, field, where).toLowerCase();
}

/**
 * Validate onboarding input and fill defaults: age a positive integer, glasses a boolean, every
 * text field a non-empty string (whitespace collapsed), extra tags non-empty strings.
 */
export function createPreferences(input: PreferencesInput, where = "preferences"): Preferences {
  if (input === null || typeof input !== "object")
    throw new TypeError(`${where} must be an object, got ${input === null ? "null" : typeof input}`);
  const i = input as unknown as Record<string, unknown>;
  const snake = Object.keys(i).filter((k) => k.includes("_") && PROFILE_KEYS[k]);
  if (snake.length > 0) {
    throw new RangeError(
      `${where}: ${snake.map((k) => `"${k}"`).join(", ")} ${snake.length > 1 ? "are" : "is"} snake_case; createPreferences takes camelCase (${snake.map((k) => `"${PROFILE_KEYS[k]}"`).join(", ")}), or pass the object to preferencesFromProfile, which takes either`,
    );
  }
  const age = i.age;
  if (typeof age !== "number" || !Number.isInteger(age) || age <= 0) {
    throw new RangeError(`${where}: "age" must be a positive integer (years), got ${JSON.stringify(age) ?? String(age)}`);
  }
  if (typeof i.glasses !== "boolean") {
    throw new TypeError(`${where}: "glasses" must be true or false, got ${JSON.stringify(i.glasses) ?? String(i.glasses)}`);
  }
  const fields = Object.fromEntries(REQUIRED_TEXT.map((f) => [f, text(i[f], f, where)])) as Record<(typeof REQUIRED_TEXT)[number], string>;
  let extraTags: string[] = [];
  if (i.extraTags !== undefined && i.extraTags !== null) {
    if (!Array.isArray(i.extraTags)) throw new TypeError(`${where}: "extraTags" must be an array of strings, got ${typeof i.extraTags}`);
    extraTags = i.extraTags.map((t, k) => text(t, `extraTags[${k}]`, where));
  }
  return {
    name: fields.name,
    age,
    glasses: i.glasses,
    fashionStyle: fields.fashionStyle,
    hair: fields.hair,
    backgroundTheme: fields.backgroundTheme,
    backgroundStyle: fields.backgroundStyle,
    artStyle: i.artStyle === undefined || i.artStyle === null ? DEFAULT_ART_STYLE : text(i.artStyle, "artStyle", where),
    conversationStyle: toggle(i.conversationStyle, "conversationStyle", "default", where),
    responseLength: toggle(i.responseLength, "responseLength", "detailed", where),
    personality: toggle(i.personality, "personality", "empathetic", where),
    extraTags,
  };
}

/** snake_case profile keys (scenario.json shape) → Preferences field names. */
const PROFILE_KEYS: Readonly<Record<string, keyof PreferencesInput | null>> = {
  label: null,
  name: "name",
  age: "age",
  glasses: "glasses",
  fashion_style: "fashionStyle",
  hair: "hair",
  background_theme: "backgroundTheme",
  background_style: "backgroundStyle",
  art_style: "artStyle",
  conversation_style: "conversationStyle",
  response_length: "responseLength",
  personality: "personality",
  extra_tags: "extraTags",
};

/** The same fields under their PreferencesInput (camelCase) names. */
const CAMEL_KEYS: ReadonlySet<string> = new Set(Object.values(PROFILE_KEYS).filter((f): f is keyof PreferencesInput => f !== null));

/**
 * Preferences from a profile object as stored in scenario.json (`exp4.profiles`, `label` ignored):
 * field names in snake_case (`fashion_style`) or camelCase (`fashionStyle`), one spelling per field.
 * `art_style` overrides `defaultArtStyle`; unknown keys are rejected so typos do not pass silently.
 */
export function preferencesFromProfile(profile: Record<string, unknown>, defaultArtStyle: string = DEFAULT_ART_STYLE): Preferences {
  if (profile === null || typeof profile !== "object" || Array.isArray(profile)) {
    throw new TypeError(`preferencesFromProfile: profile must be an object, got ${profile === null ? "null" : typeof profile}`);
  }
  const where = `profile ${typeof profile.label === "string" ? JSON.stringify(profile.label) : typeof profile.name === "string" ? JSON.stringify(profile.name) : "(unnamed)"}`;
  const input: Record<string, unknown> = { artStyle: text(defaultArtStyle, "defaultArtStyle", "preferencesFromProfile") };
  const givenAs = new Map<string, string>();
  for (const [key, value] of Object.entries(profile)) {
    const field = Object.prototype.hasOwnProperty.call(PROFILE_KEYS, key)
      ? PROFILE_KEYS[key]
      : CAMEL_KEYS.has(key)
        ? (key as keyof PreferencesInput)
        : undefined;
    if (field === undefined) {
      throw new RangeError(
        `${where}: unknown key "${key}"; allowed keys: ${Object.keys(PROFILE_KEYS).join(", ")} (or their camelCase spellings)`,
      );
    }
    if (field === null) continue;
    const earlier = givenAs.get(field);
    if (earlier !== undefined) throw new RangeError(`${where}: "${earlier}" and "${key}" name the same field; give it once`);
    givenAs.set(field, key);
    input[field] = value;
  }
  return createPreferences(input as unknown as PreferencesInput, where);
}

const CONVERSATION_SENTENCES: Readonly<Record<string, string>> = {
  default: "Keep a natural, balanced tone: warm but not gushing, curious but not pushy.",
  friendly: "Talk like a close friend would: casual, upbeat, and easy to chat with.",
  thoughtful: "Be calm and reflective, and offer a gentle question that helps them look a little deeper.",
  emotional: "Tune in to their feelings first, name what they seem to feel, and let your warmth show.",
};
const LENGTH_SENTENCES: Readonly<Record<string, string>> = {
  detailed: "Reply in a few full sentences, with enough detail to feel genuinely engaged.",
  concise: "Reply briefly, in one or two short sentences.",
};
const PERSONALITY_SENTENCES: Readonly<Record<string, string>> = {
  empathetic: "Show empathy: acknowledge what they went through before saying anything else, and offer comfort where it fits.",
  listener: "Above all, listen: reflect back what you heard and avoid giving advice unless they ask for it.",
};

function pick(table: Readonly<Record<string, string>>, key: string, fallback: string): string {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key]! : table[fallback]!;
}

/**
 * The chatbot's system prompt (paper §3.1): an introduction naming the user, then one sentence
 * per toggle — conversation style, response length, personality — unknown values use the default.
 */
export function stylePrompt(prefs: Preferences): string {
  return [
    `You are Persode, a journaling companion chatting with ${prefs.name}, who is ${prefs.age} years old, about their day and what they remember.`,
    pick(CONVERSATION_SENTENCES, prefs.conversationStyle, "default"),
    pick(LENGTH_SENTENCES, prefs.responseLength, "detailed"),
    pick(PERSONALITY_SENTENCES, prefs.personality, "empathetic"),
  ].join(" ");
}

/**
 * The ordered visual descriptors (docs/spec.md §6): art style; "a {age}-year-old character"; hair;
 * "wearing glasses" | "no glasses"; "{fashion} fashion"; "{background style} {background theme}
 * background"; then the extra tags.
 */
export function visualDescriptors(prefs: Preferences): string[] {
  return [
    prefs.artStyle,
    `a ${prefs.age}-year-old character`,
    prefs.hair,
    prefs.glasses ? "wearing glasses" : "no glasses",
    `${prefs.fashionStyle} fashion`,
    `${prefs.backgroundStyle} ${prefs.backgroundTheme} background`,
    ...prefs.extraTags,
  ];
}

/** The descriptor string: the visual descriptors joined with ", " (docs/spec.md §6). */
export function descriptorString(prefsOrDescriptors: Preferences | readonly string[]): string {
  const list = Array.isArray(prefsOrDescriptors)
    ? (prefsOrDescriptors as readonly string[])
    : visualDescriptors(prefsOrDescriptors as Preferences);
  return list.join(", ");
}
