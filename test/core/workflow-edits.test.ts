/**
 * Workflow edits move tasks through the task write path (issue 19 item 4): version + 1, updatedAt,
 * one event per task, readiness kept; in bounded transactions; workflow first, so a retry completes
 * an interrupted edit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from '../../src/core/context.js';
import type { Store } from '../../src/core/ports.js';
import { updateProject } from '../../src/core/services/projects.js';
import { moveTasksToWorkflow, planStatusOps } from '../../src/core/services/workflow-edits.js';
import { allTasks, expectCode, manualClock } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();
beforeEach(async () => {
  c = tempCairn({ clock });
  await c.call('create_project', { key: 'WF', name: 'Workflow' });
});
afterEach(async () => c.done());

/** The store, counting write transactions and failing the `failAt`-th one (1-based) when set. */
function countingStore(store: Store, failAt?: number): Store & { writes: number } {
  const counted = Object.create(store) as Store & { writes: number };
  counted.writes = 0;
  counted.write = <T>(fn: Parameters<Store['write']>[0]) => {
    counted.writes++;
    if (counted.writes === failAt) return Promise.reject(new Error('crash between batches'));
    return store.write(fn) as Promise<T>;
  };
  counted.read = (fn) => store.read(fn);
  counted.changeToken = () => store.changeToken();
  return counted;
}

const ctxOver = (store: Store): Context => ({ store, clock, actor: 'tester' });

describe('workflow edits and the tasks they move', () => {
  it('a rename bumps each task version and updatedAt, records one event per task, and refuses a stale expectedVersion', async () => {
    const { task } = await c.call('create_task', { project: 'WF', title: 'a', status: 'review' });
    await c.call('create_task', { project: 'WF', title: 'b', status: 'review' });
    const since = (await c.call('changes_since', { since: 0 })).lastSeq;
    clock.advance(60_000);
    await c.call('update_project', { key: 'WF', statuses: [{ op: 'rename', name: 'review', to: 'in_review' }] });
    const after = await allTasks(c);
    expect(after.map((t) => [t.status, t.version, t.updatedAt])).toEqual([
      ['in_review', task.version + 1, clock.now().toISOString()],
      ['in_review', task.version + 1, clock.now().toISOString()],
    ]);
    const { events } = await c.call('changes_since', { since });
    expect(events.map((e) => [e.type, e.taskId])).toEqual([
      ['project.updated', null],
      ['task.moved', after[0]!.id],
      ['task.moved', after[1]!.id],
    ]);
    await expectCode(c.call('update_task', { id: task.id, title: 'stale', expectedVersion: task.version }), 'VERSION_CONFLICT');
  });

  it('recategorizing to done completes its tasks (completedAt) and frees their dependents, each task through the write path', async () => {
    const { task: blocker } = await c.call('create_task', { project: 'WF', title: 'blocker', status: 'review' });
    const { task: waiting } = await c.call('create_task', { project: 'WF', title: 'waiting', blockedBy: [blocker.id] });
    expect((await c.call('next_tasks', { project: 'WF' })).tasks.map((t) => t.id)).toEqual([]);
    clock.advance(1000);
    await c.call('update_project', { key: 'WF', statuses: [{ op: 'recategorize', name: 'review', category: 'done' }] });
    const { task } = await c.call('get_task', { id: blocker.id });
    expect(task).toMatchObject({ statusCategory: 'done', version: blocker.version + 1, completedAt: clock.now().toISOString() });
    expect((await c.call('next_tasks', { project: 'WF' })).tasks.map((t) => t.id)).toEqual([waiting.id]);
    const { events } = await c.call('task_history', { id: blocker.id });
    expect(events.at(-1)).toMatchObject({ type: 'task.updated', changes: { category: { before: 'in_progress', after: 'done' } } });
  });

  it('moves tasks in transactions of at most the batch size, the workflow first', async () => {
    for (let i = 0; i < 20; i++) await c.call('create_task', { project: 'WF', title: `t${i}`, status: 'blocked' });
    const store = countingStore(c.store);
    const p = (await c.store.read((tx) => tx.getProjectByKey('WF')))!;
    const plan = await c.store.read((tx) => planStatusOps(tx, p, [{ op: 'recategorize', name: 'blocked', category: 'todo' }]));
    await c.store.write((tx) => tx.replaceStatuses(p.uid, plan.statuses));
    expect(await moveTasksToWorkflow(ctxOver(store), p.uid, plan.moves, 7)).toBe(20);
    expect(store.writes).toBe(3);
    expect((await allTasks(c)).every((t) => t.statusCategory === 'todo' && t.version === 2)).toBe(true);
  });

  it('an edit interrupted between batches leaves the workflow changed; issuing it again moves the rest', async () => {
    for (let i = 0; i < 1100; i++) await c.call('create_task', { project: 'WF', title: `t${i}`, status: 'review' });
    // Write 1 commits the workflow, write 2 the first 500 tasks; write 3 fails.
    const flaky = countingStore(c.store, 3);
    const edit = [
      { op: 'rename' as const, name: 'review', to: 'checking' },
      { op: 'recategorize' as const, name: 'checking', category: 'blocked' as const },
    ];
    await expect(updateProject(ctxOver(flaky), { key: 'WF', statuses: edit })).rejects.toThrow('crash between batches');
    const statuses = (await c.call('get_project', { key: 'WF' })).project.statuses;
    expect(statuses.find((s) => s.name === 'checking')?.category).toBe('blocked');
    expect(statuses.some((s) => s.name === 'review')).toBe(false);
    const half = await allTasks(c);
    expect(half.filter((t) => t.status === 'checking')).toHaveLength(500);
    await c.call('update_project', { key: 'WF', statuses: edit });
    const all = await allTasks(c);
    expect(all.filter((t) => t.status === 'checking' && t.statusCategory === 'blocked' && t.version === 2)).toHaveLength(1100);
    // Once nothing carries the old name, renaming it is an unknown status again.
    await expectCode(c.call('update_project', { key: 'WF', statuses: [{ op: 'rename', name: 'review', to: 'checking' }] }), 'INVALID_STATUS');
  });
});
