/**
 * /api/v1/events in-process: a stream that ends leaves nothing on the server's shutdown signal
 * (each connection used to stay reachable from it until shutdown).
 */
import { getEventListeners } from 'node:events';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { followChanges } from '../../src/core/services/change-feed.js';
import { systemClock } from '../../src/core/ports.js';
import { mountEvents } from '../../src/http/events.js';
import type { AuthEnv } from '../../src/http/auth.js';
import { waitFor } from '../helpers/wait.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

describe('SSE streams and the shutdown signal', () => {
  it('a closed stream removes its listener from the server-wide signal', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'EV', name: 'Events' });
    const feed = await followChanges(c.store, { intervalMs: 20 });
    const closing = new AbortController();
    const app = new Hono<AuthEnv>();
    app.use('*', async (ctx, next) => {
      ctx.set('principal', { token: null, scope: 'write' });
      await next();
    });
    mountEvents(app, { store: c.store, clock: systemClock, actor: 'http' }, { feed, closing: closing.signal });
    for (let i = 0; i < 5; i++) {
      const res = await app.request('/api/v1/events');
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toContain('event: ready');
      await reader.cancel();
    }
    // A cancelled stream lets go of the signal as its cleanup runs: wait for that (the ceiling only
    // bounds a hang; a listener that is never removed fails here).
    await waitFor(() => getEventListeners(closing.signal, 'abort').length === 0, 'every stream listener removed from the shutdown signal');
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(0);
    await feed.close();
  });
});
