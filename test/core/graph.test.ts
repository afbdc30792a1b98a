import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode, manualClock, snapshot } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-02-01T00:00:00.000Z');
  c = tempCairn({ clock });
  await c.call('create_project', { key: 'API', name: 'API' });
  for (let i = 1; i <= 8; i++) await c.call('create_task', { project: 'API', title: `task ${i}` });
});
afterEach(async () => c.done());

const get = async (id: string) => (await c.call('get_task', { id })).task;
const dep = (taskId: string, blockedBy: string) => c.call('add_dependency', { taskId, blockedBy });

describe('dependencies', () => {
  it('add and remove edges: blockedBy / blocks / isReady follow, with events', async () => {
    const { task } = await dep('API-2', 'API-1');
    expect(task).toMatchObject({ blockedBy: ['API-1'], isReady: false, version: 2 });
    expect((await get('API-1')).blocks).toEqual(['API-2']);
    const again = await dep('API-2', 'API-1');
    expect(again.task.version).toBe(2);
    await dep('API-2', 'API-3');
    expect((await get('API-2')).blockedBy).toEqual(['API-1', 'API-3']);
    const removed = await c.call('remove_dependency', { taskId: 'API-2', blockedBy: 'API-1' });
    expect(removed.task.blockedBy).toEqual(['API-3']);
    await c.call('remove_dependency', { taskId: 'API-2', blockedBy: 'API-3' });
    expect((await get('API-2')).isReady).toBe(true);
    const types = (await c.call('task_history', { id: 'API-2' })).events.map((e) => e.type);
    expect(types).toEqual(['task.created', 'dependency.added', 'dependency.added', 'dependency.removed', 'dependency.removed']);
    await expectCode(c.call('remove_dependency', { taskId: 'API-2', blockedBy: 'API-3' }), 'VALIDATION_ERROR');
  });

  it('refuses a cycle with CYCLE_DETECTED naming the path, and changes nothing', async () => {
    await dep('API-3', 'API-7');
    const before = await snapshot(c);
    const e = await expectCode(dep('API-7', 'API-3'), 'CYCLE_DETECTED');
    expect(e.message).toContain('API-7 → API-3 → API-7');
    expect(e.details).toEqual({ cycle: ['API-7', 'API-3', 'API-7'] });
    expect(await snapshot(c)).toEqual(before);
  });

  it('names the whole path of a longer cycle', async () => {
    await dep('API-1', 'API-2');
    await dep('API-2', 'API-3');
    await dep('API-3', 'API-4');
    await dep('API-2', 'API-5');
    const e = await expectCode(dep('API-4', 'API-1'), 'CYCLE_DETECTED');
    expect(e.message).toContain('API-4 → API-1 → API-2 → API-3 → API-4');
    // a diamond is not a cycle
    await dep('API-1', 'API-5');
    expect((await get('API-1')).blockedBy).toEqual(['API-2', 'API-5']);
  });

  it('refuses a cycle created through blockedBy on an existing task (create_task cannot close loops either)', async () => {
    await dep('API-1', 'API-2');
    await expectCode(dep('API-2', 'API-1'), 'CYCLE_DETECTED');
    const created = await c.call('create_task', { project: 'API', title: 'new', blockedBy: ['API-1', 'API-2', 'api-2'] });
    expect(created.task.blockedBy.sort()).toEqual(['API-1', 'API-2']);
    const ev = (await c.call('task_history', { id: created.task.id })).events[0]!;
    expect(ev.changes.blockedBy).toEqual({ before: null, after: ['API-1', 'API-2'] });
  });

  it('refuses self-dependency', async () => {
    const e = await expectCode(dep('API-1', 'api-1'), 'SELF_DEPENDENCY');
    expect(e.message).toContain('API-1');
    expect((await get('API-1')).version).toBe(1);
  });

  it('refuses edges to or from deleted tasks, but allows across projects', async () => {
    await c.call('delete_task', { id: 'API-8' });
    await expectCode(dep('API-1', 'API-8'), 'TASK_DELETED');
    await expectCode(dep('API-8', 'API-1'), 'TASK_DELETED');
    await c.call('create_project', { key: 'WEB', name: 'Web' });
    await c.call('create_task', { project: 'WEB', title: 'w' });
    expect((await dep('WEB-1', 'API-1')).task.blockedBy).toEqual(['API-1']);
    await expectCode(dep('API-1', 'WEB-1'), 'CYCLE_DETECTED');
  });
});

describe('hierarchy', () => {
  it('is acyclic: self-parent and descendant-as-parent are refused', async () => {
    await c.call('update_task', { id: 'API-2', parentId: 'API-1' });
    await c.call('update_task', { id: 'API-3', parentId: 'API-2' });
    await expectCode(c.call('update_task', { id: 'API-1', parentId: 'API-1' }), 'SELF_DEPENDENCY');
    const e = await expectCode(c.call('update_task', { id: 'API-1', parentId: 'API-3' }), 'CYCLE_DETECTED');
    expect(e.message).toContain('API-1 → API-3 → API-2 → API-1');
    expect((await get('API-1')).parentId).toBeNull();
  });

  it('an epic rolls up its children: done and canceled count as finished', async () => {
    await c.call('update_task', { id: 'API-1', kind: 'epic' });
    for (const k of ['API-2', 'API-3', 'API-4', 'API-5']) await c.call('update_task', { id: k, parentId: 'API-1' });
    expect((await get('API-1')).childProgress).toEqual({ done: 0, total: 4 });
    await c.call('complete_task', { id: 'API-2' });
    await c.call('update_task', { id: 'API-3', status: 'canceled' });
    await c.call('update_task', { id: 'API-4', status: 'review' });
    expect((await get('API-1')).childProgress).toEqual({ done: 2, total: 4 });
    expect((await get('API-1')).children).toEqual(['API-2', 'API-3', 'API-4', 'API-5']);
    expect((await c.call('list_tasks', { parentId: 'API-1', includeDone: true })).total).toBe(4);
  });
});

describe('checklist', () => {
  it('applies a batch in order, with indexes shifting as the previous op left them', async () => {
    const { task } = await c.call('update_checklist', {
      id: 'API-1',
      ops: [
        { op: 'add', text: 'b' },
        { op: 'add', text: 'a', index: 0 },
        { op: 'add', text: 'c' },
        { op: 'check', index: 1 },
        { op: 'toggle', index: 2 },
        { op: 'edit', index: 0, text: 'A' },
        { op: 'remove', index: 1 },
        { op: 'add', text: 'd', index: 1 },
      ],
    });
    expect(task.checklist).toEqual([
      { index: 0, text: 'A', checked: false },
      { index: 1, text: 'd', checked: false },
      { index: 2, text: 'c', checked: true },
    ]);
    expect(task.checklistProgress).toEqual({ done: 1, total: 3 });
    const { task: t2 } = await c.call('update_checklist', {
      id: 'API-1',
      ops: [
        { op: 'uncheck', index: 2 },
        { op: 'check', index: 0 },
      ],
    });
    expect(t2.checklist.map((i) => i.checked)).toEqual([true, false, false]);
    expect((await c.call('list_tasks', { project: 'API' })).tasks.find((t) => t.id === 'API-1')!.checklistProgress).toEqual({ done: 1, total: 3 });
  });

  it('one bad index fails the whole batch with CHECKLIST_INDEX_OUT_OF_RANGE naming it; nothing changes', async () => {
    await c.call('update_checklist', { id: 'API-1', ops: [{ op: 'add', text: 'only' }] });
    const before = await snapshot(c);
    const e = await expectCode(
      c.call('update_checklist', {
        id: 'API-1',
        ops: [
          { op: 'check', index: 0 },
          { op: 'add', text: 'x' },
          { op: 'remove', index: 5 },
        ],
      }),
      'CHECKLIST_INDEX_OUT_OF_RANGE',
    );
    expect(e.message).toContain('index 5');
    expect(e.details).toMatchObject({ opIndex: 2, index: 5, length: 2 });
    await expectCode(c.call('update_checklist', { id: 'API-1', ops: [{ op: 'add', text: 'x', index: 3 }] }), 'CHECKLIST_INDEX_OUT_OF_RANGE');
    await expectCode(c.call('update_checklist', { id: 'API-1', ops: [{ op: 'edit', index: 1, text: 'x' }] }), 'CHECKLIST_INDEX_OUT_OF_RANGE');
    expect(await snapshot(c)).toEqual(before);
  });

  it('a batch that ends where it started writes nothing', async () => {
    await c.call('update_checklist', { id: 'API-1', ops: [{ op: 'add', text: 'x' }] });
    const { task } = await c.call('update_checklist', {
      id: 'API-1',
      ops: [
        { op: 'toggle', index: 0 },
        { op: 'toggle', index: 0 },
      ],
    });
    expect(task.version).toBe(2);
  });
});

describe('comments and labels', () => {
  it('comments keep author, kind, body and order; each bumps the version', async () => {
    const ctx2 = { ...c };
    await c.call('add_comment', { id: 'API-1', body: 'first' });
    await c.call('add_comment', { id: 'API-1', body: 'found **this**', kind: 'research' });
    await c.call('add_comment', { id: 'API-1', body: 'done it', kind: 'implementation' });
    for (let i = 0; i < 10; i++) await ctx2.call('add_comment', { id: 'API-1', body: `n${i}` });
    const t = await get('API-1');
    expect(t.comments.map((x) => [x.body, x.kind, x.author])).toEqual([
      ['first', 'comment', 'tester'],
      ['found **this**', 'research', 'tester'],
      ['done it', 'implementation', 'tester'],
      ...Array.from({ length: 10 }, (_, i) => [`n${i}`, 'comment', 'tester']),
    ]);
    expect(t.comments[0]!.createdAt).toBe('2026-02-01T00:00:00.000Z');
    expect(t.version).toBe(14);
    await expectCode(c.call('add_comment', { id: 'API-1', body: '   ' }), 'VALIDATION_ERROR');
    await expectCode(c.call('add_comment', { id: 'API-1', body: 'x', kind: 'rant' } as never), 'VALIDATION_ERROR');
  });

  it('list_labels counts live tasks per label, most used first, per project or overall', async () => {
    await c.call('update_task', { id: 'API-1', labels: ['ui', 'auth'] });
    await c.call('update_task', { id: 'API-2', labels: ['auth'] });
    await c.call('update_task', { id: 'API-3', labels: ['auth', 'db'] });
    await c.call('create_project', { key: 'WEB', name: 'Web' });
    await c.call('create_task', { project: 'WEB', title: 'w', labels: ['ui', 'css'] });
    expect((await c.call('list_labels', {})).labels).toEqual([
      { label: 'auth', count: 3 },
      { label: 'ui', count: 2 },
      { label: 'css', count: 1 },
      { label: 'db', count: 1 },
    ]);
    expect((await c.call('list_labels', { project: 'WEB' })).labels).toEqual([
      { label: 'css', count: 1 },
      { label: 'ui', count: 1 },
    ]);
    await c.call('delete_task', { id: 'API-3' });
    expect((await c.call('list_labels', { project: 'API' })).labels).toEqual([
      { label: 'auth', count: 2 },
      { label: 'ui', count: 1 },
    ]);
  });
});
