import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeEach(() => {
  c = tempCairn();
});
afterEach(async () => c.done());

describe('projects', () => {
  it('creates with the default template: seven lanes with their categories, in order', async () => {
    const { project } = await c.call('create_project', { key: 'API', name: 'API service', description: 'd', root: '/repo/api', aliases: ['api-svc', 'api-svc'] });
    expect(project).toMatchObject({ key: 'API', name: 'API service', description: 'd', root: '/repo/api', aliases: ['api-svc'], archived: false, taskCount: 0 });
    expect(project.statuses.map((s) => [s.name, s.category, s.position])).toEqual([
      ['backlog', 'backlog', 0],
      ['todo', 'todo', 1],
      ['in_progress', 'in_progress', 2],
      ['blocked', 'blocked', 3],
      ['review', 'in_progress', 4],
      ['done', 'done', 5],
      ['canceled', 'canceled', 6],
    ]);
    expect(project.statuses.every((s) => /^#[0-9a-f]{6}$/i.test(s.color) && s.displayName.length > 0)).toBe(true);
  });

  it('creates DevPlanner lanes 01-upcoming … 04-archive; tasks start in 01-upcoming and complete into 03-complete', async () => {
    const { project } = await c.call('create_project', { key: 'DP', name: 'Dev', template: 'devplanner' });
    expect(project.statuses.map((s) => s.name)).toEqual(['01-upcoming', '02-in-progress', '03-complete', '04-archive']);
    expect(project.statuses.map((s) => s.category)).toEqual(['todo', 'in_progress', 'done', 'canceled']);
    const { task } = await c.call('create_task', { project: 'DP', title: 'x' });
    expect(task.status).toBe('01-upcoming');
    const claimed = await c.call('claim_task', { id: task.id });
    expect(claimed.task.status).toBe('02-in-progress');
    const done = await c.call('complete_task', { id: task.id });
    expect(done.task.status).toBe('03-complete');
  });

  it('enforces key rules: 2–10 letters, upper-cased, unique', async () => {
    for (const key of ['A', 'ABCDEFGHIJK', 'A1', 'AB-C', '', 'ÄB']) await expectCode(c.call('create_project', { key, name: 'x' }), 'VALIDATION_ERROR');
    const { project } = await c.call('create_project', { key: 'web', name: 'Web' });
    expect(project.key).toBe('WEB');
    const e = await expectCode(c.call('create_project', { key: 'WEB', name: 'again' }), 'PROJECT_EXISTS');
    expect(e.message).toContain('WEB');
    expect((await c.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['WEB']);
  });

  it('lists, gets by key in any case or by alias, and suggests close keys when missing', async () => {
    await c.call('create_project', { key: 'API', name: 'A', aliases: ['@acme/api'] });
    await c.call('create_project', { key: 'WEB', name: 'W' });
    expect((await c.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['API', 'WEB']);
    expect((await c.call('get_project', { key: 'api' })).project.key).toBe('API');
    expect((await c.call('get_project', { key: '@acme/api' })).project.key).toBe('API');
    const e = await expectCode(c.call('get_project', { key: 'APO' }), 'PROJECT_NOT_FOUND');
    expect(e.message).toContain('API');
    expect(e.suggestions.join(' ')).toContain('API');
  });

  it('updates name, description, root and aliases, recording one event', async () => {
    await c.call('create_project', { key: 'API', name: 'A', root: '/r' });
    const { project } = await c.call('update_project', { key: 'API', name: 'B', description: 'new', root: null, aliases: ['x'] });
    expect(project).toMatchObject({ name: 'B', description: 'new', root: null, aliases: ['x'] });
    expect((await c.call('get_project', { key: 'x' })).project.name).toBe('B');
    const { events } = await c.call('changes_since', { since: 0 });
    expect(events.map((e) => e.type)).toEqual(['project.created', 'project.updated']);
    expect(events[1]!.changes.name).toEqual({ before: 'A', after: 'B' });
  });

  it('status add / move / recolor with positions and colours kept', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    const { project } = await c.call('update_project', {
      key: 'API',
      statuses: [
        { op: 'add', name: 'qa', category: 'in_progress', displayName: 'QA', color: '#123456', position: 5 },
        { op: 'move', name: 'blocked', position: 0 },
        { op: 'recolor', name: 'todo', color: '#abcdef' },
      ],
    });
    expect(project.statuses.map((s) => s.name)).toEqual(['blocked', 'backlog', 'todo', 'in_progress', 'review', 'qa', 'done', 'canceled']);
    expect(project.statuses.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(project.statuses.find((s) => s.name === 'todo')!.color).toBe('#abcdef');
    expect(project.statuses.find((s) => s.name === 'qa')).toMatchObject({ displayName: 'QA', color: '#123456', category: 'in_progress' });
  });

  it('renaming a status carries its tasks along, and filters by the new name find them', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    const { task } = await c.call('create_task', { project: 'API', title: 't', status: 'review' });
    await c.call('update_project', { key: 'API', statuses: [{ op: 'rename', name: 'review', to: 'in_review', displayName: 'In review' }] });
    expect((await c.call('get_task', { id: task.id })).task.status).toBe('in_review');
    const listed = await c.call('list_tasks', { project: 'API', status: 'in_review' });
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    await expectCode(c.call('list_tasks', { project: 'API', status: 'review' }), 'INVALID_STATUS');
  });

  it('recategorizing a status changes its tasks’ category, readiness and what they block', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    const blocker = (await c.call('create_task', { project: 'API', title: 'blocker', status: 'review' })).task;
    const waiting = (await c.call('create_task', { project: 'API', title: 'waits', blockedBy: [blocker.id] })).task;
    expect(waiting.isReady).toBe(false);
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'review', category: 'done' }] });
    const done = (await c.call('get_task', { id: blocker.id })).task;
    expect(done.statusCategory).toBe('done');
    // Entering done this way counts as completing, as a move into a done status does.
    expect(done.completedAt).not.toBeNull();
    expect((await c.call('get_task', { id: waiting.id })).task.isReady).toBe(true);
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'review', category: 'in_progress' }] });
    expect((await c.call('get_task', { id: blocker.id })).task.completedAt).toBeNull();
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'review', category: 'done' }] });
    const again = (await c.call('get_task', { id: blocker.id })).task.completedAt;
    expect(again).not.toBeNull();
    // Already done: recategorizing to done once more keeps the completion time.
    await c.call('update_project', {
      key: 'API',
      statuses: [
        { op: 'recategorize', name: 'review', category: 'done' },
        { op: 'recolor', name: 'review', color: '#000000' },
      ],
    });
    expect((await c.call('get_task', { id: blocker.id })).task.completedAt).toBe(again);
    // backlog recategorized as todo: its tasks join the ready queue
    const b = (await c.call('create_task', { project: 'API', title: 'in backlog', status: 'backlog' })).task;
    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id)).not.toContain(b.id);
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'backlog', category: 'todo' }] });
    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id)).toContain(b.id);
  });

  it('recategorize then rename in one batch still updates the tasks’ category', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    const t = (await c.call('create_task', { project: 'API', title: 't', status: 'review' })).task;
    await c.call('update_project', {
      key: 'API',
      statuses: [
        { op: 'recategorize', name: 'review', category: 'todo' },
        { op: 'rename', name: 'review', to: 'ready_for_qa' },
      ],
    });
    const got = (await c.call('get_task', { id: t.id })).task;
    expect(got.status).toBe('ready_for_qa');
    expect(got.statusCategory).toBe('todo');
    expect(got.isReady).toBe(true);
  });

  it('removing a status in use is refused (STATUS_IN_USE) and nothing changes; an empty one can go', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    await c.call('create_task', { project: 'API', title: 't', status: 'blocked' });
    const before = (await c.call('get_project', { key: 'API' })).project;
    const e = await expectCode(
      c.call('update_project', {
        key: 'API',
        name: 'renamed',
        statuses: [
          { op: 'recolor', name: 'todo', color: '#000000' },
          { op: 'remove', name: 'blocked' },
        ],
      }),
      'STATUS_IN_USE',
    );
    expect(e.message).toContain('blocked');
    expect((await c.call('get_project', { key: 'API' })).project).toEqual(before);
    const { project } = await c.call('update_project', { key: 'API', statuses: [{ op: 'remove', name: 'review' }] });
    expect(project.statuses.map((s) => s.name)).not.toContain('review');
  });

  it('refuses a workflow without a todo or done status, duplicate names and unknown statuses', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'remove', name: 'todo' }] }), 'VALIDATION_ERROR');
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'done', category: 'todo' }] }), 'VALIDATION_ERROR');
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'add', name: 'todo', category: 'todo' }] }), 'VALIDATION_ERROR');
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'rename', name: 'todo', to: 'done' }] }), 'VALIDATION_ERROR');
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'recolor', name: 'nope', color: '#000000' }] }), 'INVALID_STATUS');
    await expectCode(c.call('update_project', { key: 'API', statuses: [{ op: 'add', name: 'Bad Name', category: 'todo' }] }), 'VALIDATION_ERROR');
    expect((await c.call('get_project', { key: 'API' })).project.statuses).toHaveLength(7);
  });

  it('archives and restores; archived projects leave default lists but their tasks are kept', async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    await c.call('create_task', { project: 'API', title: 't' });
    const { project } = await c.call('archive_project', { key: 'API' });
    expect(project.archived).toBe(true);
    expect((await c.call('list_projects', {})).projects).toEqual([]);
    expect((await c.call('list_projects', { includeArchived: true })).projects.map((p) => p.key)).toEqual(['API']);
    expect((await c.call('get_task', { id: 'API-1' })).task.title).toBe('t');
    expect((await c.call('archive_project', { key: 'API', restore: true })).project.archived).toBe(false);
    expect((await c.call('list_projects', {})).projects[0]!.taskCount).toBe(1);
  });

  it("counts each project's tasks in every lane, done and canceled too, but not archived or deleted ones", async () => {
    await c.call('create_project', { key: 'API', name: 'A' });
    await c.call('create_project', { key: 'WEB', name: 'W' });
    for (let i = 1; i <= 8; i++) await c.call('create_task', { project: 'API', title: `t${i}` });
    await c.call('create_task', { project: 'WEB', title: 'w1' });
    await c.call('update_task', { id: 'API-2', status: 'in_progress' });
    await c.call('complete_task', { id: 'API-3' });
    await c.call('update_task', { id: 'API-4', status: 'canceled' });
    await c.call('complete_task', { id: 'API-5' });
    await c.call('archive_task', { id: 'API-5' }); // done, then archived
    await c.call('archive_task', { id: 'API-6' }); // open, archived
    await c.call('delete_task', { id: 'API-7' });
    await c.call('complete_task', { id: 'WEB-1' });
    const counts = Object.fromEntries((await c.call('list_projects', {})).projects.map((p) => [p.key, p.taskCount]));
    // API-1, 2 (in progress), 3 (done), 4 (canceled), 8; WEB-1 (done).
    expect(counts).toEqual({ API: 5, WEB: 1 });
    expect((await c.call('get_project', { key: 'API' })).project.taskCount).toBe(5);
  });
});
