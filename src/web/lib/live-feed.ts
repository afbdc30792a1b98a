/**
 * Follows /api/v1/events with fetch (so the token goes in a header, not the URL). After a dropped
 * connection it reconnects with Last-Event-ID set to the last seq it handled: the server replays
 * what was missed before going live again, so no event is lost.
 */
import type { Api } from './api.js';
import type { ActivityEvent } from './types.js';

export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export interface FeedHandlers {
  onEvents(events: ActivityEvent[]): void;
  /** The position the stream started from (the `ready` event), for backfilling recent activity. */
  onReady(lastSeq: number): void;
  onState(state: FeedState): void;
}

/** Where live events come from: the server's event stream here, polling inside an MCP host (src/web/apps/poll-feed.ts). */
export interface Feed {
  /** The last event handled; undefined until the feed has started. */
  readonly lastSeq: number | undefined;
  start(): void;
  stop(): void;
  /** Drops the connection; the feed resumes from lastSeq. */
  drop(): void;
}

export class LiveFeed implements Feed {
  lastSeq: number | undefined;
  private stopped = false;
  private abort: AbortController | undefined;
  private retryMs = 500;

  constructor(
    private readonly api: Api,
    private readonly handlers: FeedHandlers,
  ) {}

  private running = false;

  /** Idempotent: one loop per feed. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
  }

  /** Drops the current connection (tests and the "reconnect" button use it); the loop reconnects and resumes. */
  drop(): void {
    this.abort?.abort();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.handlers.onState(this.lastSeq === undefined ? 'connecting' : 'reconnecting');
      const ok = await this.connect().catch(() => false);
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, ok ? 100 : this.retryMs));
      this.retryMs = ok ? 500 : Math.min(this.retryMs * 2, 2000);
    }
  }

  /** One connection; true if it got as far as the stream. */
  private async connect(): Promise<boolean> {
    this.abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', ...this.api.headers() };
    if (this.lastSeq !== undefined) headers['last-event-id'] = String(this.lastSeq);
    const res = await fetch('/api/v1/events', { headers, signal: this.abort.signal, cache: 'no-store' });
    if (res.status === 401) {
      this.handlers.onState('unauthorized');
      await res.body?.cancel();
      return false;
    }
    if (!res.ok || !res.body) return false;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let pending: ActivityEvent[] = [];
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return true;
        buf += value.replace(/\r\n?/g, '\n');
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(5).replace(/^ /, '');
          }
          if (!data) continue;
          const parsed = JSON.parse(data);
          if (event === 'ready') {
            this.handlers.onState('live');
            this.lastSeq = Math.max(this.lastSeq ?? 0, parsed.lastSeq);
            this.handlers.onReady(parsed.lastSeq);
          } else if (event === 'message') {
            const e = parsed as ActivityEvent;
            if (this.lastSeq !== undefined && e.seq <= this.lastSeq) continue;
            this.lastSeq = e.seq;
            pending.push(e);
          }
        }
        // Everything that arrived in one chunk (a replay comes in bursts) is handled as one batch.
        if (pending.length) {
          const batch = pending;
          pending = [];
          this.handlers.onEvents(batch);
        }
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }
}
