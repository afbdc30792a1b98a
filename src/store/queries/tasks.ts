/** Task row queries: fetch, insert, patch, conditional claim, filtered listing and lane order. */
import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { BoardRow, TaskFilter, TaskPatch, TaskRow, TaskSort } from '../../core/ports.js';
import { priorityFromRank, priorityRank } from '../../core/model/task.js';
import type { Category } from '../../core/model/workflow.js';
import { compareReadyOrder } from '../../core/rules/ready-order.js';
import type { DB } from '../schema.js';
import { toColumns, toTaskRow, type TaskRecord } from './rows.js';

type Q = Kysely<DB>;
type TaskQuery<O> = SelectQueryBuilder<DB & { p: DB['projects'] }, 'tasks' | 'p', O>;

export function base(db: Q) {
  return db
    .selectFrom('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .selectAll('tasks')
    .select('p.key as project_key')
    .select((eb) =>
      eb
        .selectFrom('tasks as pt')
        .innerJoin('projects as pp', 'pp.uid', 'pt.project_uid')
        .select(sql<string>`pp.key || '-' || pt.seq`.as('pid'))
        .whereRef('pt.uid', '=', 'tasks.parent_uid')
        .as('parent_id'),
    );
}

export async function getTask(db: Q, uid: string): Promise<TaskRow | undefined> {
  const r = await base(db).where('tasks.uid', '=', uid).executeTakeFirst();
  return r && toTaskRow(r as TaskRecord);
}

export async function getTaskBySeq(db: Q, projectUid: string, seq: number): Promise<TaskRow | undefined> {
  const r = await base(db).where('tasks.project_uid', '=', projectUid).where('tasks.seq', '=', seq).executeTakeFirst();
  return r && toTaskRow(r as TaskRecord);
}

export async function getTasks(db: Q, uids: string[]): Promise<TaskRow[]> {
  if (uids.length === 0) return [];
  const rows = await base(db).where('tasks.uid', 'in', uids).execute();
  const byUid = new Map(rows.map((r) => [r.uid, toTaskRow(r as TaskRecord)]));
  return uids.map((u) => byUid.get(u)).filter((t): t is TaskRow => t !== undefined);
}

export async function insertTask(db: Q, t: TaskRow): Promise<void> {
  await db
    .insertInto('tasks')
    .values({
      uid: t.uid,
      project_uid: t.projectUid,
      seq: t.seq,
      title: t.title,
      description: t.description,
      status: t.status,
      category: t.category,
      kind: t.kind,
      priority: priorityRank(t.priority),
      score: t.score,
      position: t.position,
      assignee: t.assignee,
      claimed_by: t.claimedBy,
      claim_expires_at: t.claimExpiresAt,
      parent_uid: t.parentUid,
      links: JSON.stringify(t.links),
      anchors: JSON.stringify(t.anchors),
      close_reason: t.closeReason,
      origin: t.origin,
      document_path: t.documentPath,
      version: t.version,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      completed_at: t.completedAt,
      archived_at: t.archivedAt,
      deleted_at: t.deletedAt,
    })
    .execute();
}

export async function updateTask(db: Q, uid: string, patch: TaskPatch): Promise<void> {
  const cols = toColumns(patch);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('tasks').set(cols).where('uid', '=', uid).execute();
}

export async function tryClaim(db: Q, uid: string, actor: string, now: string, expiresAt: string, patch: TaskPatch): Promise<boolean> {
  const r = await db
    .updateTable('tasks')
    .set({ ...toColumns(patch), claimed_by: actor, claim_expires_at: expiresAt })
    .where('uid', '=', uid)
    .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '=', actor), eb('claim_expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function purgeTask(db: Q, uid: string): Promise<void> {
  await db.updateTable('tasks').set({ parent_uid: null }).where('parent_uid', '=', uid).execute();
  await db.deleteFrom('tasks').where('uid', '=', uid).execute();
}

/** Keeps tasks.open_blockers equal to the number of unresolved, undeleted blockers. */
export async function refreshOpenBlockers(db: Q, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  await sql`UPDATE tasks SET open_blockers = (
      SELECT count(*) FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid
      WHERE d.task_uid = tasks.uid AND b.category NOT IN ('done', 'canceled') AND b.deleted_at IS NULL)
    WHERE uid IN (${sql.join(uids)})`.execute(db);
}

export function applyFilter<O>(q: TaskQuery<O>, f: TaskFilter): TaskQuery<O> {
  if (f.projectUids) q = q.where('tasks.project_uid', 'in', f.projectUids.length ? f.projectUids : ['']);
  if (f.statuses?.length) q = q.where('tasks.status', 'in', f.statuses);
  if (f.categories?.length) q = q.where('tasks.category', 'in', f.categories);
  if (f.kinds?.length) q = q.where('tasks.kind', 'in', f.kinds);
  if (f.priorities?.length) q = q.where('tasks.priority', 'in', f.priorities.map(priorityRank));
  if (f.assignee === null) q = q.where('tasks.assignee', 'is', null);
  else if (f.assignee !== undefined) q = q.where('tasks.assignee', '=', f.assignee);
  if (f.parentUid) q = q.where('tasks.parent_uid', '=', f.parentUid);
  if (f.updatedSince) q = q.where('tasks.updated_at', '>=', f.updatedSince);
  if (f.onlyDeleted) q = q.where('tasks.deleted_at', 'is not', null);
  else if (!f.includeDeleted) q = q.where('tasks.deleted_at', 'is', null);
  if (!f.includeArchived) q = q.where('tasks.archived_at', 'is', null);
  if (!f.includeDone && !f.categories?.length && !f.statuses?.length) q = q.where('tasks.category', 'not in', ['done', 'canceled']);
  if (f.labelsAny?.length) {
    const labels = f.labelsAny;
    q = q.where((eb) => eb.exists(eb.selectFrom('task_labels as l').select('l.label').whereRef('l.task_uid', '=', 'tasks.uid').where('l.label', 'in', labels)));
  }
  for (const label of f.labelsAll ?? []) {
    q = q.where((eb) => eb.exists(eb.selectFrom('task_labels as l').select('l.label').whereRef('l.task_uid', '=', 'tasks.uid').where('l.label', '=', label)));
  }
  if (f.ready) {
    const { now, actor, includeBacklog } = f.ready;
    const part = (f as ReadyPart).readyPart;
    q = q.where('tasks.open_blockers', '=', 0).where('tasks.archived_at', 'is', null).where('tasks.deleted_at', 'is', null);
    // "fresh": todo tasks (matches the partial ready indexes); "abandoned": in progress under an expired claim.
    const fresh = (eb: EB) => (includeBacklog ? eb('tasks.category', 'in', ['todo', 'backlog']) : eb('tasks.category', '=', 'todo'));
    const abandoned = (eb: EB) =>
      eb.and([eb('tasks.category', '=', 'in_progress'), eb('tasks.claimed_by', 'is not', null), eb('tasks.claim_expires_at', '<=', now)]);
    if (part === 'fresh') q = q.where(fresh);
    else if (part === 'abandoned') q = q.where(abandoned);
    else q = q.where((eb: EB) => eb.or([fresh(eb), abandoned(eb)]));
    q = q.where((eb: EB) =>
      eb.or([eb('tasks.claimed_by', 'is', null), eb('tasks.claim_expires_at', '<=', now), ...(actor ? [eb('tasks.claimed_by', '=', actor)] : [])]),
    );
  }
  return q;
}

type EB = ExpressionBuilder<DB & { p: DB['projects'] }, 'tasks' | 'p'>;
type ReadyPart = TaskFilter & { readyPart?: 'fresh' | 'abandoned' };

function applySort<O>(q: TaskQuery<O>, sort: TaskSort): TaskQuery<O> {
  switch (sort) {
    case 'created':
      return q.orderBy('tasks.created_at', 'desc').orderBy('tasks.uid', 'desc');
    case 'updated':
      return q.orderBy('tasks.updated_at', 'desc').orderBy('tasks.uid', 'desc');
    case 'position':
      return q.orderBy('tasks.project_uid').orderBy('tasks.status').orderBy('tasks.position').orderBy('tasks.uid');
    case 'id':
      return q.orderBy('tasks.project_uid').orderBy('tasks.seq');
    default: // ready / priority: DESIGN §2 ready order
      return q
        .orderBy('tasks.priority', 'desc')
        .orderBy('tasks.score', 'desc')
        .orderBy('tasks.position')
        .orderBy('tasks.created_at')
        .orderBy('tasks.uid');
  }
}

async function countFiltered(db: Q, f: TaskFilter): Promise<number> {
  const c = await applyFilter(db.selectFrom('tasks').innerJoin('projects as p', 'p.uid', 'tasks.project_uid') as unknown as TaskQuery<object>, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number((c as { n: number }).n);
}

async function page(db: Q, f: TaskFilter, sort: TaskSort, limit: number, offset: number): Promise<TaskRecord[]> {
  return (await applySort(applyFilter(base(db) as TaskQuery<TaskRecord>, f), sort).limit(limit).offset(offset).execute()) as TaskRecord[];
}

export async function listTasks(db: Q, f: TaskFilter, sort: TaskSort, limit: number, offset: number): Promise<{ rows: TaskRow[]; total: number }> {
  let rows: TaskRecord[];
  let counted: number | undefined;
  if (f.ready && (sort === 'priority' || sort === 'ready')) {
    // Two index-friendly queries merged in ready order beat one OR that no index can serve.
    const [fresh, abandoned] = await Promise.all([
      page(db, { ...f, readyPart: 'fresh' } as ReadyPart, sort, offset + limit, 0),
      page(db, { ...f, readyPart: 'abandoned' } as ReadyPart, sort, offset + limit, 0),
    ]);
    const key = (r: TaskRecord) => ({ priorityRank: r.priority, score: r.score, position: r.position, createdAt: r.created_at, uid: r.uid });
    rows = [...fresh, ...abandoned].sort((a, b) => compareReadyOrder(key(a), key(b))).slice(offset, offset + limit);
    if (fresh.length < offset + limit && abandoned.length < offset + limit) counted = fresh.length + abandoned.length;
  } else {
    rows = await page(db, f, sort, limit, offset);
  }
  let total = counted ?? offset + rows.length;
  if (counted === undefined && (rows.length === limit || (offset > 0 && rows.length === 0))) total = await countFiltered(db, f);
  return { rows: rows.map(toTaskRow), total };
}

export async function lanePositions(db: Q, projectUid: string, status: string, excludeUid: string): Promise<number[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('position')
    .where('project_uid', '=', projectUid)
    .where('status', '=', status)
    .where('uid', '!=', excludeUid)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.position);
}

/** Re-spaces a lane's positions to 1, 2, 3… when midpoint insertion has run out of room. */
export async function renumberLane(db: Q, projectUid: string, status: string): Promise<void> {
  const rows = await db.selectFrom('tasks').select('uid').where('project_uid', '=', projectUid).where('status', '=', status).orderBy('position').orderBy('created_at').execute();
  for (const [i, r] of rows.entries()) await db.updateTable('tasks').set({ position: i + 1 }).where('uid', '=', r.uid).execute();
}

export async function maxLanePosition(db: Q, projectUid: string, status: string): Promise<number> {
  const r = await db
    .selectFrom('tasks')
    .select('position')
    .where('project_uid', '=', projectUid)
    .where('status', '=', status)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.position ?? 0;
}

export async function setCategoryForStatus(db: Q, projectUid: string, status: string, category: Category): Promise<void> {
  await db.updateTable('tasks').set({ category }).where('project_uid', '=', projectUid).where('status', '=', status).execute();
}

export async function countTasksInStatus(db: Q, projectUid: string, status: string): Promise<number> {
  const r = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_uid', '=', projectUid)
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function recentTaskTitles(db: Q, projectUid: string | null, limit: number): Promise<Array<{ id: string; title: string }>> {
  let q = db
    .selectFrom('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .select(['p.key', 'tasks.seq', 'tasks.title'])
    .where('tasks.deleted_at', 'is', null)
    .orderBy('tasks.updated_at', 'desc')
    .limit(limit);
  if (projectUid) q = q.where('tasks.project_uid', '=', projectUid);
  return (await q.execute()).map((r) => ({ id: `${r.key}-${r.seq}`, title: r.title }));
}

export async function boardRows(db: Q, projectUids: string[], includeArchived: boolean): Promise<BoardRow[]> {
  let q = db
    .selectFrom('tasks')
    .select((eb) => [
      'status',
      'priority',
      'assignee',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('checklist_done').as('done'),
      eb.fn.sum<number>('checklist_total').as('total'),
    ])
    .where('project_uid', 'in', projectUids.length ? projectUids : [''])
    .where('deleted_at', 'is', null)
    .groupBy(['status', 'priority', 'assignee']);
  if (!includeArchived) q = q.where('archived_at', 'is', null);
  const rows = await q.execute();
  return rows.map((r) => ({
    status: r.status,
    priority: priorityFromRank(r.priority),
    assignee: r.assignee,
    count: Number(r.n),
    checklistDone: Number(r.done ?? 0),
    checklistTotal: Number(r.total ?? 0),
  }));
}
