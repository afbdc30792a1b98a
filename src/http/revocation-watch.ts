/**
 * Long-lived things opened with a token (SSE streams, MCP sessions, MCP listen streams) end when
 * that token is revoked, by this process or any other. A request is checked once, when it arrives;
 * what outlives it registers here, and while anything is registered the live tokens are re-read
 * every 250 ms — cheap, since TokenCache reloads only after some process has committed.
 */
import type { TokenCache } from './auth.js';

export class RevocationWatch {
  readonly #held = new Map<string, Set<() => void>>();
  readonly #everyMs: number;
  #timer: NodeJS.Timeout | undefined;
  #checking = false;

  constructor(
    private readonly tokens: TokenCache,
    everyMs = 250,
  ) {
    this.#everyMs = everyMs;
  }

  /** Calls `end` once the token `tokenId` is no longer live; returns the release to call when the holder ends by itself. */
  hold(tokenId: string, end: () => void): () => void {
    let set = this.#held.get(tokenId);
    if (!set) this.#held.set(tokenId, (set = new Set()));
    set.add(end);
    this.#timer ??= setInterval(() => void this.check(), this.#everyMs);
    this.#timer.unref();
    return () => {
      set.delete(end);
      if (set.size === 0 && this.#held.get(tokenId) === set) this.#held.delete(tokenId);
      if (this.#held.size === 0) this.#stop();
    };
  }

  /** Ends what revoked tokens hold (also called by the timer). */
  async check(): Promise<void> {
    if (this.#checking || this.#held.size === 0) return;
    this.#checking = true;
    try {
      const live = new Set([...(await this.tokens.get()).values()].map((t) => t.id));
      for (const [id, ends] of [...this.#held]) {
        if (live.has(id)) continue;
        this.#held.delete(id);
        for (const end of ends) end();
      }
      if (this.#held.size === 0) this.#stop();
    } catch {
      // The store was busy or closing: the next tick tries again.
    } finally {
      this.#checking = false;
    }
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    this.#held.clear();
    this.#stop();
  }
}

/**
 * The response with its body ended when `signal` aborts: a stream the SDK serves (a 2026
 * subscriptions/listen stream, a 2025 stateless answer) is cut without reaching into the SDK.
 */
export function endBodyOn(res: Response, signal: AbortSignal, onEnd: () => void = () => undefined): Response {
  if (!res.body) {
    onEnd();
    return res;
  }
  const reader = res.body.getReader();
  let onAbort: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        onEnd();
        void reader.cancel().catch(() => undefined);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          if (onAbort) signal.removeEventListener('abort', onAbort);
          onEnd();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        if (!signal.aborted) controller.error(err);
      }
    },
    cancel(reason) {
      if (onAbort) signal.removeEventListener('abort', onAbort);
      onEnd();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
