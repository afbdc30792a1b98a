/** `cairn init` and git (issue 20, items 7 and 8): .cairn/.gitignore keeps the database out of commits; init run again changes nothing. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });

describe('cairn init in a git repository', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness({ useEnvDb: false });
  });
  afterAll(() => h.cleanup());

  it('writes .cairn/.gitignore, so after work only that file is there to commit (no database, WAL or SHM)', () => {
    expect(git(h.dir, 'init', '-q').status).toBe(0);
    const first = h.run(['init', '--key', 'GIT', '--name', 'Git test', '--json']);
    expect(okJson(first)).toMatchObject({ created: true, projectCreated: true, gitignore: join(h.dir, '.cairn', '.gitignore') });
    for (const t of ['one', 'two']) expect(h.run(['add', t]).code).toBe(0);
    // A long-lived reader keeps the WAL and SHM files around while git looks.
    expect(existsSync(join(h.dir, '.cairn', 'cairn.db'))).toBe(true);
    writeFileSync(join(h.dir, '.cairn', 'cairn.db-wal'), 'x');
    writeFileSync(join(h.dir, '.cairn', 'cairn.db-shm'), 'x');
    // The outbox of a remote client: pending entries, delivered and refused ones.
    for (const d of ['', 'delivered', 'refused']) mkdirSync(join(h.dir, '.cairn', 'outbox', d), { recursive: true });
    for (const f of ['01J00000000000000000000001.json', 'delivered/01J00000000000000000000002.json', 'refused/01J00000000000000000000003.json', 'projects.json'])
      writeFileSync(join(h.dir, '.cairn', 'outbox', f), '{}');
    expect(git(h.dir, 'add', '-A').status).toBe(0);
    const staged = git(h.dir, 'diff', '--cached', '--name-only').stdout.trim().split('\n');
    expect(staged).toEqual(['.cairn/.gitignore']);
    expect(readFileSync(join(h.dir, '.cairn', '.gitignore'), 'utf8')).toContain('cairn export');
  });

  it('run again, with or without the same --key, is a friendly no-op (exit 0, nothing changed)', () => {
    const gitignore = join(h.dir, '.cairn', '.gitignore');
    writeFileSync(gitignore, '*.db\n# ours\n');
    const again = h.run(['init', '--key', 'GIT', '--name', 'Other name']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already exists');
    expect(again.stdout).toMatch(/Project GIT already exists \(Git test\).*nothing changed/);
    expect(okJson(h.run(['init', '--json']))).toMatchObject({ created: false, project: { key: 'GIT' }, projectCreated: false, projectHere: true, gitignore: null });
    expect(readFileSync(gitignore, 'utf8')).toBe('*.db\n# ours\n');
    expect(okJson(h.run(['project', 'list', '--json'])).projects).toHaveLength(1);
  });
});
