/**
 * Moving in (issue 37 item 1): an import roots its new project at the repository it came from (or,
 * for an export whose root is on another machine, the folder it runs in), so the next `cairn add`
 * there needs no --project; the report lists every task whose number changed, and says where it rooted.
 */
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

const FIX = resolve(import.meta.dirname, '..', 'fixtures', 'import');
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function harness(): CliHarness {
  const h = cliHarness();
  cleanups.push(h.cleanup);
  return h;
}

describe('imports land ready to use', () => {
  for (const [tool, fixture] of [
    ['taskmaster', 'taskmaster'],
    ['backlog', 'backlog'],
  ] as const) {
    it(`${tool}: cairn import . roots the project at the repository, and cairn add there needs no --project`, () => {
      const h = harness();
      const repo = join(h.dir, `my-${tool}`);
      cpSync(join(FIX, fixture), repo, { recursive: true });
      const report = okJson(h.run(['import', '.', '--json'], { cwd: repo }));
      const key = report.projects.created[0];
      expect(report.projects.rooted).toEqual([{ key, root: realpathSync(repo), because: 'the repository it came from' }]);
      const added = okJson(h.run(['add', 'First task after moving in', '--json'], { cwd: repo }));
      expect(added.task.id).toMatch(new RegExp(`^${key}-\\d+$`));
    });
  }

  it("Task Master: the report lists each task whose number changed (subtasks take numbers in between), and show gives the task's own id", () => {
    const h = harness();
    const repo = join(h.dir, 'app');
    cpSync(join(FIX, 'taskmaster'), repo, { recursive: true });
    const r = h.run(['import', '.', '--project', 'APP', '--json'], { cwd: repo });
    const report = okJson(r);
    expect(report.renumbered.length).toBeGreaterThan(0);
    for (const m of report.renumbered) {
      expect(m.to).toMatch(/^APP-\d+$/);
      expect(Number(/(\d+)$/.exec(m.from)![1])).not.toBe(Number(m.to.slice(4)));
    }
    const { from, to } = report.renumbered[0];
    const shown = h.run(['show', to], { cwd: repo });
    expect(shown.stdout).toMatch(new RegExp(`origin:\\s+taskmaster:(master:)?${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
    const dry = h.run(['import', '.', '--project', 'APPB', '--dry-run'], { cwd: repo });
    expect(dry.stdout).toContain(`Would root APPB at ${realpathSync(repo)} (the repository it came from)`);
    const human = h.run(['import', '.', '--project', 'APPC'], { cwd: repo });
    expect(human.stdout).toContain(`Rooted APPC at ${realpathSync(repo)} (the repository it came from)`);
    expect(human.stdout).toContain(`${report.renumbered.length} task(s) have other numbers here than in taskmaster`);
    expect(human.stdout).toContain(`  ${from} → APPC-${to.slice(4)}`);
  });

  it('an export from another clone: a root not on this machine becomes the folder the import runs in, and says so', () => {
    const h = harness();
    const elsewhere = join(h.dir, 'their-clone');
    mkdirSync(elsewhere);
    okJson(h.run(['project', 'create', 'API', 'Api', '--root', elsewhere, '--json']));
    okJson(h.run(['add', 'Shared task', '--project', 'API', '--json']));
    const file = join(h.dir, 'export.jsonl');
    expect(h.run(['export', '--out', file]).code).toBe(0);
    const text = readFileSync(file, 'utf8').replace(JSON.stringify(realpathSync(elsewhere)).slice(1, -1), '/home/someone-else/src/api');
    writeFileSync(file, text);
    const mine = join(h.dir, 'my-clone');
    mkdirSync(mine);
    const env = { CAIRN_DB: join(mine, '.cairn', 'cairn.db') };
    const report = okJson(h.run(['import', file, '--json'], { cwd: mine, env }));
    expect(report.projects.rooted).toEqual([
      { key: 'API', root: realpathSync(mine), because: 'the folder the import ran in: the root the export records (/home/someone-else/src/api) is not on this machine' },
    ]);
    expect(okJson(h.run(['add', 'Mine now', '--json'], { cwd: mine, env })).task.id).toBe('API-2');
  });
});
