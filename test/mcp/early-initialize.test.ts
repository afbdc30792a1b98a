/**
 * The stdio entry answers a 2025 client's initialize before the server loads (src/mcp/early-initialize.ts):
 * that answer must be the one the SDK gives, for every protocol version, and the transport must then
 * drop the SDK's own answer to the same request and lose none of the bytes read early.
 */
import { PassThrough, Writable } from 'node:stream';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { initializeAnswer, LEGACY_PROTOCOL_VERSIONS, type EarlyStart } from '../../src/mcp/early-initialize.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { GuardedStdioTransport, MAX_LINE_BYTES } from '../../src/mcp/stdio-guard.js';
import { openStore } from '../../src/workspace.js';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

let ws: TempWorkspace | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  ws?.cleanup();
  ws = undefined;
});

/** The native server over in-memory stdio; every line it writes is collected. */
function start(early?: EarlyStart) {
  ws = tempWorkspace();
  const store = openStore(ws.db);
  const input = new PassThrough();
  const lines: Array<Record<string, any>> = [];
  let buf = '';
  const output = new Writable({
    write(chunk, _enc, cb) {
      buf += String(chunk);
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
      cb();
    },
  });
  const errors: Error[] = [];
  const transport = new GuardedStdioTransport(() => undefined, input, output, MAX_LINE_BYTES, early);
  const handle = serveStdio((ctx) => buildMcpServer({ store, actor: 'tester', toolsets: ['tasks', 'projects'], readOnly: false, log: () => undefined }, ctx), {
    transport,
    onerror: (err) => void errors.push(err),
  });
  stop = async () => {
    await handle.close();
    await store.close();
  };
  return { input, lines, errors };
}

const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('the early initialize answer', () => {
  it('names the versions the SDK negotiates', () => {
    expect(LEGACY_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < '2026'));
  });

  for (const version of [...LEGACY_PROTOCOL_VERSIONS, '2023-01-01']) {
    it(`is the SDK's own answer to initialize ${version}`, async () => {
      const s = start();
      s.input.write(`${JSON.stringify(initialize(7, version))}\n`);
      await waitFor(() => s.lines.some((l) => l.id === 7), 'the SDK answers');
      expect(initializeAnswer(initialize(7, version))).toEqual(s.lines.find((l) => l.id === 7));
    });
  }

  it('is not given to a 2026 client, a malformed initialize or any other message', () => {
    expect(initializeAnswer({ ...initialize(1, '2025-11-25'), params: { ...initialize(1, '2025-11-25').params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })).toBeUndefined();
    expect(initializeAnswer({ ...initialize(1, '2025-11-25'), params: { protocolVersion: '2025-11-25', capabilities: {} } })).toBeUndefined();
    expect(initializeAnswer({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toBeUndefined();
  });

  it('the SDK answer to a request answered early is dropped, and what was read early is served', async () => {
    const first = initialize(3, '2025-06-18');
    const answer = initializeAnswer(first)!;
    const pending = Buffer.from(
      [first, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }].map((m) => `${JSON.stringify(m)}\n`).join(''),
    );
    const s = start({ pending, answered: { id: answer.id, result: answer.result } });
    await waitFor(() => s.lines.some((l) => l.id === 4), 'tools/list answered');
    expect(s.lines.filter((l) => l.id === 3)).toEqual([]);
    expect(s.lines.find((l) => l.id === 4)!.result.tools.length).toBeGreaterThan(0);
    expect(s.errors).toEqual([]);
  });
});
