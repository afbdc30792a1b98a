/** The activity log: append in the writing transaction, read by task, project or sequence. */
import { sql, type Kysely } from 'kysely';
import type { ActivityEvent } from '../../core/model/activity.js';
import type { EventQuery, NewEvent } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { prepared } from './prepared.js';

type Q = Kysely<DB>;

const insertEvent = prepared((db, p) =>
  db
    .insertInto('events')
    .values({ at: p(0), actor: p(1), project_uid: p(2), task_uid: p(3), type: p(4), changes: p(5), via: p(6) })
    .returning('seq'),
);

export async function appendEvent(db: Q, e: NewEvent): Promise<number> {
  const [r] = await insertEvent.all(db, [e.at, e.actor, e.projectUid, e.taskUid, e.type, JSON.stringify(e.changes), e.via ?? null]);
  return Number(r!.seq);
}

export async function events(db: Q, q: EventQuery): Promise<ActivityEvent[]> {
  let s = db
    .selectFrom('events as e')
    .leftJoin('projects as p', 'p.uid', 'e.project_uid')
    .leftJoin('tasks as t', 't.uid', 'e.task_uid')
    .leftJoin('projects as tp', 'tp.uid', 't.project_uid')
    .select(['e.seq', 'e.at', 'e.actor', 'e.type', 'e.changes', 'e.via', 'p.key as project_key', 'tp.key as task_key', 't.seq as task_seq'])
    .orderBy('e.seq', q.desc ? 'desc' : 'asc')
    .limit(q.limit);
  if (q.afterSeq !== undefined) s = s.where('e.seq', '>', q.afterSeq);
  if (q.taskUid) s = s.where('e.task_uid', '=', q.taskUid);
  if (q.projectUid) s = s.where('e.project_uid', '=', q.projectUid);
  if (q.projectUids) s = q.projectUids.length ? s.where('e.project_uid', 'in', q.projectUids) : s.where(sql<boolean>`false`);
  const rows = await s.execute();
  return rows.map((r) => ({
    seq: r.seq,
    at: r.at,
    actor: r.actor,
    project: r.project_key,
    taskId: r.task_key && r.task_seq !== null ? `${r.task_key}-${r.task_seq}` : null,
    type: r.type,
    changes: JSON.parse(r.changes),
    ...(r.via ? { via: r.via } : {}),
  }));
}

const heads = prepared((db, p) => db.selectFrom('events').select(['seq', 'type']).where('seq', '>', p(0)).orderBy('seq').limit(p(1)));

export async function eventHeads(db: Q, afterSeq: number, limit: number): Promise<Array<{ seq: number; type: string }>> {
  return heads.all(db, [afterSeq, limit]);
}

const lastSeqQuery = prepared((db) => db.selectFrom('events').select((eb) => eb.fn.max('seq').as('m')));

/**
 * The activity log's last seq (0 when empty): the one query for it. The change feed starts there,
 * SSE answers it as `ready`, and CountCache (task-list.ts) names a workspace state by it.
 */
export async function lastSeq(db: Q): Promise<number> {
  const [r] = await lastSeqQuery.all(db, []);
  return Number((r as { m: number | null } | undefined)?.m ?? 0);
}
