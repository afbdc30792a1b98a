import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode, manualClock, snapshot } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-01-01T00:00:00.000Z');
  c = tempCairn({ clock });
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_project', { key: 'WEB', name: 'Web' });
});
afterEach(async () => c.done());

const create = async (title: string, extra: Record<string, unknown> = {}) => (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;

describe('create_task', () => {
  it('stores every DESIGN §2 field and returns the full task', async () => {
    const parent = await create('Epic', { kind: 'epic' });
    const blocker = await create('Blocker');
    clock.advance(1000);
    const t = await create('  Add login  ', {
      description: '# Login\nwith **markdown**',
      status: 'backlog',
      kind: 'feature',
      priority: 'high',
      score: 7.5,
      labels: ['auth', 'ui', 'auth', ' spaced '],
      assignee: 'agent:claude-1',
      parentId: parent.id,
      blockedBy: [blocker.id],
      checklist: ['design', 'build'],
      anchors: ['src/login.ts'],
      links: { branch: 'feat/login', prUrl: 'https://x/pr/1', prNumber: 1, prState: 'open', issue: 'GH-5', worktree: '/wt' },
      origin: 'WEB',
      documentPath: 'docs/login.md',
    });
    expect(t).toMatchObject({
      id: 'API-3',
      project: 'API',
      title: 'Add login',
      description: '# Login\nwith **markdown**',
      status: 'backlog',
      statusCategory: 'backlog',
      kind: 'feature',
      priority: 'high',
      score: 7.5,
      labels: ['auth', 'spaced', 'ui'],
      assignee: 'agent:claude-1',
      claim: null,
      parentId: 'API-1',
      blockedBy: ['API-2'],
      blocks: [],
      children: [],
      isReady: false,
      version: 1,
      checklist: [
        { index: 0, text: 'design', checked: false },
        { index: 1, text: 'build', checked: false },
      ],
      checklistProgress: { done: 0, total: 2 },
      comments: [],
      anchors: ['src/login.ts'],
      links: { branch: 'feat/login', prUrl: 'https://x/pr/1', prNumber: 1, prState: 'open', issue: 'GH-5', worktree: '/wt' },
      origin: 'WEB',
      documentPath: 'docs/login.md',
      closeReason: null,
      completedAt: null,
      archivedAt: null,
      deletedAt: null,
      createdAt: '2026-01-01T00:00:01.000Z',
      updatedAt: '2026-01-01T00:00:01.000Z',
      childProgress: null,
    });
    expect(t.uid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await c.call('get_task', { id: t.id })).task).toEqual(t);
    const p = (await c.call('get_task', { id: parent.id })).task;
    expect(p.children).toEqual(['API-3']);
    expect(p.childProgress).toEqual({ done: 0, total: 1 });
    expect((await c.call('get_task', { id: blocker.id })).task.blocks).toEqual(['API-3']);
  });

  it('defaults: first todo lane, kind task, priority none, appended to the bottom of the lane', async () => {
    const a = await create('a');
    const b = await create('b');
    expect(a).toMatchObject({ status: 'todo', kind: 'task', priority: 'none', score: 0, labels: [], assignee: null, isReady: true });
    expect(b.position).toBeGreaterThan(a.position);
  });

  it('allocates KEY-N per project, never reusing a number, not even after purge', async () => {
    expect((await create('1')).id).toBe('API-1');
    expect((await c.call('create_task', { project: 'WEB', title: 'w' })).task.id).toBe('WEB-1');
    const second = await create('2');
    expect(second.id).toBe('API-2');
    await c.call('delete_task', { id: 'API-2' });
    await c.call('purge_task', { id: 'API-2', confirm: true });
    expect((await create('3')).id).toBe('API-3');
    await expectCode(c.call('get_task', { id: 'API-2' }), 'TASK_NOT_FOUND');
  });

  it('accepts the ULID and any-case display ids everywhere', async () => {
    const a = await create('a');
    const b = await create('b');
    expect((await c.call('get_task', { id: a.uid })).task.id).toBe(a.id);
    expect((await c.call('get_task', { id: a.uid.toLowerCase() })).task.id).toBe(a.id);
    expect((await c.call('get_task', { id: 'api-1' })).task.id).toBe(a.id);
    await c.call('add_dependency', { taskId: b.uid, blockedBy: a.uid });
    await c.call('update_task', { id: b.uid, title: 'b2' });
    await c.call('update_checklist', { id: b.uid, ops: [{ op: 'add', text: 'x' }] });
    await c.call('add_comment', { id: b.uid, body: 'hi' });
    expect((await c.call('task_history', { id: b.uid })).taskId).toBe('API-2');
    expect((await c.call('list_tasks', { parentId: a.uid })).tasks).toEqual([]);
    const done = await c.call('complete_task', { id: a.uid });
    expect(done.nowReady).toEqual(['API-2']);
    expect((await c.call('claim_task', { id: b.uid })).task.claim?.actor).toBe('tester');
    await c.call('release_task', { id: b.uid });
    await c.call('archive_task', { id: b.uid });
    await c.call('delete_task', { id: b.uid });
    await c.call('restore_task', { id: b.uid });
    const got = (await c.call('get_task', { id: b.uid })).task;
    expect(got).toMatchObject({ id: 'API-2', title: 'b2', blockedBy: ['API-1'], checklistProgress: { done: 0, total: 1 } });
  });

  it('creation with a bad blocker or parent writes nothing and burns no number', async () => {
    await create('a');
    const before = await snapshot(c);
    await expectCode(c.call('create_task', { project: 'API', title: 'x', blockedBy: ['API-1', 'API-99'] }), 'TASK_NOT_FOUND');
    await expectCode(c.call('create_task', { project: 'API', title: 'x', parentId: 'API-77' }), 'TASK_NOT_FOUND');
    await expectCode(c.call('create_task', { project: 'API', title: 'x', status: 'nope' }), 'INVALID_STATUS');
    expect(await snapshot(c)).toEqual(before);
    expect((await create('b')).id).toBe('API-2');
  });
});

describe('update_task', () => {
  it('changes only the given fields, bumps version and updatedAt, records before/after', async () => {
    const t = await create('a', { description: 'one', labels: ['x'], priority: 'low', links: { branch: 'b1' } });
    clock.advance(5000);
    const { task } = await c.call('update_task', { id: t.id, priority: 'urgent', appendDescription: 'two', addLabels: ['y'], links: { prNumber: 3 } });
    expect(task).toMatchObject({
      title: 'a',
      description: 'one\n\ntwo',
      priority: 'urgent',
      labels: ['x', 'y'],
      links: { branch: 'b1', prNumber: 3 },
      version: 2,
      updatedAt: '2026-01-01T00:00:05.000Z',
      createdAt: t.createdAt,
    });
    const { task: t3 } = await c.call('update_task', { id: t.id, removeLabels: ['x'], assignee: 'bob', score: -2, kind: 'bug', closeReason: 'n/a', documentPath: 'd.md', anchors: ['a.ts'] });
    expect(t3).toMatchObject({ labels: ['y'], assignee: 'bob', score: -2, kind: 'bug', closeReason: 'n/a', documentPath: 'd.md', anchors: ['a.ts'], version: 3 });
    const { task: replaced } = await c.call('update_task', { id: t.id, description: '', appendDescription: 'fresh' });
    expect(replaced.description).toBe('fresh');
    const { task: t4 } = await c.call('update_task', { id: t.id, assignee: null, labels: [] });
    expect(t4).toMatchObject({ assignee: null, labels: [], version: 5 });
    const h = (await c.call('task_history', { id: t.id })).events;
    expect(h.map((e) => e.type)).toEqual(['task.created', 'task.updated', 'task.updated', 'task.updated', 'task.updated']);
    expect(h[1]!.changes.priority).toEqual({ before: 'low', after: 'urgent' });
    expect(h[1]!.changes.labels).toEqual({ before: ['x'], after: ['x', 'y'] });
  });

  it('a no-op update changes nothing: same version, no event', async () => {
    const t = await create('a', { priority: 'low' });
    const { task } = await c.call('update_task', { id: t.id, priority: 'low', title: 'a' });
    expect(task.version).toBe(1);
    expect((await c.call('task_history', { id: t.id })).events).toHaveLength(1);
  });

  it('a stale expectedVersion fails with VERSION_CONFLICT and changes nothing; the current one succeeds', async () => {
    const t = await create('a');
    await c.call('update_task', { id: t.id, title: 'b' });
    const before = await snapshot(c);
    const e = await expectCode(c.call('update_task', { id: t.id, title: 'c', expectedVersion: 1 }), 'VERSION_CONFLICT');
    expect(e.message).toMatch(/version 2/);
    expect(e.details).toMatchObject({ current: 2, expected: 1 });
    await expectCode(c.call('complete_task', { id: t.id, expectedVersion: 1 }), 'VERSION_CONFLICT');
    await expectCode(c.call('update_checklist', { id: t.id, ops: [{ op: 'add', text: 'x' }], expectedVersion: 1 }), 'VERSION_CONFLICT');
    expect(await snapshot(c)).toEqual(before);
    expect((await c.call('update_task', { id: t.id, title: 'c', expectedVersion: 2 })).task).toMatchObject({ title: 'c', version: 3 });
  });

  it('moves to a status and a position within the lane; the order persists across reads', async () => {
    const [a, b, d] = [await create('a'), await create('b'), await create('d')];
    const lane = async (status: string) => (await c.call('list_tasks', { project: 'API', status, sort: 'position', includeDone: true })).tasks.map((t) => t.id);
    expect(await lane('todo')).toEqual([a.id, b.id, d.id]);
    await c.call('update_task', { id: d.id, position: 0 });
    expect(await lane('todo')).toEqual([d.id, a.id, b.id]);
    await c.call('update_task', { id: d.id, position: 1 });
    expect(await lane('todo')).toEqual([a.id, d.id, b.id]);
    await c.call('update_task', { id: a.id, position: 99 });
    expect(await lane('todo')).toEqual([d.id, b.id, a.id]);
    const { task: moved } = await c.call('update_task', { id: b.id, status: 'review', position: 0 });
    expect(moved).toMatchObject({ status: 'review', statusCategory: 'in_progress' });
    await c.call('update_task', { id: a.id, status: 'review', position: 0 });
    expect(await lane('review')).toEqual([a.id, b.id]);
    expect(await lane('todo')).toEqual([d.id]);
    expect((await c.call('task_history', { id: b.id })).events.at(-1)!.type).toBe('task.moved');
  });

  it('many moves to the top keep a strict, stable order (midpoints renumber when they run out)', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await create(`t${i}`)).id);
    const expected = [...ids];
    for (let i = 0; i < 60; i++) {
      const id = expected[i % 2 === 0 ? expected.length - 1 : 2]!;
      await c.call('update_task', { id, position: 0 });
      expected.splice(expected.indexOf(id), 1);
      expected.unshift(id);
    }
    const { tasks } = await c.call('list_tasks', { project: 'API', status: 'todo', sort: 'position' });
    expect(tasks.map((t) => t.id)).toEqual(expected);
    expect(new Set(tasks.map((t) => t.position)).size).toBe(4);
  });

  it('inserting again and again between the same two neighbours exhausts midpoints and renumbers without losing order', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await create(`t${i}`)).id);
    const expected = [...ids];
    for (let i = 0; i < 70; i++) {
      const id = expected[expected.length - 1 - (i % 2)]!; // one of the last two
      await c.call('update_task', { id, position: 1 });
      expected.splice(expected.indexOf(id), 1);
      expected.splice(1, 0, id);
    }
    const { tasks } = await c.call('list_tasks', { project: 'API', status: 'todo', sort: 'position' });
    expect(tasks.map((t) => t.id)).toEqual(expected);
    expect(new Set(tasks.map((t) => t.position)).size).toBe(5);
  });

  it('status to a done lane sets completedAt; leaving it clears completedAt', async () => {
    const t = await create('a');
    const { task } = await c.call('update_task', { id: t.id, status: 'done' });
    expect(task.completedAt).toBe('2026-01-01T00:00:00.000Z');
    const { task: back } = await c.call('update_task', { id: t.id, status: 'todo' });
    expect(back.completedAt).toBeNull();
  });

  it('parentId sets, changes and detaches the parent; children and epic roll-up follow', async () => {
    const epic = await create('epic', { kind: 'epic' });
    const other = await create('other');
    const kid = await create('kid');
    await c.call('update_task', { id: kid.id, parentId: epic.id });
    expect((await c.call('get_task', { id: epic.id })).task.children).toEqual([kid.id]);
    await c.call('update_task', { id: kid.id, parentId: other.id });
    expect((await c.call('get_task', { id: epic.id })).task).toMatchObject({ children: [], childProgress: null });
    expect((await c.call('get_task', { id: kid.id })).task.parentId).toBe(other.id);
    await c.call('update_task', { id: kid.id, parentId: null });
    expect((await c.call('get_task', { id: kid.id })).task.parentId).toBeNull();
  });

  it('a deleted task cannot be updated (TASK_DELETED) until restored', async () => {
    const t = await create('a');
    await c.call('delete_task', { id: t.id });
    const e = await expectCode(c.call('update_task', { id: t.id, title: 'b' }), 'TASK_DELETED');
    expect(e.suggestions.join(' ')).toContain('restore_task');
    await c.call('restore_task', { id: t.id });
    expect((await c.call('update_task', { id: t.id, title: 'b' })).task.title).toBe('b');
  });
});
