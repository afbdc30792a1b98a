/**
 * The live feed inside an MCP host, where a view cannot hold a stream open: it asks for the
 * changes since the last event it handled (`changes_since`), every POLL_MS and again at once
 * while more are waiting. No event is lost: each call resumes from the last seq.
 */
import type { BoardApi } from '../lib/api.js';
import type { Feed, FeedHandlers } from '../lib/live-feed.js';
import type { ActivityEvent } from '../lib/types.js';

const POLL_MS = 1500;

interface Changes {
  events: ActivityEvent[];
  lastSeq: number;
  headSeq: number;
  hasMore: boolean;
}

export class PollFeed implements Feed {
  lastSeq: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private running = false;

  constructor(
    private readonly api: BoardApi,
    private readonly handlers: FeedHandlers,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.poll();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  drop(): void {
    clearTimeout(this.timer);
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    let more = false;
    try {
      if (this.lastSeq === undefined) {
        // The first call only finds where the workspace is: what came before is backfilled by the model.
        const head = await this.api.get<Changes>('/changes', { since: 0, limit: 1 });
        this.lastSeq = head.headSeq;
        this.handlers.onState('live');
        this.handlers.onReady(head.headSeq);
      } else {
        const r = await this.api.get<Changes>('/changes', { since: this.lastSeq, limit: 200 });
        this.lastSeq = r.lastSeq;
        this.handlers.onState('live');
        if (r.events.length) this.handlers.onEvents(r.events);
        more = r.hasMore;
      }
    } catch {
      this.handlers.onState('reconnecting');
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), more ? 0 : POLL_MS);
  }
}
