/**
 * Remote workspaces and the outbox against a real `cairn serve` (issue 16, items 2 and 4): the same
 * results as local runs, persistedOffline while the server is down, delivery exactly once when it is
 * back — also when `cairn sync` races the automatic flush, and when the client is SIGKILLed after the
 * server committed but before the entry was marked delivered.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { waitFor } from '../helpers/wait.js';
import { call, connectV1, ok } from '../mcp/helpers.js';
import { cli, clientEnv, startServe } from './remote-harness.js';

let base: string;
let serverDb: string;
let client: string;
let url: string;
let port: number;
let server: { stop(): Promise<void> } | undefined;

/** Reads the server's workspace directly (another process; WAL lets it read while the server writes). */
async function serverTasks(): Promise<Array<{ id: string; title: string }>> {
  const c = openCairn({ db: serverDb });
  try {
    return (await c.call('list_tasks', { allProjects: true, includeDone: true, limit: 200 })).tasks;
  } finally {
    await c.close();
  }
}

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'cairn-remote-'));
  const repo = join(base, 'core');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  serverDb = join(repo, '.cairn', 'cairn.db');
  const c = openCairn({ db: serverDb });
  await c.call('create_project', { key: 'CORE', name: 'core', root: repo, aliases: ['@acme/core'] });
  await c.close();
  client = join(base, 'client');
  mkdirSync(join(client, '.cairn'), { recursive: true });
  const served = await startServe(serverDb);
  server = served;
  port = served.port;
  url = `http://127.0.0.1:${port}`;
});
afterEach(async () => {
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

const pendingFiles = () => (existsSync(join(client, '.cairn', 'outbox')) ? readdirSync(join(client, '.cairn', 'outbox')).filter((f) => /^[0-9A-Z]{26}\.json$/.test(f)) : []);

describe('remote workspace', () => {
  it('cairn mcp with CAIRN_URL hands off to the server and answers reads as a local server would', async () => {
    const mcp = await connectV1({ args: ['--toolsets', 'all'], cwd: client, env: clientEnv(url) });
    try {
      const sent = await ok(mcp, 'submit_handoff', { target: '@acme/core', title: 'Remote handoff', details: 'over HTTP', anchors: ['src/a.ts'], idempotencyKey: 'r-1' });
      expect(sent.data).toMatchObject({ taskId: 'CORE-1', persistedOffline: false, replayed: false, target: { project: 'CORE' } });
      expect((await ok(mcp, 'submit_handoff', { target: '@acme/core', title: 'Remote handoff', details: 'over HTTP', anchors: ['src/a.ts'], idempotencyKey: 'r-1' })).data).toMatchObject({
        taskId: 'CORE-1',
        replayed: true,
      });
      const remote = (await ok(mcp, 'get_task', { id: 'CORE-1' })).data;
      const local = openCairn({ db: serverDb, actor: 'agent:client' });
      const here = await local.call('get_task', { id: 'CORE-1' });
      await local.close();
      expect(remote).toEqual(JSON.parse(JSON.stringify(here)));
      expect((await ok(mcp, 'list_projects', {})).data).toMatchObject({ projects: [{ key: 'CORE', aliases: ['@acme/core'] }] });
      const bad = await call(mcp, 'get_task', { id: 'CORE-99' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/^TASK_NOT_FOUND/);
      expect(await serverTasks()).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });

  it('cairn mcp --remote URL (the flag, no CAIRN_URL) works the same', async () => {
    const env = clientEnv(url);
    delete env.CAIRN_URL;
    const mcp = await connectV1({ args: ['--remote', url], cwd: client, env }, {}, [join(import.meta.dirname, '../../bin/cairn.js'), 'mcp']);
    try {
      expect((await ok(mcp, 'list_projects', {})).data).toMatchObject({ projects: [{ key: 'CORE' }] });
      expect((await ok(mcp, 'create_task', { project: 'CORE', title: 'Via the flag' })).data).toMatchObject({ task: { id: 'CORE-1' } });
    } finally {
      await mcp.close();
    }
  });

  it('remote reads and an empty sync in a folder without .cairn/ create nothing there; in a workspace folder they remember the projects', async () => {
    // A .cairn/ made by a read would turn the folder into a workspace for every later local command in or under it.
    const bare = join(base, 'bare');
    mkdirSync(bare);
    for (const args of [['project', 'list'], ['list', '--project', 'CORE'], ['sync']]) {
      const r = await cli(bare, url, args);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readdirSync(bare)).toEqual([]);
    expect((await cli(client, url, ['project', 'list'])).code).toBe(0);
    expect(readdirSync(join(client, '.cairn', 'outbox')).sort()).toEqual(['projects.json', 'servers.json']);
  });

  it('server stopped → persistedOffline: true, reads say where the server is → server started → delivered exactly once by the automatic flush', async () => {
    const mcp = await connectV1({ cwd: client, env: clientEnv(url, { CAIRN_TOOLSETS: 'default,handoff' }) });
    try {
      await server!.stop();
      server = undefined;
      const queued = await ok(mcp, 'submit_handoff', { target: 'CORE', title: 'Written while away' });
      expect(queued.data).toMatchObject({ taskId: null, persistedOffline: true, outboxId: expect.any(String) });
      const comment = await ok(mcp, 'create_task', { project: 'CORE', title: 'Created while away' });
      expect(comment.data).toMatchObject({ persistedOffline: true });
      const read = await call(mcp, 'list_tasks', { project: 'CORE' });
      expect(read.isError).toBe(true);
      expect(read.text).toContain(`REMOTE_UNREACHABLE: Cannot reach the Cairn server at ${url}`);
      expect(pendingFiles()).toHaveLength(2);
      server = await startServe(serverDb, port);
      await waitFor(() => pendingFiles().length === 0, 'outbox delivered');
      const titles = (await serverTasks()).map((t) => t.title).sort();
      expect(titles).toEqual(['Created while away', 'Written while away']);
    } finally {
      await mcp.close();
    }
  });

  it('the ade profile with a remote: submit_dependency_task while the server is away answers persistedOffline: true and is delivered once', async () => {
    const mcp = await connectV1({ args: ['--profile', 'ade'], cwd: client, env: clientEnv(url) });
    try {
      await server!.stop();
      server = undefined;
      const r = await ok(mcp, 'submit_dependency_task', { dependencyId: '@acme/core', taskSummary: 'Queued by ADE', taskDetails: 'while the bridge is down', priority: 'high' });
      expect(r.data).toMatchObject({ success: true, persistedOffline: true, taskId: expect.stringMatching(/^[0-9A-Z]{26}$/), message: expect.stringContaining('outbox') });
      const outboxId = r.data.taskId as string;
      const pending = await ok(mcp, 'get_dependency_task_doc', { taskId: outboxId });
      expect(pending.data).toMatchObject({ success: true, status: 'pending', documentPath: join(client, '.cairn', 'outbox', `${outboxId}.json`) });
      server = await startServe(serverDb, port);
      await waitFor(() => pendingFiles().length === 0, 'outbox delivered');
      // Delivered: the outbox id now leads to the task the server made.
      const after = await call(mcp, 'get_dependency_task_doc', { taskId: outboxId, requireExistingDoc: false });
      expect(JSON.parse(after.text)).toMatchObject({ success: true, taskId: 'CORE-1', status: 'active' });
      const local = openCairn({ db: serverDb });
      expect((await local.call('get_task', { id: 'CORE-1' })).task).toMatchObject({ title: 'Queued by ADE', priority: 'high' });
      await local.close();
    } finally {
      await mcp.close();
    }
  });

  it('the ade profile with a remote finds a dependency by its package name alone (no alias), online and offline', async () => {
    const lib = join(base, 'lib');
    mkdirSync(lib);
    writeFileSync(join(lib, 'package.json'), JSON.stringify({ name: '@acme/lib' }));
    const setup = openCairn({ db: serverDb });
    await setup.call('create_project', { key: 'LIB', name: 'lib', root: lib });
    await setup.close();
    const mcp = await connectV1({ args: ['--profile', 'ade'], cwd: client, env: clientEnv(url) });
    try {
      const online = await ok(mcp, 'submit_dependency_task', { dependencyId: '@acme/lib', taskSummary: 'Online by package', taskDetails: '' });
      expect(online.data).toMatchObject({ success: true, taskId: 'LIB-1', repository: lib, persistedOffline: false });
      const doc = await ok(mcp, 'get_dependency_task_doc', { taskId: 'LIB-1', dependencyId: '@acme/lib', requireExistingDoc: false });
      expect(doc.data).toMatchObject({ success: true, status: 'active', documentPath: join(lib, '.cairn', 'docs', 'LIB-1.md') });
      const unknown = await call(mcp, 'submit_dependency_task', { dependencyId: '@acme/nothing', taskSummary: 'x', taskDetails: '' });
      expect(JSON.parse(unknown.text)).toMatchObject({ success: false, error: 'PROJECT_NOT_FOUND' });
      expect(JSON.parse(unknown.text).message).toContain('LIB');
      await server!.stop();
      server = undefined;
      const offline = await ok(mcp, 'submit_dependency_task', { dependencyId: '@acme/lib', taskSummary: 'Offline by package', taskDetails: '' });
      expect(offline.data).toMatchObject({ success: true, persistedOffline: true });
      server = await startServe(serverDb, port);
      await waitFor(() => pendingFiles().length === 0, 'outbox delivered');
      expect(
        (await serverTasks())
          .filter((t) => t.id.startsWith('LIB-'))
          .map((t) => t.title)
          .sort(),
      ).toEqual(['Offline by package', 'Online by package']);
    } finally {
      await mcp.close();
    }
  });

  it('cairn sync racing the automatic flush of a running cairn mcp delivers each entry once', async () => {
    await server!.stop();
    server = undefined;
    for (let i = 0; i < 6; i++) {
      const r = await cli(client, url, ['handoff', 'CORE', `Queued ${i}`, '--json']);
      expect(r.json(), r.stderr).toMatchObject({ persistedOffline: true });
    }
    const c = await cli(client, url, ['comment', 'CORE-1', 'a comment for a task made meanwhile', '--json']);
    expect(c.json()).toMatchObject({ persistedOffline: true });
    const mcp = await connectV1({ cwd: client, env: clientEnv(url) });
    try {
      server = await startServe(serverDb, port);
      const syncs = await Promise.all([1, 2, 3].map(() => cli(client, url, ['sync', '--json'])));
      for (const s of syncs) expect([0, 5], s.stderr).toContain(s.code);
      await waitFor(() => pendingFiles().length === 0, 'outbox delivered');
      const titles = (await serverTasks()).map((t) => t.title).sort();
      expect(titles).toEqual([0, 1, 2, 3, 4, 5].map((i) => `Queued ${i}`));
      const local = openCairn({ db: serverDb });
      expect((await local.call('get_task', { id: 'CORE-1' })).task.comments.map((x) => x.body)).toEqual(['a comment for a task made meanwhile']);
      await local.close();
    } finally {
      await mcp.close();
    }
  });

  it('a client SIGKILLed after the server committed (before marking the entry) delivers nothing twice when restarted', async () => {
    await server!.stop();
    server = undefined;
    expect((await cli(client, url, ['handoff', 'CORE', 'Killed mid-delivery', '--json'])).json()).toMatchObject({ persistedOffline: true });
    server = await startServe(serverDb, port);
    const killed = await cli(client, url, ['sync'], {
      env: { CAIRN_OUTBOX_FAULT: 'pause-after-send' },
      onStderr: (text, child) => {
        if (text.includes('paused after sending')) child.kill('SIGKILL');
      },
    });
    expect(killed.code).toBe(-1);
    expect(pendingFiles()).toHaveLength(1); // not marked: the client died first
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Killed mid-delivery']);
    const again = await cli(client, url, ['sync', '--json']);
    expect(again.json(), again.stderr).toMatchObject({ delivered: [{ op: 'submit_handoff', result: { taskId: 'CORE-1', replayed: true } }], remaining: 0 });
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Killed mid-delivery']);
  });

  it('a delivery the server refuses is kept with its error, listed by cairn outbox, never dropped', async () => {
    await cli(client, url, ['add', 'Soon deleted', '--project', 'CORE']);
    await server!.stop();
    server = undefined;
    expect((await cli(client, url, ['comment', 'CORE-1', 'too late', '--json'])).json()).toMatchObject({ persistedOffline: true });
    const local = openCairn({ db: serverDb });
    await local.call('delete_task', { id: 'CORE-1' });
    await local.close();
    server = await startServe(serverDb, port);
    const s = await cli(client, url, ['sync', '--json']);
    expect(s.json(), s.stdout + s.stderr).toMatchObject({ delivered: [], refused: [{ op: 'add_comment', error: { code: 'TASK_DELETED' } }], remaining: 0 });
    const box = (await cli(client, url, ['outbox', '--json'])).json();
    expect(box.pending).toEqual([]);
    expect(box.refused).toMatchObject([{ op: 'add_comment', args: { id: 'CORE-1', body: 'too late' }, error: { code: 'TASK_DELETED' } }]);
  });

  it('REST honours Idempotency-Key: a repeated create makes one task; the key cannot name another op', async () => {
    const post = (path: string, body: unknown, key: string) =>
      fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
    const a = await post('/tasks', { project: 'CORE', title: 'Once' }, 'k-create');
    const b = await post('/tasks', { project: 'CORE', title: 'Once' }, 'k-create');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(((await b.json()) as { task: { id: string } }).task.id).toBe(((await a.json()) as { task: { id: string } }).task.id);
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Once']);
    const reused = await post('/tasks/CORE-1/comments', { body: 'x' }, 'k-create');
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('an Idempotency-Key over 200 characters is refused, never cut: two keys sharing 200 characters are two writes', async () => {
    const post = (title: string, key: string) =>
      fetch(`${url}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ project: 'CORE', title }) });
    const long = await post('Too long', `${'k'.repeat(200)}-first`);
    expect(long.status).toBe(400);
    const body = (await long.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toContain('Idempotency-Key must be 1–200 characters; this one has 206');
    expect(await serverTasks()).toEqual([]);
    expect((await post('At the limit', 'k'.repeat(200))).status).toBe(201);
    expect((await post('Same prefix, other write', `${'k'.repeat(199)}x`)).status).toBe(201);
    expect((await serverTasks()).map((t) => t.title).sort()).toEqual(['At the limit', 'Same prefix, other write']);
  });
});
