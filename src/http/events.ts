/**
 * GET /api/v1/events: the activity feed as server-sent events. Each event's id is its activity seq,
 * so a client that reconnects with Last-Event-ID (or ?since=) replays exactly what it missed.
 */
import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Context as CoreContext } from '../core/context.js';
import { CairnError } from '../core/errors.js';
import type { ActivityEvent } from '../core/model/activity.js';
import type { ChangeFeed } from '../core/services/change-feed.js';
import { changesSinceOp } from '../ops/history-ops.js';
import { getProjectOp } from '../ops/project-ops.js';
import { runOp } from '../ops/index.js';
import type { AuthEnv } from './auth.js';
import { errorResponse } from './http-errors.js';
import { API_PREFIX, opContext } from './rest-routes.js';

export interface EventsOptions {
  feed: ChangeFeed;
  /** Aborted when the server shuts down, ending every stream. */
  closing: AbortSignal;
  heartbeatMs?: number;
}

function parseSince(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw new CairnError('VALIDATION_ERROR', `Last-Event-ID / since must be an activity seq (a non-negative integer), not "${raw}".`, {
      suggestions: ['Reconnect without Last-Event-ID to follow from now, or with since=0 to replay everything'],
    });
  }
  return Number(raw);
}

const send = (stream: SSEStreamingApi, e: ActivityEvent) => stream.writeSSE({ id: String(e.seq), data: JSON.stringify(e) });

export function mountEvents(app: Hono<AuthEnv>, core: CoreContext, opts: EventsOptions): void {
  app.get(`${API_PREFIX}/events`, async (c) => {
    const ctx = opContext(core, c.get('principal'), undefined);
    let project: string | undefined;
    let since: number | undefined;
    try {
      since = parseSince(c.req.header('last-event-id') ?? c.req.query('since'));
      const p = c.req.query('project');
      if (p) project = (await runOp(getProjectOp, ctx, { key: p })).project.key;
      // Validates a resume point before the stream starts (a seq from another workspace is a 400, not a silent gap).
      if (since !== undefined) await runOp(changesSinceOp, ctx, { since, limit: 1, ...(project ? { project } : {}) });
    } catch (err) {
      return errorResponse(err);
    }
    c.header('cache-control', 'no-cache');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      // Subscribe before reading the log: whatever commits meanwhile is buffered, then de-duplicated by seq.
      let buffer: ActivityEvent[] | null = [];
      let chain = Promise.resolve();
      let sent = 0;
      const deliver = (events: ActivityEvent[]) => {
        chain = chain.then(async () => {
          for (const e of events) {
            if (e.seq <= sent || (project && e.project !== project)) continue;
            await send(stream, e);
            sent = e.seq;
          }
        }).catch(() => undefined);
        return chain;
      };
      const unsubscribe = opts.feed.subscribe((batch) => (buffer ? buffer.push(...batch) : void deliver(batch)));
      const heartbeat = setInterval(() => void stream.write(': ping\n\n').catch(() => undefined), opts.heartbeatMs ?? 15_000);
      // The server-wide signal outlives every stream: its listener goes when the stream does, or
      // each connection ever made would stay reachable from it until shutdown.
      let onClosing: (() => void) | undefined;
      const done = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        if (opts.closing.aborted) resolve();
        else opts.closing.addEventListener('abort', (onClosing = () => resolve()), { once: true });
      });
      try {
        sent = since ?? (await core.store.read((tx) => tx.lastSeq()));
        for (let more = since !== undefined; more && !stream.aborted; ) {
          const page = await runOp(changesSinceOp, ctx, { since: sent, limit: 500, ...(project ? { project } : {}) });
          await deliver(page.events);
          more = page.hasMore;
          if (!page.events.length) break;
        }
        await stream.writeSSE({ event: 'ready', id: String(sent), data: JSON.stringify({ lastSeq: sent, project: project ?? null }), retry: 1000 });
        const pending = buffer;
        buffer = null;
        await deliver(pending);
        await done;
      } finally {
        if (onClosing) opts.closing.removeEventListener('abort', onClosing);
        unsubscribe();
        clearInterval(heartbeat);
        await chain;
      }
    });
  });
}
