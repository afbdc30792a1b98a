/** Issue 22, item 7 over HTTP: 413 closes the connection, a non-UTF-8 charset is 415, `__proto__` refused on every path, failed token attempts limited per address. */
import { onPostgres } from '../helpers/engine.js';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { addressKey } from '../../src/http/address-buckets.js';
import { AuthFailureLimiter } from '../../src/http/auth-failures.js';
import { EVENTUALLY_MS } from '../helpers/wait.js';
import { sqliteOf } from '../helpers/workspace.js';
import { serve, type Served } from './http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

/** Writes raw bytes on one socket and collects everything until the server closes it (or the ceiling). */
function rawExchange(url: string, payload: string, wantClose = true): Promise<{ text: string; closed: boolean; error?: string }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(
      () => {
        sock.destroy();
        resolve({ text, closed: false });
      },
      wantClose ? EVENTUALLY_MS : 2000,
    );
    sock.on('data', (d) => (text += d.toString('latin1')));
    sock.on('error', (err) => {
      clearTimeout(timer);
      resolve({ text, closed: true, error: (err as NodeJS.ErrnoException).code ?? String(err) });
    });
    sock.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    sock.write(payload);
  });
}

describe('413 closes the connection', () => {
  it('a body over the limit is answered 413 with Connection: close, and the server closes the socket', async () => {
    s = await serve({ maxBodyBytes: 2048 });
    const body = JSON.stringify({ project: 'API', title: 't', description: 'x'.repeat(8192) });
    const head = `POST /api/v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n`;
    const next = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const r = await rawExchange(s.url, head + body + next);
    expect(r.text).toMatch(/^HTTP\/1\.1 413/);
    expect(r.text.toLowerCase()).toContain('connection: close');
    expect(r.text.toLowerCase()).not.toContain('keep-alive');
    expect(r.closed).toBe(true);
  });
});

describe('charsets other than UTF-8 are refused', () => {
  for (const type of ['application/json; charset=iso-8859-1', 'application/json; charset="UTF-16"', 'application/json;charset=latin1']) {
    it(`${type}: 415, nothing created`, async () => {
      s = await serve();
      await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
      const r = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'caf\u00e9' }, { 'content-type': type });
      expect([r.status, r.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect((await s.call('GET', '/api/v1/tasks?project=API')).body.total).toBe(0);
    });
  }

  it('charset=utf-8 (any case, quoted) and no charset are accepted', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json;charset=utf8', 'application/json']) {
      expect((await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'x' }, { 'content-type': type })).status, type).toBe(201);
    }
  });
});

describe('__proto__ is refused like any other unknown key', () => {
  it('in a REST body, a REST query string and MCP arguments', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const body = await s.call('POST', '/api/v1/tasks', '{"project":"API","title":"x","__proto__":{"priority":"urgent"}}');
    expect([body.status, body.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(body.body.error.message).toContain('__proto__');
    const query = await s.call('GET', '/api/v1/tasks?project=API&__proto__=x');
    expect([query.status, query.body.error?.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(query.body.error.message).toContain('__proto__');
    const rpc = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_tasks","arguments":{"project":"API","__proto__":{"x":1}}}}',
    });
    const text = await rpc.text();
    expect(text).toContain('__proto__');
    expect(text).toMatch(/VALIDATION_ERROR/);
    expect((await s.call('GET', '/api/v1/tasks?project=API')).body.total).toBe(0);
  });
});

describe('failed token attempts are limited per client address', () => {
  it('after repeated bad tokens an address gets 429 with Retry-After, even for a good token; the limit is not per secret', async () => {
    s = await serve({ rateLimit: false });
    const good = await createToken({ store: s.store, clock: systemClock, actor: 'admin' }, { name: 'good', scope: 'read' });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await s.call('GET', '/api/v1/projects', undefined, { authorization: `Bearer cairn_guess${i}` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    const blocked = await s.call('GET', '/api/v1/projects', undefined, { authorization: `Bearer ${good.secret}` });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
  });

  it('cycling through more addresses than the limiter keeps does not free an address that keeps failing', () => {
    const limiter = new AuthFailureLimiter();
    const t = 1_000_000;
    for (let i = 0; i < 10; i++) limiter.fail('203.0.113.7', t);
    // More than the 10,000 addresses it keeps.
    for (let i = 0; i < 12_000; i++) {
      limiter.fail(`198.51.${(i >> 8) & 255}.${i & 255}`, t);
      // The attacker's own address keeps knocking meanwhile: it stays limited.
      if (i % 100 === 0) expect(limiter.retryAfter('203.0.113.7', t)).toBeGreaterThan(0);
    }
    expect(limiter.retryAfter('203.0.113.7', t)).toBeGreaterThan(0);
  });

  it('IPv6 addresses count as their /64, so cycling inside one block buys nothing', () => {
    const limiter = new AuthFailureLimiter();
    const t = 1_000_000;
    for (let i = 0; i < 10; i++) limiter.fail(`2001:db8:aa:bb::${(i + 1).toString(16)}`, t);
    expect(limiter.retryAfter('2001:db8:aa:bb:ffff:1:2:3', t)).toBeGreaterThan(0);
    expect(limiter.retryAfter('2001:0db8:00aa:00bb:0:0:0:99', t)).toBeGreaterThan(0);
    expect(limiter.retryAfter('2001:db8:aa:bc::1', t)).toBe(0);
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('good tokens alone are never slowed by the failure limit', async () => {
    s = await serve({ rateLimit: false });
    const good = await createToken({ store: s.store, clock: systemClock, actor: 'admin' }, { name: 'good', scope: 'read' });
    for (let i = 0; i < 60; i++) expect((await s.call('GET', '/api/v1/projects', undefined, { authorization: `Bearer ${good.secret}` })).status).toBe(200);
  });
});

// A full SQLite file (max_page_count); PostgreSQL's disk is the server's (DISK_FULL from SQLSTATE 53100, pg-errors.ts).
describe.skipIf(onPostgres)('environment failures over REST', () => {
  it('a full disk is 507 DISK_FULL, named, nothing written', async () => {
    s = await serve();
    expect((await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' })).status).toBe(201);
    const raw = sqliteOf(s.store).raw()!;
    raw.pragma(`max_page_count = ${raw.pragma('page_count', { simple: true }) as number}`);
    let r: { status: number; body: any } = { status: 0, body: undefined };
    for (let i = 0; i < 100 && r.status !== 507; i++) r = await s.call('POST', '/api/v1/tasks', { project: 'API', title: `t${i}`, description: 'y'.repeat(5000) });
    expect([r.status, r.body.error.code]).toEqual([507, 'DISK_FULL']);
    expect(r.body.error.message).not.toMatch(/bug in Cairn/);
  });
});
