/**
 * CLI rough edges (issue 20, items 4 and 7): help that reads like a person wrote it, verbs that match
 * what happened, lane headers without repeats, times for people, text from stdin or $EDITOR, a token
 * list with a header, --fields on list commands, and shell completions.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { humanTime, localTime, relativeTime } from '../../src/cli/render/time.js';
import { BIN, cliHarness, okJson, type CliHarness } from './cli-harness.js';

/** Every visible option of every command, with its help line. */
async function allOptions(): Promise<Array<{ command: string; flag: string; help: string }>> {
  const out: Array<{ command: string; flag: string; help: string }> = [];
  const visit = (cmd: Command, prefix: string): void => {
    for (const sub of cmd.commands) {
      const path = `${prefix}${sub.name()}`;
      for (const o of sub.options) if (!o.hidden) out.push({ command: path, flag: o.long ?? o.flags, help: o.description ?? '' });
      visit(sub, `${path} `);
    }
  };
  visit(await buildProgram(undefined), '');
  return out;
}

describe('generated help reads like a person wrote it', () => {
  it('no flag is explained by its own name, by a raw boolean value, or by its default twice', async () => {
    const options = await allOptions();
    expect(options.length).toBeGreaterThan(100);
    const bad = options.filter(({ flag, help }) => {
      const name = flag.replace(/^--(no-)?/, '').replace(/-/g, ' ');
      const text = help.toLowerCase().replace(/\s*\(.*$/, '');
      return !help || text === name || /^(true|false)\b/i.test(help) || /turn off:/i.test(help) || (help.match(/\(default:/g) ?? []).length > 1;
    });
    expect(bad.map((b) => `${b.command} ${b.flag}: ${b.help}`)).toEqual([]);
  });

  it('the three cases from the issue read well', async () => {
    const options = await allOptions();
    const help = (command: string, flag: string) => options.find((o) => o.command === command && o.flag === flag)?.help;
    expect(help('archive', '--restore')).toBe('Un-archive instead');
    expect(help('add', '--links-branch')).toBe('Git branch of the work');
    expect(help('search', '--no-include-done')).toBe('Leave finished tasks out (they are searched by default)');
  });
});

describe('times for people', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('relative in the largest whole unit, both directions', () => {
    expect(relativeTime('2026-03-01T12:28:30Z', now)).toBe('in 28 min');
    expect(relativeTime('2026-03-01T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-02-27T11:00:00Z', now)).toBe('2 d ago');
    expect(relativeTime('2026-03-01T11:59:40Z', now)).toBe('just now');
    expect(relativeTime('not a time', now)).toBe('not a time');
  });
  it('local wall-clock time, with the date when it is not today', () => {
    const iso = new Date(now + 5 * 60_000).toISOString();
    const d = new Date(iso);
    const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    expect(localTime(iso, now)).toBe(hm);
    expect(humanTime(iso, now)).toBe(`${hm} (in 5 min)`);
    expect(localTime('2025-12-24T10:00:00Z', now)).toMatch(/^2025-12-2[345] \d\d:\d\d$/);
  });
});

describe('cairn CLI rough edges', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness();
    expect(h.run(['init', '--key', 'EDG', '--name', 'Edges']).code).toBe(0);
  });
  afterAll(() => h.cleanup());

  it('archive --restore says Restored; lane headers do not repeat; show and list show times for people, --json keeps ISO', () => {
    const r = h.runMany([
      ['add', 'One', '--labels', 'x,y'],
      ['archive', 'EDG-1'],
      ['archive', 'EDG-1', '--restore'],
      ['board'],
      ['start', 'EDG-1'],
      ['show', 'EDG-1'],
      ['show', 'EDG-1', '--json'],
      ['history', 'EDG-1'],
    ]);
    for (const x of r) expect(x.code, x.stderr).toBe(0);
    expect(r[1]!.stdout).toMatch(/^Archived EDG-1/);
    expect(r[2]!.stdout).toMatch(/^Restored EDG-1/);
    expect(r[3]!.stdout).not.toMatch(/\((\w+), \1\)/);
    expect(r[3]!.stdout).toMatch(/^Backlog {2}0$/m);
    expect(r[3]!.stdout).toMatch(/^In progress {2}\d+$/m);
    expect(r[3]!.stdout).toMatch(/^To do \[todo\] {2}\d+$/m);
    // A category is said in words, never as an id beside a display name.
    expect(r[3]!.stdout).toMatch(/^Review · in progress {2}\d+$/m);
    expect(r[3]!.stdout).not.toContain('in_progress)');
    expect(r[5]!.stdout).toMatch(/claim: +tester until (\d{4}-\d\d-\d\d )?\d\d:\d\d \(in \d+ min\)/);
    expect(r[5]!.stdout).toMatch(/updated: +(\d{4}-\d\d-\d\d )?\d\d:\d\d \((just now|\d+ min ago)\)/);
    expect(okJson(r[6]!).task.claim.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r[7]!.stdout).toMatch(/#\d+ \d\d:\d\d \((just now|\d+ min ago)\)/);
  });

  it('--description - reads stdin; --edit opens $EDITOR on the current text', () => {
    const env = { ...process.env, CAIRN_DB: h.db, CAIRN_ACTOR: 'tester', NO_COLOR: '1' };
    const added = spawnSync(process.execPath, [BIN, 'add', 'Piped', '--description', '-', '--json'], { cwd: h.dir, env, input: 'line one\nline two\n', encoding: 'utf8' });
    expect(added.status, added.stderr).toBe(0);
    const id = JSON.parse(added.stdout).task.id as string;
    expect(JSON.parse(added.stdout).task.description).toBe('line one\nline two');
    // An "editor" that appends to what it was given, so the test sees the current text went in.
    const editor = join(h.dir, 'editor.mjs');
    writeFileSync(editor, "import { appendFileSync } from 'node:fs'; appendFileSync(process.argv[2], '\\nedited');\n");
    const edited = spawnSync(process.execPath, [BIN, 'update', id, '--edit', '--json'], {
      cwd: h.dir,
      env: { ...env, VISUAL: '', EDITOR: `${JSON.stringify(process.execPath)} ${JSON.stringify(editor)}` },
      encoding: 'utf8',
    });
    expect(edited.status, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout).task.description).toBe('line one\nline two\nedited');
    const noEditor = h.run(['update', id, '--edit'], { env: { VISUAL: undefined, EDITOR: undefined } });
    expect(noEditor.code).toBe(1);
    expect(noEditor.stderr).toContain('$EDITOR');
  });

  it('--fields picks the columns of list, ready and search (and the keys under --json)', () => {
    const r = h.runMany([
      ['list', '--fields', 'title,labels,state'],
      ['list', '--fields', 'title', '--json'],
      ['ready', '--fields', 'title,priority'],
      ['search', 'Piped', '--fields', 'status'],
      ['list', '--fields', 'nope'],
    ]);
    expect(r[0]!.stdout.split('\n')[0]).toMatch(/^ID +TITLE +LABELS +STATE$/);
    expect(r[0]!.stdout).toMatch(/EDG-1 +One +x,y +claimed by tester/);
    expect(okJson(r[1]!).tasks.every((t: object) => Object.keys(t).join() === 'id,title')).toBe(true);
    expect(r[2]!.stdout.split('\n')[0]).toMatch(/^ID +TITLE +PRIORITY$/);
    expect(r[3]!.stdout).toMatch(/^ID +STATUS\nEDG-2 +todo/);
    expect(r[4]!.code).toBe(1);
    expect(r[4]!.stderr).toContain('unknown field nope');
  });

  it('token list has a header row', () => {
    expect(h.run(['token', 'create', '--name', 'ci']).code).toBe(0);
    const list = h.run(['token', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME +SCOPE +PROJECTS +PREFIX +CREATED +LAST USED$/);
    expect(list.stdout).toMatch(/^ci +read +all +cairn_[\w-]+… +(\d{4}-\d\d-\d\d )?\d\d:\d\d \((just now|\d+ min ago)\) +never$/m);
  });

  it('completion bash|zsh|fish prints a script; the bash one completes commands, subcommands and flags', () => {
    const [bash, zsh, fish, bad] = h.runMany([
      ['completion', 'bash'],
      ['completion', 'zsh'],
      ['completion', 'fish'],
      ['completion', 'tcsh'],
    ]);
    expect(zsh!.stdout).toMatch(/^#compdef cairn/);
    expect(fish!.stdout).toContain("complete -c cairn -n '__fish_seen_subcommand_from project' -a 'create'");
    expect(bad!.code).toBe(1);
    const script = join(h.dir, 'cairn.bash');
    writeFileSync(script, bash!.stdout);
    const complete = (...words: string[]) =>
      spawnSync(
        'bash',
        ['-c', `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _cairn_complete; echo "\${COMPREPLY[@]}"`],
        { encoding: 'utf8' },
      ).stdout.trim();
    expect(complete('cairn', 'pro')).toBe('progress project');
    expect(complete('cairn', 'project', 'cr')).toBe('create');
    expect(complete('cairn', 'add', '--pri')).toBe('--priority');
    expect(complete('cairn', 'completion', '--he')).toBe('--help');
  });
});
