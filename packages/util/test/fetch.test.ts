import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchWithIdleTimeout, IdleTimeoutError } from "../src/index.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server on 127.0.0.1 that answers every request with `handler`. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/f`;
}

describe("fetchWithIdleTimeout", () => {
  it("fails on a host that never sends headers", async () => {
    const url = await serve(() => undefined);
    const err = await fetchWithIdleTimeout(fetch, 150)(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdleTimeoutError);
    expect((err as IdleTimeoutError).phase).toBe("headers");
    expect((err as Error).message).toBe(`no response from ${url} within 150 ms`);
  });

  it("fails when the body stalls, after the bytes that did arrive", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": 10 });
      res.write("abc");
    });
    const res = await fetchWithIdleTimeout(fetch, 150)(url);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe("abc");
    const err = await reader.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdleTimeoutError);
    expect((err as IdleTimeoutError).phase).toBe("body");
  });

  it("never cuts off a slow but steady body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      let i = 0;
      const t = setInterval(() => {
        res.write(String(i));
        if (++i === 8) {
          clearInterval(t);
          res.end();
        }
      }, 50);
    });
    // eight chunks 50 ms apart take 400 ms in all, well past the 250 ms idle timeout
    expect(await (await fetchWithIdleTimeout(fetch, 250)(url)).text()).toBe("01234567");
  });
});
