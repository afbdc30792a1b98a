/**
 * What an operator's tooling asks of `cairn serve`: /livez and /readyz for the orchestrator, and
 * /metrics for Prometheus. Two replicas on one workspace (one SQLite file, or one PostgreSQL
 * database on the postgres leg) are driven over REST and MCP, then scraped: each counter adds up to
 * the requests this test sent to that replica.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { freshConnectionFetch, serveProcess } from './http-harness.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { onPostgres } from '../helpers/engine.js';

type Replica = Awaited<ReturnType<typeof serveProcess>>;

/** Prometheus text format: every sample as name, labels and value (HELP and TYPE lines skipped). */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of a metric's samples whose labels include `where`. */
function total(text: string, name: string, where: Record<string, string> = {}): number {
  return samples(text)
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function call(base: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await freshConnectionFetch(base + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** /readyz once it says ready: on PostgreSQL the change feed's LISTEN may follow the start line, so poll, as an orchestrator does. */
async function untilReady(url: string): Promise<{ status: number; text: string }> {
  let last = await call(url, '/readyz');
  for (const until = Date.now() + 10_000; last.status !== 200 && Date.now() < until; last = await call(url, '/readyz')) await new Promise((r) => setTimeout(r, 50));
  return last;
}

describe('operator probes and metrics on two replicas', () => {
  let ws: TempWorkspace;
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    ws = tempWorkspace('cairn-probes-');
    [a, b] = await Promise.all([serveProcess(ws.db, { CAIRN_METRICS: '1', CAIRN_REPLICA_ID: 'replica-a' }), serveProcess(ws.db, { CAIRN_METRICS: '1', CAIRN_REPLICA_ID: 'replica-b' })]);
    expect((await call(a.url, '/api/v1/projects', { method: 'POST', body: { key: 'OPS', name: 'Ops' } })).status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    ws?.cleanup();
  });

  it('/livez and /readyz answer with the replica, its uptime, the schema and the engine', async () => {
    const live = JSON.parse((await call(a.url, '/livez')).text);
    expect(live).toMatchObject({ status: 'ok', replica: 'replica-a' });
    expect(Number.isInteger(live.uptimeS)).toBe(true);
    const ready = await untilReady(b.url);
    const body = JSON.parse(ready.text);
    expect(body).toMatchObject({ status: 'ready', replica: 'replica-b', checks: { database: 'ok', schema: 'current' } });
    expect(body.schemaVersion).toBe(body.latestSchemaVersion);
    expect(body.schemaVersion).toBeGreaterThan(0);
    expect(['sqlite', 'postgres']).toContain(body.engine);
    if (body.engine === 'postgres') expect(body.pool).toMatchObject({ max: expect.any(Number), total: expect.any(Number), idle: expect.any(Number), waiting: 0 });
  });

  it('each replica counts exactly the requests and tool calls it answered', async () => {
    const before = await Promise.all([a, b].map(async (r) => (await call(r.url, '/metrics')).text));
    const sent = { a: { creates: 0, gets404: 0 }, b: { creates: 0, gets404: 0 } };
    for (let i = 0; i < 9; i++) {
      const [r, k] = i % 3 === 0 ? [b, 'b' as const] : [a, 'a' as const];
      expect((await call(r.url, '/api/v1/tasks', { method: 'POST', body: { project: 'OPS', title: `task ${i}` } })).status).toBe(201);
      sent[k].creates++;
    }
    for (let i = 0; i < 4; i++) {
      const [r, k] = i % 2 ? [b, 'b' as const] : [a, 'a' as const];
      expect((await call(r.url, `/api/v1/tasks/OPS-${900 + i}`)).status).toBe(404);
      sent[k].gets404++;
    }
    const client = new Client({ name: 'probe-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), { fetch: freshConnectionFetch }));
    try {
      for (let i = 0; i < 3; i++) expect((await client.callTool({ name: 'list_tasks', arguments: { project: 'OPS' } })).isError).toBeFalsy();
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: 'get_task', arguments: { id: 'OPS-999' } })).isError).toBe(true);
    } finally {
      await client.close();
    }
    const after = await Promise.all([a, b].map(async (r) => (await call(r.url, '/metrics')).text));
    const grew = (i: number, name: string, where: Record<string, string>) => total(after[i]!, name, where) - total(before[i]!, name, where);
    for (const [i, k] of [
      [0, 'a'],
      [1, 'b'],
    ] as const) {
      expect(grew(i, 'cairn_http_requests_total', { method: 'POST', route: '/api/v1/tasks', status: '201' })).toBe(sent[k].creates);
      expect(grew(i, 'cairn_http_requests_total', { method: 'GET', route: '/api/v1/tasks/:id', status: '404' })).toBe(sent[k].gets404);
      expect(grew(i, 'cairn_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/tasks' })).toBe(sent[k].creates);
      expect(total(after[i]!, 'cairn_http_requests_total', { replica: `replica-${k}` })).toBe(total(after[i]!, 'cairn_http_requests_total'));
    }
    // Each database call's wait for a pool connection is observed (PostgreSQL); SQLite has no pool.
    for (const [i, k] of [
      [0, 'a'],
      [1, 'b'],
    ] as const) {
      const waited = grew(i, 'cairn_db_pool_wait_seconds_count', {});
      if (onPostgres) expect(waited).toBeGreaterThanOrEqual(sent[k].creates);
      else expect(total(after[i]!, 'cairn_db_pool_wait_seconds_count')).toBe(0);
      expect(total(after[i]!, 'cairn_db_pool_wait_seconds_bucket', { le: '+Inf' })).toBe(total(after[i]!, 'cairn_db_pool_wait_seconds_count'));
    }
    expect(grew(1, 'cairn_mcp_tool_calls_total', { surface: 'native', tool: 'list_tasks', outcome: 'ok' })).toBe(3);
    expect(grew(1, 'cairn_mcp_tool_calls_total', { surface: 'native', tool: 'get_task', outcome: 'TASK_NOT_FOUND' })).toBe(2);
    expect(grew(0, 'cairn_mcp_tool_calls_total', {})).toBe(0);
    // Every create reached both replicas' feeds, whichever answered it.
    await expect
      .poll(async () => total((await call(a.url, '/metrics')).text, 'cairn_feed_events_total', { type: 'task.created' }) - total(before[0]!, 'cairn_feed_events_total', { type: 'task.created' }), {
        timeout: 10_000,
      })
      .toBe(9);
    expect(total(after[0]!, 'cairn_db_up')).toBe(1);
    expect(total(after[1]!, 'cairn_schema_version')).toBeGreaterThan(0);
    expect(after[0]).toContain('cairn_process_resident_memory_bytes');
  });

  it('a lease that runs out is announced by exactly one replica: claim expiries add up to one, and both feeds deliver it', async () => {
    const before = await Promise.all([a, b].map(async (r) => (await call(r.url, '/metrics')).text));
    // An agent in another process whose clock claimed an hour ago: its shortest lease has ended by the replicas' next look.
    const gone = openCairn({ db: ws.db, actor: 'agent:gone', clock: { now: () => new Date(Date.now() - 3600_000) } });
    try {
      const { task } = await gone.call('create_task', { project: 'OPS', title: 'abandoned' } as never);
      await gone.call('claim_task', { id: task.id, leaseSeconds: 10 } as never);
    } finally {
      await gone.close();
    }
    const grown = async (name: string, where: Record<string, string> = {}) =>
      Promise.all([a, b].map(async (r, i) => total((await call(r.url, '/metrics')).text, name, where) - total(before[i]!, name, where)));
    // Both replicas' feeds deliver the expiry, which happens after one of them announced it.
    await expect.poll(async () => grown('cairn_feed_events_total', { type: 'task.claim_expired' }), { timeout: 20_000 }).toEqual([1, 1]);
    const announced = await grown('cairn_claim_expiries_total');
    expect(announced.reduce((x, y) => x + y, 0)).toBe(1);
  });
});

describe('metrics behind tokens, and off unless asked for', () => {
  let ws: TempWorkspace;
  afterAll(() => ws?.cleanup());

  it('a loopback server without --metrics answers /metrics 404 with the flag to use; probes are always on', async () => {
    ws = tempWorkspace('cairn-probes-off-');
    const r = await serveProcess(ws.db);
    try {
      const res = await call(r.url, '/metrics');
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text).error.suggestions.join(' ')).toContain('--metrics');
      expect((await call(r.url, '/livez')).status).toBe(200);
      expect((await untilReady(r.url)).status).toBe(200);
    } finally {
      await r.stop();
    }
  });

  it('with tokens: only a metrics or admin token reads /metrics, a metrics token reads nothing else, probes need none', async () => {
    const ws2 = tempWorkspace('cairn-probes-tokens-');
    const cairn = openCairn({ db: ws2.db, actor: 'setup' });
    const ctx = { store: cairn.store, clock: systemClock, actor: 'setup' };
    const { secret: scraper } = await createToken(ctx, { name: 'prometheus', scope: 'metrics' });
    const { secret: writer } = await createToken(ctx, { name: 'agent', scope: 'write' });
    const { secret: admin } = await createToken(ctx, { name: 'ops', scope: 'admin' });
    await cairn.close();
    const r = await serveProcess(ws2.db, { CAIRN_METRICS: 'on' });
    try {
      expect((await call(r.url, '/metrics')).status).toBe(401);
      const refused = await call(r.url, '/metrics', { token: writer });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('--scope metrics');
      expect((await call(r.url, '/metrics', { token: scraper })).status).toBe(200);
      expect((await call(r.url, '/metrics', { token: admin })).status).toBe(200);
      for (const path of ['/api/v1/projects', '/api/v1/tasks?project=OPS', '/mcp']) {
        const res = await call(r.url, path, { token: scraper });
        expect(res.status, path).toBe(403);
        expect(JSON.parse(res.text).error.code).toBe('FORBIDDEN');
      }
      expect((await call(r.url, '/livez')).status).toBe(200);
      expect((await untilReady(r.url)).status).toBe(200);
    } finally {
      await r.stop();
      ws2.cleanup();
    }
  });
});
