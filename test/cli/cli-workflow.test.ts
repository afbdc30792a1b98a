/**
 * Every CLI command end to end through the built CLI: human output and the --json shapes (the ops'
 * outputs). Each step runs its commands in order in one process (runMany) to keep the suite fast;
 * the first step and the exit-code checks in cli-errors spawn the bin itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness, type CliResult } from './cli-harness.js';

const ids = (out: { tasks: Array<{ id: string }> }): string[] => out.tasks.map((t) => t.id);

describe('cairn CLI workflow', () => {
  let h: CliHarness;
  /** Runs the command lines in order; `--json` is added to those marked with a leading 'J'. */
  const steps = (...argvs: string[][]): CliResult[] => h.runMany(argvs.map((a) => (a[0] === 'J' ? [...a.slice(1), '--json'] : a)));
  beforeAll(() => {
    h = cliHarness();
  });
  afterAll(() => h.cleanup());

  it('init (spawning the bin) creates the workspace and a first project rooted at the working directory', () => {
    expect(h.ok(['init', '--key', 'API', '--name', 'API server'])).toMatchObject({ workspace: h.db, created: true, project: { key: 'API', name: 'API server', root: h.dir } });
    const again = h.run(['init']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already exists');
    const human = h.run(['add', 'Design schema', '--priority', 'high', '--labels', 'db,api', '--checklist', 'draft, tables', '--checklist', 'review']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Created API-1 {2}Design schema {2}\[todo\] high {2}v1\n {2}ready\n$/);
  });

  it('add creates tasks in the default project (the one whose root holds the cwd)', () => {
    const [a, b, c] = steps(
      ['J', 'show', 'API-1'],
      ['J', 'add', 'Implement endpoints', '--blocked-by', 'API-1', '--kind', 'feature', '--score', '5'],
      ['add', 'Write docs', '--blocked-by', 'API-1,API-2', '--links-branch', 'docs/api', '--anchors', 'docs/api.md'],
    );
    const first = okJson(a!).task;
    expect(first).toMatchObject({ id: 'API-1', project: 'API', priority: 'high', labels: ['api', 'db'], isReady: true });
    expect(first.checklist.map((i: { text: string }) => i.text)).toEqual(['draft, tables', 'review']);
    expect(okJson(b!).task).toMatchObject({ id: 'API-2', kind: 'feature', score: 5, blockedBy: ['API-1'] });
    expect(c!.stdout).toMatch(/^Created API-3 {2}Write docs {2}\[todo\] {2}v1\n  waits on API-1,API-2/);
  });

  it('list and ready print aligned tables, and their --json is the op output', () => {
    const [list, json, page, labels, ready, readyHuman] = steps(
      ['list'],
      ['J', 'list', '--sort', 'id'],
      ['J', 'list', '--limit', '2', '--sort', 'id'],
      ['J', 'list', '--labels', 'db'],
      ['J', 'ready'],
      ['ready'],
    );
    expect(list!.stdout.split('\n')[0]).toMatch(/^ID +STATUS +PRI +TITLE +ASSIGNEE +CHECK +STATE$/);
    expect(list!.stdout).toMatch(/API-1 +todo +high +Design schema +0\/2 +ready/);
    expect(list!.stdout).toMatch(/API-3 +todo +- +Write docs +waits on API-1,API-2/);
    expect(list!.stdout).toMatch(/\n3 tasks\n$/);
    const all = okJson(json!);
    expect(Object.keys(all).sort()).toEqual(['nextCursor', 'tasks', 'total']);
    expect(ids(all)).toEqual(['API-1', 'API-2', 'API-3']);
    expect(all.tasks[1]).toMatchObject({ blockedBy: ['API-1'], blocks: ['API-3'], isReady: false });
    const first = okJson(page!);
    expect(first).toMatchObject({ total: 3, nextCursor: expect.any(String) });
    expect(ids(okJson(h.runMany([['list', '--cursor', first.nextCursor, '--sort', 'id', '--limit', '2', '--json']])[0]!))).toEqual(['API-3']);
    expect(ids(okJson(labels!))).toEqual(['API-1']);
    expect(ids(okJson(ready!))).toEqual(['API-1']);
    expect(readyHuman!.stdout).toContain('Take one with: cairn start <id>');
  });

  it('show prints the full task; --json is {task}', () => {
    const [show, json] = steps(['show', 'API-1'], ['J', 'show', 'API-3']);
    expect(show!.stdout).toContain('API-1  Design schema  [todo] high');
    expect(show!.stdout).toMatch(/blocks: +API-2, API-3/);
    expect(show!.stdout).toMatch(/Checklist 0\/2\n {2}\[ \] +0 {2}draft, tables/);
    const { task } = okJson(json!);
    expect(task).toMatchObject({ id: 'API-3', links: { branch: 'docs/api' }, anchors: ['docs/api.md'], blockedBy: ['API-1', 'API-2'] });
    for (const k of ['description', 'checklist', 'comments', 'version', 'statusCategory', 'children', 'uid']) expect(task).toHaveProperty(k);
  });

  it('update, move, start and release change the task', () => {
    const r = steps(
      ['J', 'update', 'API-2', '--title', 'Implement the endpoints', '--add-labels', 'api', '--assignee', 'bob', '--expected-version', '1'],
      ['J', 'update', 'API-2', '--no-assignee'],
      ['J', 'move', 'API-2', 'backlog'],
      ['move', 'API-2', 'todo', '--position', '0'],
      ['J', 'start', 'API-1', '--lease-seconds', '600'],
      ['J', 'start', 'API-1', '--as', 'someone-else'],
      ['release', 'API-1'],
      ['start', 'API-1'],
    );
    expect(okJson(r[0]!).task).toMatchObject({ title: 'Implement the endpoints', labels: ['api'], assignee: 'bob', version: 2 });
    expect(okJson(r[1]!).task.assignee).toBeNull();
    expect(okJson(r[2]!).task.status).toBe('backlog');
    expect(r[3]!.stdout).toMatch(/^Moved API-2 {2}Implement the endpoints {2}\[todo\]/);
    expect(okJson(r[4]!).task).toMatchObject({ status: 'in_progress', assignee: 'tester', claim: { actor: 'tester' } });
    expect(r[5]!.code).toBe(3);
    expect(r[5]!.json().error.code).toBe('ALREADY_CLAIMED');
    expect(r[6]!.stdout).toMatch(/^Released API-1 .*\[todo\]/);
    expect(r[7]!.stdout).toMatch(/^Claimed API-1 .*\[in_progress\].*\n {2}claimed by tester until /);
  });

  it('check applies checklist ops in the order given', () => {
    const [json, human] = steps(['J', 'check', 'API-1', '--check', '0', '--add', 'write docs', '--remove', '1', '--edit', '1=Write the docs', '--toggle', '1'], ['check', 'API-1', '--uncheck', '1']);
    expect(okJson(json!).task.checklist).toEqual([
      { index: 0, text: 'draft, tables', checked: true },
      { index: 1, text: 'Write the docs', checked: true },
    ]);
    expect(human!.stdout).toMatch(/Checklist 1\/2\n {2}\[x\] +0 {2}draft, tables\n {2}\[ \] +1 {2}Write the docs/);
  });

  it('block, unblock and done report dependencies and what became ready', () => {
    const [unblock, block, done, human] = steps(
      ['J', 'unblock', 'API-3', '--by', 'API-2'],
      ['block', 'API-3', '--by', 'API-2'],
      ['J', 'done', 'API-1', '--comment', 'Schema merged', '--close-reason', 'fixed'],
      ['done', 'API-2'],
    );
    expect(okJson(unblock!).task.blockedBy).toEqual(['API-1']);
    expect(block!.stdout).toMatch(/^Blocked API-3/);
    const out = okJson(done!);
    expect(Object.keys(out).sort()).toEqual(['nowReady', 'task']);
    expect(out.task).toMatchObject({ id: 'API-1', status: 'done', closeReason: 'fixed' });
    expect(out.nowReady).toEqual(['API-2']);
    expect(human!.stdout).toMatch(/^Completed API-2/);
    expect(human!.stdout).toContain('now ready: API-3');
  });

  it('comment, search, labels, history and changes', () => {
    const [c, s, sh, labels, lh, hist, hh, changes] = steps(
      ['J', 'comment', 'API-3', '--kind', 'research', 'Use', 'the', 'OpenAPI', 'generator'],
      ['J', 'search', 'openapi'],
      ['search', 'openapi'],
      ['J', 'labels'],
      ['labels'],
      ['J', 'history', 'API-1'],
      ['history', 'API-1'],
      ['J', 'changes', '--since', '0', '--limit', '3'],
    );
    expect(okJson(c!).task.comments.at(-1)).toMatchObject({ author: 'tester', kind: 'research', body: 'Use the OpenAPI generator' });
    const found = okJson(s!);
    expect(found.results[0]).toMatchObject({ task: { id: 'API-3' }, matchedFields: ['comments'] });
    expect(found.results[0].excerpt).toContain('**OpenAPI**');
    expect(sh!.stdout).toMatch(/API-3 {2}Write docs {2}\[todo\] in comments\n {4}.*OpenAPI/);
    expect(okJson(labels!).labels).toEqual(
      expect.arrayContaining([
        { label: 'api', count: 2 },
        { label: 'db', count: 1 },
      ]),
    );
    expect(lh!.stdout).toMatch(/^LABEL +TASKS\napi +2/);
    const events = okJson(hist!);
    expect(events.taskId).toBe('API-1');
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['task.created', 'task.claimed', 'checklist.updated', 'task.completed']));
    expect(hh!.stdout).toMatch(/#\d+ \d\d:\d\d \((just now|\d+ min ago)\) {2}tester {2}task\.created\n {4}title: - → Design schema/);
    expect(okJson(changes!)).toMatchObject({ hasMore: true, lastSeq: 3 });
  });

  it('board and progress show lanes, cards and totals; --json is the board_overview output', () => {
    const [json, human, progress] = steps(['J', 'board'], ['board'], ['J', 'progress']);
    const b = okJson(json!);
    expect(b.project).toBe('API');
    expect(b.lanes.map((l: { status: string }) => l.status)).toEqual(['backlog', 'todo', 'in_progress', 'blocked', 'review', 'done', 'canceled']);
    expect(b.summary).toMatchObject({ totalTasks: 3, doneTasks: 2 });
    expect(human!.stdout).toContain('Board API');
    expect(human!.stdout).toMatch(/To do \[todo\] {2}1\n {2}API-3 +- +Write docs/);
    expect(human!.stdout).toContain('3 tasks · 2 done (67%)');
    expect(okJson(progress!).summary).toMatchObject({ totalTasks: 3, doneTasks: 2 });
  });

  it('archive, delete, restore and purge (purge needs --yes)', () => {
    const r = steps(
      ['J', 'archive', 'API-2'],
      ['J', 'archive', 'API-2', '--restore'],
      ['J', 'delete', 'API-2'],
      ['J', 'list', '--deleted'],
      ['J', 'restore', 'API-2'],
      ['delete', 'API-2'],
      ['J', 'purge', 'API-2'],
      ['J', 'purge', 'API-2', '--yes'],
      ['show', 'API-2'],
    );
    expect(okJson(r[0]!).task.archivedAt).not.toBeNull();
    expect(okJson(r[1]!).task.archivedAt).toBeNull();
    expect(okJson(r[2]!).task.deletedAt).not.toBeNull();
    expect(ids(okJson(r[3]!))).toEqual(['API-2']);
    expect(okJson(r[4]!).task.deletedAt).toBeNull();
    expect(r[5]!.stdout).toMatch(/^Deleted API-2/);
    expect(r[6]!.code).toBe(1);
    expect(r[6]!.json().error.message).toContain('--yes');
    expect(okJson(r[7]!)).toEqual({ purged: 'API-2' });
    expect(r[8]!.code).toBe(2);
  });

  it('project list, create, show, update and archive', () => {
    const statusOp = JSON.stringify({ op: 'add', name: 'qa', category: 'in_progress' });
    const r = steps(
      ['J', 'project', 'create', 'plan', 'Planning', '--template', 'devplanner', '--aliases', 'planner'],
      ['J', 'project', 'list'],
      ['project', 'list'],
      ['J', 'project', 'update', 'PLAN', '--name', 'Plans', '--statuses', statusOp, '--root', h.dir],
      ['J', 'project', 'update', 'PLAN', '--no-root'],
      ['project', 'show', 'planner'],
      ['J', 'add', 'Plan the sprint', '--project', 'PLAN'],
      ['J', 'project', 'archive', 'PLAN'],
      ['J', 'project', 'list'],
    );
    const created = okJson(r[0]!).project;
    expect(created).toMatchObject({ key: 'PLAN', name: 'Planning', aliases: ['planner'] });
    expect(created.statuses.map((s: { name: string }) => s.name)).toEqual(['01-upcoming', '02-in-progress', '03-complete', '04-archive']);
    expect(okJson(r[1]!).projects.map((p: { key: string }) => p.key)).toEqual(['API', 'PLAN']);
    expect(r[2]!.stdout).toMatch(/^KEY +NAME +TASKS +ROOT\nAPI +API server +\d+ +\//);
    expect(okJson(r[3]!).project.statuses.map((s: { name: string }) => s.name)).toContain('qa');
    expect(okJson(r[4]!).project.root).toBeNull();
    expect(r[5]!.stdout).toMatch(/^PLAN {2}Plans\n[\s\S]*STATUS +NAME +CATEGORY +COLOUR\n01-upcoming/);
    expect(okJson(r[6]!).task).toMatchObject({ id: 'PLAN-1', status: '01-upcoming' });
    expect(okJson(r[7]!).project.archived).toBe(true);
    expect(okJson(r[8]!).projects.map((p: { key: string }) => p.key)).toEqual(['API']);
  });

  it('CAIRN_PROJECT picks the default project; --all-projects widens a read', () => {
    steps(['J', 'project', 'create', 'WEB', 'Web'], ['J', 'add', 'Landing page', '--project', 'WEB']);
    const [web, added] = h.runMany(
      [
        ['list', '--json'],
        ['add', 'From env', '--json'],
      ],
      { env: { CAIRN_PROJECT: 'WEB' } },
    );
    expect(ids(okJson(web!))).toEqual(['WEB-1']);
    expect(okJson(added!).task.id).toBe('WEB-2');
    expect(ids(okJson(steps(['J', 'list', '--all-projects'])[0]!))).toEqual(expect.arrayContaining(['API-3', 'WEB-1', 'WEB-2']));
  });
});
