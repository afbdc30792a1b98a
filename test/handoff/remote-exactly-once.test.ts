/**
 * Remote writes happen exactly once (issue 31, item 5), against a real `cairn serve` and the built
 * CLI: through a proxy that loses answers after the server committed, with a revoked token, with an
 * entry file cut short, with entries recorded for another server, offline without --project, and
 * --remote beside --db.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { systemClock } from '../../src/core/ports.js';
import { createToken, revokeToken } from '../../src/core/services/tokens.js';
import { cli, freePort, startServe } from './remote-harness.js';

let base: string;
let repo: string;
let serverDb: string;
let client: string;
let url: string;
let port: number;
let server: { stop(): Promise<void> } | undefined;
const closers: Array<() => Promise<unknown> | unknown> = [];

async function serverTasks(): Promise<Array<{ id: string; title: string; comments?: unknown }>> {
  const c = openCairn({ db: serverDb });
  try {
    return (await c.call('list_tasks', { allProjects: true, includeDone: true, limit: 200 })).tasks;
  } finally {
    await c.close();
  }
}

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'cairn-once-'));
  repo = join(base, 'core');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  serverDb = join(repo, '.cairn', 'cairn.db');
  const c = openCairn({ db: serverDb });
  await c.call('create_project', { key: 'CORE', name: 'core', root: repo });
  await c.close();
  client = join(base, 'client');
  mkdirSync(join(client, '.cairn'), { recursive: true });
  const served = await startServe(serverDb);
  server = served;
  port = served.port;
  url = `http://127.0.0.1:${port}`;
});
afterEach(async () => {
  for (const f of closers.splice(0).reverse()) await f();
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

const outbox = (dir = client) => join(dir, '.cairn', 'outbox');
const pendingFiles = (dir = client) => (existsSync(outbox(dir)) ? readdirSync(outbox(dir)).filter((f) => /^[0-9A-Z]{26}\.json$/.test(f)) : []);

/**
 * A proxy in front of the server that forwards each request whole and lets the server answer, then
 * loses the answer for the writes `lose` picks: a gateway's 504, or the connection cut.
 */
async function lossyProxy(lose: (method: string, n: number) => '504' | 'cut' | undefined): Promise<string> {
  let n = 0;
  const proxy: Server = createServer((req, res) => {
    const fate = req.method === 'GET' ? undefined : lose(req.method!, n++);
    const upstream = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (d: Buffer) => chunks.push(d));
      answer.on('end', () => {
        if (fate === 'cut') return void res.socket?.destroy();
        if (fate === '504') return void res.writeHead(504, { 'content-type': 'text/html' }).end('<h1>504 Gateway Time-out</h1>');
        res.writeHead(answer.statusCode!, answer.headers).end(Buffer.concat(chunks));
      });
    });
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  closers.push(() => new Promise((ok) => proxy.close(ok)));
  return `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}

describe('remote writes happen exactly once', () => {
  it('a write whose answer a proxy loses after the server committed is queued under the key it was sent with, and delivered as a replay', async () => {
    const proxied = await lossyProxy((_m, n) => (n === 0 ? '504' : n === 1 ? 'cut' : undefined));
    const add = await cli(client, proxied, ['add', 'Through a flaky gateway', '--project', 'CORE', '--json']);
    expect(add.json(), add.stderr).toMatchObject({ persistedOffline: true });
    const handoff = await cli(client, proxied, ['handoff', 'CORE', 'Handed through it', '--json']);
    expect(handoff.json(), handoff.stderr).toMatchObject({ persistedOffline: true });
    // The server did both writes; the client only does not know it yet.
    expect((await serverTasks()).map((t) => t.title).sort()).toEqual(['Handed through it', 'Through a flaky gateway']);

    const sync = await cli(client, proxied, ['sync', '--json']);
    expect(sync.json(), sync.stderr).toMatchObject({ delivered: [{ op: 'create_task' }, { op: 'submit_handoff', result: { replayed: true } }], remaining: 0 });
    expect((await serverTasks()).map((t) => t.title).sort()).toEqual(['Handed through it', 'Through a flaky gateway']);
  });

  it('a revoked token stops delivery and says why; the entries wait, none is moved to refused', async () => {
    const admin = openCairn({ db: serverDb });
    const ctx = { store: admin.store, clock: systemClock, actor: 'admin' };
    const { secret, token } = await createToken(ctx, { name: 'agent:client', scope: 'write' });
    await server!.stop();
    const env = { CAIRN_TOKEN: secret };
    for (const title of ['first', 'second']) expect((await cli(client, url, ['add', title, '--project', 'CORE', '--json'], { env })).json()).toMatchObject({ persistedOffline: true });
    await revokeToken(ctx, token.id);
    await admin.close();
    server = await startServe(serverDb, port);

    const sync = await cli(client, url, ['sync'], { env });
    expect(sync.code).not.toBe(0);
    expect(sync.stdout + sync.stderr).toMatch(/HTTP 401/);
    expect(sync.stdout + sync.stderr).toContain('Fix CAIRN_TOKEN');
    expect(pendingFiles()).toHaveLength(2);
    expect(existsSync(join(outbox(), 'refused'))).toBe(false);

    const again = openCairn({ db: serverDb });
    const fresh = (await createToken({ store: again.store, clock: systemClock, actor: 'admin' }, { name: 'agent:lead', scope: 'admin' })).secret;
    await again.close();
    const fixed = await cli(client, url, ['sync', '--json'], { env: { CAIRN_TOKEN: fresh } });
    expect(fixed.json(), fixed.stderr).toMatchObject({ remaining: 0, refused: [] });
    expect((await serverTasks()).map((t) => t.title).sort()).toEqual(['first', 'second']);
  });

  it("a 403 about one entry (a handoff outside the server's workspace) refuses that entry only; the rest are delivered", async () => {
    await server!.stop();
    const other = join(base, 'other');
    mkdirSync(other);
    expect((await cli(client, url, ['handoff', other, 'Outside the server', '--json'])).json()).toMatchObject({ persistedOffline: true });
    expect((await cli(client, url, ['add', 'Inside', '--project', 'CORE', '--json'])).json()).toMatchObject({ persistedOffline: true });
    server = await startServe(serverDb, port);
    const sync = await cli(client, url, ['sync', '--json']);
    expect(sync.json(), sync.stderr).toMatchObject({ refused: [{ op: 'submit_handoff', error: { code: 'FORBIDDEN' } }], delivered: [{ op: 'create_task' }], remaining: 0 });
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Inside']);
  });

  it('an entry file that cannot be read is reported by cairn outbox and cairn sync, and left in place; the others are delivered', async () => {
    await server!.stop();
    expect((await cli(client, url, ['add', 'Fine', '--project', 'CORE', '--json'])).json()).toMatchObject({ persistedOffline: true });
    const broken = join(outbox(), '01J0000000000000000000000A.json');
    writeFileSync(broken, '{"id": "01J0000000000000000000000A", "op": "create_ta');
    const listed = (await cli(client, url, ['outbox', '--json'])).json();
    expect(listed.pending).toHaveLength(1);
    expect(listed.corrupt).toEqual([{ file: broken, error: expect.stringContaining('not JSON') }]);
    expect((await cli(client, url, ['outbox'])).stdout).toContain(`! ${broken}: not JSON`);

    server = await startServe(serverDb, port);
    const sync = await cli(client, url, ['sync']);
    expect(sync.code).not.toBe(0);
    expect(sync.stdout).toContain('1 delivered');
    expect(sync.stdout + sync.stderr).toContain(broken);
    expect(existsSync(broken)).toBe(true);
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Fine']);
  });

  it('an entry edited to name an op the outbox never records (purge_task) is not sent: reported and left in place', async () => {
    const kept = (await cli(client, url, ['add', 'Keep me', '--project', 'CORE', '--json'])).json();
    await server!.stop();
    expect((await cli(client, url, ['add', 'Offline', '--project', 'CORE', '--json'])).json()).toMatchObject({ persistedOffline: true });
    const [file] = pendingFiles();
    const entry = JSON.parse(readFileSync(join(outbox(), file!), 'utf8'));
    writeFileSync(join(outbox(), file!), JSON.stringify({ ...entry, op: 'purge_task', args: { id: kept.task.id } }));
    server = await startServe(serverDb, port);
    const sync = await cli(client, url, ['sync']);
    expect(sync.code).not.toBe(0);
    expect(sync.stdout).toContain('0 delivered');
    expect(sync.stdout + sync.stderr).toContain('its op "purge_task" is not one the outbox records');
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Keep me']);
    expect(existsSync(join(outbox(), file!))).toBe(true);
  });

  it('entries remember their server: sync against another URL lists them and sends nothing until --to names it', async () => {
    const gone = `http://127.0.0.1:${await freePort()}`;
    expect((await cli(client, gone, ['add', 'Meant for the old server', '--project', 'CORE', '--json'])).json()).toMatchObject({ persistedOffline: true });
    const sync = await cli(client, url, ['sync', '--json']);
    expect(sync.json(), sync.stderr).toMatchObject({ delivered: [], remaining: 0, elsewhere: [{ op: 'create_task', url: gone }] });
    expect(pendingFiles()).toHaveLength(1);
    expect((await cli(client, url, ['sync'])).stdout).toContain(`cairn sync --to ${url}`);
    expect(await serverTasks()).toEqual([]);

    const moved = await cli(client, gone, ['sync', '--to', url, '--json']);
    expect(moved.json(), moved.stderr).toMatchObject({ delivered: [{ op: 'create_task' }], remaining: 0, elsewhere: [] });
    expect((await serverTasks()).map((t) => t.title)).toEqual(['Meant for the old server']);
  });

  it('cairn add offline queues without --project when the folder is a project the server listed', async () => {
    const inside = join(repo, 'src');
    mkdirSync(inside);
    const online = await cli(inside, url, ['add', 'While online', '--json']);
    expect(online.json(), online.stderr).toMatchObject({ task: { id: 'CORE-1' } });
    await server!.stop();
    const offline = await cli(inside, url, ['add', 'While offline', '--json']);
    expect(offline.json(), offline.stderr).toMatchObject({ persistedOffline: true });
    server = await startServe(serverDb, port);
    const sync = await cli(inside, url, ['sync', '--json']);
    expect(sync.json(), sync.stderr).toMatchObject({ delivered: [{ op: 'create_task', result: { task: { id: 'CORE-2' } } }] });
  });

  it('--remote beside --db is a conflict, refused before anything runs', async () => {
    const r = await cli(client, url, ['--remote', url, '--db', join(client, 'x.db'), 'add', 'Nowhere', '--project', 'CORE']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--remote');
    expect(r.stderr).toContain('--db');
    expect(r.stderr).toMatch(/VALIDATION_ERROR|give one/);
    expect(existsSync(join(client, 'x.db'))).toBe(false);
    expect(await serverTasks()).toEqual([]);
  });
});
