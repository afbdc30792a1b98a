/**
 * Across processes: subscriptions notified by another process's change (2025 subscribe, 2026 listen),
 * list_changed, two servers racing claim_task, project scoping (cwd, roots, env, explicit), and a
 * clean shutdown that loses no write.
 */
import { onPostgres } from '../helpers/engine.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { DEFAULT_TOOLSETS, OPS } from '../../src/ops/index.js';
import { Database } from '../../src/store/sqlite/native.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { call, connectV1, connectV2, ENTRY, inOtherProcess, ok, ROOT, until } from './helpers.js';

const run = promisify(execFile);

let ws: TempWorkspace;
beforeAll(async () => {
  ws = tempWorkspace('cairn-mcp-live-');
  const lib = openCairn({ db: ws.db, actor: 'setup' });
  await lib.call('create_project', { key: 'API', name: 'API', root: join(ws.dir, 'api') });
  await lib.call('create_project', { key: 'WEB', name: 'Web', root: join(ws.dir, 'web') });
  await lib.call('create_task', { project: 'API', title: 'Race me' });
  await lib.call('create_task', { project: 'WEB', title: 'Navbar' });
  await lib.close();
  mkdirSync(join(ws.dir, 'api', 'src'), { recursive: true });
  mkdirSync(join(ws.dir, 'web'), { recursive: true });
});
afterAll(() => ws?.cleanup());

describe('subscriptions', () => {
  // How soon a notification follows the commit is a benchmark figure; here each one must come (the
  // ceiling of `until` only bounds a hang), and one that must not come is shown absent by a later
  // one that must: the server forwards changes in commit order, so a stray notification would
  // arrive before it.
  it('2025 client: resources/subscribe, notified of a change by another process; unsubscribed URIs go quiet', async () => {
    const c = await connectV1({ db: ws.db });
    try {
      const updated: string[] = [];
      c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      const count = (uri: string) => updated.filter((u) => u === uri).length;
      await c.subscribeResource({ uri: 'cairn://tasks/API-1' });
      await c.subscribeResource({ uri: 'cairn://projects/WEB' });
      await inOtherProcess(ws.db, "await cairn.call('update_task', { id: 'API-1', priority: 'high' })");
      await until(() => count('cairn://tasks/API-1') === 1);
      // A change to API-1 says nothing about project WEB: the next API-1 change, forwarded after
      // everything the first one caused, arrives with no cairn://projects/WEB before it.
      await inOtherProcess(ws.db, "await cairn.call('update_task', { id: 'API-1', priority: 'medium' })");
      await until(() => count('cairn://tasks/API-1') === 2);
      expect(updated).toEqual(['cairn://tasks/API-1', 'cairn://tasks/API-1']);
      await inOtherProcess(ws.db, "await cairn.call('update_task', { id: 'WEB-1', priority: 'low' })");
      await until(() => updated.includes('cairn://projects/WEB'));
      // Unsubscribed URIs go quiet: API-1 changes, then WEB-1 does; WEB's notification arrives and
      // nothing for API-1 came before it.
      await c.unsubscribeResource({ uri: 'cairn://tasks/API-1' });
      const before = updated.length;
      await inOtherProcess(ws.db, "await cairn.call('update_task', { id: 'API-1', priority: 'low' }); await cairn.call('update_task', { id: 'WEB-1', priority: 'medium' })");
      await until(() => updated.slice(before).includes('cairn://projects/WEB'));
      expect(updated.slice(before)).toEqual(['cairn://projects/WEB']);
    } finally {
      await c.close();
    }
  });

  it('2025 client: list_changed when a project is added or archived elsewhere', async () => {
    const c = await connectV1({ db: ws.db });
    try {
      let changed = 0;
      c.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
      await inOtherProcess(ws.db, "await cairn.call('create_project', { key: 'TMP', name: 'Temp' })");
      await until(() => changed === 1);
      await inOtherProcess(ws.db, "await cairn.call('archive_project', { key: 'TMP' })");
      await until(() => changed === 2);
    } finally {
      await c.close();
    }
  });

  it('2026 client: subscriptions/listen hears a change made by another process', async () => {
    const c = await connectV2({ db: ws.db });
    try {
      const updated: string[] = [];
      c.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
      let listChanged = 0;
      c.setNotificationHandler('notifications/resources/list_changed', () => void listChanged++);
      const sub = await c.listen({ resourceSubscriptions: ['cairn://tasks/WEB-1'], resourcesListChanged: true });
      await inOtherProcess(ws.db, "await cairn.call('add_comment', { id: 'WEB-1', body: 'hello' })");
      await until(() => updated.includes('cairn://tasks/WEB-1'));
      await inOtherProcess(ws.db, "await cairn.call('create_project', { key: 'NEW', name: 'New' })");
      await until(() => listChanged === 1);
      await sub.close();
    } finally {
      await c.close();
    }
  });
});

describe('through the cairn CLI', () => {
  const CLI = `${ROOT}bin/cairn.js`;
  it('`cairn mcp` serves; a subscriber hears a change made by `cairn update` in another process', async () => {
    const c = await connectV1({ db: ws.db, args: [] }, {}, [CLI, 'mcp']);
    try {
      // The default toolsets, by name (not a count to keep in step with every new tool).
      const served = (await c.listTools()).tools.map((t) => t.name).sort();
      expect(served).toEqual(
        OPS.filter((o) => DEFAULT_TOOLSETS.includes(o.toolset))
          .map((o) => o.name)
          .sort(),
      );
      const updated: string[] = [];
      c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      await c.subscribeResource({ uri: 'cairn://tasks/WEB-1' });
      await run(process.execPath, [CLI, '--db', ws.db, 'update', 'WEB-1', '--priority', 'urgent']);
      await until(() => updated.includes('cairn://tasks/WEB-1'));
      expect((await ok(c, 'get_task', { id: 'WEB-1' })).text).toContain('priority urgent');
    } finally {
      await c.close();
    }
  });
});

describe('two servers racing claim_task', () => {
  it('has exactly one winner', async () => {
    const lib = openCairn({ db: ws.db, actor: 'setup' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(((await lib.call('create_task', { project: 'API', title: `Contested ${i}` })) as { task: { id: string } }).task.id);
    await lib.close();
    const a = await connectV1({ db: ws.db, args: ['--as', 'agent:a'] });
    const b = await connectV1({ db: ws.db, args: ['--as', 'agent:b'] });
    try {
      for (const id of ids) {
        const [ra, rb] = await Promise.all([call(a, 'claim_task', { id }), call(b, 'claim_task', { id })]);
        const wins = [ra, rb].filter((r) => !r.isError);
        expect(wins, `${id}: ${ra.text} | ${rb.text}`).toHaveLength(1);
        const loser = ra.isError ? ra : rb;
        expect(loser.text).toMatch(/^ALREADY_CLAIMED: /);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('project scoping', () => {
  const scopedList = async (opts: Parameters<typeof connectV1>[0], roots?: string[]) => {
    const c = await connectV1(opts, roots ? { roots } : {});
    try {
      const r = await ok(c, 'list_tasks', { fields: ['project'] });
      const all = await ok(c, 'list_tasks', { allProjects: true });
      return { projects: [...new Set((r.data.tasks as Array<{ project: string }>).map((t) => t.project))], total: r.data.total as number, all: all.data.total as number };
    } finally {
      await c.close();
    }
  };

  it('defaults to the project whose root contains the working directory; allProjects widens', async () => {
    const r = await scopedList({ db: ws.db, cwd: join(ws.dir, 'api', 'src') });
    expect(r.projects).toEqual(['API']);
    // allProjects lists what the library (never scoped) lists: WEB's tasks too, whatever other cases added.
    const lib = openCairn({ db: ws.db, actor: 'setup' });
    const everywhere = (await lib.call('list_tasks', {})).total;
    await lib.close();
    expect(r.all).toBe(everywhere);
    expect(r.all).toBeGreaterThan(r.total);
  });

  it('order: explicit option > client roots > CAIRN_PROJECT > working directory', async () => {
    const cwd = join(ws.dir, 'api');
    expect((await scopedList({ db: ws.db, cwd, env: { CAIRN_PROJECT: 'WEB' } })).projects).toEqual(['WEB']);
    expect((await scopedList({ db: ws.db, cwd, env: { CAIRN_PROJECT: 'API' } }, [join(ws.dir, 'web')])).projects).toEqual(['WEB']);
    expect((await scopedList({ db: ws.db, cwd, args: ['--project', 'API'] }, [join(ws.dir, 'web')])).projects).toEqual(['API']);
    // A client without roots, env or a matching cwd sees every project.
    expect((await scopedList({ db: ws.db, cwd: ws.dir })).projects.sort()).toEqual(['API', 'WEB']);
  });
});

describe('shutdown', () => {
  it('stdin close and SIGTERM finish writes in flight and exit cleanly', async () => {
    for (const how of ['stdin', 'SIGTERM'] as const) {
      const p = spawn(process.execPath, [ENTRY, '--db', ws.db], { stdio: ['pipe', 'pipe', 'pipe'] });
      const lines: string[] = [];
      let buf = '';
      p.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          lines.push(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      const send = (m: unknown) => p.stdin.write(`${JSON.stringify(m)}\n`);
      send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let i = 1; i <= 20; i++) send({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'create_task', arguments: { project: 'WEB', title: `${how} ${i}` } } });
      if (how === 'stdin') p.stdin.end();
      else {
        await until(() => lines.length >= 2);
        p.kill('SIGTERM');
      }
      const code = await new Promise<number | null>((r) => p.once('exit', (c) => r(c)));
      expect(code).toBe(0);
      // Every line on stdout is JSON-RPC.
      for (const l of lines) expect(JSON.parse(l)).toHaveProperty('jsonrpc', '2.0');
      // Each write the server started is in the database, whole.
      const lib = openCairn({ db: ws.db });
      const found = (await lib.call('search_tasks', { query: how, project: 'WEB', limit: 100 })) as { results: Array<{ task: { title: string } }> };
      await lib.close();
      const titles = found.results.map((x) => x.task.title);
      // stdin close: all 20 received calls commit. SIGTERM lands mid-stream: what started committed whole.
      if (how === 'stdin') expect(titles.length).toBe(20);
      else expect(titles.length).toBeGreaterThan(0);
      for (const t of titles) expect(t).toMatch(new RegExp(`^${how} \\d+$`));
    }
  });
});

// FTS5's segments: the SQLite engine's own index.
describe.skipIf(onPostgres)('search index upkeep in the bundled server', () => {
  it('a server that wrote merges the index segments once quiet (the worker runs the bundled merge code)', async () => {
    const own = tempWorkspace('cairn-mcp-upkeep-');
    try {
      const lib = openCairn({ db: own.db, actor: 'setup' });
      await lib.call('create_project', { key: 'UP', name: 'Upkeep' });
      await lib.close();
      const c = await connectV1({ db: own.db });
      const segments = () => {
        const db = new Database(own.db, { readonly: true });
        try {
          return db.prepare('SELECT count(*) FROM (SELECT DISTINCT segid FROM task_search_idx)').pluck().get() as number;
        } finally {
          db.close();
        }
      };
      try {
        // More than the 50 commits after which the checkpointer's worker starts, one segment each:
        // FTS5 alone would leave ~10 (it merges 16 at a time; test/core/search-upkeep.test.ts).
        for (let i = 0; i < 70; i++) await ok(c, 'create_task', { project: 'UP', title: `upkeep ${i} okapi`, description: `words ${i % 7} more words` });
        await until(() => segments() <= 3);
        expect((await ok(c, 'search_tasks', { query: 'okapi', limit: 1 })).data.total).toBe(70);
      } finally {
        await c.close();
      }
    } finally {
      own.cleanup();
    }
  });
});
