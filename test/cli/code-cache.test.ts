/** bin/cairn.js runs the CLI bundle through a code cache per user: it must never change what a command does. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-code-cache-'));
const db = join(dir, 'ws.db');
const BUNDLE = join(BIN, '..', '..', 'dist', 'cli', 'cairn.cjs');
const bundleId = /^\/\/ cairn-bundle ([0-9a-f]+)\n/.exec(readFileSync(BUNDLE, 'utf8'))?.[1];
const MCP_BUNDLE = join(BIN, '..', '..', 'dist', 'mcp', 'cairn-mcp.cjs');
const mcpBundleId = /^\/\/ cairn-bundle ([0-9a-f]+)\n/.exec(readFileSync(MCP_BUNDLE, 'utf8'))?.[1];

function cairn(args: string[], cacheHome: string, extra: Record<string, string> = {}, input?: string) {
  const env: Record<string, string | undefined> = { ...process.env, CAIRN_DB: db, CAIRN_ACTOR: 'tester', NO_COLOR: '1', XDG_CACHE_HOME: cacheHome, ...extra };
  delete env.CAIRN_CODE_CACHE;
  if (extra.CAIRN_CODE_CACHE) env.CAIRN_CODE_CACHE = extra.CAIRN_CODE_CACHE;
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', input, timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cacheDir = (home: string) => join(home, 'cairn', 'code-cache');
/** A command's cache: one per command word, so each holds what its own first run compiled. */
const fnv = (s: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
};
/** A command's cache file for the install whose bundle is `bundle`. */
const cacheName = (word: string, bundle = BUNDLE) => `${bundleId}-${fnv(bundle)}-${process.version}-${process.arch}-${word}.bin`;
/** `cairn mcp`'s cache, of its own bundle. */
const mcpCacheName = `${mcpBundleId}-${fnv(MCP_BUNDLE)}-${process.version}-${process.arch}-mcp.bin`;
/** The tools/list entries a session built, kept for the next (src/mcp/tool-list.ts). */
const toolEntriesName = `${mcpBundleId}-${fnv(MCP_BUNDLE)}-tool-entries.json`;

/** A host's session: initialize, the tool list, then a call. */
const rpc = (id: number | undefined, method: string, params: object) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });
const SESSION = [
  rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } }),
  rpc(undefined, 'notifications/initialized', {}),
  rpc(2, 'tools/list', {}),
  rpc(3, 'tools/call', { name: 'get_task', arguments: { id: 'CC-1' } }),
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');

beforeAll(() => {
  const home = join(dir, 'setup');
  expect(cairn(['project', 'create', 'CC', 'Code cache'], home).code).toBe(0);
  for (const t of ['One', 'Two', 'Three']) expect(cairn(['add', t, '--project', 'CC'], home).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI code cache', () => {
  it('the bundle names its content hash on its first line', () => {
    expect(bundleId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is made by the first command, then used, and the output is the same with it, without it and with it off', () => {
    const home = join(dir, 'fresh');
    const first = cairn(['ready', '--project', 'CC'], home);
    expect(first.code).toBe(0);
    expect(readdirSync(cacheDir(home))).toEqual([cacheName('ready')]);
    const second = cairn(['ready', '--project', 'CC'], home);
    const off = cairn(['ready', '--project', 'CC'], join(dir, 'off'), { CAIRN_CODE_CACHE: '0' });
    expect(second).toEqual(first);
    expect(off).toEqual(first);
    expect(first.stdout).toMatch(/CC-1\s+todo/);
    expect(first.stderr).toBe('');
    // Turned off: nothing is written.
    expect(() => readdirSync(cacheDir(join(dir, 'off')))).toThrow();
  });

  it('runs under other Node options keep a cache of their own (V8 rejects a cache made under other flags)', () => {
    const home = join(dir, 'flags');
    const plain = cairn(['show', 'CC-1'], home);
    const flagged = cairn(['show', 'CC-1'], home, { NODE_OPTIONS: '--max-old-space-size=300' });
    expect(flagged).toEqual(plain);
    const files = readdirSync(cacheDir(home)).sort();
    expect(files).toHaveLength(2);
    expect(files).toContain(cacheName('show'));
    expect(files.find((f) => f !== cacheName('show'))).toMatch(new RegExp(`^${bundleId}-.*-show-f[0-9a-f]+\\.bin$`));
  });

  it('commands that load ES modules work when the CLI comes from the cache, and cairn mcp serves', () => {
    const home = join(dir, 'esm');
    for (let i = 0; i < 2; i++) {
      const r = cairn(['token', 'list'], home);
      expect(r.stderr, `run ${i + 1}`).toBe('');
      expect(r.code, `run ${i + 1}`).toBe(0);
      // The stdio server answers initialize, then stops at the end of its input.
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
      const mcp = cairn(['mcp'], home, {}, `${JSON.stringify(initialize)}\n`);
      expect(mcp.code, mcp.stderr).toBe(0);
      expect(JSON.parse(mcp.stdout.split('\n')[0]!).result.serverInfo.name).toBe('cairn');
    }
    // `cairn mcp` runs its own bundle, whose cache waits for a tool call: none here.
    expect(readdirSync(cacheDir(home)).sort()).toEqual([cacheName('token')]);
  });

  it('cairn mcp makes its caches once a session has answered a tool call, and serves the same with them, without them, off and damaged', () => {
    expect(mcpBundleId).toMatch(/^[0-9a-f]{16}$/);
    const home = join(dir, 'mcp');
    const first = cairn(['mcp'], home, {}, SESSION);
    expect(first.code, first.stderr).toBe(0);
    const answers = first.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: { tools?: unknown[]; isError?: boolean; structuredContent?: { task?: { id?: string } } } });
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1]!.result.tools!.length).toBeGreaterThan(5);
    expect(answers[2]!.result.isError).toBeFalsy();
    expect(answers[2]!.result.structuredContent?.task?.id).toBe('CC-1');
    expect(readdirSync(cacheDir(home)).sort()).toEqual([mcpCacheName, toolEntriesName].sort());
    // tools/list from the saved entries, the call through the code cache.
    const cached = cairn(['mcp'], home, {}, SESSION);
    expect(cached.stdout).toBe(first.stdout);
    expect(cached.code).toBe(0);
    const off = cairn(['mcp'], join(dir, 'mcp-off'), { CAIRN_CODE_CACHE: '0' }, SESSION);
    expect(off.stdout).toBe(first.stdout);
    expect(() => readdirSync(cacheDir(join(dir, 'mcp-off')))).toThrow();
    const file = join(cacheDir(home), mcpCacheName);
    const size = readFileSync(file).length;
    writeFileSync(file, Buffer.alloc(size, 0x5a));
    writeFileSync(join(cacheDir(home), toolEntriesName), '{"not json');
    const damaged = cairn(['mcp'], home, {}, SESSION);
    expect(damaged.stdout).toBe(first.stdout);
    expect(readFileSync(file).equals(Buffer.alloc(size, 0x5a))).toBe(false);
    expect(() => JSON.parse(readFileSync(join(cacheDir(home), toolEntriesName), 'utf8')) as unknown).not.toThrow();
  });

  it('cairn mcp with options the quick path does not take, or that fail, answers as the CLI does', () => {
    const home = join(dir, 'mcp-cli');
    const help = cairn(['mcp', '--help'], home);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--toolsets <list>/);
    const bad = cairn(['mcp', '--toolsets', 'nope', '--json'], home, {}, '');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBe('VALIDATION_ERROR');
    const human = cairn(['mcp', '--profile', 'nope'], home, {}, '');
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/VALIDATION_ERROR: Unknown profile "nope"/);
  });

  it('a damaged cache file is rejected, replaced, and the command runs as ever', () => {
    const home = join(dir, 'damaged');
    const good = cairn(['list', '--project', 'CC'], home);
    const file = join(cacheDir(home), cacheName('list'));
    const size = readFileSync(file).length;
    writeFileSync(file, Buffer.alloc(size, 0x5a));
    const again = cairn(['list', '--project', 'CC'], home);
    expect(again).toEqual(good);
    expect(readFileSync(file).equals(Buffer.alloc(size, 0x5a))).toBe(false);
  });

  it('a cache folder that cannot be written costs nothing but speed', () => {
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file where the cache folder would go');
    const r = cairn(['ready', '--project', 'CC'], blocked);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/CC-1\s+todo/);
  });

  it('another install of the same bundle keeps its own cache, so stack traces name its own paths', () => {
    const home = join(dir, 'two-installs');
    const install = join(dir, 'other-install');
    mkdirSync(join(install, 'dist', 'cli'), { recursive: true });
    cpSync(join(BIN, '..'), join(install, 'bin'), { recursive: true });
    copyFileSync(BUNDLE, join(install, 'dist', 'cli', 'cairn.cjs'));
    copyFileSync(join(BIN, '..', '..', 'package.json'), join(install, 'package.json'));
    symlinkSync(join(BIN, '..', '..', 'node_modules'), join(install, 'node_modules'));
    expect(cairn(['ready', '--project', 'CC'], home).code).toBe(0);
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_DB: db, CAIRN_ACTOR: 'tester', NO_COLOR: '1', XDG_CACHE_HOME: home };
    delete env.CAIRN_CODE_CACHE;
    const r = spawnSync(process.execPath, [join(install, 'bin', 'cairn.js'), 'ready', '--project', 'CC'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(cacheDir(home)).sort()).toEqual([cacheName('ready'), cacheName('ready', join(install, 'dist', 'cli', 'cairn.cjs'))].sort());
  });

  it("removes another bundle's caches once they are a day old, and keeps a recent one", () => {
    const home = join(dir, 'crowded');
    mkdirSync(cacheDir(home), { recursive: true });
    const other = (n: number) => join(cacheDir(home), `${n.toString(16).padStart(16, '0')}-${process.version}-${process.arch}-ready.bin`);
    writeFileSync(other(1), 'x');
    writeFileSync(other(2), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(other(1), twoDaysAgo, twoDaysAgo);
    expect(cairn(['ready', '--project', 'CC'], home).code).toBe(0);
    expect(readdirSync(cacheDir(home)).sort()).toEqual([other(2).split('/').pop(), cacheName('ready')].sort());
  });
});
