/** Real MCP clients over real stdio: the v1 SDK client (2025-11-25) and the v2 client (pinned to 2026-07-28), spawning the built server. */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe } from '../handoff/remote-harness.js';
import { EVENTUALLY_MS } from '../helpers/wait.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ENTRY = `${ROOT}dist/mcp/stdio-entry.js`;
if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build first`);

export interface ServerArgs {
  db?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** `entry`: the script and leading arguments that start the server (default the standalone stdio entry). */
function params(s: ServerArgs, entry: string[] = [ENTRY]) {
  // The repository registry stays the test run's (off unless a test names its own file).
  const registry: Record<string, string> = process.env.CAIRN_REGISTRY ? { CAIRN_REGISTRY: process.env.CAIRN_REGISTRY } : {};
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...registry, ...(s.env ?? {}) };
  return { command: process.execPath, args: [...entry, ...(s.db ? ['--db', s.db] : []), ...(s.args ?? [])], env, stderr: 'pipe' as const, ...(s.cwd ? { cwd: s.cwd } : {}) };
}

/**
 * The remote leg (vitest project "remote", CAIRN_TEST_REMOTE=1): a profile server's workspace is
 * served by a real `cairn serve`, and the stdio server under test runs every op on it through
 * CAIRN_URL, as a host does in remote mode. Servers without a profile, or whose workspace the
 * test does not name, start as they are.
 */
const REMOTE = process.env.CAIRN_TEST_REMOTE === '1';
const WORKSPACE_VARS = ['TX_DB', 'CASTLE_DB_PATH', 'DEVPLANNER_WORKSPACE'] as const;

async function remoteLeg(s: ServerArgs): Promise<{ s: ServerArgs; stop?: () => Promise<void> }> {
  if (!REMOTE || !(s.args ?? []).includes('--profile')) return { s };
  const named = s.db ?? WORKSPACE_VARS.map((k) => s.env?.[k]).find(Boolean);
  if (!named) return { s };
  const db = s.env?.DEVPLANNER_WORKSPACE === named && !named.endsWith('.db') ? join(named, '.cairn', 'cairn.db') : named;
  const served = await startServe(db);
  return { s: { ...s, db: undefined, env: { ...s.env, CAIRN_URL: `http://127.0.0.1:${served.port}` } }, stop: served.stop };
}

/**
 * The HTTP leg (vitest project "http", CAIRN_TEST_HTTP=1): a profile server's workspace is served by a
 * real `cairn serve`, and the client connects to /mcp/{profile} over Streamable HTTP, with the
 * server's flags and variables as the query string a host would send (project, projectPath,
 * toolsets, readOnly, as). Servers without a profile, or whose workspace the test does not name, stay on stdio.
 */
const HTTP_LEG = process.env.CAIRN_TEST_HTTP === '1';

async function httpLeg(s: ServerArgs): Promise<{ url: URL; stop: () => Promise<void> } | undefined> {
  const args = s.args ?? [];
  const at = args.indexOf('--profile');
  if (!HTTP_LEG || at < 0) return undefined;
  const named = s.db ?? WORKSPACE_VARS.map((k) => s.env?.[k]).find(Boolean);
  if (!named) return undefined;
  const db = s.env?.DEVPLANNER_WORKSPACE === named && !named.endsWith('.db') ? join(named, '.cairn', 'cairn.db') : named;
  const served = await startServe(db);
  const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const q = new URLSearchParams();
  const project = flag('--project') ?? s.env?.CAIRN_PROJECT;
  if (project) q.set('project', project);
  if (s.env?.CASTLE_PROJECT_PATH) q.set('projectPath', resolve(s.cwd ?? process.cwd(), s.env.CASTLE_PROJECT_PATH));
  if (flag('--toolsets')) q.set('toolsets', flag('--toolsets')!);
  if (args.includes('--read-only') || s.env?.CAIRN_READ_ONLY) q.set('readOnly', '1');
  if (s.env?.CAIRN_ACTOR) q.set('as', s.env.CAIRN_ACTOR);
  const query = q.toString();
  return { url: new URL(`http://127.0.0.1:${served.port}/mcp/${args[at + 1]}${query ? `?${query}` : ''}`), stop: served.stop };
}

function stopWithClient(client: { close(): Promise<void> }, stop?: () => Promise<void>): void {
  if (!stop) return;
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await stop();
  };
}

/** What a host that renders MCP Apps declares. */
export const UI_EXTENSION = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** The v1 client (protocol 2025-11-25), optionally declaring roots, or the MCP Apps extension (`ui`). */
export async function connectV1(s: ServerArgs, opts: { roots?: string[]; ui?: boolean } = {}, entry?: string[]): Promise<ClientV1> {
  const capabilities = { ...(opts.roots ? { roots: { listChanged: true } } : {}), ...(opts.ui ? UI_EXTENSION : {}) };
  const client = new ClientV1({ name: 'test-v1', version: '1.0.0' }, { capabilities: capabilities as never });
  if (opts.roots) {
    const { ListRootsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: opts.roots!.map((p) => ({ uri: `file://${p}`, name: p })) }));
  }
  const http = await httpLeg(s);
  if (http) {
    await client.connect(new HttpV1(http.url)).catch(async (err: unknown) => {
      await http.stop();
      throw err;
    });
    stopWithClient(client, http.stop);
    return client;
  }
  const leg = await remoteLeg(s);
  // A server that fails to start (a bad profile) must not leave the leg's cairn serve running.
  await client.connect(new StdioV1(params(leg.s, entry))).catch(async (err: unknown) => {
    await leg.stop?.();
    throw err;
  });
  stopWithClient(client, leg.stop);
  return client;
}

/** The v2 client pinned to protocol 2026-07-28, optionally declaring the MCP Apps extension. */
export async function connectV2(s: ServerArgs, opts: { ui?: boolean } = {}): Promise<ClientV2> {
  const client = new ClientV2({ name: 'test-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(opts.ui ? { capabilities: UI_EXTENSION as never } : {}) });
  const http = await httpLeg(s);
  if (http) {
    await client.connect(new HttpV2(http.url)).catch(async (err: unknown) => {
      await http.stop();
      throw err;
    });
    stopWithClient(client, http.stop);
    return client;
  }
  const leg = await remoteLeg(s);
  await client.connect(new StdioV2(params(leg.s))).catch(async (err: unknown) => {
    await leg.stop?.();
    throw err;
  });
  stopWithClient(client, leg.stop);
  return client;
}

export interface CallOutcome {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
}

type AnyClient = { callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };

/** Calls a tool and flattens the result: isError, the text, the structuredContent. */
export async function call(client: AnyClient, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
  return { isError: r.isError === true, text: r.content.map((c) => c.text ?? '').join('\n'), data: r.structuredContent ?? {} };
}

/** Like call, but fails the test on an error result. */
export async function ok(client: AnyClient, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.text}`);
  return r;
}

/** Runs a script in another Node process with the built library (dist/index.js) as `cairn`. */
export async function inOtherProcess(db: string, body: string): Promise<string> {
  const code = `const { openCairn } = await import(${JSON.stringify(`${ROOT}dist/index.js`)}); const cairn = openCairn({ db: ${JSON.stringify(db)}, actor: 'cli' }); ${body}; await cairn.close();`;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (c) => (c === 0 ? resolve(out) : reject(new Error(`child failed (${c}): ${err}`))));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `check` is true, polling every 10 ms; throws after `ms`. The default ceiling is
 * generous (a loaded two-core machine): it bounds a hang, it does not assert a speed.
 */
export async function until(check: () => boolean, ms = EVENTUALLY_MS): Promise<number> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`condition not met within ${ms} ms`);
    await sleep(10);
  }
  return Date.now() - t0;
}
