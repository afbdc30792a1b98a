/**
 * fast-check fuzzing of tools/call over raw JSON-RPC on stdio, for every tool: random and malformed
 * arguments never kill the server, every reply is a result or a proper JSON-RPC error, and the
 * database passes its integrity checks afterwards.
 */
import { integrityCheck } from '../helpers/core.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { OPS } from '../../src/ops/index.js';
import { EVENTUALLY_MS } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { ENTRY } from './helpers.js';

type Reply = { jsonrpc: string; id: number; result?: { content?: Array<{ type: string; text: string }>; isError?: boolean }; error?: { code: number; message: string } };

/** A raw JSON-RPC peer: nothing between the fuzzer and the server's parser. */
class RawPeer {
  #next = 1;
  #waiting = new Map<number, (r: Reply) => void>();
  #buf = '';
  readonly junk: string[] = [];
  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on('data', (d: Buffer) => {
      this.#buf += d.toString();
      for (let i = this.#buf.indexOf('\n'); i >= 0; i = this.#buf.indexOf('\n')) {
        const line = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 1);
        let msg: Reply;
        try {
          msg = JSON.parse(line) as Reply;
        } catch {
          this.junk.push(line);
          continue;
        }
        if (typeof msg.id === 'number') this.#waiting.get(msg.id)?.(msg);
      }
    });
  }
  request(method: string, params: unknown): Promise<Reply> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      // A ceiling for a hang (a reply that never comes), not a speed requirement: generous on a loaded machine.
      const timer = setTimeout(() => reject(new Error(`no reply to ${method} ${JSON.stringify(params).slice(0, 200)}`)), EVENTUALLY_MS);
      this.#waiting.set(id, (r) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(r);
      });
      this.proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`);
    });
  }
}

let ws: TempWorkspace;
let peer: RawPeer;
let exited: number | null | undefined;

beforeAll(async () => {
  ws = tempWorkspace('cairn-mcp-fuzz-');
  const lib = openCairn({ db: ws.db, actor: 'setup' });
  await lib.call('create_project', { key: 'API', name: 'API' });
  for (let i = 0; i < 3; i++) await lib.call('create_task', { project: 'API', title: `Task ${i}`, checklist: ['a', 'b'] });
  await lib.close();
  const proc = spawn(process.execPath, [ENTRY, '--db', ws.db, '--toolsets', 'all'], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.on('exit', (c) => (exited = c));
  proc.stderr.resume();
  peer = new RawPeer(proc);
  const init = await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } });
  expect(init.result).toBeDefined();
  peer.proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
});
afterAll(async () => {
  peer?.proc.stdin.end();
  await new Promise((r) => (exited !== undefined ? r(undefined) : peer?.proc.once('exit', r)));
  ws?.cleanup();
});

const ids = fc.constantFrom('API-1', 'API-2', 'API-3', 'API-99', 'api-2', '', ' ', 'XX-1', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '../../etc', 'API-0');
const value = fc.oneof(
  ids,
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(
    fc.oneof(ids, fc.integer(), fc.record({ op: fc.constantFrom('add', 'check', 'toggle', 'remove', 'edit', 'zap'), index: fc.integer({ min: -2, max: 5 }), text: fc.string({ maxLength: 10 }) })),
    { maxLength: 4 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Arguments shaped like each op's input (known keys, random values), or just anything. */
const argsFor = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((k) => [k, value])), { requiredKeys: [] }),
    fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 4 }),
    fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), fc.array(value, { maxLength: 3 })),
  );

const calls = fc.oneof(
  ...OPS.map((op) => fc.record({ name: fc.constant(op.name), arguments: argsFor(Object.keys(op.input.shape)) })),
  fc.record({ name: fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null)), arguments: fc.jsonValue({ maxDepth: 2 }) }),
);

const isProperError = (r: Reply) => !!r.error && Number.isInteger(r.error.code) && typeof r.error.message === 'string';
const isToolResult = (r: Reply) => !!r.result && Array.isArray(r.result.content) && r.result.content.every((c) => c.type === 'text' && typeof c.text === 'string');

describe('fuzzing tools/call', () => {
  it('every tool: never exits, always a result or a JSON-RPC error, codes first', async () => {
    const outcomes = { ok: 0, toolError: 0, rpcError: 0 };
    await fc.assert(
      fc.asyncProperty(calls, async (params) => {
        const r = await peer.request('tools/call', params);
        expect(r.jsonrpc).toBe('2.0');
        expect(isProperError(r) || isToolResult(r), JSON.stringify(r).slice(0, 300)).toBe(true);
        if (r.result?.isError) expect(r.result.content![0]!.text).toMatch(/^[A-Z_]+: /);
        outcomes[r.error ? 'rpcError' : r.result?.isError ? 'toolError' : 'ok']++;
        expect(r.result?.content?.[0]?.text ?? '').not.toMatch(/^INTERNAL/);
      }),
      { numRuns: 600 },
    );
    // The fuzzer reached real work, refusals and protocol errors alike.
    expect(outcomes.ok).toBeGreaterThan(10);
    expect(outcomes.toolError).toBeGreaterThan(100);
    expect(outcomes.rpcError).toBeGreaterThan(0);
    // Raw garbage lines and wrong shapes do not stop it either.
    peer.proc.stdin.write('this is not json\n{"jsonrpc":"2.0","id":"x","method":7}\n');
    const r = await peer.request('tools/call', { name: 'list_projects', arguments: {} });
    expect(isToolResult(r)).toBe(true);
    expect(exited).toBeUndefined();
    expect(peer.junk).toEqual([]);
  });

  it('leaves a database that passes its integrity checks', async () => {
    // SQLite: PRAGMA integrity_check and foreign_key_check; PostgreSQL: every row reference holds (helpers/core.ts).
    expect(await integrityCheck(ws.db)).toBe('ok');
  });
});
