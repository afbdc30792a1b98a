/**
 * Property: after random operations, every task's isReady, the stored open-blocker counts and the
 * next_tasks order equal a naive reference computed from a raw dump of the database (DESIGN §2).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { allTasks, integrityCheck, manualClock } from '../helpers/core.js';
import { openRaw, type RawDb } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';
import { RawState, refusedOnlyAsAllowed } from './refusals.js';

const STATUSES = ['backlog', 'todo', 'in_progress', 'blocked', 'review', 'done', 'canceled'] as const;
const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
const ACTORS = ['alice', 'bob'] as const;

type Op =
  | { t: 'create'; status: (typeof STATUSES)[number]; priority: (typeof PRIORITIES)[number]; score: number; blockers: number[] }
  | { t: 'complete' | 'delete' | 'restore' | 'archive' | 'unarchive' | 'release'; i: number; who: 0 | 1 }
  | { t: 'status'; i: number; status: (typeof STATUSES)[number] }
  | { t: 'claim'; i: number; who: 0 | 1; lease: number }
  | { t: 'dep'; i: number; j: number }
  | { t: 'top'; i: number }
  | { t: 'tick'; ms: number }
  | { t: 'purge'; i: number }
  | { t: 'recat'; status: 'backlog' | 'blocked' | 'review'; category: 'backlog' | 'todo' | 'in_progress' | 'blocked' | 'done' | 'canceled' };

const idx = fc.nat({ max: 30 });
const who = fc.constantFrom<0 | 1>(0, 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      status: fc.constantFrom('todo', 'todo', 'todo', 'backlog', 'in_progress', 'done'),
      priority: fc.constantFrom(...PRIORITIES),
      score: fc.integer({ min: -2, max: 2 }),
      blockers: fc.oneof(fc.constant<number[]>([]), fc.constant<number[]>([]), fc.array(idx, { maxLength: 2 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('complete' as const), i: idx, who }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), i: idx, status: fc.constantFrom('todo', ...STATUSES) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constantFrom('delete' as const, 'restore' as const, 'archive' as const, 'unarchive' as const, 'release' as const), i: idx, who }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('claim' as const), i: idx, who, lease: fc.constantFrom(10, 60, 600) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('dep' as const), i: idx, j: idx }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('top' as const), i: idx }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.constantFrom(0, 5_000, 30_000, 120_000) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('purge' as const), i: idx }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('recat' as const),
      status: fc.constantFrom('backlog' as const, 'blocked' as const, 'review' as const),
      category: fc.constantFrom('backlog' as const, 'todo' as const, 'in_progress' as const, 'blocked' as const, 'done' as const, 'canceled' as const),
    }),
  },
);

/** Binary string order, as SQLite compares TEXT. */
const bin = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface RawTask {
  uid: string;
  seq: number;
  category: string;
  priority: number;
  score: number;
  position: number;
  created_at: string;
  claimed_by: string | null;
  claim_expires_at: string | null;
  archived_at: string | null;
  deleted_at: string | null;
  open_blockers: number;
  rel_open_blocked_by: string;
}

/** DESIGN §2 readiness, written out naively from raw rows (not from open_blockers). */
async function reference(file: string, now: string, actor: string, includeBacklog: boolean) {
  const db = await openRaw(file, { readonly: true });
  try {
    const tasks = await db.all<RawTask>('SELECT * FROM tasks');
    const deps = await db.all<{ task_uid: string; blocker_uid: string }>('SELECT task_uid, blocker_uid FROM dependencies');
    const byUid = new Map(tasks.map((t) => [t.uid, t]));
    const open = (t: RawTask) => t.deleted_at === null && t.category !== 'done' && t.category !== 'canceled';
    const openBlockers = new Map(tasks.map((t) => [t.uid, deps.filter((d) => d.task_uid === t.uid && open(byUid.get(d.blocker_uid)!)).length]));
    const ready = (t: RawTask) => {
      const live = t.claimed_by !== null && t.claim_expires_at !== null && t.claim_expires_at > now;
      const abandoned = t.claimed_by !== null && t.claim_expires_at !== null && !live && t.category === 'in_progress';
      const cat = t.category === 'todo' || (includeBacklog && t.category === 'backlog') || abandoned;
      return cat && !t.archived_at && !t.deleted_at && openBlockers.get(t.uid) === 0 && (!live || t.claimed_by === actor);
    };
    const queue = tasks
      .filter(ready)
      .sort((a, b) => b.priority - a.priority || b.score - a.score || a.position - b.position || bin(a.created_at, b.created_at) || bin(a.uid, b.uid))
      .map((t) => `API-${t.seq}`);
    const readyIds = new Set(tasks.filter(ready).map((t) => `API-${t.seq}`));
    // The stored ids (rel_open_blocked_by) name exactly the open blockers the count counts.
    const openIds = (t: RawTask) =>
      deps
        .filter((d) => d.task_uid === t.uid && open(byUid.get(d.blocker_uid)!))
        .map((d) => `API-${byUid.get(d.blocker_uid)!.seq}`)
        .sort();
    const storedCountsOk = tasks.every((t) => t.open_blockers === openBlockers.get(t.uid) && JSON.stringify((JSON.parse(t.rel_open_blocked_by) as string[]).sort()) === JSON.stringify(openIds(t)));
    return { queue, readyIds, storedCountsOk };
  } finally {
    await db.close();
  }
}

describe('property: readiness and the ready order equal a naive reference', () => {
  // The timeout bounds a hang, not a speed: the runs take seconds, ten times longer on a loaded two-core machine.
  it('after random creates, completes, status changes, deletes, claims, archives and clock ticks', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 40 }), async (ops) => {
        const clock = manualClock('2026-06-01T00:00:00.000Z');
        const c = tempCairn({ clock, actor: 'alice' });
        const bob = openCairn({ db: c.ws.db, clock, actor: 'bob' });
        const as = (w: 0 | 1) => (w === 0 ? c : bob);
        let n = 0;
        const id = (i: number) => `API-${(i % Math.max(n, 1)) + 1}`;
        let raw: RawDb | undefined;
        try {
          await c.call('create_project', { key: 'API', name: 'API' });
          raw = await openRaw(c.ws.db, { readonly: true });
          for (const op of ops) {
            clock.advance(1);
            // Refusals (deleted or purged tasks, claims held by the other actor, cycles, finished,
            // archived or blocked tasks that cannot be claimed…) are part of the game, but only those
            // the state before the operation explains.
            const before = await RawState.read(raw, clock.now().toISOString());
            const allowed = ((): string[] => {
              switch (op.t) {
                case 'create':
                  return n ? before.missingOrDeleted(...op.blockers.map(id)) : [];
                case 'complete':
                  return [...before.missingOrDeleted(id(op.i)), ...before.claimRefusals(id(op.i), ACTORS[op.who])];
                case 'status':
                case 'top':
                case 'archive':
                case 'unarchive':
                  return [...before.missingOrDeleted(id(op.i)), ...before.claimRefusals(id(op.i), 'alice')];
                case 'delete':
                case 'restore':
                case 'purge':
                  return [...before.missingOrDeleted(id(op.i)).filter((code) => code === 'TASK_NOT_FOUND'), ...before.claimRefusals(id(op.i), 'alice')];
                case 'release':
                  return [...before.missingOrDeleted(id(op.i)), ...(before.unclaimed(id(op.i)) ? ['NOT_CLAIMED'] : []), ...before.claimRefusals(id(op.i), ACTORS[op.who])];
                case 'claim':
                  return [
                    ...before.missingOrDeleted(id(op.i)),
                    ...(before.claimedByOther(id(op.i), ACTORS[op.who]) ? ['ALREADY_CLAIMED'] : []),
                    ...(before.unclaimable(id(op.i)) ? ['VALIDATION_ERROR'] : []),
                    ...(before.hasOpenBlocker(id(op.i)) ? ['BLOCKED'] : []),
                  ];
                case 'dep':
                  return [...before.missingOrDeleted(id(op.i), id(op.j)), ...(id(op.i) === id(op.j) ? ['SELF_DEPENDENCY'] : []), ...(before.depCycle(id(op.i), id(op.j)) ? ['CYCLE_DETECTED'] : [])];
                case 'tick':
                case 'recat':
                  return [];
              }
            })();
            const attempt = async () => {
              switch (op.t) {
                case 'create':
                  await c.call('create_task', { project: 'API', title: `t${n}`, status: op.status, priority: op.priority, score: op.score, blockedBy: n ? [...new Set(op.blockers.map(id))] : [] });
                  n++;
                  return;
                case 'complete':
                  return as(op.who).call('complete_task', { id: id(op.i) });
                case 'status':
                  return c.call('update_task', { id: id(op.i), status: op.status });
                case 'delete':
                  return c.call('delete_task', { id: id(op.i) });
                case 'restore':
                  return c.call('restore_task', { id: id(op.i) });
                case 'archive':
                  return c.call('archive_task', { id: id(op.i) });
                case 'unarchive':
                  return c.call('archive_task', { id: id(op.i), restore: true });
                case 'release':
                  return as(op.who).call('release_task', { id: id(op.i) });
                case 'claim':
                  return as(op.who).call('claim_task', { id: id(op.i), leaseSeconds: op.lease });
                case 'dep':
                  return c.call('add_dependency', { taskId: id(op.i), blockedBy: id(op.j) });
                case 'top':
                  return c.call('update_task', { id: id(op.i), position: 0 });
                case 'tick':
                  clock.advance(op.ms);
                  return;
                case 'purge':
                  await c.call('delete_task', { id: id(op.i) });
                  return c.call('purge_task', { id: id(op.i), confirm: true });
                case 'recat':
                  return c.call('update_project', { key: 'API', statuses: [{ op: 'recategorize', name: op.status, category: op.category }] });
              }
            };
            await refusedOnlyAsAllowed(JSON.stringify(op), allowed, attempt);
          }
          const now = clock.now().toISOString();
          for (const [who, cairn] of [
            ['alice', c],
            ['bob', bob],
          ] as const) {
            const ref = await reference(c.ws.db, now, who, false);
            expect(ref.storedCountsOk).toBe(true);
            const tasks = await allTasks(cairn);
            expect(new Set(tasks.filter((t) => t.isReady).map((t) => t.id))).toEqual(ref.readyIds);
            expect((await cairn.call('next_tasks', { limit: 100 })).tasks.map((t) => t.id)).toEqual(ref.queue);
            expect((await cairn.call('list_tasks', { ready: true, limit: 200 })).tasks.map((t) => t.id)).toEqual(ref.queue);
            const withBacklog = await reference(c.ws.db, now, who, true);
            expect((await cairn.call('next_tasks', { limit: 100, includeBacklog: true })).tasks.map((t) => t.id)).toEqual(withBacklog.queue);
          }
          expect(await integrityCheck(c.ws.db)).toBe('ok');
        } finally {
          await raw?.close();
          await bob.close();
          await c.done();
        }
      }),
      { numRuns: 30 },
    );
  });
});
