/** The guards of `cairn serve`: bearer tokens and scopes, Host/Origin checks, body and rate limits, the access log, binding, shutdown. */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { systemClock } from '../../src/core/ports.js';
import { createToken, revokeToken } from '../../src/core/services/tokens.js';
import { startServer } from '../../src/http/main.js';
import { cli, serve, type Served } from './http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const ctxOf = (x: Served) => ({ store: x.store, clock: systemClock, actor: 'admin' });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** node:http, because fetch refuses to forge a Host header. */
function raw(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('bearer tokens', () => {
  it('auth matrix: none, bad, read on write, write; revocation applies at once', async () => {
    s = await serve();
    // No tokens in the workspace: loopback callers need none.
    expect((await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' })).status).toBe(201);
    const read = await createToken(ctxOf(s), { name: 'reader', scope: 'read' });
    const write = await createToken(ctxOf(s), { name: 'writer', scope: 'write' });

    const none = await s.call('GET', '/api/v1/projects');
    expect([none.status, none.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const bad = await s.call('GET', '/api/v1/projects', undefined, bearer('cairn_not-a-real-token'));
    expect([bad.status, bad.headers.get('www-authenticate')]).toEqual([401, expect.stringContaining('invalid_token')]);

    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(read.secret))).status).toBe(200);
    const refused = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'nope' }, bearer(read.secret));
    expect([refused.status, refused.body.error.code]).toEqual([403, 'READ_ONLY']);
    expect(refused.body.error.message).toContain('scope "write"');
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');

    const ok = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'yes' }, bearer(write.secret));
    expect(ok.status).toBe(201);
    expect(ok.body.task.id).toBe('API-1');
    const hist = await s.call('GET', '/api/v1/tasks/API-1/history', undefined, bearer(write.secret));
    expect(hist.body.events[0].actor).toBe('writer'); // a token's name is its actor

    await revokeToken(ctxOf(s), 'writer');
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(write.secret))).status).toBe(401);

    // The access log names tokens, never secrets.
    const logged = JSON.stringify(s.log);
    expect(logged).toContain('"token":"reader"');
    expect(logged).not.toContain(read.secret);
    expect(logged).not.toContain(write.secret);
    expect(s.log[0]).toMatchObject({ method: 'POST', path: '/api/v1/projects', status: 201 });
  });

  it('MCP: 401 without a token; a read token lists no write tools and gets 403 naming the scope on a write call', async () => {
    s = await serve();
    const read = await createToken(ctxOf(s), { name: 'reader', scope: 'read' });
    const anon = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await expect(anon.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`))).then(() => anon.listTools())).rejects.toThrow();

    const c = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?toolsets=all`), { requestInit: { headers: bearer(read.secret) } }));
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_tasks');
    expect(names).not.toContain('create_task');
    await c.close();

    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { ...bearer(read.secret), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'create_task', arguments: { project: 'API', title: 'x' } } }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="write"');
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^READ_ONLY: create_task .*scope "write"/);
  });
});

describe('token CLI', () => {
  it('create shows the secret once, list never shows it, revoke makes the server answer 401', async () => {
    s = await serve();
    const created = await cli(s.ws.db, ['--json', 'token', 'create', '--name', 'ci-bot', '--scope', 'read']);
    expect(created.code, created.stderr).toBe(0);
    const { secret, token } = JSON.parse(created.stdout) as { secret: string; token: { name: string; scope: string } };
    expect(token).toMatchObject({ name: 'ci-bot', scope: 'read' });
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(secret))).status).toBe(200);
    const listed = await cli(s.ws.db, ['--json', 'token', 'list']);
    expect(JSON.parse(listed.stdout).tokens.map((t: { name: string }) => t.name)).toEqual(['ci-bot']);
    expect(listed.stdout).not.toContain(secret);
    expect(JSON.parse(listed.stdout).tokens[0].lastUsedAt).not.toBeNull();
    const dup = await cli(s.ws.db, ['token', 'create', '--name', 'ci-bot']);
    expect([dup.code, dup.stderr]).toEqual([expect.any(Number), expect.stringContaining('TOKEN_EXISTS')]);
    expect((await cli(s.ws.db, ['token', 'revoke', 'ci-bot'])).code).toBe(0);
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(secret))).status).toBe(401);
  });
});

describe('request guards', () => {
  it('refuses a forged Host or Origin on /api and /mcp (DNS rebinding), accepts loopback names', async () => {
    s = await serve();
    for (const path of ['/api/v1/projects', '/mcp']) {
      const host = await raw(s.url, path, { host: 'evil.example.com' });
      expect([path, host.status, JSON.parse(host.body).error.code]).toEqual([path, 403, 'FORBIDDEN']);
      const origin = await raw(s.url, path, { origin: 'http://evil.example.com' });
      expect([path, origin.status]).toEqual([path, 403]);
    }
    const port = new URL(s.url).port;
    expect((await raw(s.url, '/api/v1/projects', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    // The whole origin: another port or scheme of this very host is another site.
    for (const origin of [`http://127.0.0.1:9999`, `https://127.0.0.1:${port}`, `http://localhost:${port}`, 'null']) {
      expect([origin, (await raw(s.url, '/api/v1/projects', { host: `127.0.0.1:${port}`, origin })).status]).toEqual([origin, 403]);
    }
    expect((await raw(s.url, '/api/v1/projects', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    // Behind a TLS proxy that says so.
    expect((await raw(s.url, '/api/v1/projects', { host: 'localhost', origin: 'https://localhost', 'x-forwarded-proto': 'https' })).status).toBe(200);
  });

  it('answers an oversized body with 413 on REST and MCP, streamed or not', async () => {
    s = await serve({ maxBodyBytes: 2048 });
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const big = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 't', description: 'x'.repeat(4096) });
    expect([big.status, big.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const chunked = await fetch(`${s.url}/api/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ project: 'API', title: 't', description: 'y'.repeat(4096) })]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const mcp = await s.call('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'z'.repeat(4096) } });
    expect(mcp.status).toBe(413);
    expect((await s.call('GET', '/api/v1/tasks?project=API')).body.total).toBe(0);
  });

  it('rate-limits per token with 429 and Retry-After', async () => {
    s = await serve({ rateLimit: { perSecond: 2, burst: 5 } });
    const a = await createToken(ctxOf(s), { name: 'a', scope: 'read' });
    const b = await createToken(ctxOf(s), { name: 'b', scope: 'read' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await s.call('GET', '/api/v1/projects', undefined, bearer(a.secret))).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toContain(429);
    const limited = await s.call('GET', '/api/v1/projects', undefined, bearer(a.secret));
    expect([limited.status, limited.body.error.code, Number(limited.headers.get('retry-after'))]).toEqual([429, 'RATE_LIMITED', expect.any(Number)]);
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(b.secret))).status).toBe(200); // per token
  });
});

describe('binding and shutdown', () => {
  it('refuses a non-loopback bind while the workspace has no tokens', async () => {
    s = await serve();
    await expect(startServer({ store: s.store, host: '0.0.0.0', port: 0, accessLog: false })).rejects.toThrow(/no API tokens/);
    const w = await createToken(ctxOf(s), { name: 'w', scope: 'write' });
    const open = await startServer({ store: s.store, host: '0.0.0.0', port: 0, accessLog: false });
    const url = `http://127.0.0.1:${open.port}/api/v1/projects`;
    expect((await fetch(url, { headers: bearer(w.secret) })).status).toBe(200);
    // Revoking every token later does not open a wide bind to anonymous callers.
    await revokeToken(ctxOf(s), 'w');
    expect((await fetch(url)).status).toBe(401);
    await open.close();
  });

  it('finishes a request in flight during graceful shutdown, then refuses new connections', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const enc = new TextEncoder();
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(enc.encode('{"project":"API",'));
        await new Promise<void>((r) => (finish = r));
        c.enqueue(enc.encode('"title":"in flight"}'));
        c.close();
      },
    });
    // In flight: the server has the request (its headers), the body is still coming.
    const arrived = new Promise<void>((r) => s!.server.server.once('request', () => r()));
    const pending = fetch(`${s.url}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    await arrived;
    // close() stops listening and starts draining at once (before its first await); the request
    // cannot finish before finish() however long that takes.
    const closed = s.server.close();
    await new Promise((r) => setImmediate(r));
    finish();
    const res = await pending;
    expect(res.status).toBe(201);
    expect(((await res.json()) as { task: { title: string } }).task.title).toBe('in flight');
    await closed;
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });
});
