import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode, manualClock, snapshot } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-03-01T10:00:00.000Z');
  c = tempCairn({ clock });
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterEach(async () => c.done());

const create = async (title: string, extra: Record<string, unknown> = {}) => (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;
const get = async (id: string) => (await c.call('get_task', { id })).task;

describe('complete_task', () => {
  it('moves to the first done lane, sets completedAt, releases the claim, records reason and comment', async () => {
    await c.call('update_project', { key: 'API', statuses: [{ op: 'add', name: 'shipped', category: 'done', position: 0 }] });
    const t = await create('a');
    await c.call('claim_task', { id: t.id });
    clock.advance(60_000);
    const { task } = await c.call('complete_task', { id: t.id, closeReason: 'fixed', comment: 'did it' });
    expect(task).toMatchObject({ status: 'shipped', statusCategory: 'done', completedAt: '2026-03-01T10:01:00.000Z', claim: null, closeReason: 'fixed', isReady: false });
    expect(task.comments).toMatchObject([{ kind: 'implementation', body: 'did it', author: 'tester' }]);
    expect((await c.call('task_history', { id: t.id })).events.at(-1)!.type).toBe('task.completed');
  });

  it('nowReady is exactly the tasks this completion unblocked', async () => {
    const a = await create('a');
    const b = await create('b');
    const onlyA = await create('only a', { blockedBy: [a.id] });
    const aAndB = await create('a and b', { blockedBy: [a.id, b.id] });
    const backlog = await create('backlog waiting on a', { blockedBy: [a.id], status: 'backlog' });
    const archived = await create('archived waiting on a', { blockedBy: [a.id] });
    await c.call('archive_task', { id: archived.id });
    const r1 = await c.call('complete_task', { id: a.id });
    expect(r1.nowReady).toEqual([onlyA.id]);
    expect((await get(backlog.id)).blockedBy).toEqual([a.id]);
    const r2 = await c.call('complete_task', { id: b.id });
    expect(r2.nowReady).toEqual([aAndB.id]);
    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id).sort()).toEqual([onlyA.id, aAndB.id].sort());
  });

  it('completing twice is harmless: same completedAt, no second event', async () => {
    const t = await create('a');
    const first = await c.call('complete_task', { id: t.id });
    clock.advance(1000);
    const again = await c.call('complete_task', { id: t.id });
    expect(again.task.completedAt).toBe(first.task.completedAt);
    expect(again.task.version).toBe(first.task.version);
    expect(again.nowReady).toEqual([]);
  });

  it('reopening a done blocker blocks its dependents again', async () => {
    const a = await create('a');
    const b = await create('b', { blockedBy: [a.id] });
    await c.call('complete_task', { id: a.id });
    expect((await get(b.id)).isReady).toBe(true);
    await c.call('update_task', { id: a.id, status: 'todo' });
    expect((await get(b.id)).isReady).toBe(false);
    await c.call('update_task', { id: a.id, status: 'canceled' });
    expect((await get(b.id)).isReady).toBe(true);
  });
});

describe('archive_task', () => {
  it('hides from lists and the ready queue; restore brings it back', async () => {
    const t = await create('a');
    const { task } = await c.call('archive_task', { id: t.id });
    expect(task.archivedAt).toBe('2026-03-01T10:00:00.000Z');
    expect(task.isReady).toBe(false);
    expect((await c.call('list_tasks', {})).tasks).toEqual([]);
    expect((await c.call('next_tasks', {})).tasks).toEqual([]);
    expect((await c.call('archive_task', { id: t.id, restore: true })).task.archivedAt).toBeNull();
    expect((await c.call('next_tasks', {})).tasks.map((x) => x.id)).toEqual([t.id]);
  });
});

describe('delete / restore / purge (policy in lifecycle.ts)', () => {
  it('a deleted blocker stops blocking and leaves blockedBy; its edges are kept, so restore blocks again', async () => {
    const blocker = await create('blocker');
    const waiting = await create('waiting', { blockedBy: [blocker.id] });
    expect((await get(waiting.id)).isReady).toBe(false);
    const { task } = await c.call('delete_task', { id: blocker.id });
    expect(task.deletedAt).toBe('2026-03-01T10:00:00.000Z');
    expect((await get(waiting.id)).isReady).toBe(true);
    // It leaves blockedBy too, so what the task lists agrees with its readiness.
    expect((await get(waiting.id)).blockedBy).toEqual([]);
    expect((await c.call('list_tasks', {})).tasks.map((t) => t.id)).toEqual([waiting.id]);
    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id)).toEqual([waiting.id]);
    await c.call('restore_task', { id: blocker.id });
    expect((await get(waiting.id)).isReady).toBe(false);
    expect((await get(waiting.id)).blockedBy).toEqual([blocker.id]);
    expect((await get(blocker.id)).blocks).toEqual([waiting.id]);
  });

  it('children stay attached to a deleted parent and reappear on restore; a deleted child leaves the roll-up', async () => {
    const epic = await create('epic', { kind: 'epic' });
    const k1 = await create('k1', { parentId: epic.id });
    const k2 = await create('k2', { parentId: epic.id });
    await c.call('complete_task', { id: k1.id });
    expect((await get(epic.id)).childProgress).toEqual({ done: 1, total: 2 });
    await c.call('delete_task', { id: k2.id });
    expect(await get(epic.id)).toMatchObject({ children: [k1.id], childProgress: { done: 1, total: 1 } });
    await c.call('restore_task', { id: k2.id });
    await c.call('delete_task', { id: epic.id });
    expect((await get(k1.id)).parentId).toBe(epic.id);
    await c.call('restore_task', { id: epic.id });
    expect((await get(epic.id)).children).toEqual([k1.id, k2.id]);
  });

  it('a deleted task can still be read and is shown as deleted; delete and restore are idempotent', async () => {
    const t = await create('a');
    await c.call('delete_task', { id: t.id });
    const again = await c.call('delete_task', { id: t.id });
    expect(again.task.deletedAt).not.toBeNull();
    expect((await get(t.id)).deletedAt).not.toBeNull();
    await c.call('restore_task', { id: t.id });
    const r = await c.call('restore_task', { id: t.id });
    expect(r.task.deletedAt).toBeNull();
    const types = (await c.call('task_history', { id: t.id })).events.map((e) => e.type);
    expect(types).toEqual(['task.created', 'task.deleted', 'task.restored']);
  });

  it('deleting a claimed task drops the claim', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id });
    await c.call('delete_task', { id: t.id });
    expect((await c.call('restore_task', { id: t.id })).task.claim).toBeNull();
  });

  it('purge needs a prior delete and confirm: true; it erases the task, its edges and detaches children', async () => {
    const blocker = await create('blocker');
    const t = await create('doomed', { blockedBy: [blocker.id], labels: ['x'], checklist: ['c'] });
    const dependent = await create('dependent', { blockedBy: [t.id] });
    const child = await create('child', { parentId: t.id });
    await c.call('add_comment', { id: t.id, body: 'note' });
    const before = await snapshot(c);
    const e = await expectCode(c.call('purge_task', { id: t.id, confirm: true }), 'VALIDATION_ERROR');
    expect(e.message).toMatch(/not deleted/);
    await expectCode(c.call('purge_task', { id: t.id } as never), 'VALIDATION_ERROR');
    await expectCode(c.call('purge_task', { id: t.id, confirm: false } as never), 'VALIDATION_ERROR');
    expect(await snapshot(c)).toEqual(before);
    await c.call('delete_task', { id: t.id });
    await expectCode(c.call('purge_task', { id: t.id } as never), 'VALIDATION_ERROR');
    expect(await c.call('purge_task', { id: t.id, confirm: true })).toEqual({ purged: t.id });
    await expectCode(c.call('get_task', { id: t.id }), 'TASK_NOT_FOUND');
    await expectCode(c.call('get_task', { id: t.uid }), 'TASK_NOT_FOUND');
    expect(await get(blocker.id)).toMatchObject({ blocks: [] });
    expect(await get(dependent.id)).toMatchObject({ blockedBy: [], isReady: true });
    expect((await get(child.id)).parentId).toBeNull();
    expect((await c.call('list_labels', {})).labels).toEqual([]);
    expect((await c.call('search_tasks', { query: 'doomed' })).results).toEqual([]);
    const { events } = await c.call('changes_since', { since: 0, limit: 1000 });
    expect(events.at(-1)).toMatchObject({ type: 'task.purged', changes: { id: { before: t.id, after: null } } });
  });
});
