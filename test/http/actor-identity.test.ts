/** Who a caller acts as over HTTP: a token's name is its actor; naming another needs an admin token (or a tokenless loopback workspace), and history records both. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { serve, type Served } from './http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const ctxOf = (x: Served) => ({ store: x.store, clock: systemClock, actor: 'admin' });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const as = (name: string) => ({ 'x-cairn-actor': name });
const sc = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;

async function mcp(url: string, query: string, headers: Record<string, string>): Promise<Client> {
  const c = new Client({ name: 'actor-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`), { requestInit: { headers } }));
  return c;
}

describe('actor bound to the caller', () => {
  it('no tokens (loopback): the caller names its actor by header or ?as=, or is "http"; a name over 100 characters is refused', async () => {
    s = await serve();
    expect((await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' })).status).toBe(201);
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'one' });
    const claimed = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, as('agent:a'));
    expect(claimed.body.task.claim).toMatchObject({ actor: 'agent:a' });
    const hist = await s.call('GET', '/api/v1/tasks/API-1/history');
    expect(hist.body.events.map((e: { actor: string; via?: string }) => [e.actor, e.via])).toEqual([
      ['http', undefined],
      ['agent:a', undefined],
    ]);

    const long = 'agent:' + 'x'.repeat(95);
    const refused = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, as(long));
    expect([refused.status, refused.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(refused.body.error.message).toContain('X-Cairn-Actor');
    // Exactly 100 is fine; two long names no longer collapse into one identity.
    const hundred = 'agent:' + 'y'.repeat(94);
    const other = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, as(hundred));
    expect([other.status, other.body.error.code]).toEqual([409, 'ALREADY_CLAIMED']);

    const c = await mcp(s.url, '?toolsets=all&as=agent:m', {});
    const made = await c.callTool({ name: 'create_task', arguments: { project: 'API', title: 'by mcp' } });
    const h = await c.callTool({ name: 'task_history', arguments: { id: sc(made).task.id } });
    expect(sc(h).events[0]).toMatchObject({ actor: 'agent:m' });
    expect(sc(h).events[0].via).toBeUndefined();
    await c.close();
    const tooLong = await fetch(`${s.url}/mcp?as=${'z'.repeat(101)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });

  it('matrix: read, write and admin tokens, by header and by ?as=', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'one' });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'two' });
    const read = await createToken(ctxOf(s), { name: 'agent:r', scope: 'read' });
    const write = await createToken(ctxOf(s), { name: 'agent:w', scope: 'write' });
    const admin = await createToken(ctxOf(s), { name: 'ci', scope: 'admin' });

    // read: reads as itself; naming another (even to read) is refused; naming itself is fine.
    expect((await s.call('GET', '/api/v1/tasks', undefined, bearer(read.secret))).status).toBe(200);
    expect((await s.call('GET', '/api/v1/tasks', undefined, { ...bearer(read.secret), ...as('agent:r') })).status).toBe(200);
    const readAs = await s.call('GET', '/api/v1/tasks', undefined, { ...bearer(read.secret), ...as('agent:w') });
    expect([readAs.status, readAs.body.error.code]).toEqual([403, 'FORBIDDEN']);

    // write: claims as its own name; acting as another is refused and changes nothing.
    const stolen = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, { ...bearer(write.secret), ...as('agent:victim') });
    expect([stolen.status, stolen.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(stolen.body.error.message).toContain('scope "admin"');
    expect(stolen.headers.get('www-authenticate')).toContain('scope="admin"');
    expect((await s.call('GET', '/api/v1/tasks/API-1', undefined, bearer(write.secret))).body.task.claim).toBeFalsy();
    const own = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, bearer(write.secret));
    expect(own.body.task.claim).toMatchObject({ actor: 'agent:w' });
    const self = await s.call('POST', '/api/v1/tasks/API-1/claim', {}, { ...bearer(write.secret), ...as('agent:w') });
    expect(self.status).toBe(200);

    // admin: acts as the named agent; history records the token it came through.
    const byAdmin = await s.call('POST', '/api/v1/tasks/API-2/claim', {}, { ...bearer(admin.secret), ...as('agent:x') });
    expect(byAdmin.body.task.claim).toMatchObject({ actor: 'agent:x' });
    const adminOwn = await s.call('POST', '/api/v1/tasks/API-2/comments', { body: 'note' }, bearer(admin.secret));
    expect(adminOwn.status).toBe(200);
    const hist = await s.call('GET', '/api/v1/tasks/API-2/history', undefined, bearer(admin.secret));
    const tail = hist.body.events.slice(-2).map((e: { actor: string; via?: string }) => [e.actor, e.via]);
    expect(tail).toEqual([
      ['agent:x', 'token:ci'],
      ['ci', undefined],
    ]);

    // The same rules over MCP with ?as=.
    const denied = await fetch(`${s.url}/mcp?as=agent:victim`, {
      method: 'POST',
      headers: { ...bearer(write.secret), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(denied.status).toBe(403);
    const w = await mcp(s.url, '?toolsets=all', bearer(write.secret));
    const wc = await w.callTool({ name: 'create_task', arguments: { project: 'API', title: 'by write token' } });
    const wh = await w.callTool({ name: 'task_history', arguments: { id: sc(wc).task.id } });
    expect(sc(wh).events[0]).toMatchObject({ actor: 'agent:w' });
    await w.close();
    const a = await mcp(s.url, '?toolsets=all&as=agent:y', bearer(admin.secret));
    const ac = await a.callTool({ name: 'claim_task', arguments: { id: sc(wc).task.id } });
    expect(sc(ac).task.claim).toMatchObject({ actor: 'agent:y' });
    const ah = await a.callTool({ name: 'task_history', arguments: { id: sc(wc).task.id } });
    expect(sc(ah).events.at(-1)).toMatchObject({ actor: 'agent:y', via: 'token:ci' });
    await a.close();
  });
});
