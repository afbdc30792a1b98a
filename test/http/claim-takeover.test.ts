/**
 * Claims exclude over HTTP: a write token that holds no claim cannot write to another's claimed
 * task, nor take it over (that needs a token that may act as anyone); an admin token can, and the
 * history says whose claim it took. A lease that runs out is announced on the event stream by the
 * server itself, when it ends, not when someone next reads the task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { EVENTUALLY_MS, waitFor } from '../helpers/wait.js';
import { serve, type Served } from './http-harness.js';

let s: Served | undefined;
const open: AbortController[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) a.abort();
  await s?.stop();
  s = undefined;
});

const ctxOf = (x: Served) => ({ store: x.store, clock: systemClock, actor: 'admin' });
const auth = (secret: string, as?: string) => ({ authorization: `Bearer ${secret}`, ...(as ? { 'x-cairn-actor': as } : {}) });

describe('claims exclude over HTTP', () => {
  it('another write token is refused (409), cannot take over (403); an admin token takes over and the holder is fenced out', async () => {
    s = await serve();
    const a = (await createToken(ctxOf(s), { name: 'agent:a', scope: 'write' })).secret;
    const b = (await createToken(ctxOf(s), { name: 'agent:b', scope: 'write' })).secret;
    const admin = (await createToken(ctxOf(s), { name: 'lead', scope: 'admin' })).secret;
    expect((await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' }, auth(a))).status).toBe(201);
    expect((await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'ledger' }, auth(a))).status).toBe(201);
    expect((await s.call('POST', '/api/v1/tasks/API-1/claim', {}, auth(a))).status).toBe(200);
    const before = (await s.call('GET', '/api/v1/tasks/API-1', undefined, auth(a))).body.task;

    const write = await s.call('PATCH', '/api/v1/tasks/API-1', { title: 'mine now' }, auth(b));
    expect([write.status, write.body.error.code]).toEqual([409, 'CLAIMED_BY_OTHER']);
    expect(write.body.error.message).toContain('agent:a');
    const claim = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, auth(b));
    expect([claim.status, claim.body.error.code]).toEqual([409, 'ALREADY_CLAIMED']);
    expect(claim.body.error.suggestions).toContain('POST /api/v1/tasks/API-1/claim {"takeover":true} to take it over (needs a token that may act as anyone)');
    const takeover = await s.call('POST', '/api/v1/tasks/API-1/claim', { takeover: true }, auth(b));
    expect([takeover.status, takeover.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const release = await s.call('POST', '/api/v1/tasks/API-1/release', { force: true }, auth(b));
    expect([release.status, release.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const after = (await s.call('GET', '/api/v1/tasks/API-1', undefined, auth(a))).body.task;
    expect([after.title, after.claim.actor, after.version]).toEqual([before.title, 'agent:a', before.version]);
    // Comments stay open to everyone: that is how b asks a to let go.
    expect((await s.call('POST', '/api/v1/tasks/API-1/comments', { body: 'may I take this?' }, auth(b))).status).toBe(200);

    const taken = await s.call('POST', '/api/v1/tasks/API-1/claim', { takeover: true }, auth(admin, 'agent:b'));
    expect([taken.status, taken.body.task.claim.actor]).toEqual([200, 'agent:b']);
    const history = (await s.call('GET', '/api/v1/tasks/API-1/history', undefined, auth(a))).body;
    const event = history.events.find((e: { type: string; actor: string }) => e.type === 'task.claimed' && e.actor === 'agent:b');
    expect(event.changes.takenOver.before.holder).toBe('agent:a');
    expect(event.via).toBe('token:lead');
    // a's lease was taken: its next write is fenced out, so it learns before it overwrites b's work.
    const stale = await s.call('PATCH', '/api/v1/tasks/API-1', { title: 'late edit' }, auth(a));
    expect([stale.status, stale.body.error.code]).toEqual([409, 'LEASE_LOST']);
    expect((await s.call('PATCH', '/api/v1/tasks/API-1', { title: 'b edits' }, auth(b))).status).toBe(200);
  });

  it('a lease that runs out reaches the event stream as task.claim_expired, from the server, without anyone reading the task', async () => {
    s = await serve();
    // Another process's agent, whose clock claims an hour ago for the shortest lease: it has already ended when the server next looks.
    const gone = openCairn({ db: s.ws.db, actor: 'agent:gone', clock: { now: () => new Date(Date.now() - 3600_000) } });
    await gone.call('create_project', { key: 'API', name: 'API' });
    await gone.call('create_task', { project: 'API', title: 'abandoned' } as never);
    const abort = new AbortController();
    open.push(abort);
    const res = await fetch(`${s.url}/api/v1/events`, { signal: abort.signal });
    expect(res.status).toBe(200);
    let text = '';
    void (async () => {
      const reader = res.body!.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
      } catch {
        // aborted by the test
      }
    })();
    await waitFor(() => text.includes('event: ready'), 'stream ready');
    await gone.call('claim_task', { id: 'API-1', leaseSeconds: 10 } as never);
    await gone.close();
    await waitFor(() => text.includes('task.claim_expired'), 'claim_expired on the stream', EVENTUALLY_MS + 6000);
    const frame = text.split('\n\n').find((f) => f.includes('task.claim_expired'))!;
    const data = JSON.parse(
      frame
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    );
    expect(data).toMatchObject({ type: 'task.claim_expired', actor: 'cairn', taskId: 'API-1' });
    expect(data.changes.claim.before.actor).toBe('agent:gone');
    const task = (await s.call('GET', '/api/v1/tasks/API-1')).body.task;
    expect(task.claim ?? null).toBeNull();
  });
});
