// Claims that exclude (docs/coordination.md): while one actor's lease runs, nobody else writes the
// task, comments and dependency edges aside; a takeover is explicit and recorded; a holder whose
// lease another claim replaced is fenced out (LEASE_LOST); lease ends are announced once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { announceLapsedLeases } from '../../src/core/services/lease-expiry.js';
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

const create = async (title: string, extra: Record<string, unknown> = {}) => (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;

describe('a live claim excludes other writers', () => {
  it('refuses every write by another actor with CLAIMED_BY_OTHER, and changes nothing', async () => {
    const t = await create('a', { checklist: ['one'] });
    const blocker = await create('b');
    await c.call('claim_task', { id: t.id, leaseSeconds: 600 });
    const before = (await c.call('get_task', { id: t.id })).task;
    await expectCode(bob.call('update_task', { id: t.id, priority: 'high' } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('update_task', { id: t.id, status: 'review' } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('update_checklist', { id: t.id, ops: [{ op: 'check', index: 0 }] } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('complete_task', { id: t.id } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('archive_task', { id: t.id } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('delete_task', { id: t.id } as never), 'CLAIMED_BY_OTHER');
    await expectCode(bob.call('release_task', { id: t.id } as never), 'CLAIMED_BY_OTHER');
    expect((await c.call('get_task', { id: t.id })).task).toEqual(before);
    // Open to everyone: a comment, and planning around the task.
    await bob.call('add_comment', { id: t.id, body: 'found the cause' } as never);
    await bob.call('add_dependency', { taskId: t.id, blockedBy: blocker.id } as never);
    // The holder writes as before.
    await c.call('update_task', { id: t.id, priority: 'urgent' } as never);
  });

  it('takes over only when asked, records it, and fences out the earlier holder (LEASE_LOST), even after the new lease lapses', async () => {
    const t = await create('a');
    const first = (await c.call('claim_task', { id: t.id, leaseSeconds: 600 })).task;
    expect(first.claim).toMatchObject({ actor: 'alice', generation: 1 });
    await expectCode(bob.call('claim_task', { id: t.id } as never), 'ALREADY_CLAIMED');
    const taken = (await bob.call('claim_task', { id: t.id, takeover: true, leaseSeconds: 60 } as never)).task;
    expect(taken.claim).toMatchObject({ actor: 'bob', generation: 2 });
    const events = (await c.call('task_history', { id: t.id })).events;
    expect(events.at(-1)).toMatchObject({ type: 'task.claimed', actor: 'bob', changes: { takenOver: { before: { holder: 'alice' }, after: 'bob' } } });
    await expectCode(c.call('update_task', { id: t.id, priority: 'high' } as never), 'LEASE_LOST');
    clock.advance(120_000);
    await expectCode(c.call('update_task', { id: t.id, priority: 'high' } as never), 'LEASE_LOST');
    // Claiming again lets the earlier holder back in.
    expect((await c.call('claim_task', { id: t.id } as never)).task.claim).toMatchObject({ actor: 'alice', generation: 3 });
    await c.call('update_task', { id: t.id, priority: 'high' } as never);
    // A forced release of another's live claim is recorded as one; a release of one's own is not.
    await bob.call('release_task', { id: t.id, force: true } as never);
    const released = (await c.call('task_history', { id: t.id })).events.at(-1)!;
    expect(released).toMatchObject({ type: 'task.released', actor: 'bob', changes: { releasedFrom: { before: { holder: 'alice' }, after: 'bob' } } });
    await c.call('claim_task', { id: t.id } as never);
    await c.call('release_task', { id: t.id } as never);
    expect((await c.call('task_history', { id: t.id })).events.at(-1)!.changes).not.toHaveProperty('releasedFrom');
  });

  it('a holder whose lease lapsed with nobody claiming renews it at the same generation', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    clock.advance(120_000);
    const again = (await c.call('claim_task', { id: t.id, leaseSeconds: 60 })).task;
    expect(again.claim).toMatchObject({ actor: 'alice', generation: 1 });
  });

  it('announces each lease end once as task.claim_expired', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    clock.advance(61_000);
    const ctx = { store: c.store, clock, actor: 'cairn' };
    expect(await announceLapsedLeases(ctx as never)).toBe(1);
    expect(await announceLapsedLeases(ctx as never)).toBe(0);
    const last = (await c.call('task_history', { id: t.id })).events.at(-1)!;
    expect(last).toMatchObject({ type: 'task.claim_expired', actor: 'cairn', changes: { claim: { before: { actor: 'alice', generation: 1 } } } });
  });
});
