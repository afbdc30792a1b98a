/**
 * Issue 20 item 2: `cairn mcp` never guesses the workspace wrong. Started outside any workspace (as
 * GUI hosts start it, from $HOME or /), the client's MCP roots find the `.cairn/` in or above a root;
 * with none, reads and writes answer NO_WORKSPACE naming `cairn init` and `--db`, and no file is made.
 * Project roots are stored absolute and real, and old relative ones are read against the repository.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { Database } from '../../src/store/sqlite/native.js';
import { BIN } from '../cli/cli-harness.js';
import { call, connectV1, connectV2, ok } from './helpers.js';

let base: string;
let repo: string;
let away: string;

beforeEach(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-discovery-')));
  repo = join(base, 'repo');
  away = join(base, 'home'); // no .cairn/ here or above (tmpdir has none)
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  mkdirSync(away, { recursive: true });
  const c = openCairn({ db: join(repo, '.cairn', 'cairn.db'), actor: 'setup' });
  await c.call('create_project', { key: 'API', name: 'API', root: repo });
  await c.call('create_task', { project: 'API', title: 'found through the roots' });
  await c.close();
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('cairn mcp started outside any workspace', () => {
  it('a root-less client (2025) gets NO_WORKSPACE for reads and writes, naming cairn init and --db; nothing is created', async () => {
    const client = await connectV1({ cwd: away });
    try {
      const read = await call(client, 'list_tasks');
      expect(read.isError).toBe(true);
      expect(read.text).toMatch(/^NO_WORKSPACE/);
      expect(read.text).toContain('cairn init');
      expect(read.text).toContain('--db');
      const write = await call(client, 'create_project', { key: 'HOME', name: 'Home' });
      expect(write.isError).toBe(true);
      expect(write.text).toMatch(/^NO_WORKSPACE/);
    } finally {
      await client.close();
    }
    expect(existsSync(join(away, '.cairn'))).toBe(false);
  });

  it('a 2026 client (no roots outside a tool call) gets NO_WORKSPACE too', async () => {
    const client = await connectV2({ cwd: away });
    try {
      const r = await call(client, 'next_tasks');
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^NO_WORKSPACE/);
    } finally {
      await client.close();
    }
    expect(existsSync(join(away, '.cairn'))).toBe(false);
  });

  it("the client's roots find the workspace in or above a root, and the default project from them", async () => {
    const client = await connectV1({ cwd: away }, { roots: [join(repo, 'src', 'deep')] });
    try {
      const r = await ok(client, 'list_tasks');
      expect(r.text).toContain('found through the roots');
      const created = await ok(client, 'create_task', { title: 'written into the repo' });
      expect((created.data.task as { id: string }).id).toMatch(/^API-/);
    } finally {
      await client.close();
    }
    expect(existsSync(join(away, '.cairn'))).toBe(false);
  });

  it('roots that hold no workspace answer NO_WORKSPACE naming them', async () => {
    const client = await connectV1({ cwd: away }, { roots: [away] });
    try {
      const r = await call(client, 'list_projects');
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^NO_WORKSPACE/);
      expect(r.text).toContain(away);
    } finally {
      await client.close();
    }
  });
});

describe('project roots: absolute, real, and one decision', () => {
  it('a relative root is stored absolute and real; an old relative root is read against the repository', async () => {
    const link = join(base, 'link');
    symlinkSync(repo, link);
    const c = openCairn({ db: join(repo, '.cairn', 'cairn.db'), actor: 'setup' });
    // Through a symlink: stored as the real path.
    const { project } = await c.call('create_project', { key: 'WEB', name: 'Web', root: join(link, 'src') });
    expect(project.root).toBe(join(repo, 'src'));
    await c.call('update_project', { key: 'WEB', root: null });
    await c.close();
    // An older Cairn stored `--root .` as typed.
    const db = new Database(join(repo, '.cairn', 'cairn.db'));
    db.prepare("UPDATE projects SET root = '.' WHERE key = 'API'").run();
    db.close();
    // MCP from roots (through the symlink) and from the working directory both decide API.
    const viaRoots = await connectV1({ cwd: away }, { roots: [join(link, 'src')] });
    const viaCwd = await connectV1({ cwd: join(repo, 'src') });
    try {
      for (const client of [viaRoots, viaCwd]) {
        const r = await ok(client, 'create_task', { title: 'default project' });
        expect((r.data.task as { id: string }).id).toMatch(/^API-/);
      }
    } finally {
      await viaRoots.close();
      await viaCwd.close();
    }
  });

  it('the CLI stores `--root .` as its real working directory and decides the default project like MCP', () => {
    const env = { PATH: process.env.PATH ?? '', HOME: away, NO_COLOR: '1', CAIRN_ACTOR: 'tester' };
    const cli = (cwd: string, args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args, '--json'], { cwd, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const made = cli(join(repo, 'src'), ['project', 'create', 'SRC', 'Sources', '--root', '.']);
    expect(made.project.root).toBe(join(repo, 'src'));
    expect(cli(join(repo, 'src', 'deep'), ['add', 'inside src']).task.id).toBe('SRC-1');
    expect(cli(repo, ['add', 'at the top']).task.id).toMatch(/^API-/);
  });
});
