/**
 * Two `cairn serve` processes on one workspace, as replicas behind a load balancer: an MCP client
 * and a REST client alternate between them. On SQLite both open the one file; on PostgreSQL (the
 * postgres leg runs this file too) both use the one database, and the last test restarts the
 * database under a running replica.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConnectionFetch, readSse, serveProcess } from '../http/http-harness.js';
import { onPostgres } from '../helpers/engine.js';
import { startEmbeddedPostgres } from '../helpers/embedded-pg.js';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

type Replica = Awaited<ReturnType<typeof serveProcess>>;

async function rest(base: string, method: string, path: string, body?: unknown, actor?: string): Promise<{ status: number; body: any }> {
  // A fresh connection per request: no pooled connection the server closed can be picked (http-harness.ts).
  const res = await freshConnectionFetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(actor ? { 'x-cairn-actor': actor } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function mcp(url: string): Promise<Client> {
  const c = new Client({ name: 'replica-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { fetch: freshConnectionFetch }));
  return c;
}

const tool = async (c: Client, name: string, args: Record<string, unknown>) => {
  const r = await c.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as any;
};

describe('two replicas on one workspace', () => {
  let ws: TempWorkspace;
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    ws = tempWorkspace('cairn-replicas-');
    [a, b] = await Promise.all([serveProcess(ws.db), serveProcess(ws.db)]);
    expect((await rest(a.url, 'POST', '/api/v1/projects', { key: 'API', name: 'API' })).status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    ws?.cleanup();
  });

  it('an MCP client and a REST client alternating between replicas: every write lands once and reads back on the other', async () => {
    const [ma, mb] = await Promise.all([mcp(a.url), mcp(b.url)]);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const [writer, reader] = i % 2 ? [b.url, a.url] : [a.url, b.url];
        const id =
          i % 3 === 0
            ? (await tool(i % 2 ? mb : ma, 'create_task', { project: 'API', title: `mcp ${i}` })).task.id
            : (await rest(writer, 'POST', '/api/v1/tasks', { project: 'API', title: `rest ${i}` })).body.task.id;
        ids.push(id);
        expect((await rest(reader, 'GET', `/api/v1/tasks/${id}`)).status).toBe(200);
        expect((await tool(i % 2 ? ma : mb, 'get_task', { id })).task.id).toBe(id);
      }
      expect(new Set(ids).size).toBe(12);
      for (const url of [a.url, b.url]) {
        const listed = (await rest(url, 'GET', '/api/v1/tasks?project=API&limit=100')).body.tasks.map((t: { id: string }) => t.id);
        expect([...listed].sort()).toEqual([...ids].sort());
      }
    } finally {
      await Promise.all([ma.close(), mb.close()]);
    }
  });

  it('claim races across replicas: exactly one winner, the other told who holds it', async () => {
    for (let i = 0; i < 5; i++) {
      const id = (await rest(a.url, 'POST', '/api/v1/tasks', { project: 'API', title: `prize ${i}` })).body.task.id;
      const results = await Promise.all([rest(a.url, 'POST', `/api/v1/tasks/${id}/claim`, {}, 'agent:a'), rest(b.url, 'POST', `/api/v1/tasks/${id}/claim`, {}, 'agent:b')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.error.code).toBe('ALREADY_CLAIMED');
    }
  });

  it('a stale version is a conflict whichever replica it reaches', async () => {
    const id = (await rest(a.url, 'POST', '/api/v1/tasks', { project: 'API', title: 'versioned' })).body.task.id;
    expect((await rest(a.url, 'PATCH', `/api/v1/tasks/${id}`, { title: 'first edit', expectedVersion: 1 })).status).toBe(200);
    const stale = await rest(b.url, 'PATCH', `/api/v1/tasks/${id}`, { title: 'second edit', expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect((await rest(b.url, 'GET', `/api/v1/tasks/${id}`)).body.task.title).toBe('first edit');
  });

  it('the SSE feed of one replica delivers what the other commits, once each and in order', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${b.url}/api/v1/events?project=API`, { signal: ctl.signal });
    const seen: number[] = [];
    const titles: string[] = [];
    const reading = readSse(res, (e) => {
      if (e.event === 'ready') return;
      const ev = JSON.parse(e.data) as { seq: number; type: string; changes: { title?: { after: string } } };
      seen.push(ev.seq);
      if (ev.type === 'task.created' && ev.changes.title) titles.push(ev.changes.title.after);
      return titles.length === 6;
    });
    for (let i = 0; i < 6; i++) await rest(i % 2 ? b.url : a.url, 'POST', '/api/v1/tasks', { project: 'API', title: `live ${i}` });
    await reading;
    ctl.abort();
    expect(titles).toEqual(['live 0', 'live 1', 'live 2', 'live 3', 'live 4', 'live 5']);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('SIGKILL of one replica mid-writes: the other goes on, and every acknowledged write is there', async () => {
    const doomed = await serveProcess(ws.db);
    const acked: string[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await rest(doomed.url, 'POST', '/api/v1/tasks', { project: 'API', title: `doomed ${i}` }).catch(() => undefined);
        if (!r) return;
        if (r.status === 201) acked.push(r.body.task.id);
      }
    })();
    await waitFor(() => acked.length >= 10, 'ten writes acknowledged', 30_000);
    await doomed.kill();
    stop = true;
    await writer;
    const after = (await rest(b.url, 'POST', '/api/v1/tasks', { project: 'API', title: 'after the kill' })).body.task.id;
    const listed = new Set<string>();
    for (let cursor: string | undefined; ; ) {
      const page = await rest(b.url, 'GET', `/api/v1/tasks?project=API&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      for (const t of page.body.tasks) listed.add(t.id);
      if (!page.body.nextCursor) break;
      cursor = page.body.nextCursor;
    }
    for (const id of [...acked, after]) expect(listed.has(id), id).toBe(true);
  });
});

describe.skipIf(!onPostgres)('a PostgreSQL restart under a running replica', () => {
  it('requests fail with 503 while the database is down, then succeed again without restarting Cairn', async () => {
    const db = await startEmbeddedPostgres();
    const replica = await serveProcess(`${db.url}?schema=cairn_restart`);
    try {
      expect((await rest(replica.url, 'POST', '/api/v1/projects', { key: 'API', name: 'API' })).status).toBe(201);
      expect((await rest(replica.url, 'POST', '/api/v1/tasks', { project: 'API', title: 'before' })).status).toBe(201);
      await db.stop();
      const down = await rest(replica.url, 'POST', '/api/v1/tasks', { project: 'API', title: 'while down' });
      expect(down.status).toBe(503);
      expect(down.body.error.code).toBe('DATABASE_UNAVAILABLE');
      expect(down.body.error.message).not.toContain('cairn@');
      expect((await freshConnectionFetch(`${replica.url}/healthz`)).status).toBe(503);
      // The orchestrator's two questions: alive (yes: do not restart it) and ready (no: send no traffic).
      expect((await freshConnectionFetch(`${replica.url}/livez`)).status).toBe(200);
      const unready = await freshConnectionFetch(`${replica.url}/readyz`);
      expect(unready.status).toBe(503);
      expect(((await unready.json()) as { checks: { database: string } }).checks.database).toBe('DATABASE_UNAVAILABLE');
      await db.start();
      await waitFor(async () => (await rest(replica.url, 'POST', '/api/v1/tasks', { project: 'API', title: 'after' }).catch(() => ({ status: 0 }))).status === 201, 'writes succeed again', 30_000);
      expect((await freshConnectionFetch(`${replica.url}/healthz`)).status).toBe(200);
      // Ready again once the LISTEN connection is back too (it reconnects on its own, with backoff).
      await waitFor(async () => (await freshConnectionFetch(`${replica.url}/readyz`)).status === 200, 'ready again', 30_000);
      const titles = (await rest(replica.url, 'GET', '/api/v1/tasks?project=API')).body.tasks.map((t: { title: string }) => t.title);
      expect(titles).toContain('before');
      expect(titles).toContain('after');
      expect(titles).not.toContain('while down');
    } finally {
      await replica.stop();
      await db.remove();
    }
  });
});
