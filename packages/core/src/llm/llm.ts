/**
 * The LLM contract the agent and the LLM analyzer need (docs/spec.md §6): one text-completion call,
 * plus an optional image call on clients that can render. The offline stub keeps the whole
 * library usable — and deterministic — without any network or key.
 */

/** An image returned by an image-generation endpoint: a URL, inline base64, or both. */
export interface GeneratedImage {
  /** Hosted image URL, when the service returns one. */
  url?: string;
  /** Base64-encoded image bytes, when the service returns them inline. */
  b64Json?: string;
  /** The prompt as rewritten by the service, when it reports one. */
  revisedPrompt?: string;
}

/** A text LLM (docs/spec.md §6): `complete(system, user, temperature, jsonMode)`, optional `generateImage`. */
export interface Llm {
  /** Short backend name for logs and reports, e.g. "offline-stub" or "openai:gpt-4o-mini". */
  readonly name: string;
  /** True for the offline stub: callers prefer their own offline templates over its replies. */
  readonly offline: boolean;
  /**
   * One chat completion: a system prompt and a user message in, the reply text out.
   * With `jsonMode` the reply must be a single JSON object (as text).
   */
  complete(system: string, user: string, temperature?: number, jsonMode?: boolean): Promise<string>;
  /** Render an image from a prompt (only clients backed by an image endpoint have it). */
  generateImage?(prompt: string): Promise<GeneratedImage>;
}

/** Default sampling temperature for conversational replies. */
export const DEFAULT_TEMPERATURE = 0.7;

/** Throw a TypeError naming the argument unless `value` is a string (used by every Llm). */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== "string") {
    throw new TypeError(`${what} must be a string, got ${value === null ? "null" : typeof value}`);
  }
  return value;
}

/** Validate a temperature: a finite number in [0, 2] (the OpenAI range). */
export function requireTemperature(value: unknown, what = "temperature"): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 2) {
    throw new RangeError(`${what} must be a finite number in [0, 2], got ${String(value)}`);
  }
  return value;
}

/** The last non-blank line of a text, trimmed ("" when there is none). */
function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines[lines.length - 1] ?? "";
}

/**
 * The deterministic offline stub (docs/spec.md §6). JSON mode returns "{}" (so JSON consumers fall back
 * to their offline path); otherwise it echoes the last line of the user message, so the output
 * depends only on its input and a demo or test can be read and checked.
 */
export class OfflineLlm implements Llm {
  readonly name = "offline-stub";
  readonly offline = true;

  async complete(system: string, user: string, temperature: number = DEFAULT_TEMPERATURE, jsonMode = false): Promise<string> {
    requireString(system, "OfflineLlm.complete: system");
    requireString(user, "OfflineLlm.complete: user");
    requireTemperature(temperature, "OfflineLlm.complete: temperature");
    if (jsonMode) return "{}";
    const said = lastLine(user).replace(/^user:\s*/i, "");
    if (said.length === 0) return "[offline reply] I'm listening whenever you're ready to share.";
    return `[offline reply] I hear you — "${said}" Tell me more about how that felt.`;
  }
}
