/**
 * `cairn serve`'s log, read as an operator's log shipper reads it: every line one JSON object with
 * time, level and replica; a request's lines carry its id (the caller's X-Request-Id when it sent
 * one), tool errors inside MCP's HTTP 200 answers are logged by tool and code, and no line ever
 * holds a token's secret or the database password, whatever the callers sent.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { spawn } from 'node:child_process';
import { freshConnectionFetch, serveProcess } from './http-harness.js';
import { BIN } from '../cli/cli-harness.js';
import { waitFor } from '../helpers/wait.js';
import { freePort } from '../helpers/embedded-pg.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

const lines = (log: string) => log.split('\n').filter((l) => l.trim() !== '');

describe('the server log', () => {
  const spaces: TempWorkspace[] = [];
  afterAll(() => spaces.forEach((w) => w.cleanup()));

  it('JSON lines with time, level, replica and request ids; tool errors logged; no secret anywhere', async () => {
    const ws = tempWorkspace('cairn-log-');
    spaces.push(ws);
    const cairn = openCairn({ db: ws.db, actor: 'setup' });
    const ctx = { store: cairn.store, clock: systemClock, actor: 'setup' };
    await cairn.call('create_project', { key: 'LOG', name: 'Log' });
    const { secret: writer } = await createToken(ctx, { name: 'agent', scope: 'write' });
    const { secret: admin } = await createToken(ctx, { name: 'ops', scope: 'admin' });
    await cairn.close();
    const fake = `cairn_${'A'.repeat(43)}`;
    const server = await serveProcess(ws.db, { CAIRN_ACCESS_LOG: '1', CAIRN_REPLICA_ID: 'log-test' });
    try {
      const auth = (t: string) => ({ authorization: `Bearer ${t}` });
      const traced = await freshConnectionFetch(`${server.url}/api/v1/tasks`, {
        method: 'POST',
        headers: { ...auth(writer), 'content-type': 'application/json', 'x-request-id': 'trace-42' },
        body: JSON.stringify({ project: 'LOG', title: 'logged' }),
      });
      expect(traced.status).toBe(201);
      expect(traced.headers.get('x-request-id')).toBe('trace-42');
      const own = await freshConnectionFetch(`${server.url}/api/v1/projects`, { headers: auth(admin) });
      expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect((await freshConnectionFetch(`${server.url}/api/v1/projects`, { headers: auth(fake) })).status).toBe(401);
      // A browser's stream sends its token in the query string.
      const stream = new AbortController();
      const sse = await freshConnectionFetch(`${server.url}/api/v1/events?access_token=${writer}`, { signal: stream.signal });
      expect(sse.status).toBe(200);
      stream.abort();
      const client = new Client({ name: 'log-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch: freshConnectionFetch, requestInit: { headers: { ...auth(writer), 'x-request-id': 'tool-7' } } }));
      try {
        expect((await client.callTool({ name: 'get_task', arguments: { id: 'LOG-99' } })).isError).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
    const log = server.log();
    const entries = lines(log).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.length).toBeGreaterThan(5);
    for (const e of entries) {
      expect(typeof e.time === 'string' && !Number.isNaN(Date.parse(e.time)), JSON.stringify(e)).toBe(true);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(e.level);
      expect(e.replica).toBe('log-test');
    }
    const http = entries.filter((e) => e.msg === 'http');
    expect(http.length).toBeGreaterThanOrEqual(4);
    for (const e of http) expect(e.req, JSON.stringify(e)).toEqual(expect.any(String));
    expect(http.find((e) => e.req === 'trace-42')).toMatchObject({ method: 'POST', path: '/api/v1/tasks', status: 201, token: 'agent' });
    expect(http.find((e) => e.path === '/api/v1/events')?.query).toBe('access_token=REDACTED');
    expect(entries.find((e) => e.msg === 'mcp tool error')).toMatchObject({ surface: 'native', tool: 'get_task', code: 'TASK_NOT_FOUND', req: 'tool-7' });
    expect(entries.some((e) => e.msg === 'cairn serve listening')).toBe(true);
    for (const secret of [writer, admin, fake, writer.slice(6, 30)]) expect(log).not.toContain(secret);
    const password = /^postgres/.test(ws.db) ? decodeURIComponent(new URL(ws.db).password) : '';
    if (password) expect(log).not.toContain(`:${password}@`);
  });

  it('--log-level and CAIRN_LOG_LEVEL choose what is written; a wrong level stops the start and says which are valid', async () => {
    const ws = tempWorkspace('cairn-log-level-');
    spaces.push(ws);
    // At warn, not even the line with the address is written: the test picks the port itself.
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', ws.db, '--log-level', 'warn'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CAIRN_ACCESS_LOG: '1', CAIRN_LOG_LEVEL: 'debug' },
    });
    let log = '';
    child.stderr.on('data', (d) => (log += d));
    try {
      await waitFor(async () => (await freshConnectionFetch(`http://127.0.0.1:${port}/livez`).catch(() => undefined))?.status === 200, 'the server answers', 20_000);
      expect((await freshConnectionFetch(`http://127.0.0.1:${port}/api/v1/projects`)).status).toBe(200);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    // --log-level wins over CAIRN_LOG_LEVEL=debug: requests, the start and the shutdown are info, so nothing at all.
    expect(lines(log)).toEqual([]);
    await expect(serveProcess(ws.db, { CAIRN_LOG_LEVEL: 'loud' })).rejects.toThrow(/CAIRN_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"/);
  });
});
