/**
 * Words that say what is true (issue 37, item 4): a done task is finished, not "not ready"; a blocker
 * that is already finished does not "block"; history names only what changed; `start` without an id
 * says what it needs; `--json` errors suggest CLI commands; an address that never answered is named as
 * such; `init` run again where a project is rooted names that project.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

const FIX = resolve(import.meta.dirname, '..', 'fixtures', 'import');
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function harness(opts: { useEnvDb?: boolean } = {}): CliHarness {
  const h = cliHarness(opts);
  cleanups.push(h.cleanup);
  return h;
}

function withTasks(h: CliHarness, n: number): void {
  okJson(h.run(['project', 'create', 'API', 'API', '--json']));
  for (let i = 1; i <= n; i++) okJson(h.run(['add', `Task ${i}`, '--project', 'API', '--json']));
}

describe('words that say what is true', () => {
  it('show calls a done task finished and a backlog task not queued', () => {
    const h = harness();
    withTasks(h, 2);
    okJson(h.run(['done', 'API-1', '--json']));
    expect(h.run(['show', 'API-1']).stdout).toMatch(/^state: +finished$/m);
    okJson(h.run(['move', 'API-2', 'backlog', '--json']));
    expect(h.run(['show', 'API-2']).stdout).toMatch(/^state: +in the backlog \(not queued/m);
  });

  it('block by a finished task says it holds nothing up; by an open one, what the task waits on; unblock, what is left', () => {
    const h = harness();
    withTasks(h, 3);
    okJson(h.run(['done', 'API-1', '--json']));
    const byDone = h.run(['block', 'API-2', '--by', 'API-1']);
    expect(byDone.code).toBe(0);
    expect(byDone.stdout).not.toMatch(/^Blocked/);
    expect(byDone.stdout).toContain('API-1 is finished, so API-2 waits on nothing (ready)');
    const byOpen = h.run(['block', 'API-2', '--by', 'API-3']);
    expect(byOpen.stdout.trim()).toMatch(/^Blocked API-2 .*\n {2}waits on API-3$/);
    expect(h.run(['unblock', 'API-2', '--by', 'API-3']).stdout.trim()).toMatch(/^Unblocked API-2 .*\n {2}waits on nothing now \(ready\)$/);
  });

  it('the history of an import update names the fields that changed, never an empty one staying empty', () => {
    const h = harness();
    const repo = join(h.dir, 'app');
    cpSync(join(FIX, 'taskmaster'), repo, { recursive: true });
    const file = join(repo, '.taskmaster', 'tasks', 'tasks.json');
    okJson(h.run(['import', '.', '--project', 'APP', '--json'], { cwd: repo }));
    const data = JSON.parse(readFileSync(file, 'utf8')) as { master: { tasks: Array<{ id: number; status: string; title: string }> } };
    const login = data.master.tasks.find((t) => t.id === 2)!;
    login.status = 'review';
    writeFileSync(file, JSON.stringify(data, null, 2));
    okJson(h.run(['import', '.', '--project', 'APP', '--json'], { cwd: repo }));
    const target = (okJson(h.run(['list', '--project', 'APP', '--json'])) as { tasks: Array<{ id: string; title: string }> }).tasks.find((t) => t.title === login.title)!.id;
    const events = (okJson(h.run(['history', target, '--json'])) as { events: Array<{ type: string; changes: Record<string, unknown> }> }).events;
    const update = events.filter((e) => e.type === 'task.updated').at(-1)!;
    expect(Object.keys(update.changes)).toContain('status');
    expect(update.changes).not.toHaveProperty('completedAt');
    expect(h.run(['history', target]).stdout).not.toContain('completedAt');
  });

  it('start with neither an id nor --next says to give one', () => {
    const h = harness();
    withTasks(h, 1);
    const r = h.run(['start']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cairn start needs a task id, or --next');
    expect(r.stderr).not.toContain('received undefined');
  });

  it('--json errors suggest the same CLI commands as the terminal does', () => {
    const h = harness();
    withTasks(h, 1);
    const json = h.run(['show', 'API-9', '--json']);
    expect(json.code).toBe(2);
    const { suggestions } = json.json<{ error: { suggestions: string[] } }>().error;
    expect(suggestions[0]).toBe('cairn show API-1');
    expect(suggestions.join('\n')).not.toMatch(/get_task|search_tasks/);
    expect(h.run(['show', 'API-9']).stderr).toContain('→ cairn show API-1');
  });

  it('--remote to an address that never answered says so, and how to check it', () => {
    const h = harness();
    withTasks(h, 0);
    const r = h.run(['add', 'Offline', '--project', 'API'], { env: { CAIRN_DB: undefined, CAIRN_URL: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('has never answered this workspace');
    expect(r.stdout).toContain('curl http://127.0.0.1:1/healthz');
  });

  it('init run again where a project is rooted names that project instead of suggesting one', () => {
    const h = harness({ useEnvDb: false });
    okJson(h.run(['init', '--key', 'WEB', '--json']));
    const again = h.run(['init']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Project WEB \(WEB\) is rooted at .*: commands here work on it/);
    expect(again.stdout).toContain('Next: cairn add "First task"');
    expect(again.stdout).not.toContain('cairn project create');
  });
});
