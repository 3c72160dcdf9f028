import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_TIMER_MS } from "@persode/util";
import { OfflineLlm } from "../src/llm/llm.js";
import { createLlm, DEFAULT_LLM_BASE_URL, LlmError, OpenAiLlm } from "../src/llm/openai.js";
import { chatReply, MockLlmServer, sendJson } from "./mock-llm-server.js";

describe("offline stub", () => {
  const stub = new OfflineLlm();

  it("returns {} in JSON mode", async () => {
    expect(await stub.complete("sys", "anything", 0, true)).toBe("{}");
  });

  it("echoes the last line of the user message, deterministically", async () => {
    const a = await stub.complete("sys", "context line\n\nMina says:\nI aced the exam", 0.7, false);
    const b = await stub.complete("other system", "context line\n\nMina says:\nI aced the exam", 0.2, false);
    expect(a).toContain('"I aced the exam"');
    expect(a).toBe(b);
    expect(await stub.complete("s", "User: hello there")).toContain('"hello there"');
    expect(await stub.complete("s", "   \n ")).toMatch(/listening/);
    expect(stub.offline).toBe(true);
  });

  it("validates its arguments", async () => {
    await expect(stub.complete(1 as unknown as string, "u")).rejects.toThrow(/system must be a string/);
    await expect(stub.complete("s", null as unknown as string)).rejects.toThrow(/user must be a string/);
    await expect(stub.complete("s", "u", 3)).rejects.toThrow(/temperature must be a finite number in \[0, 2\]/);
  });
});

describe("createLlm", () => {
  it("returns the offline stub without a key", () => {
    expect(createLlm({ env: {} })).toBeInstanceOf(OfflineLlm);
    expect(createLlm({ env: { OPENAI_API_KEY: "  " } })).toBeInstanceOf(OfflineLlm);
  });

  it("returns the HTTP client when a key is given or configured", () => {
    const fromOpenAi = createLlm({ env: { OPENAI_API_KEY: "k1" } });
    expect(fromOpenAi).toBeInstanceOf(OpenAiLlm);
    expect((fromOpenAi as OpenAiLlm).baseUrl).toBe(DEFAULT_LLM_BASE_URL);
    const fromPersode = createLlm({
      env: {
        PERSODE_LLM_API_KEY: "k2",
        PERSODE_LLM_BASE_URL: "http://127.0.0.1:9/v1/",
        PERSODE_LLM_MODEL: "m",
        PERSODE_LLM_IMAGE_MODEL: "im",
        PERSODE_LLM_TIMEOUT_MS: "1234",
      },
    }) as OpenAiLlm;
    expect(fromPersode.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(fromPersode.model).toBe("m");
    expect(fromPersode.imageModel).toBe("im");
    expect(fromPersode.timeoutMs).toBe(1234);
    expect(fromPersode.offline).toBe(false);
    const explicit = createLlm({ apiKey: "k3", model: "x", env: {} }) as OpenAiLlm;
    expect(explicit).toBeInstanceOf(OpenAiLlm);
    expect(explicit.name).toBe("openai:x");
  });

  it("rejects bad configuration clearly", () => {
    expect(() => createLlm({ apiKey: "", env: {} })).toThrow(/apiKey must be a non-empty string/);
    expect(() => createLlm({ apiKey: "k", baseUrl: "not a url", env: {} })).toThrow(/not a valid URL/);
    expect(() => createLlm({ apiKey: "k", baseUrl: "ftp://host/v1", env: {} })).toThrow(/http or https/);
    expect(() => createLlm({ env: { OPENAI_API_KEY: "k", PERSODE_LLM_TIMEOUT_MS: "soon" } })).toThrow(/PERSODE_LLM_TIMEOUT_MS/);
  });

  it("rejects a timeout that Node would turn into an immediate abort or an unrelated error", () => {
    // AbortSignal.timeout refuses fractions (reported as a network failure) and fires at once past 2^31 − 1 ms.
    for (const timeoutMs of [1.5, 2 ** 31, 0, Number.POSITIVE_INFINITY]) {
      expect(() => new OpenAiLlm({ apiKey: "k", timeoutMs }), String(timeoutMs)).toThrow(
        /timeoutMs must be a whole number of milliseconds/,
      );
    }
    expect(() => createLlm({ env: { OPENAI_API_KEY: "k", PERSODE_LLM_TIMEOUT_MS: "3000000000" } })).toThrow(/PERSODE_LLM_TIMEOUT_MS/);
    expect(new OpenAiLlm({ apiKey: "k", timeoutMs: MAX_TIMER_MS }).timeoutMs).toBe(MAX_TIMER_MS);
  });
});

describe("OpenAI-compatible client against a local mock server", () => {
  const server = new MockLlmServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen.length = 0;
  });
  const client = (timeoutMs = 5_000) =>
    new OpenAiLlm({ apiKey: "sk-test-123", baseUrl: server.baseUrl, model: "chat-m", imageModel: "img-m", timeoutMs });

  it("posts chat completions with the key, model, messages and temperature", async () => {
    server.handler = (_req, res) => sendJson(res, 200, chatReply("Hello from the mock"));
    const reply = await client().complete("be kind", "hi there", 0.3, false);
    expect(reply).toBe("Hello from the mock");
    expect(server.seen).toHaveLength(1);
    const req = server.seen[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.headers["content-type"]).toMatch(/application\/json/);
    const body = JSON.parse(req.body);
    expect(body).toEqual({
      model: "chat-m",
      messages: [
        { role: "system", content: "be kind" },
        { role: "user", content: "hi there" },
      ],
      temperature: 0.3,
    });
  });

  it("asks for a JSON object in JSON mode", async () => {
    server.handler = (_req, res) => sendJson(res, 200, chatReply('{"a":1}'));
    expect(await client().complete("s", "u", 0, true)).toBe('{"a":1}');
    expect(JSON.parse(server.seen[0]!.body).response_format).toEqual({ type: "json_object" });
  });

  it("posts image generations and returns the URL", async () => {
    server.handler = (_req, res) => sendJson(res, 200, { created: 1, data: [{ url: "https://img.example/1.png", revised_prompt: "rp" }] });
    const image = await client().generateImage("a cat in the rain");
    expect(image).toEqual({ url: "https://img.example/1.png", revisedPrompt: "rp" });
    const req = server.seen[0]!;
    expect(req.path).toBe("/v1/images/generations");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(JSON.parse(req.body)).toEqual({ model: "img-m", prompt: "a cat in the rain", n: 1 });
  });

  it("reports a non-2xx status with a body snippet", async () => {
    server.handler = (_req, res) => sendJson(res, 500, { error: { message: "the model is overloaded" } });
    const err = await client()
      .complete("s", "u")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    const e = err as LlmError;
    expect(e.kind).toBe("http");
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/HTTP 500/);
    expect(e.message).toContain("the model is overloaded");
    expect(e.bodySnippet).toContain("overloaded");
    expect(e.message).not.toContain("sk-test-123");

    server.handler = (_req, res) => sendJson(res, 401, { error: { message: "bad key" } });
    await expect(client().generateImage("x")).rejects.toThrow(/HTTP 401 \(check the API key\).*bad key/);
  });

  it("times out a request that never answers", async () => {
    server.handler = () => {
      /* never reply */
    };
    const err = await client(150)
      .complete("s", "u")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe("timeout");
    expect((err as LlmError).message).toMatch(/timed out after 150 ms/);
  });

  it("rejects malformed 2xx responses", async () => {
    server.handler = (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("<html>gateway</html>");
    await expect(client().complete("s", "u")).rejects.toMatchObject({
      kind: "response",
      message: expect.stringMatching(/not valid JSON.*gateway/),
    });
    server.handler = (_req, res) => sendJson(res, 200, { choices: [] });
    await expect(client().complete("s", "u")).rejects.toMatchObject({
      kind: "response",
      message: expect.stringMatching(/choices\[0\]\.message\.content/),
    });
    server.handler = (_req, res) => sendJson(res, 200, { data: [{}] });
    await expect(client().generateImage("x")).rejects.toMatchObject({
      kind: "response",
      message: expect.stringMatching(/neither data\[0\]\.url nor data\[0\]\.b64_json/),
    });
  });

  it("reports a connection failure as a network error", async () => {
    const dead = new MockLlmServer();
    await dead.start();
    const url = dead.baseUrl;
    await dead.stop();
    const err = await new OpenAiLlm({ apiKey: "k", baseUrl: url, timeoutMs: 5_000 }).complete("s", "u").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe("network");
    expect((err as LlmError).message).toContain(url);
  });

  it("validates arguments before any request", async () => {
    await expect(client().complete("s", 5 as unknown as string)).rejects.toThrow(/user must be a string/);
    await expect(client().generateImage("  ")).rejects.toThrow(/prompt must be a non-empty string/);
    expect(server.seen).toHaveLength(0);
  });
});
