/**
 * GET /api/v1/events: the activity feed as server-sent events. Each event's id is its activity seq,
 * so a client that reconnects with Last-Event-ID (or ?since=) replays exactly what it missed.
 */
import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Context as CoreContext } from '../core/context.js';
import { CairnError } from '../core/errors.js';
import { stripEvent } from '../core/limited-store.js';
import type { ActivityEvent } from '../core/model/activity.js';
import type { ChangeFeed } from '../core/services/change-feed.js';
import { changesSinceOp } from '../ops/history-ops.js';
import { getProjectOp, listProjectsOp } from '../ops/project-ops.js';
import { runOp } from '../ops/index.js';
import type { AuthEnv } from './auth.js';
import { clientAddress } from './auth-failures.js';
import { errorResponse, httpError } from './http-errors.js';
import type { RevocationWatch } from './revocation-watch.js';
import { API_PREFIX, opContext } from './rest-routes.js';

export interface EventsOptions {
  feed: ChangeFeed;
  /** Aborted when the server shuts down, ending every stream. */
  closing: AbortSignal;
  heartbeatMs?: number;
  /** Ends a stream once the token that opened it is revoked. */
  revocations?: RevocationWatch;
  /** Open streams at most, in all and per token (per address for callers without one). Defaults 256 and 32. */
  maxStreams?: number;
  maxStreamsPerToken?: number;
  /** Events waiting for a slow client at most; past it the stream ends and the client resumes with Last-Event-ID. Default 1000. */
  maxPendingEvents?: number;
}

export const DEFAULT_MAX_EVENT_STREAMS = 256;
export const DEFAULT_MAX_EVENT_STREAMS_PER_TOKEN = 32;
export const DEFAULT_MAX_PENDING_EVENTS = 1000;

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

/** Returns how many streams are open now (for /metrics). */
export function mountEvents(app: Hono<AuthEnv>, core: CoreContext, opts: EventsOptions): () => number {
  const maxAll = opts.maxStreams ?? DEFAULT_MAX_EVENT_STREAMS;
  const maxPer = opts.maxStreamsPerToken ?? DEFAULT_MAX_EVENT_STREAMS_PER_TOKEN;
  const perKey = new Map<string, number>();
  let total = 0;
  app.get(`${API_PREFIX}/events`, async (c) => {
    const principal = c.get('principal');
    const ctx = opContext(core, principal, undefined);
    let project: string | undefined;
    let since: number | undefined;
    // A project-limited token hears only its projects' events (keys never change, so the set holds for the stream's life).
    let reach: ReadonlySet<string> | undefined;
    try {
      if (principal.projects) reach = new Set((await runOp(listProjectsOp, ctx, { includeArchived: true })).projects.map((p) => p.key));
      since = parseSince(c.req.header('last-event-id') ?? c.req.query('since'));
      const p = c.req.query('project');
      if (p) project = (await runOp(getProjectOp, ctx, { key: p })).project.key;
      // Validates a resume point before the stream starts (a seq from another workspace is a 400, not a silent gap).
      if (since !== undefined) await runOp(changesSinceOp, ctx, { since, limit: 1, ...(project ? { project } : {}) });
    } catch (err) {
      return errorResponse(err);
    }
    const key = principal.token ? `token:${principal.token.id}` : `address:${clientAddress(c)}`;
    const mine = perKey.get(key) ?? 0;
    if (total >= maxAll || mine >= maxPer) {
      const which = total >= maxAll ? `this server's limit of ${maxAll} open event streams` : `the limit of ${maxPer} open event streams per token`;
      return httpError('RATE_LIMITED', `Too many event streams: ${which} is reached.`, ['Close a stream you no longer read (one stream per view is enough), then retry'], { 'retry-after': '5' });
    }
    // Counted from here (synchronously after the check) until the stream ends.
    total++;
    perKey.set(key, mine + 1);
    const release = () => {
      total--;
      const n = (perKey.get(key) ?? 1) - 1;
      if (n > 0) perKey.set(key, n);
      else perKey.delete(key);
    };
    c.header('cache-control', 'no-cache');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      // Subscribe before reading the log: whatever commits meanwhile is buffered, then de-duplicated by seq.
      let buffer: ActivityEvent[] | null = [];
      let chain = Promise.resolve();
      let sent = 0;
      // Events handed to the stream and not yet written. A client that reads slower than the log
      // grows would make this grow without limit; past maxPending the stream ends instead (the
      // writes still queued are abandoned). Nothing is lost: the client holds the id of the last
      // event it received and reconnects with it as Last-Event-ID, and the log replays the rest.
      const maxPending = opts.maxPendingEvents ?? DEFAULT_MAX_PENDING_EVENTS;
      let pending = 0;
      let overflowed = false;
      let endStream = () => {};
      const overflow = () => {
        overflowed = true;
        endStream();
        stream.abort();
      };
      const deliver = (events: ActivityEvent[]) => {
        if (overflowed) return chain;
        if ((pending += events.length) > maxPending) {
          overflow();
          return chain;
        }
        chain = chain
          .then(async () => {
            for (const e of events) {
              pending--;
              if (overflowed || e.seq <= sent || (project && e.project !== project) || (reach && !reach.has(e.project ?? ''))) continue;
              await send(stream, reach ? stripEvent(e, reach) : e);
              sent = e.seq;
            }
          })
          .catch(() => undefined);
        return chain;
      };
      const unsubscribe = opts.feed.subscribe((batch) => {
        if (!buffer) return void deliver(batch);
        buffer.push(...batch);
        if (buffer.length > maxPending) overflow();
      });
      const heartbeat = setInterval(() => void stream.write(': ping\n\n').catch(() => undefined), opts.heartbeatMs ?? 15_000);
      // The server-wide signal outlives every stream: its listener goes when the stream does, or
      // each connection ever made would stay reachable from it until shutdown.
      let onClosing: (() => void) | undefined;
      let unhold: (() => void) | undefined;
      const done = new Promise<void>((resolve) => {
        endStream = resolve;
        stream.onAbort(resolve);
        if (principal.token && opts.revocations) unhold = opts.revocations.hold(principal.token.id, resolve);
        if (opts.closing.aborted) resolve();
        else opts.closing.addEventListener('abort', (onClosing = () => resolve()), { once: true });
      });
      try {
        sent = since ?? (await runOp(changesSinceOp, ctx, { since: 0, limit: 1 })).headSeq;
        for (let more = since !== undefined; more && !stream.aborted && !overflowed; ) {
          const page = await runOp(changesSinceOp, ctx, { since: sent, limit: Math.min(500, maxPending), ...(project ? { project } : {}) });
          await deliver(page.events);
          more = page.hasMore;
          if (!page.events.length) break;
        }
        await stream.writeSSE({ event: 'ready', id: String(sent), data: JSON.stringify({ lastSeq: sent, project: project ?? null }), retry: 1000 });
        const buffered = buffer;
        buffer = null;
        if (!overflowed) await deliver(buffered);
        await done;
      } finally {
        if (onClosing) opts.closing.removeEventListener('abort', onClosing);
        unhold?.();
        release();
        unsubscribe();
        clearInterval(heartbeat);
        await chain;
      }
    });
  });
  return () => total;
}
