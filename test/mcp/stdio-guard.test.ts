/** `cairn mcp` never goes deaf (issue 22, item 2): oversized, malformed and batched lines get a JSON-RPC error over stdio and the server keeps serving. */
import { onPostgres } from '../helpers/engine.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { ENTRY } from './helpers.js';

let ws: TempWorkspace;
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
  ws?.cleanup();
});

interface Rpc {
  id?: unknown;
  result?: any;
  error?: { code: number; message: string };
}

/** The built stdio server with raw access to its pipes: every JSON line it prints is collected. */
function start(prepare?: (db: string) => void) {
  ws = tempWorkspace();
  prepare?.(ws.db);
  child = spawn(process.execPath, [ENTRY, '--db', ws.db], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: ws.dir } });
  const got: Rpc[] = [];
  let buf = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) got.push(JSON.parse(line) as Rpc);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
  const send = (text: string) => new Promise<void>((r) => (child!.stdin.write(text) ? r() : child!.stdin.once('drain', () => r())));
  const reply = async (id: number) => {
    await waitFor(() => got.some((m) => m.id === id), `reply to ${id} (stderr: ${stderr.slice(-500)})`);
    return got.find((m) => m.id === id)!;
  };
  return { got, send, reply, exited, stderr: () => stderr };
}

const waitForReply = async (s: ReturnType<typeof start>, id: string) => {
  await waitFor(() => s.got.some((m) => m.id === id), `reply to ${id}`);
  return s.got.find((m) => m.id === id)!;
};

const init = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;
const call = (id: number, name: string, args: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

describe('cairn mcp over stdio keeps serving after bad input', () => {
  it('a line over the size limit: a JSON-RPC error (-32600), then the next request is answered', async () => {
    const s = start();
    await s.send(init(1));
    await s.reply(1);
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_projects', arguments: { pad: 'x'.repeat(11 * 1024 * 1024) } } });
    await s.send(`${huge}\n`);
    await waitFor(() => s.got.some((m) => m.error?.code === -32600), 'an error for the oversized line');
    // Answered with the call's own id (at the line's start here), so the caller does not wait out its timeout.
    expect(s.got.find((m) => m.error?.code === -32600)).toMatchObject({ id: 2, error: { message: expect.stringMatching(/larger than/) } });
    // The SDK's clients write the id last: it is read from the line's end.
    const sdkOrder = `{"method":"tools/call","params":{"name":"list_projects","arguments":{"pad":"${'y'.repeat(9 * 1024 * 1024)}","id":"inner"}},"jsonrpc":"2.0","id":"call-9"}`;
    await s.send(`${sdkOrder}\n`);
    expect((await waitForReply(s, 'call-9')).error!.message).toMatch(/larger than/);
    await s.send(call(3, 'create_project', { key: 'API', name: 'API' }));
    expect((await s.reply(3)).result?.isError).not.toBe(true);
    await s.send(call(4, 'list_projects', {}));
    expect(JSON.stringify((await s.reply(4)).result)).toContain('API');
  });

  it('malformed JSON (-32700), a non-JSON-RPC object and a batch (-32600) are answered; serving goes on', async () => {
    const s = start();
    await s.send(init(1));
    await s.reply(1);
    await s.send('{"jsonrpc":"2.0","id":5,"method":"tools/call",\n');
    await waitFor(() => s.got.some((m) => m.error?.code === -32700), 'parse error');
    await s.send('{"hello":"world"}\n');
    await s.send(`[${call(6, 'list_projects', {}).trim()},${call(7, 'list_projects', {}).trim()}]\n`);
    await waitFor(() => s.got.filter((m) => m.error?.code === -32600).length >= 2, 'invalid request errors');
    await s.send(call(8, 'list_projects', {}));
    expect((await s.reply(8)).result).toBeDefined();
  });

  it('a __proto__ argument is refused with the error run-op would give, not dropped', async () => {
    const s = start();
    await s.send(init(1));
    await s.reply(1);
    await s.send('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_projects","arguments":{"__proto__":{"x":1}}}}\n');
    const r = await s.reply(9);
    expect(JSON.stringify(r)).toContain('__proto__');
    expect(JSON.stringify(r)).toContain('VALIDATION_ERROR');
  });

  // Another application's SQLite file: a SQLite workspace's concern.
  it.skipIf(onPostgres)('a workspace that cannot be opened (not SQLite): every tool call answers NOT_A_WORKSPACE, none is left unanswered', async () => {
    const s = start((db) => {
      mkdirSync(dirname(db), { recursive: true });
      writeFileSync(db, 'not a database at all\n');
    });
    await s.send(init(1));
    await s.reply(1);
    await s.send(call(2, 'list_projects', {}));
    await s.send(call(3, 'create_project', { key: 'API', name: 'API' }));
    for (const id of [2, 3]) {
      const r = await s.reply(id);
      expect(JSON.stringify(r)).toContain('NOT_A_WORKSPACE');
    }
    expect(readFileSync(ws.db, 'utf8')).toBe('not a database at all\n');
  });

  it('stdin closing still ends the process cleanly', async () => {
    const s = start();
    await s.send(init(1));
    await s.reply(1);
    child!.stdin.end();
    expect(await s.exited).toBe(0);
  });
});
