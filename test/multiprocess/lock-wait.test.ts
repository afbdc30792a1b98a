/**
 * A server never freezes (issue 22, item 1): while another process holds the workspace's write lock,
 * a write waits for it without blocking the event loop, so /healthz, reads, SSE heartbeats, MCP
 * sessions (over HTTP) and `cairn mcp` (over stdio) keep answering; the write lands once the lock is free.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/main.js';
import { SQLITE_MODULE_PATH } from '../../src/store/sqlite/native.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { openCairn } from '../../src/index.js';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { ENTRY } from '../mcp/helpers.js';

const HOLDER = fileURLToPath(new URL('./fixtures/lock-holder.mjs', import.meta.url));

let ws: TempWorkspace | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
  ws?.cleanup();
  ws = undefined;
});

/** Another process holding the write lock until `release()`. */
async function holdLock(db: string): Promise<{ release(): Promise<void> }> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [HOLDER, SQLITE_MODULE_PATH, db], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  cleanups.push(() => void child.kill('SIGKILL'));
  await waitFor(() => out.includes('locked') || child.exitCode !== null, 'lock taken');
  expect(out).toContain('locked');
  return {
    async release() {
      child.stdin.write('release\n');
      await exited;
    },
  };
}

async function seeded(): Promise<string> {
  ws = tempWorkspace();
  const c = openCairn({ db: ws.db });
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_task', { project: 'API', title: 'existing' });
  await c.close();
  return ws.db;
}

describe('waiting for the write lock never blocks the event loop', () => {
  it('cairn serve: /healthz, reads, SSE heartbeats and an MCP session answer while a REST write waits; the write then lands', async () => {
    const db = await seeded();
    // A generous lock wait: the write must outlast the checks below, however slow the machine.
    const store = new SqliteStore(db, { busyTimeoutMs: 20_000 });
    const server: RunningServer = await startServer({ store, port: 0, accessLog: false, sseHeartbeatMs: 20 });
    cleanups.push(async () => {
      await server.close();
      await store.close();
    });
    const mcp = new ClientV1({ name: 't', version: '1' });
    await mcp.connect(new HttpV1(new URL(`${server.url}/mcp`)));
    cleanups.push(() => mcp.close());
    const sse = await fetch(`${server.url}/api/v1/events`);
    const reader = sse.body!.getReader();
    cleanups.push(() => reader.cancel().catch(() => undefined));

    const lock = await holdLock(db);
    let writeDone = false;
    const write = fetch(`${server.url}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project: 'API', title: 'waited for the lock' }) }).then(
      async (r) => {
        writeDone = true;
        return { status: r.status, body: (await r.json()) as { task?: { id: string } } };
      },
    );
    // The write has reached the lock when the store counts its first wait (it is refused, then retried).
    await waitFor(async () => ((await store.status()).lockWaits ?? 0) > 0, 'the write waits for the lock');

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const list = (await (await fetch(`${server.url}/api/v1/tasks?project=API`)).json()) as { tasks: Array<{ title: string }> };
    expect(list.tasks.map((t) => t.title)).toEqual(['existing']);
    let pings = 0;
    let text = '';
    while (pings < 3) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      pings = text.split(': ping').length - 1;
    }
    const projects = (await mcp.callTool({ name: 'list_projects', arguments: {} })) as { isError?: boolean };
    expect(projects.isError).not.toBe(true);
    expect(writeDone).toBe(false);

    await lock.release();
    const created = await write;
    expect(created.status).toBe(201);
    expect(created.body.task?.id).toBe('API-2');
  }, 120_000);

  it('cairn mcp: a read is answered while a write waits for the lock, and the write then lands', async () => {
    const db = await seeded();
    const child = spawn(process.execPath, [ENTRY, '--db', db], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: ws!.dir } });
    cleanups.push(() => void child.kill('SIGKILL'));
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
    const got: Array<{ id?: number; result?: { isError?: boolean; structuredContent?: any } }> = [];
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) got.push(JSON.parse(line));
      }
    });
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const order: number[] = [];
    const seen = (id: number) => got.some((m) => m.id === id);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await waitFor(() => seen(1), 'initialized');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_projects', arguments: {} } });
    await waitFor(() => seen(2), 'store opened');

    const lock = await holdLock(db);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_task', arguments: { project: 'API', title: 'waited' } } });
    // The server says in its log when a write starts waiting for another process's lock.
    await waitFor(() => log.includes("a write is waiting for the workspace's write lock"), 'the write waits for the lock');
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_task', arguments: { id: 'API-1' } } });
    send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    await waitFor(() => seen(4) && seen(5), 'read and ping answered');
    expect(seen(3)).toBe(false);
    order.push(4);
    await lock.release();
    await waitFor(() => seen(3), 'write answered');
    const created = got.find((m) => m.id === 3)!;
    expect(created.result?.isError).not.toBe(true);
    expect(JSON.stringify(created.result)).toContain('API-2');
  }, 120_000);
});
