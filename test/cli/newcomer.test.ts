/**
 * A newcomer's first hour (issue 37): from a repository that used Backlog.md or Task Master, with no
 * Cairn yet: `cairn import .`, then `cairn add` with no --project, then `cairn init --agent` twice.
 * Every step works as typed, and the host file it leaves is one a team can commit.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

const FIX = resolve(import.meta.dirname, '..', 'fixtures', 'import');
let h: CliHarness | undefined;
afterEach(() => h?.cleanup());

describe('a newcomer moving in', () => {
  for (const tool of ['backlog', 'taskmaster'] as const) {
    it(`${tool}: import, add, then init --agent twice, from a folder with no Cairn`, () => {
      h = cliHarness({ useEnvDb: false });
      const repo = join(h.dir, 'repo');
      cpSync(join(FIX, tool), repo, { recursive: true });

      const imported = h.run(['import', '.'], { cwd: repo });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain(`at ${realpathSync(repo)} (the repository it came from)`);

      const added = h.run(['add', 'My first task here'], { cwd: repo });
      expect(added.code, added.stderr).toBe(0);
      const id = /^Created (\S+)/.exec(added.stdout)![1]!;
      expect(h.run(['show', id], { cwd: repo }).stdout).toContain('My first task here');

      const first = h.run(['init', '--agent', 'claude-code'], { cwd: repo });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Created .mcp.json (claude-code, "cairn": ');
      expect(first.stdout).toMatch(/Project \w+ \(.*\) is rooted at .*: commands here work on it/);
      const bytes = readFileSync(join(repo, '.mcp.json'), 'utf8');
      expect(bytes).not.toContain(h.dir); // nothing of this machine: the file can be committed

      const second = h.run(['init', '--agent', 'claude-code'], { cwd: repo });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('claude-code already configured');
      expect(readFileSync(join(repo, '.mcp.json'), 'utf8')).toBe(bytes);
      expect(okJson(h.run(['list', '--json'], { cwd: repo })).tasks.map((t: { id: string }) => t.id)).toContain(id);
    });
  }

  it('an import that is refused leaves no workspace behind in a folder that had none', () => {
    h = cliHarness({ useEnvDb: false });
    const repo = join(h.dir, 'empty');
    mkdirSync(repo);
    writeFileSync(join(repo, 'bad.jsonl'), '{"type":"project","key":"A1!","name":"x"}\n');
    const r = h.run(['import', 'bad.jsonl', '--from', 'cairn'], { cwd: repo });
    expect(r.code).not.toBe(0);
    expect(existsSync(join(repo, '.cairn'))).toBe(false);
  });
});
