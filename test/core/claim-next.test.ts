/** Claims that mean "I can work on this": BLOCKED unless forced (and history says so), renewal by the holder, claim_next, completedAt on recategorising. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { expectCode, manualClock } from '../helpers/core.js';
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

describe('claim_task and blockers', () => {
  it('refuses a task with open blockers with BLOCKED naming them, and changes nothing', async () => {
    const a = await create('blocker a');
    const b = await create('blocker b');
    const t = await create('blocked', { blockedBy: [a.id, b.id] });
    await c.call('complete_task', { id: b.id });
    const err = await expectCode(c.call('claim_task', { id: t.id }), 'BLOCKED');
    expect(err.message).toContain(a.id);
    expect(err.message).not.toContain(`${b.id},`);
    expect(err.details).toMatchObject({ blockedBy: [a.id] });
    expect(err.suggestions.join(' ')).toContain('force: true');
    const after = (await c.call('get_task', { id: t.id })).task;
    expect(after).toMatchObject({ status: 'todo', claim: null, version: t.version });
  });

  it('force: true claims it anyway, and history records the blockers it went past', async () => {
    const a = await create('blocker');
    const t = await create('blocked', { blockedBy: [a.id] });
    const { task } = await c.call('claim_task', { id: t.id, force: true });
    expect(task).toMatchObject({ status: 'in_progress', claim: { actor: 'alice' } });
    const last = (await c.call('task_history', { id: t.id })).events.at(-1)!;
    expect(last).toMatchObject({ type: 'task.claimed', actor: 'alice', changes: { forcedPastBlockers: { before: null, after: [a.id] } } });
  });

  it('the holder renews by claiming again (the new expiry is in every view), even if a blocker was added meanwhile', async () => {
    const t = await create('work');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    const blocker = await create('late blocker');
    await c.call('add_dependency', { taskId: t.id, blockedBy: blocker.id });
    clock.advance(30_000);
    const { task } = await c.call('claim_task', { id: t.id, leaseSeconds: 600 });
    // Full views carry the claim's generation (a renewal keeps it).
    expect(task.claim).toEqual({ actor: 'alice', expiresAt: '2026-04-01T12:10:30.002Z', generation: 1 });
    expect((await c.call('task_history', { id: t.id })).events.at(-1)!.type).toBe('task.claim_renewed');
    const listed = (await c.call('list_tasks', { project: 'API' })).tasks.find((x) => x.id === t.id)!;
    expect(listed.claim).toEqual({ actor: 'alice', expiresAt: task.claim!.expiresAt });
    // Someone else is refused while the lease lives, blocked or not.
    await expectCode(bob.call('claim_task', { id: t.id, force: true }), 'ALREADY_CLAIMED');
  });
});

describe('claim_next', () => {
  it('claims the first ready task in ready order, passing over blocked, claimed, backlog and done work; null when none is left', async () => {
    const low = await create('low', { priority: 'low' });
    const high = await create('high', { priority: 'high' });
    const blocker = await create('blocker', { status: 'backlog' });
    await create('blocked urgent', { priority: 'urgent', blockedBy: [blocker.id] });
    const taken = await create('taken', { priority: 'urgent' });
    await bob.call('claim_task', { id: taken.id });
    await create('finished', { priority: 'urgent', status: 'done' });

    const first = await c.call('claim_next', { project: 'API' });
    expect(first.task).toMatchObject({ id: high.id, status: 'in_progress', claim: { actor: 'alice' } });
    const second = await c.call('claim_next', { project: 'API', leaseSeconds: 120 });
    expect(second.task).toMatchObject({ id: low.id, claim: { actor: 'alice', expiresAt: '2026-04-01T12:02:00.006Z' } });
    expect((await c.call('claim_next', { project: 'API' })).task).toBeNull();
    expect((await bob.call('claim_next', {})).task).toBeNull();
  });

  it('narrows by label, assignee and kind; an expired lease makes a task claimable again', async () => {
    await create('plain', { priority: 'urgent' });
    const ui = await create('ui', { labels: ['ui'] });
    const mine = await create('for bob', { assignee: 'bob' });
    const bug = await create('a bug', { kind: 'bug' });
    expect((await c.call('claim_next', { labels: ['ui'] })).task?.id).toBe(ui.id);
    expect((await bob.call('claim_next', { assignee: 'bob' })).task?.id).toBe(mine.id);
    expect((await c.call('claim_next', { kind: 'bug', leaseSeconds: 10 })).task?.id).toBe(bug.id);
    clock.advance(11_000);
    const again = await bob.call('claim_next', { kind: 'bug' });
    expect(again.task).toMatchObject({ id: bug.id, claim: { actor: 'bob' } });
  });

  it('refuses unknown projects and bad filters like any op', async () => {
    await expectCode(c.call('claim_next', { project: 'NOPE' }), 'PROJECT_NOT_FOUND');
    await expectCode(c.call('claim_next', { leaseSeconds: 1 } as never), 'VALIDATION_ERROR');
  });
});

describe('recategorising a status', () => {
  it('to done stamps completedAt on its tasks (keeping an existing one); away from done clears it', async () => {
    const t = await create('in review', { status: 'review' });
    const d = await create('already done', { status: 'done' });
    const doneAt = (await c.call('get_task', { id: d.id })).task.completedAt;
    expect(doneAt).toBeTruthy();
    clock.advance(60_000);
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'review', category: 'done' }] });
    const reviewed = (await c.call('get_task', { id: t.id })).task;
    expect(reviewed).toMatchObject({ statusCategory: 'done', completedAt: '2026-04-01T12:01:00.002Z' });
    await c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: 'review', category: 'in_progress' }] });
    expect((await c.call('get_task', { id: t.id })).task).toMatchObject({ statusCategory: 'in_progress', completedAt: null });
    expect((await c.call('get_task', { id: d.id })).task.completedAt).toBe(doneAt);
  });
});
