/**
 * One write gate (src/ops/write-gate.ts), one code per reason, on every surface: a write on a session
 * that may only read — a read token, `?readOnly`, `--read-only` — is READ_ONLY over REST, MCP over
 * HTTP, MCP over stdio and the CLI (through a remote server); a tool whose toolset is not served is
 * FORBIDDEN over MCP on stdio and HTTP. Nothing is written in any case.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { BIN } from '../cli/cli-harness.js';
import { call, connectV1 } from '../mcp/helpers.js';
import { serve, type Served } from './http-harness.js';

let s: Served;
let readSecret: string;
let writeSecret: string;
let away: string;
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const codeOf = (text: string) => /^([A-Z_]+):/.exec(text.trim())?.[1];

beforeAll(async () => {
  s = await serve({ rateLimit: false });
  await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
  const ctx = { store: s.store, clock: systemClock, actor: 'admin' };
  readSecret = (await createToken(ctx, { name: 'reader', scope: 'read' })).secret;
  writeSecret = (await createToken(ctx, { name: 'writer', scope: 'write' })).secret;
  away = mkdtempSync(join(tmpdir(), 'cairn-gate-'));
});
afterAll(async () => {
  await s.stop();
  rmSync(away, { recursive: true, force: true });
});

async function mcpHttp(query: string, secret: string, tool: string, args: Record<string, unknown>): Promise<string | undefined> {
  const c = new Client({ name: 'gate', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp${query}`), { requestInit: { headers: bearer(secret) } }));
  try {
    const r = (await c.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(r.isError).toBe(true);
    return codeOf(r.content.map((x) => x.text ?? '').join('\n'));
  } finally {
    await c.close();
  }
}

async function mcpStdio(args: string[], tool: string, toolArgs: Record<string, unknown>): Promise<string | undefined> {
  const c = await connectV1({ db: s.ws.db, args });
  try {
    const r = await call(c, tool, toolArgs);
    expect(r.isError).toBe(true);
    return codeOf(r.text);
  } finally {
    await c.close();
  }
}

function cliRemote(args: string[], secret: string): Promise<string | undefined> {
  return new Promise((done, fail) => {
    const env = { PATH: process.env.PATH ?? '', HOME: away, NO_COLOR: '1', CAIRN_URL: s.url, CAIRN_TOKEN: secret };
    const child = spawn(process.execPath, [BIN, ...args], { cwd: away, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      expect(code, err).toBe(4); // the forbidden kind's exit code
      done(/\b(READ_ONLY|FORBIDDEN)\b/.exec(err)?.[1]);
    });
  });
}

const write = { project: 'API', title: 'must not exist' };

const READ_ONLY_CASES: Array<[string, () => Promise<string | undefined>]> = [
  [
    'REST, read token',
    async () => {
      const r = await s.call('POST', '/api/v1/tasks', write, bearer(readSecret));
      expect(r.status).toBe(403);
      expect(r.headers.get('www-authenticate')).toContain('insufficient_scope');
      return r.body.error.code;
    },
  ],
  [
    'MCP over HTTP, read token (refused before dispatch)',
    async () => {
      const res = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { ...bearer(readSecret), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_task', arguments: write } }),
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toContain('scope="write"');
      return codeOf(((await res.json()) as { error: { message: string } }).error.message);
    },
  ],
  ['MCP over HTTP, ?readOnly', () => mcpHttp('?readOnly', writeSecret, 'create_task', write)],
  ['MCP over stdio, --read-only', () => mcpStdio(['--read-only'], 'create_task', write)],
  [
    'MCP over stdio, CAIRN_READ_ONLY= (empty is on)',
    async () => {
      const c = await connectV1({ db: s.ws.db, env: { CAIRN_READ_ONLY: '' } });
      try {
        return codeOf((await call(c, 'create_task', write)).text);
      } finally {
        await c.close();
      }
    },
  ],
  ['CLI through a remote server, read token', () => cliRemote(['add', 'must not exist', '--project', 'API'], readSecret)],
];

const NOT_SERVED_CASES: Array<[string, () => Promise<string | undefined>]> = [
  ['MCP over stdio, --toolsets tasks', () => mcpStdio(['--toolsets', 'tasks'], 'archive_project', { key: 'API' })],
  ['MCP over HTTP, ?toolsets=tasks', () => mcpHttp('?toolsets=tasks', writeSecret, 'archive_project', { key: 'API' })],
];

describe('one write gate on every surface', () => {
  it.each(READ_ONLY_CASES)('%s: READ_ONLY', async (_name, run) => {
    expect(await run()).toBe('READ_ONLY');
  });
  it.each(NOT_SERVED_CASES)('%s: FORBIDDEN', async (_name, run) => {
    expect(await run()).toBe('FORBIDDEN');
  });
  it('nothing was written', async () => {
    const r = await s.call('GET', '/api/v1/tasks?project=API', undefined, bearer(readSecret));
    expect(r.body.tasks).toEqual([]);
    const p = await s.call('GET', '/api/v1/projects/API', undefined, bearer(readSecret));
    expect(p.body.project.archivedAt ?? null).toBeNull();
  });
});
