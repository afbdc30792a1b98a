/**
 * The MCP Bundle (.mcpb) a desktop host installs: built by scripts/build-mcpb.js from the built
 * package, valid for the official `mcpb` tool, and, unpacked into an empty folder far from this
 * checkout, a server that starts and works as the host would run it (the manifest's command, with
 * its placeholders filled) with no network and nothing from this machine's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const MCPB = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const mcpb = (...args: string[]) => execFileSync(process.execPath, [MCPB, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Removes a folder this test made in the system's temporary folder, and nothing else. */
function removeTemp(dir: string): void {
  if (dir && isAbsolute(dir) && dir.startsWith(join(tmpdir(), 'cairn-mcpb-'))) rmSync(dir, { recursive: true, force: true });
}

describe('the .mcpb bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-mcpb-test-'));
  let bundle = '';
  let staged = '';
  beforeAll(() => {
    [bundle, staged] = execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-mcpb.js'), join(dir, 'out')], { encoding: 'utf8' })
      .trim()
      .split('\n') as [string, string];
  }, 180_000);
  afterAll(() => {
    removeTemp(dir);
    if (staged) removeTemp(dirname(staged));
  });

  it('passes `mcpb validate`, and carries the package version and the platforms it serves', () => {
    expect(mcpb('validate', staged)).toMatch(/valid/i);
    const manifest = JSON.parse(readFileSync(staged, 'utf8'));
    expect(manifest.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(manifest.compatibility.platforms).toContain(process.platform);
    // One bundle for every platform 13's prebuilt addons cover, or one for this platform.
    expect(bundle).toMatch(new RegExp(`cairn-[\\d.]+(-${process.platform}-${process.arch}(-node\\d+)?)?\\.mcpb$`));
    // The validator holds: a manifest without its server is refused.
    const broken = join(dir, 'broken.json');
    execFileSync(process.execPath, ['-e', `const m=${JSON.stringify(manifest)};delete m.server;require('fs').writeFileSync(${JSON.stringify(broken)},JSON.stringify(m))`]);
    expect(() => mcpb('validate', broken)).toThrow();
  });

  it('unpacked into an empty folder, starts as the host runs it and keeps tasks in the chosen workspace, offline', async () => {
    const unpacked = join(dir, 'installed');
    mcpb('unpack', bundle, unpacked);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    const workspace = join(dir, 'my-project');
    const userConfig: Record<string, string> = { workspace, profile: '', actor: 'agent:desktop' };
    const fill = (s: string) => s.replaceAll('${__dirname}', unpacked).replace(/\$\{user_config\.(\w+)\}/g, (_, k: string) => userConfig[k] ?? '');
    const { command, args, env } = manifest.server.mcp_config as { command: string; args: string[]; env: Record<string, string> };
    expect(command).toBe('node');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map(fill),
      cwd: dir,
      // No network: any request would go to a proxy that does not answer; npm may not reach the registry.
      env: {
        PATH: '/usr/bin:/bin',
        HOME: dir,
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        npm_config_offline: 'true',
        ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop-host', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_task', 'claim_next', 'complete_task']));
      // The SQLite addon in the bundle loads: a write lands in the workspace folder the user chose.
      const project = (await client.callTool({ name: 'create_project', arguments: { key: 'APP', name: 'My app' } })) as { isError?: boolean };
      expect(project.isError).toBeFalsy();
      const task = (await client.callTool({ name: 'create_task', arguments: { project: 'APP', title: 'Ship the bundle' } })) as unknown as { structuredContent: { task: { id: string } } };
      expect(task.structuredContent.task.id).toBe('APP-1');
      const claimed = (await client.callTool({ name: 'claim_next', arguments: {} })) as unknown as { structuredContent: { task: { id: string; claim: { actor: string } } } };
      expect(claimed.structuredContent.task).toMatchObject({ id: 'APP-1', claim: { actor: 'agent:desktop' } });
      expect(existsSync(join(workspace, '.cairn', 'cairn.db'))).toBe(true);
    } finally {
      await client.close();
    }
    // The bundle carries its own files and its addon: nothing resolves to this checkout.
    expect(readFileSync(join(unpacked, 'server', 'package.json'), 'utf8')).toContain('"cairn-tasks"');
    const addons =
      Number(process.versions.node.split('.')[0]) >= 22
        ? ['build/Release/better_sqlite3.node', `prebuilds/${process.platform}-${process.arch}.node`].map((f) => join(unpacked, 'server', 'node_modules', 'better-sqlite3-napi', f))
        : [join(unpacked, 'server', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')];
    expect(
      addons.some((f) => existsSync(f)),
      addons.join(', '),
    ).toBe(true);
  }, 60_000);
});
