/**
 * Tokens limited to projects (issue 32, item 5): `cairn token create --project WEB` reaches WEB and
 * nothing else, on every surface: REST, the feed, search, the board's reads, MCP and the profiles.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { waitFor } from '../helpers/wait.js';
import { cli, serve, type Served } from './http-harness.js';

let s: Served | undefined;
const open: AbortController[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) a.abort();
  await s?.stop();
  s = undefined;
});

const auth = (t: string) => ({ authorization: `Bearer ${t}` });
const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content.map((c) => c.text).join('\n');

/** WEB and OTH, each with tasks; OTH-2 waits on WEB-1. Returns an unlimited admin token and a write token limited to WEB. */
async function twoProjects(x: Served) {
  const ctx = { store: x.store, clock: systemClock, actor: 'admin' };
  const { secret: admin } = await createToken(ctx, { name: 'admin', scope: 'admin' });
  const a = auth(admin);
  for (const key of ['WEB', 'OTH']) expect((await x.call('POST', '/api/v1/projects', { key, name: key }, a)).status).toBe(201);
  expect((await x.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'web one', labels: ['ui'] }, a)).status).toBe(201);
  expect((await x.call('POST', '/api/v1/tasks', { project: 'OTH', title: 'other secret', description: 'classified plans', labels: ['hidden'] }, a)).status).toBe(201);
  expect((await x.call('POST', '/api/v1/tasks', { project: 'OTH', title: 'other waits' }, a)).status).toBe(201);
  expect((await x.call('POST', '/api/v1/tasks/OTH-2/dependencies', { blockedBy: 'WEB-1' }, a)).status).toBe(200);
  const { secret: web, token } = await createToken(ctx, { name: 'web-agent', scope: 'write', projects: ['WEB'] });
  expect(token.projects).toEqual(['WEB']);
  return { admin: a, web: auth(web), webSecret: web };
}

const ids = (body: any): string[] => (body.items ?? body.tasks ?? []).map((t: { id: string }) => t.id);

describe('a token limited to projects', () => {
  it('over REST it lists, reads and changes only its projects; everything else is not found or refused, and nothing changes', async () => {
    s = await serve({ rateLimit: false });
    const { admin, web } = await twoProjects(s);

    expect((await s.call('GET', '/api/v1/projects', undefined, web)).body.projects.map((p: { key: string }) => p.key)).toEqual(['WEB']);
    expect(ids((await s.call('GET', '/api/v1/tasks', undefined, web)).body)).toEqual(['WEB-1']);
    expect(ids((await s.call('GET', '/api/v1/ready', undefined, web)).body)).toEqual(['WEB-1']);
    const search = await s.call('GET', '/api/v1/search?query=classified', undefined, web);
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).not.toContain('OTH');
    const board = await s.call('GET', '/api/v1/board', undefined, web);
    expect(board.status).toBe(200);
    expect(JSON.stringify(board.body)).not.toMatch(/OTH|other secret/);
    const labels = await s.call('GET', '/api/v1/labels', undefined, web);
    expect(JSON.stringify(labels.body)).toContain('ui');
    expect(JSON.stringify(labels.body)).not.toContain('hidden');
    const changes = (await s.call('GET', '/api/v1/changes?since=0', undefined, web)).body;
    expect(changes.events.length).toBeGreaterThan(0);
    expect(new Set(changes.events.map((e: { project: string | null }) => e.project))).toEqual(new Set(['WEB']));

    // Another project's things answer as if absent (no "forbidden" to probe with), and its name gets nothing back.
    for (const [method, path, body] of [
      ['GET', '/api/v1/tasks/OTH-1', undefined],
      ['GET', '/api/v1/tasks/OTH-1/history', undefined],
      ['GET', '/api/v1/tasks?project=OTH', undefined],
      ['GET', '/api/v1/projects/OTH', undefined],
      ['PATCH', '/api/v1/tasks/OTH-1', { title: 'taken over' }],
      ['DELETE', '/api/v1/tasks/OTH-1', undefined],
      ['POST', '/api/v1/tasks/OTH-1/comments', { body: 'hello' }],
      ['POST', '/api/v1/tasks/OTH-1/claim', {}],
      ['POST', '/api/v1/tasks/OTH-1/complete', {}],
      ['POST', '/api/v1/tasks', { project: 'OTH', title: 'planted' }],
      ['POST', '/api/v1/tasks/WEB-1/dependencies', { blockedBy: 'OTH-1' }],
      ['PATCH', '/api/v1/projects/OTH', { name: 'renamed' }],
    ] as const) {
      const r = await s.call(method, path, body, web);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(JSON.stringify(r.body), `${method} ${path}`).not.toMatch(/classified|other secret/);
    }
    // Workspace-wide things are refused with the reason.
    const created = await s.call('POST', '/api/v1/projects', { key: 'NEW', name: 'New' }, web);
    expect(created.status).toBe(403);
    expect(created.body.error.message).toContain('limited to some projects');
    // Linked sources name paths on the server's machine: administration, which a limited token never is.
    const links = await s.call('GET', '/api/v1/links', undefined, web);
    expect(links.status).toBe(403);
    expect(links.body.error.message).toContain('needs a token with scope "admin" that is not limited to projects');

    const other = (await s.call('GET', '/api/v1/tasks/OTH-1', undefined, admin)).body.task;
    expect(other).toMatchObject({ title: 'other secret', status: 'todo', deletedAt: null });
    expect(ids((await s.call('GET', '/api/v1/tasks?project=OTH', undefined, admin)).body)).toEqual(['OTH-1', 'OTH-2']);
    expect((await s.call('GET', '/api/v1/projects/NEW', undefined, admin)).status).toBe(404);

    // WEB-1 blocks OTH-2: the limited caller does not learn the other task's id.
    const mine = (await s.call('GET', '/api/v1/tasks/WEB-1', undefined, web)).body.task;
    expect(mine.blocks).toEqual([]);
    expect((await s.call('GET', '/api/v1/tasks/WEB-1', undefined, admin)).body.task.blocks).toEqual(['OTH-2']);

    // Inside its project it writes as any write token does.
    expect((await s.call('PATCH', '/api/v1/tasks/WEB-1', { title: 'web one, renamed' }, web)).status).toBe(200);
    const made = await s.call('POST', '/api/v1/tasks', { title: 'web two' }, web);
    expect(made.body.task?.id, JSON.stringify(made.body)).toBe('WEB-2');
  });

  it('upkeep still crosses projects: completing WEB-1 readies OTH-2, which waited on it', async () => {
    s = await serve({ rateLimit: false });
    const { admin, web } = await twoProjects(s);
    expect((await s.call('GET', '/api/v1/tasks/OTH-2', undefined, admin)).body.task.isReady).toBe(false);
    expect((await s.call('POST', '/api/v1/tasks/WEB-1/complete', {}, web)).status).toBe(200);
    expect((await s.call('GET', '/api/v1/tasks/OTH-2', undefined, admin)).body.task.isReady).toBe(true);
  });

  it("over MCP, /mcp and /mcp/tx?project=WEB neither show nor delete another project's task", async () => {
    s = await serve({ rateLimit: false });
    const { admin, webSecret } = await twoProjects(s);
    const connect = async (path: string) => {
      const c = new Client({ name: 'limited', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(s!.url + path), { requestInit: { headers: auth(webSecret) } }));
      return c;
    };
    const native = await connect('/mcp');
    try {
      const got = await native.callTool({ name: 'get_task', arguments: { id: 'OTH-1' } });
      expect(got.isError).toBe(true);
      expect(text(got)).not.toMatch(/classified|other secret/);
      const list = await native.callTool({ name: 'list_tasks', arguments: {} });
      expect(text(list)).toContain('WEB-1');
      expect(text(list)).not.toContain('OTH');
      const found = await native.callTool({ name: 'search_tasks', arguments: { query: 'other' } });
      expect(text(found)).not.toContain('OTH');
    } finally {
      await native.close();
    }
    const tx = await connect('/mcp/tx?project=WEB');
    try {
      const shown = await tx.callTool({ name: 'tx_show', arguments: { id: 'OTH-1' } });
      expect(shown.isError).toBe(true);
      expect(text(shown)).not.toMatch(/classified|other secret/);
      expect((await tx.callTool({ name: 'tx_delete', arguments: { id: 'OTH-1' } })).isError).toBe(true);
      expect(text(await tx.callTool({ name: 'tx_ready', arguments: {} }))).not.toContain('OTH');
    } finally {
      await tx.close();
    }
    const elsewhere = await connect('/mcp?project=OTH');
    try {
      expect((await elsewhere.callTool({ name: 'list_tasks', arguments: {} })).isError).toBe(true);
    } finally {
      await elsewhere.close();
    }
    expect((await s.call('GET', '/api/v1/tasks/OTH-1', undefined, admin)).body.task.deletedAt).toBeNull();
  });

  it("MCP subscriptions reach only its projects' resources, with both SDK clients", async () => {
    s = await serve({ rateLimit: false });
    const { webSecret } = await twoProjects(s);
    const v1 = new ClientV1({ name: 'limited-v1', version: '1' });
    await v1.connect(new HttpV1(new URL(`${s.url}/mcp`), { requestInit: { headers: auth(webSecret) } }));
    try {
      await v1.subscribeResource({ uri: 'cairn://tasks/WEB-1' });
      await expect(v1.subscribeResource({ uri: 'cairn://tasks/OTH-1' })).rejects.toThrow(/limited to WEB/);
      await expect(v1.subscribeResource({ uri: 'cairn://projects/OTH' })).rejects.toThrow(/limited to WEB/);
    } finally {
      await v1.close();
    }
    const v2 = new Client({ name: 'limited-v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await v2.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: auth(webSecret) } }));
    try {
      await expect(v2.listen({ resourceSubscriptions: ['cairn://tasks/OTH-1'] })).rejects.toThrow(/limited to WEB/);
    } finally {
      await v2.close();
    }
  });

  it("the event stream carries only its projects' events", async () => {
    s = await serve({ rateLimit: false });
    const { admin, web } = await twoProjects(s);
    const abort = new AbortController();
    open.push(abort);
    const res = await fetch(`${s.url}/api/v1/events?since=0`, { headers: web, signal: abort.signal });
    expect(res.status).toBe(200);
    let got = '';
    void (async () => {
      const reader = res.body!.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          got += new TextDecoder().decode(value);
        }
      } catch {
        // aborted by the test
      }
    })();
    await waitFor(() => got.includes('event: ready'), 'stream ready');
    expect(got).toContain('web one');
    expect(got).not.toContain('other secret');
    await s.call('POST', '/api/v1/tasks', { project: 'OTH', title: 'live other' }, admin);
    await s.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'live web' }, admin);
    await waitFor(() => got.includes('live web'), 'the WEB event');
    expect(got).not.toContain('live other');
    expect(got).not.toContain('"project":"OTH"');
    // A WEB event that names an OTH task (a new blocker) comes without that task's id.
    const before = got.length;
    expect((await s.call('POST', '/api/v1/tasks/WEB-1/dependencies', { blockedBy: 'OTH-1' }, admin)).status).toBe(200);
    await waitFor(() => got.slice(before).includes('dependency.added'), 'the dependency event');
    expect(got.slice(before)).not.toContain('OTH-1');
  });

  it('the CLI creates and lists a limited token, and refuses a limit to a project that does not exist', async () => {
    s = await serve({ rateLimit: false });
    await twoProjects(s);
    const made = await cli(s.ws.db, ['token', 'create', '--name', 'two', '--scope', 'read', '--project', 'WEB', '--project', 'OTH']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('limited to WEB, OTH');
    const listed = await cli(s.ws.db, ['--json', 'token', 'list']);
    const tokens = JSON.parse(listed.stdout).tokens as Array<{ name: string; projects: string[] | null }>;
    expect(Object.fromEntries(tokens.map((t) => [t.name, t.projects]))).toEqual({ admin: null, 'web-agent': ['WEB'], two: ['WEB', 'OTH'] });
    const human = await cli(s.ws.db, ['token', 'list']);
    expect(human.stdout).toMatch(/web-agent\s+write\s+WEB\s/);
    const bad = await cli(s.ws.db, ['token', 'create', '--name', 'nope', '--project', 'NOPE']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('No project has the key "NOPE"');
    const after = JSON.parse((await cli(s.ws.db, ['--json', 'token', 'list'])).stdout).tokens as Array<{ name: string }>;
    expect(after.map((t) => t.name)).not.toContain('nope');
  });
});
