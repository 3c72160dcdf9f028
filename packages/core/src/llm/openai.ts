/**
 * An OpenAI-compatible HTTP client (docs/spec.md §6): chat completions and image generation over
 * `fetch`, with a Bearer key, per-request timeouts and errors that carry the HTTP status and a
 * body snippet. `createLlm` picks it when an API key is configured, else the offline stub.
 */
import { requireTimerMs } from "@persode/util";
import { DEFAULT_TEMPERATURE, OfflineLlm, requireString, requireTemperature } from "./llm.js";
import type { GeneratedImage, Llm } from "./llm.js";

/** Default endpoint root (any OpenAI-compatible server works: vLLM, Ollama, LM Studio, …). */
export const DEFAULT_LLM_BASE_URL = "https://api.openai.com/v1";
/** Default chat model. */
export const DEFAULT_LLM_MODEL = "gpt-4o-mini";
/** Default image model. */
export const DEFAULT_IMAGE_MODEL = "dall-e-3";
/** Default per-request timeout in milliseconds. */
export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

/** How an LLM call failed: HTTP status, timeout, network, or an unusable 2xx response. */
export type LlmErrorKind = "http" | "timeout" | "network" | "response";

/** Every failure of the HTTP client; `status` and `bodySnippet` are set for non-2xx replies. */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    message: string,
    readonly kind: LlmErrorKind,
    readonly url: string,
    readonly status?: number,
    readonly bodySnippet?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Options of the HTTP client. */
export interface OpenAiLlmOptions {
  /** The API key sent as `Authorization: Bearer <key>` (required, non-empty). */
  apiKey: string;
  /** Endpoint root, e.g. "https://api.openai.com/v1" (trailing slashes ignored). */
  baseUrl?: string;
  /** Chat model id. */
  model?: string;
  /** Image model id. */
  imageModel?: string;
  /** Image size passed through to the image endpoint when set, e.g. "1024x1024". */
  imageSize?: string;
  /** Per-request timeout in milliseconds (covers connecting and reading the body). */
  timeoutMs?: number;
  /** The fetch implementation (defaults to the global one; injectable for tests). */
  fetch?: typeof fetch;
}

const SNIPPET_CHARS = 300;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_CHARS ? flat.slice(0, SNIPPET_CHARS) + "…" : flat;
}

function requireNonEmpty(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim().length === 0) {
    throw new TypeError(`${what} must be a non-empty string, got ${value === undefined ? "nothing" : JSON.stringify(value)}`);
  }
  return value.trim();
}

function normaliseBaseUrl(raw: string): string {
  const trimmed = requireNonEmpty(raw, "OpenAiLlm: baseUrl").replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`OpenAiLlm: baseUrl ${JSON.stringify(raw)} is not a valid URL (expected e.g. "${DEFAULT_LLM_BASE_URL}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`OpenAiLlm: baseUrl must use http or https, got ${JSON.stringify(raw)}`);
  }
  return trimmed;
}

/** The OpenAI-compatible client: POST {baseUrl}/chat/completions and {baseUrl}/images/generations. */
export class OpenAiLlm implements Llm {
  readonly name: string;
  readonly offline = false;
  readonly baseUrl: string;
  readonly model: string;
  readonly imageModel: string;
  readonly timeoutMs: number;
  private readonly apiKey: string;
  private readonly imageSize: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(options: OpenAiLlmOptions) {
    if (options === null || typeof options !== "object")
      throw new TypeError("OpenAiLlm: options must be an object with at least { apiKey }");
    this.apiKey = requireNonEmpty(options.apiKey, "OpenAiLlm: apiKey");
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? DEFAULT_LLM_BASE_URL);
    this.model = requireNonEmpty(options.model ?? DEFAULT_LLM_MODEL, "OpenAiLlm: model");
    this.imageModel = requireNonEmpty(options.imageModel ?? DEFAULT_IMAGE_MODEL, "OpenAiLlm: imageModel");
    this.imageSize = options.imageSize === undefined ? undefined : requireNonEmpty(options.imageSize, "OpenAiLlm: imageSize");
    this.timeoutMs = requireTimerMs(options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS, "OpenAiLlm: timeoutMs");
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function")
      throw new TypeError("OpenAiLlm: no fetch implementation available (Node ≥ 18 has one; or pass options.fetch)");
    this.fetchImpl = f;
    this.name = `openai:${this.model}`;
  }

  async complete(system: string, user: string, temperature: number = DEFAULT_TEMPERATURE, jsonMode = false): Promise<string> {
    requireString(system, "OpenAiLlm.complete: system");
    requireString(user, "OpenAiLlm.complete: user");
    requireTemperature(temperature, "OpenAiLlm.complete: temperature");
    const body: Record<string, unknown> = {
      model: this.model,
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      temperature,
    };
    if (jsonMode) body.response_format = { type: "json_object" };
    const { url, json, raw } = await this.post("/chat/completions", body);
    const content = (json as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
    if (typeof content !== "string") {
      throw new LlmError(
        `LLM response from ${url} has no choices[0].message.content string: ${snippet(raw)}`,
        "response",
        url,
        undefined,
        snippet(raw),
      );
    }
    return content;
  }

  async generateImage(prompt: string): Promise<GeneratedImage> {
    requireNonEmpty(prompt, "OpenAiLlm.generateImage: prompt");
    const body: Record<string, unknown> = { model: this.imageModel, prompt, n: 1 };
    if (this.imageSize !== undefined) body.size = this.imageSize;
    const { url, json, raw } = await this.post("/images/generations", body);
    const first = (json as { data?: Record<string, unknown>[] } | null)?.data?.[0];
    const image: GeneratedImage = {};
    if (first && typeof first.url === "string") image.url = first.url;
    if (first && typeof first.b64_json === "string") image.b64Json = first.b64_json;
    if (first && typeof first.revised_prompt === "string") image.revisedPrompt = first.revised_prompt;
    if (image.url === undefined && image.b64Json === undefined) {
      throw new LlmError(
        `image response from ${url} has neither data[0].url nor data[0].b64_json: ${snippet(raw)}`,
        "response",
        url,
        undefined,
        snippet(raw),
      );
    }
    return image;
  }

  /** POST a JSON body; returns the parsed JSON of a 2xx reply or throws an LlmError. */
  private async post(path: string, body: unknown): Promise<{ url: string; json: unknown; raw: string }> {
    const url = this.baseUrl + path;
    let res: Response;
    let raw: string;
    try {
      res = await this.fetchImpl(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${this.apiKey}`,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      raw = await res.text();
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { message?: string } };
      if (e?.name === "TimeoutError" || e?.name === "AbortError") {
        throw new LlmError(
          `LLM request POST ${url} timed out after ${this.timeoutMs} ms (raise timeoutMs or check the server)`,
          "timeout",
          url,
          undefined,
          undefined,
          { cause: err },
        );
      }
      const detail = e?.cause?.message ?? e?.message ?? String(err);
      throw new LlmError(
        `LLM request POST ${url} failed before a response: ${detail} (check baseUrl and the network)`,
        "network",
        url,
        undefined,
        undefined,
        { cause: err },
      );
    }
    if (!res.ok) {
      const hint =
        res.status === 401 || res.status === 403 ? " (check the API key)" : res.status === 404 ? " (check baseUrl and the model id)" : "";
      throw new LlmError(
        `LLM request POST ${url} failed with HTTP ${res.status}${hint}: ${snippet(raw)}`,
        "http",
        url,
        res.status,
        snippet(raw),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new LlmError(`LLM response from ${url} is not valid JSON: ${snippet(raw)}`, "response", url, res.status, snippet(raw), {
        cause: err,
      });
    }
    return { url, json, raw };
  }
}

/** Options of `createLlm`; unset fields come from `env`, then from the defaults. */
export interface CreateLlmOptions {
  /** API key; else PERSODE_LLM_API_KEY, else OPENAI_API_KEY. No key ⇒ the offline stub. */
  apiKey?: string;
  /** Endpoint root; else PERSODE_LLM_BASE_URL, else OPENAI_BASE_URL, else the OpenAI API. */
  baseUrl?: string;
  /** Chat model; else PERSODE_LLM_MODEL, else "gpt-4o-mini". */
  model?: string;
  /** Image model; else PERSODE_LLM_IMAGE_MODEL, else "dall-e-3". */
  imageModel?: string;
  /** Per-request timeout (ms); else PERSODE_LLM_TIMEOUT_MS, else 60 000. */
  timeoutMs?: number;
  /** Environment to read (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** fetch implementation for the HTTP client. */
  fetch?: typeof fetch;
}

function fromEnv(env: Record<string, string | undefined>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (typeof v === "string" && v.trim().length > 0) return v.trim();
  }
  return undefined;
}

/**
 * The configured LLM: the OpenAI-compatible HTTP client when an API key is given or set in
 * PERSODE_LLM_API_KEY / OPENAI_API_KEY, otherwise the deterministic offline stub (docs/spec.md §6).
 */
export function createLlm(options: CreateLlmOptions = {}): Llm {
  const env = options.env ?? process.env;
  if (options.apiKey !== undefined) requireNonEmpty(options.apiKey, "createLlm: apiKey");
  const apiKey = options.apiKey ?? fromEnv(env, "PERSODE_LLM_API_KEY", "OPENAI_API_KEY");
  if (apiKey === undefined) return new OfflineLlm();
  let timeoutMs = options.timeoutMs;
  const envTimeout = fromEnv(env, "PERSODE_LLM_TIMEOUT_MS");
  if (timeoutMs === undefined && envTimeout !== undefined) {
    timeoutMs = requireTimerMs(
      /^\d+$/.test(envTimeout) ? Number(envTimeout) : Number.NaN,
      `PERSODE_LLM_TIMEOUT_MS=${JSON.stringify(envTimeout)}`,
    );
  }
  const opts: OpenAiLlmOptions = {
    apiKey,
    baseUrl: options.baseUrl ?? fromEnv(env, "PERSODE_LLM_BASE_URL", "OPENAI_BASE_URL") ?? DEFAULT_LLM_BASE_URL,
    model: options.model ?? fromEnv(env, "PERSODE_LLM_MODEL") ?? DEFAULT_LLM_MODEL,
    imageModel: options.imageModel ?? fromEnv(env, "PERSODE_LLM_IMAGE_MODEL") ?? DEFAULT_IMAGE_MODEL,
  };
  if (timeoutMs !== undefined) opts.timeoutMs = timeoutMs;
  if (options.fetch !== undefined) opts.fetch = options.fetch;
  return new OpenAiLlm(opts);
}
