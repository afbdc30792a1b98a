/** Leases whose end is still to announce (claim_lapsed = 0; the partial index tasks_lease_due holds only those). */
import type { Kysely } from 'kysely';
import type { DueLease, LiveReservation } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { prepared } from './prepared.js';
import { BUMP } from './rows.js';

type Q = Kysely<DB>;

const due = prepared((db, p) =>
  db
    .selectFrom('tasks')
    .select(['uid', 'project_uid', 'claimed_by', 'claim_expires_at', 'claim_generation'])
    .where('claimed_by', 'is not', null)
    .where('claim_lapsed', '=', 0)
    .where('claim_expires_at', '<=', p(0))
    .orderBy('claim_expires_at')
    .limit(p(1)),
);

export async function dueLeases(db: Q, now: string, limit: number): Promise<DueLease[]> {
  const rows = await due.all(db, [now, limit]);
  return rows.map((r) => ({ uid: r.uid, projectUid: r.project_uid, holder: r.claimed_by!, expiresAt: r.claim_expires_at!, generation: r.claim_generation }));
}

// The same holder, end and generation as read: a renewal or a new claim since is not this lease.
const lapse = prepared((db, p) =>
  db
    .updateTable('tasks')
    .set({ claim_lapsed: 1, rev: BUMP })
    .where('uid', '=', p(0))
    .where('claimed_by', '=', p(1))
    .where('claim_expires_at', '=', p(2))
    .where('claim_generation', '=', p(3))
    .where('claim_lapsed', '=', 0),
);

export async function markLeaseLapsed(db: Q, lease: DueLease): Promise<boolean> {
  const r = await lapse.run(db, [lease.uid, lease.holder, lease.expiresAt, lease.generation]);
  return Number(r.numAffectedRows ?? 0n) === 1;
}

const soonest = prepared((db) => db.selectFrom('tasks').select('claim_expires_at').where('claimed_by', 'is not', null).where('claim_lapsed', '=', 0).orderBy('claim_expires_at').limit(1));

export async function nextLeaseEnd(db: Q): Promise<string | null> {
  const [r] = await soonest.all(db, []);
  return r?.claim_expires_at ?? null;
}

const reserving = prepared((db, p) =>
  db
    .selectFrom('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .select(['tasks.uid', 'p.key', 'tasks.seq', 'tasks.claimed_by', 'tasks.claim_expires_at', 'tasks.touches'])
    .where('tasks.claimed_by', 'is not', null)
    .where('tasks.claim_lapsed', '=', 0)
    .where('tasks.claim_expires_at', '>', p(0))
    .where('tasks.touches', '<>', '[]'),
);

/** Live claims are few (one per working agent), and the partial index holds only leases not yet over. */
export async function liveReservations(db: Q, now: string): Promise<LiveReservation[]> {
  const rows = await reserving.all(db, [now]);
  return rows.map((r) => ({ uid: r.uid, id: `${r.key}-${r.seq}`, holder: r.claimed_by!, expiresAt: r.claim_expires_at!, touches: JSON.parse(r.touches) as string[] }));
}
