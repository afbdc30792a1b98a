/** Tokens end when revoked (issue 22, item 5): open SSE streams and MCP sessions of a revoked token close; SSE streams are capped per token and in total. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { EVENTUALLY_MS, waitFor } from '../helpers/wait.js';
import { cli, serve, type Served } from './http-harness.js';

let s: Served | undefined;
const open: AbortController[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) a.abort();
  await s?.stop();
  s = undefined;
});

const ctxOf = (x: Served) => ({ store: x.store, clock: systemClock, actor: 'admin' });

/** An SSE stream read in the background: its text so far, and whether the server ended it. */
async function sse(url: string, headers: Record<string, string>) {
  const abort = new AbortController();
  open.push(abort);
  const res = await fetch(url, { headers, signal: abort.signal });
  const state = { status: res.status, text: '', ended: false };
  if (res.status !== 200) {
    state.text = await res.text();
    state.ended = true;
    return state;
  }
  void (async () => {
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += new TextDecoder().decode(value);
      }
    } catch {
      // aborted by the test
    }
    state.ended = true;
  })();
  return state;
}

describe('a revoked token loses its open streams', () => {
  it('an SSE stream stops delivering and ends once the token is revoked by another process', async () => {
    s = await serve();
    const { secret } = await createToken(ctxOf(s), { name: 'watcher', scope: 'read' });
    const { secret: writer } = await createToken(ctxOf(s), { name: 'writer', scope: 'write' });
    const auth = (t: string) => ({ authorization: `Bearer ${t}` });
    expect((await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' }, auth(writer))).status).toBe(201);
    const stream = await sse(`${s.url}/api/v1/events`, auth(secret));
    await waitFor(() => stream.text.includes('event: ready'), 'stream ready');
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'before revocation' }, auth(writer));
    await waitFor(() => stream.text.includes('before revocation'), 'first event');
    const r = await cli(s.ws.db, ['token', 'revoke', 'watcher']);
    expect(r.code, r.stderr).toBe(0);
    await waitFor(() => stream.ended, 'stream ended after revocation', EVENTUALLY_MS);
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'after revocation' }, auth(writer));
    expect(stream.text).not.toContain('after revocation');
  });

  it('a 2025 MCP session (and its push stream) of a revoked token is closed', async () => {
    s = await serve();
    const { secret } = await createToken(ctxOf(s), { name: 'agent', scope: 'write' });
    const client = new ClientV1({ name: 't', version: '1' });
    await client.connect(new HttpV1(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    await client.callTool({ name: 'list_projects', arguments: {} });
    expect(s.server.app.mcp.sessionCount).toBe(1);
    const r = await cli(s.ws.db, ['token', 'revoke', 'agent']);
    expect(r.code, r.stderr).toBe(0);
    await waitFor(() => s!.server.app.mcp.sessionCount === 0, 'session closed after revocation', EVENTUALLY_MS);
    await client.close().catch(() => undefined);
  });

  it('a 2026 subscriptions/listen stream of a revoked token ends', async () => {
    s = await serve();
    const { secret } = await createToken(ctxOf(s), { name: 'listener', scope: 'read' });
    const { secret: writer } = await createToken(ctxOf(s), { name: 'writer', scope: 'write' });
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' }, { authorization: `Bearer ${writer}` });
    await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'watched' }, { authorization: `Bearer ${writer}` });
    // Every event-stream response the client gets, with whether the server ended it.
    const streams: Array<{ ended: boolean }> = [];
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) return res;
      const state = { ended: false };
      streams.push(state);
      const body = res.body.pipeThrough(new TransformStream({ flush: () => void (state.ended = true) }));
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { fetch: watching, requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    const sub = await client.listen({ resourceSubscriptions: ['cairn://tasks/API-1'] });
    await waitFor(() => streams.some((x) => !x.ended), 'listen stream open');
    const r = await cli(s.ws.db, ['token', 'revoke', 'listener']);
    expect(r.code, r.stderr).toBe(0);
    await waitFor(() => streams.every((x) => x.ended), 'listen stream ended after revocation', EVENTUALLY_MS);
    await sub.close().catch(() => undefined);
    await client.close().catch(() => undefined);
  });

  it('streams of other tokens live on', async () => {
    s = await serve();
    const a = await createToken(ctxOf(s), { name: 'a', scope: 'read' });
    const b = await createToken(ctxOf(s), { name: 'b', scope: 'read' });
    const sa = await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${a.secret}` });
    const sb = await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${b.secret}` });
    await waitFor(() => sa.text.includes('event: ready') && sb.text.includes('event: ready'), 'both ready');
    await cli(s.ws.db, ['token', 'revoke', 'a']);
    await waitFor(() => sa.ended, 'a ended');
    expect(sb.ended).toBe(false);
    await createToken(ctxOf(s), { name: 'c', scope: 'read' }); // another commit: b is re-checked and still live
    await s.call('GET', '/healthz');
    expect(sb.ended).toBe(false);
  });
});

describe('SSE streams are capped', () => {
  it('per token and in total: the stream over a cap is refused with 429, a closed one frees its place', async () => {
    s = await serve({ maxEventStreams: 5, maxEventStreamsPerToken: 3 });
    const a = await createToken(ctxOf(s), { name: 'a', scope: 'read' });
    const b = await createToken(ctxOf(s), { name: 'b', scope: 'read' });
    const as = [];
    for (let i = 0; i < 3; i++) as.push(await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${a.secret}` }));
    expect(as.map((x) => x.status)).toEqual([200, 200, 200]);
    const fourth = await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${a.secret}` });
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain('RATE_LIMITED');
    const bs = [];
    for (let i = 0; i < 2; i++) bs.push(await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${b.secret}` }));
    expect(bs.map((x) => x.status)).toEqual([200, 200]);
    expect((await sse(`${s.url}/api/v1/events`, { authorization: `Bearer ${b.secret}` })).status).toBe(429); // total 5 reached
    open[0]!.abort(); // one of a's streams goes away
    await waitFor(async () => (await sse(`${s!.url}/api/v1/events`, { authorization: `Bearer ${b.secret}` })).status === 200, 'a place freed');
  });
});
