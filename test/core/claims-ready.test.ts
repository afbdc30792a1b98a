import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { expectCode, manualClock, snapshot } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let bob: Cairn;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-04-01T12:00:00.000Z');
  c = tempCairn({ clock, actor: 'alice' });
  bob = openCairn({ db: c.ws.db, clock, actor: 'bob' });
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterEach(async () => {
  await bob.close();
  await c.done();
});

const create = async (title: string, extra: Record<string, unknown> = {}) => {
  clock.advance(1);
  return (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;
};
const queue = async (who: Cairn = c, args: Record<string, unknown> = {}) => (await who.call('next_tasks', args as never)).tasks.map((t) => t.id);

describe('claims', () => {
  it('claim moves todo to the first in_progress lane, sets assignee and a lease', async () => {
    const t = await create('a');
    const { task } = await c.call('claim_task', { id: t.id, leaseSeconds: 600 });
    expect(task).toMatchObject({ status: 'in_progress', assignee: 'alice', claim: { actor: 'alice', expiresAt: '2026-04-01T12:10:00.001Z' } });
    expect((await c.call('task_history', { id: t.id })).events.at(-1)!.type).toBe('task.claimed');
    expect(await queue(bob)).toEqual([]);
  });

  it('the same actor claiming again renews the lease (a heartbeat)', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    clock.advance(50_000);
    const { task } = await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    expect(task.claim!.expiresAt).toBe('2026-04-01T12:01:50.001Z');
    expect(task.status).toBe('in_progress');
    expect((await c.call('task_history', { id: t.id })).events.at(-1)!.type).toBe('task.claim_renewed');
  });

  it('another actor gets ALREADY_CLAIMED naming holder and expiry, and nothing changes', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    const before = await snapshot(c);
    const e = await expectCode(bob.call('claim_task', { id: t.id }), 'ALREADY_CLAIMED');
    expect(e.message).toContain('alice');
    expect(e.message).toContain('2026-04-01T12:01:00.001Z');
    expect(e.details).toEqual({ holder: 'alice', expiresAt: '2026-04-01T12:01:00.001Z', generation: 1 });
    // Releasing another's live claim is a write the claim excludes (docs/coordination.md).
    await expectCode(bob.call('release_task', { id: t.id }), 'CLAIMED_BY_OTHER');
    expect(await snapshot(c)).toEqual(before);
  });

  it('an expired lease can be taken by anyone, and the abandoned task is back in next_tasks', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    expect(await queue(bob)).toEqual([]);
    clock.advance(60_000);
    expect(await queue(bob)).toEqual([t.id]);
    expect((await bob.call('get_task', { id: t.id })).task).toMatchObject({ isReady: true, claim: null, status: 'in_progress' });
    const { task } = await bob.call('claim_task', { id: t.id, leaseSeconds: 60 });
    expect(task).toMatchObject({ assignee: 'bob', claim: { actor: 'bob' } });
    expect(await queue(c)).toEqual([]);
    await expectCode(c.call('claim_task', { id: t.id }), 'ALREADY_CLAIMED');
  });

  it('release returns an in-progress task to the first todo lane and clears the assignee it set', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id });
    const { task } = await c.call('release_task', { id: t.id });
    expect(task).toMatchObject({ status: 'todo', claim: null, assignee: null, isReady: true });
    await expectCode(c.call('release_task', { id: t.id }), 'NOT_CLAIMED');
    await c.call('claim_task', { id: t.id });
    expect((await bob.call('release_task', { id: t.id, force: true, toStatus: 'backlog' })).task).toMatchObject({ status: 'backlog', claim: null });
    await c.call('claim_task', { id: t.id });
    const e = await expectCode(c.call('release_task', { id: t.id, toStatus: 'nope' }), 'INVALID_STATUS');
    expect(e.suggestions.join(' ')).toContain('todo');
    expect((await c.call('release_task', { id: t.id, toStatus: 'TODO' })).task.status).toBe('todo');
  });

  it('finished or deleted tasks cannot be claimed', async () => {
    const a = await create('a');
    await c.call('complete_task', { id: a.id });
    await expectCode(c.call('claim_task', { id: a.id }), 'VALIDATION_ERROR');
    const b = await create('b');
    await c.call('delete_task', { id: b.id });
    await expectCode(c.call('claim_task', { id: b.id }), 'TASK_DELETED');
  });

  it('own claim: the claimer still sees the task as ready for them if it stays todo', async () => {
    await c.call('update_project', {
      key: 'API',
      statuses: [
        { op: 'recategorize', name: 'in_progress', category: 'blocked' },
        { op: 'recategorize', name: 'review', category: 'blocked' },
      ],
    });
    const t = await create('a');
    const { task } = await c.call('claim_task', { id: t.id });
    expect(task.status).toBe('todo');
    expect(await queue(c)).toEqual([t.id]);
    expect(await queue(bob)).toEqual([]);
  });
});

describe('next_tasks (ready queue)', () => {
  it('orders by priority, then score, then lane position, then age', async () => {
    const low = await create('low', { priority: 'low' });
    const oldNone = await create('old none');
    const youngNone = await create('young none');
    const urgent = await create('urgent', { priority: 'urgent' });
    const highScore1 = await create('high s1', { priority: 'high', score: 1 });
    const highScore5 = await create('high s5', { priority: 'high', score: 5 });
    const highScore1b = await create('high s1 b', { priority: 'high', score: 1 });
    await c.call('update_task', { id: highScore1b.id, position: 0 });
    expect(await queue(c, { limit: 100 })).toEqual([urgent.id, highScore5.id, highScore1b.id, highScore1.id, low.id, oldNone.id, youngNone.id]);
    const same = [];
    for (let i = 0; i < 5; i++) same.push((await c.call('create_task', { project: 'API', title: `same ms ${i}`, priority: 'urgent' })).task.id);
    await c.call('update_task', { id: urgent.id, priority: 'none' });
    expect(await queue(c, { limit: 5 })).toEqual(same);
  });

  it('excludes blocked, backlog (unless asked), in progress, done, archived, deleted and claimed-by-others tasks', async () => {
    const ready = await create('ready');
    const blocker = await create('blocker', { status: 'in_progress' });
    await create('blocked', { blockedBy: [blocker.id] });
    const backlog = await create('backlog', { status: 'backlog' });
    await create('done', { status: 'done' });
    await c.call('archive_task', { id: (await create('archived')).id });
    await c.call('delete_task', { id: (await create('deleted')).id });
    const claimed = await create('claimed by bob');
    await bob.call('claim_task', { id: claimed.id });
    await create('lane blocked', { status: 'blocked' });
    expect(await queue(c)).toEqual([ready.id]);
    expect((await queue(c, { includeBacklog: true })).sort()).toEqual([ready.id, backlog.id].sort());
  });

  it('filters by project, assignee, kind and labels, and honours limit', async () => {
    await c.call('create_project', { key: 'WEB', name: 'Web' });
    const a = await create('a', { kind: 'bug', labels: ['x'], assignee: 'carol' });
    const b = await create('b', { labels: ['y'] });
    const w = (await c.call('create_task', { project: 'WEB', title: 'w', kind: 'bug' })).task;
    expect(await queue(c, { project: 'WEB' })).toEqual([w.id]);
    expect((await queue(c, { kind: 'bug' })).sort()).toEqual([a.id, w.id].sort());
    expect(await queue(c, { labels: ['y', 'z'] })).toEqual([b.id]);
    expect(await queue(c, { assignee: 'carol' })).toEqual([a.id]);
    expect(await queue(c, { assignee: 'none', project: 'API' })).toEqual([b.id]);
    expect(await queue(c, { limit: 1 })).toHaveLength(1);
  });

  it('an empty queue explains what blocks it', async () => {
    const blocker = await create('blocker', { status: 'in_progress' });
    await create('w1', { blockedBy: [blocker.id] });
    await create('w2', { blockedBy: [blocker.id] });
    const r = await c.call('next_tasks', {});
    expect(r.tasks).toEqual([]);
    expect(r.blocked).toEqual({ count: 2, topBlockers: [blocker.id] });
  });
});
