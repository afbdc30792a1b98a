/**
 * /api/v1/events and a client that does not read: the server keeps a bounded number of events for
 * it, then ends the stream; the client resumes with Last-Event-ID and loses nothing (issue 19 item 4).
 */
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { followChanges } from '../../src/core/services/change-feed.js';
import { systemClock } from '../../src/core/ports.js';
import { mountEvents } from '../../src/http/events.js';
import type { AuthEnv } from '../../src/http/auth.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

type Frame = { event?: string; id?: string; data: string };

/** Reads SSE frames until `stop` says so or the stream ends; `ended` tells which. */
async function readFrames(res: Response, stop: (f: Frame, all: Frame[]) => boolean): Promise<{ frames: Frame[]; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = res.body!.getReader();
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { frames, ended: true, reader };
    text += decoder.decode(value, { stream: true });
    let at: number;
    while ((at = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, at);
      text = text.slice(at + 2);
      if (block.startsWith(':')) continue;
      const f: Frame = { data: '' };
      for (const line of block.split('\n')) {
        const [k, ...rest] = line.split(': ');
        const v = rest.join(': ');
        if (k === 'event') f.event = v;
        else if (k === 'id') f.id = v;
        else if (k === 'data') f.data += v;
      }
      frames.push(f);
      if (stop(f, frames)) return { frames, ended: false, reader };
    }
  }
}

describe('SSE and a slow client', () => {
  it('a client that falls more than maxPendingEvents behind is dropped, and resumes from Last-Event-ID with nothing lost', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'EV', name: 'Events' });
    const feed = await followChanges(c.store, { intervalMs: 60_000 });
    const closing = new AbortController();
    const app = new Hono<AuthEnv>();
    app.use('*', async (ctx, next) => {
      ctx.set('principal', { token: null, scope: 'write' });
      await next();
    });
    mountEvents(app, { store: c.store, clock: systemClock, actor: 'http' }, { feed, closing: closing.signal, maxPendingEvents: 5 });

    const first = await app.request('/api/v1/events');
    const opened = await readFrames(first, (f) => f.event === 'ready');
    let lastId = opened.frames.at(-1)!.id!;
    // The client stops reading while 30 changes commit and reach the server's feed.
    const created: string[] = [];
    for (let i = 0; i < 30; i++) created.push((await c.call('create_task', { project: 'EV', title: `t${i}` })).task.id);
    await feed.poll();
    // Reading again, it finds the stream ended (after at most what was already written).
    opened.reader.releaseLock();
    const rest = await readFrames(first, () => false);
    expect(rest.ended).toBe(true);
    expect(rest.frames.length).toBeLessThanOrEqual(5);
    const seen = rest.frames.map((f) => JSON.parse(f.data) as { seq: number; taskId: string });
    lastId = rest.frames.at(-1)?.id ?? lastId;

    const second = await app.request('/api/v1/events', { headers: { 'last-event-id': lastId } });
    const resumed = await readFrames(second, (f) => f.event === 'ready');
    await resumed.reader.cancel();
    seen.push(...resumed.frames.filter((f) => f.event !== 'ready').map((f) => JSON.parse(f.data) as { seq: number; taskId: string }));
    expect(seen.map((e) => e.taskId)).toEqual(created);
    expect(new Set(seen.map((e) => e.seq)).size).toBe(30);
    await feed.close();
    closing.abort();
  });
});
