/** A request that received nothing (no headers, or no body bytes) for the idle timeout. */
export class IdleTimeoutError extends Error {
  override readonly name = "IdleTimeoutError";
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    /** Whether the wait was for the response headers or for more body bytes. */
    readonly phase: "headers" | "body",
  ) {
    super(`no ${phase === "headers" ? "response" : "data"} from ${url} within ${timeoutMs} ms`);
  }
}

/**
 * Wrap `base` so a request aborts with an IdleTimeoutError when no response headers arrive, or the
 * body stalls, for `timeoutMs` — an unreachable or stalled host fails in seconds instead of hanging,
 * while a slow but steady download of any size is never cut off.
 */
export function fetchWithIdleTimeout(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const ac = new AbortController();
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const outer = init.signal;
    if (outer) {
      if (outer.aborted) ac.abort(outer.reason);
      else outer.addEventListener("abort", () => ac.abort(outer.reason), { once: true });
    }
    let phase: "headers" | "body" = "headers";
    const fail = (): void => ac.abort(new IdleTimeoutError(url, timeoutMs, phase));
    let timer = setTimeout(fail, timeoutMs);
    let res: Response;
    try {
      res = await base(input, { ...init, signal: ac.signal });
    } catch (e) {
      clearTimeout(timer);
      throw ac.signal.aborted ? ac.signal.reason : e;
    }
    if (!res.body || [101, 204, 205, 304].includes(res.status)) {
      clearTimeout(timer);
      return res;
    }
    phase = "body";
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        clearTimeout(timer);
        timer = setTimeout(fail, timeoutMs);
        try {
          const { done, value } = await reader.read();
          if (done) {
            clearTimeout(timer);
            controller.close();
          } else controller.enqueue(value);
        } catch (e) {
          clearTimeout(timer);
          controller.error(ac.signal.aborted ? ac.signal.reason : e);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    clearTimeout(timer);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
