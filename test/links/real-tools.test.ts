/**
 * Links checked against the real programs (scripts/install-real-tools.sh puts them in .ci/tools; CI
 * always does): Task Master's and Backlog.md's own CLIs read what Cairn wrote through a link, and
 * Cairn shows what they wrote on its next call.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { ROOT } from '../mcp/helpers.js';
import { FIXTURES, scratch, type Scratch } from './link-helpers.js';

const BIN = process.env.CAIRN_TOOLS_BIN ?? join(ROOT, '.ci', 'tools', 'node_modules', '.bin');
const installed = existsSync(join(BIN, 'task-master')) && existsSync(join(BIN, 'backlog'));
if (!installed && process.env.CI) throw new Error(`the real tools are not installed in ${BIN}: run scripts/install-real-tools.sh (.ci/run does)`);

let s: Scratch;
let cairn: Cairn;
afterEach(async () => {
  await cairn?.close();
  s?.cleanup();
});

/** Runs one of the real CLIs in `cwd` and returns what it printed. */
function tool(name: 'task-master' | 'backlog', args: string[], cwd: string): string {
  return execFileSync(join(BIN, name), args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Task Master's `list --json`: the JSON it prints before its closing notes. */
function tmList(cwd: string): Array<Record<string, any>> {
  const out = tool('task-master', ['list', '--json', '--with-subtasks'], cwd);
  return JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('\n}') + 2)).tasks;
}

async function linkedRepo(fixture: string, key: string): Promise<string> {
  s = scratch('cairn-real-tools-');
  const repo = join(s.dir, 'repo');
  mkdirSync(repo);
  cpSync(join(FIXTURES, fixture), repo, { recursive: true });
  cairn = openCairn({ db: join(repo, '.cairn', 'cairn.db'), actor: 'agent', cwd: repo });
  await cairn.call('link_source', { path: repo, project: key });
  return repo;
}

describe.skipIf(!installed)('links with the real Task Master', () => {
  it('task-master lists what Cairn wrote to tasks.json, and Cairn shows what task-master wrote', async () => {
    const repo = await linkedRepo('taskmaster', 'DEMO');
    const { tasks } = await cairn.call('list_tasks', { project: 'DEMO', includeDone: true, limit: 50 });
    const id = (title: string) => tasks.find((t) => t.title === title)!.id;
    await cairn.call('complete_task', { id: id('Issue token') });
    const made = (
      await cairn.call('create_task', {
        project: 'DEMO',
        title: 'Written by Cairn',
        priority: 'urgent',
        blockedBy: [id('Set up database schema')],
        description: 'Through the link.\n\n## Details\n\nKept in details.',
      })
    ).task;
    await cairn.call('create_task', { project: 'DEMO', title: 'A Cairn subtask', parentId: id('Login endpoint') });
    await cairn.call('update_task', { id: id('Password reset email'), title: 'Password reset e-mail', priority: 'high' });

    const listed = tmList(repo);
    const byTitle = new Map(listed.map((t) => [t.title, t]));
    expect(byTitle.get('Written by Cairn')).toMatchObject({ status: 'pending', priority: 'critical', description: 'Through the link.', details: 'Kept in details.', dependencies: ['1'] });
    expect(byTitle.get('Password reset e-mail')).toMatchObject({ priority: 'high', dependencies: ['1', '2'] });
    const login = byTitle.get('Login endpoint')!;
    expect(login.subtasks.map((x: any) => [x.title, x.status])).toEqual([
      ['Validate input', 'pending'],
      ['Issue token', 'done'],
      ['A Cairn subtask', 'pending'],
    ]);

    const tmId = String(byTitle.get('Written by Cairn')!.id);
    tool('task-master', ['set-status', '--id', tmId, '--status', 'in-progress'], repo);
    tool('task-master', ['add-task', '--title', 'From task-master', '--description', 'Made with its own CLI', '--priority', 'low'], repo);
    expect((await cairn.call('get_task', { id: made.id })).task.status).toBe('in_progress');
    const after = (await cairn.call('list_tasks', { project: 'DEMO', limit: 50 })).tasks;
    expect(after.find((t) => t.title === 'From task-master')).toMatchObject({ priority: 'low', status: 'todo' });
    // Task Master's own ids keep working in Cairn.
    expect((await cairn.call('get_task', { id: `master:${tmId}` })).task.title).toBe('Written by Cairn');
    // task-master takes seconds to start (it loads every AI provider's SDK): four runs, on a busy machine.
  }, 300_000);
});

describe.skipIf(!installed)('links with the real Backlog.md', () => {
  it('backlog lists and shows what Cairn wrote to its task files, and Cairn shows what backlog wrote', async () => {
    const repo = await linkedRepo('backlog', 'SITE');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const { tasks } = await cairn.call('list_tasks', { project: 'SITE', includeDone: true, limit: 50 });
    const id = (title: string) => tasks.find((t) => t.title === title)!.id;
    await cairn.call('complete_task', { id: id('Login form styles') });
    await cairn.call('update_task', { id: id('Add login page'), title: 'Add the login page', addLabels: ['frontend'] });
    await cairn.call('update_checklist', {
      id: id('Add login page'),
      ops: [
        { op: 'check', index: 0 },
        { op: 'add', text: 'Remembers the email' },
      ],
    });
    const made = (
      await cairn.call('create_task', {
        project: 'SITE',
        title: 'Written by Cairn',
        priority: 'high',
        blockedBy: [id('Set up CI')],
        assignee: 'bob',
        description: 'From the link.\n\n## Implementation Notes\n\nSee the board.',
        checklist: ['First criterion', 'DoD: Reviewed'],
      })
    ).task;

    const board = tool('backlog', ['task', 'list', '--plain'], repo);
    expect(board).toMatch(/To Do:[\s\S]*\[HIGH\] TASK-4 - Written by Cairn/);
    expect(board).toMatch(/In Progress:[\s\S]*TASK-2 - Add the login page \(ac: 1\/2\)/);
    expect(board).toMatch(/Done:[\s\S]*TASK-2\.1 - Login form styles/);
    const view = tool('backlog', ['task', 'view', '4', '--plain'], repo);
    expect(view).toContain('Status: ○ To Do');
    expect(view).toContain('TASK-1 - Set up CI');
    expect(view).toMatch(/Description:\n-+\nFrom the link\./);
    expect(view).toMatch(/Acceptance Criteria:\n-+\n- \[ \] #1 First criterion/);
    expect(view).toMatch(/Definition of Done:\n-+\n- \[ \] #1 Reviewed/);
    expect(view).toMatch(/Implementation Notes:\n-+\nSee the board\./);
    expect(view).toContain('@bob');

    tool('backlog', ['task', 'edit', '4', '-s', 'In Progress', '--check-ac', '1'], repo);
    tool('backlog', ['task', 'create', 'From backlog', '-d', 'Made by the backlog CLI', '--priority', 'low'], repo);
    const now = (await cairn.call('get_task', { id: made.id })).task;
    expect(now.status).toBe('in_progress');
    expect(now.checklist.map((i) => [i.text, i.checked])).toEqual([
      ['First criterion', true],
      ['DoD: Reviewed', false],
    ]);
    const after = (await cairn.call('list_tasks', { project: 'SITE', limit: 50 })).tasks;
    expect(after.find((t) => t.title === 'From backlog')).toMatchObject({ priority: 'low', status: 'to_do' });
    expect((await cairn.call('get_task', { id: 'task-4' })).task.title).toBe('Written by Cairn');
  }, 120_000);
});
