/** Task row queries: fetch, insert, patch, conditional claim, lane order and board counts (filtered listing: task-list.ts). */
import { sql, type Kysely } from 'kysely';
import type { BoardRow, TaskPatch, TaskRow, TaskSummaryRow } from '../../core/ports.js';
import { CairnError } from '../../core/errors.js';
import type { ChecklistItem } from '../../core/model/task.js';
import { priorityFromRank, priorityRank } from '../../core/model/task.js';
import type { Category } from '../../core/model/workflow.js';
import type { DB } from '../schema.js';
import { prepared, slotRow, slots } from './prepared.js';
import { BUMP, packedSummary, toColumns, toTaskRow, unpackSummary, type TaskRecord } from './rows.js';
import * as graph from './graph.js';
import { engineSql } from './engine-sql.js';

type Q = Kysely<DB>;

export function base(db: Q) {
  return db.selectFrom('tasks').innerJoin('projects as p', 'p.uid', 'tasks.project_uid').selectAll('tasks').select('p.key as project_key');
}

const byUid = prepared((db, p) => base(db).where('tasks.uid', '=', p(0)));
const bySeq = prepared((db, p) => base(db).where('tasks.project_uid', '=', p(0)).where('tasks.seq', '=', p(1)));
const byKey = prepared((db, p) => base(db).where('p.key', '=', p(0)).where('tasks.seq', '=', p(1)));
const byUids = prepared((db, p, n: number) => base(db).where('tasks.uid', 'in', slots(p, n)));

export async function getTask(db: Q, uid: string): Promise<TaskRow | undefined> {
  const [r] = await byUid.all(db, [uid]);
  return r && toTaskRow(r as TaskRecord);
}

export async function getTaskBySeq(db: Q, projectUid: string, seq: number): Promise<TaskRow | undefined> {
  const [r] = await bySeq.all(db, [projectUid, seq]);
  return r && toTaskRow(r as TaskRecord);
}

export async function getTaskByKey(db: Q, projectKey: string, seq: number): Promise<TaskRow | undefined> {
  const [r] = await byKey.all(db, [projectKey, seq]);
  return r && toTaskRow(r as TaskRecord);
}

export async function getTasks(db: Q, uids: string[]): Promise<TaskRow[]> {
  if (uids.length === 0) return [];
  const rows = await byUids.all(db, uids, uids.length);
  const byUid = new Map(rows.map((r) => [r.uid, toTaskRow(r as TaskRecord)]));
  return uids.map((u) => byUid.get(u)).filter((t): t is TaskRow => t !== undefined);
}

const detailsByUids = prepared((db, p, n: number) => db.selectFrom('tasks').select(['uid', 'description', 'links', 'completed_at', 'close_reason', 'origin']).where('uid', 'in', slots(p, n)));
// Descriptions are the long part of a row; a list that shows links alone does not read them.
const detailsNoTextByUids = prepared((db, p, n: number) =>
  db
    .selectFrom('tasks')
    .select(['uid', sql<string>`''`.as('description'), 'links', 'completed_at', 'close_reason', 'origin'])
    .where('uid', 'in', slots(p, n)),
);

export async function taskDetails(db: Q, uids: string[], withDescription: boolean) {
  if (uids.length === 0) return [];
  const rows = await (withDescription ? detailsByUids : detailsNoTextByUids).all(db, uids, uids.length);
  return rows.map((r) => ({ uid: r.uid, description: r.description, links: JSON.parse(r.links) as TaskRow['links'], completedAt: r.completed_at, closeReason: r.close_reason, origin: r.origin }));
}

const summariesByUids = prepared((db, p, n: number) =>
  db.selectFrom('tasks').innerJoin('projects as p', 'p.uid', 'tasks.project_uid').select(packedSummary(db).as('packed')).where('tasks.uid', 'in', slots(p, n)),
);

/** Summary rows (no description or detail fields) in the order of `uids`; unknown uids are skipped. */
export async function getTaskSummaries(db: Q, uids: string[]): Promise<TaskSummaryRow[]> {
  if (uids.length === 0) return [];
  const rows = await summariesByUids.all(db, uids, uids.length);
  const byUid = new Map(rows.map((r) => unpackSummary(r.packed)).map((t) => [t.uid, t]));
  return uids.map((u) => byUid.get(u)).filter((t): t is TaskSummaryRow => t !== undefined);
}

/** The columns a new row is written with, in the order the inserts bind them. */
export const TASK_COLUMNS = [
  'uid',
  'project_uid',
  'seq',
  'title',
  'description',
  'status',
  'category',
  'kind',
  'priority',
  'score',
  'position',
  'assignee',
  'substatus',
  'slug',
  'claimed_by',
  'claim_expires_at',
  'claim_generation',
  'claim_where',
  'touches',
  'evidence',
  'checkpoint',
  'parent_uid',
  'links',
  'anchors',
  'close_reason',
  'origin',
  'document_path',
  'version',
  'created_at',
  'updated_at',
  'completed_at',
  'archived_at',
  'deleted_at',
  'rel_labels',
  'checklist_done',
  'checklist_total',
  'rev',
] as const;
type TaskColumn = (typeof TASK_COLUMNS)[number];

/** A JSON column's text, or NULL. */
const jsonOrNull = (v: unknown) => (v === null ? null : JSON.stringify(v));

/**
 * A new task row's columns, for the single insert here and the bulk insert of an import
 * (transfer.ts), so an import writes what a create writes. Every column of the tasks table is in
 * TASK_COLUMNS or DERIVED_TASK_COLUMNS, or the build fails.
 */
export function newTaskColumns(t: TaskRow, checklist: ChecklistItem[]): Record<TaskColumn, unknown> {
  return {
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
    substatus: t.substatus,
    slug: t.slug,
    claimed_by: t.claimedBy,
    claim_expires_at: t.claimExpiresAt,
    // An imported claim arrives as this workspace's first (1); a new task has none (0).
    claim_generation: t.claimGeneration,
    claim_where: jsonOrNull(t.claimWhere),
    touches: JSON.stringify(t.touches),
    evidence: jsonOrNull(t.evidence),
    checkpoint: jsonOrNull(t.checkpoint),
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
    // The labels inserted next, so the label trigger finds each already present (see migration 8).
    // The other relation columns start empty, as the triggers expect.
    rel_labels: JSON.stringify(t.labels),
    // Written with the row rather than by replaceChecklist, which would delete items a new task
    // cannot have and rewrite the row it just inserted.
    checklist_done: checklist.filter((i) => i.checked).length,
    checklist_total: checklist.length,
    // A random first revision: a row that outside SQL replaces wholesale (INSERT OR REPLACE keeps
    // the number and uid, and the column default is 0) does not match what readers remember.
    rev: Math.floor(Math.random() * 2 ** 48),
  };
}

/** Columns a new row leaves to their defaults and the triggers: the rowid, and what relations and claims derive. */
export const DERIVED_TASK_COLUMNS = ['num', 'claim_lapsed', 'open_blockers', 'parent_id', 'rel_blocked_by', 'rel_blocks', 'rel_children', 'rel_open_blocked_by'] as const;

// Fails to compile when the tasks table gains a column that neither list names (or a list names one it lost).
type Unwritten = Exclude<keyof DB['tasks'], TaskColumn | (typeof DERIVED_TASK_COLUMNS)[number]>;
type Unknown = Exclude<TaskColumn | (typeof DERIVED_TASK_COLUMNS)[number], keyof DB['tasks']>;
const everyColumnWritten: [Unwritten | Unknown] extends [never] ? true : Unwritten | Unknown = true;
void everyColumnWritten;

const insertRow = prepared((db, p) => db.insertInto('tasks').values(slotRow(p, TASK_COLUMNS)));

export async function insertTask(db: Q, t: TaskRow, checklist: ChecklistItem[] = []): Promise<void> {
  const values = newTaskColumns(t, checklist);
  // Asked first: on PostgreSQL a refused INSERT aborts the transaction, and nothing could be read
  // to explain it. A concurrent writer that takes the slug in between still meets the unique index.
  if (t.slug !== null) await slugTaken(db, t.projectUid, t.slug, t.uid, undefined);
  try {
    await insertRow.run(
      db,
      TASK_COLUMNS.map((c) => values[c]),
    );
  } catch (err) {
    if (t.slug !== null && isUniqueViolation(err)) await slugTaken(db, t.projectUid, t.slug, t.uid, err);
    throw err;
  }
  await graph.addLabels(db, t.uid, t.labels);
  await graph.addChecklist(db, t.uid, checklist);
}

// Shape: the patched column names, in order; the uid is the last argument.
const updateRow = prepared((db, p, cols: string) => {
  const names = cols.split(',');
  // rev moves in the same write; left alone, the revision trigger would rewrite the row (migration 11).
  return db
    .updateTable('tasks')
    .set({ ...slotRow(p, names), rev: BUMP })
    .where('uid', '=', p(names.length));
});

export async function updateTask(db: Q, uid: string, patch: TaskPatch): Promise<void> {
  const cols = toColumns(patch);
  const names = Object.keys(cols);
  if (names.length === 0) return;
  const slug = patch.slug;
  const project = typeof slug === 'string' ? (await db.selectFrom('tasks').select('project_uid').where('uid', '=', uid).executeTakeFirst())?.project_uid : undefined;
  if (typeof slug === 'string' && project) await slugTaken(db, project, slug, uid, undefined);
  try {
    await updateRow.run(db, [...names.map((c) => cols[c]), uid], names.join(','));
  } catch (err) {
    if (typeof slug === 'string' && project && isUniqueViolation(err)) await slugTaken(db, project, slug, uid, err);
    throw err;
  }
}

/** A unique constraint failed: SQLite's extended code, PostgreSQL's SQLSTATE 23505. */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * SLUG_TAKEN naming the task other than `self` that holds the slug, if one does. The unique index
 * tasks_slug (project, slug), not this check, is what keeps slugs unique when several writers race;
 * this explains its refusal (`cause`), or spares the write. Returns when no other task holds it.
 */
async function slugTaken(db: Q, projectUid: string, slug: string, self: string, cause: unknown): Promise<void> {
  const holder = await db
    .selectFrom('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .select(['p.key', 'tasks.seq', 'tasks.title', 'tasks.deleted_at'])
    .where('tasks.project_uid', '=', projectUid)
    .where('tasks.slug', '=', slug)
    .where('tasks.uid', '!=', self)
    .executeTakeFirst();
  if (!holder) return;
  const id = `${holder.key}-${holder.seq}`;
  throw new CairnError(
    'SLUG_TAKEN',
    `Slug "${slug}" is already used by task ${id} "${holder.title}"${holder.deleted_at ? ' (deleted)' : ''} in project ${holder.key}; slugs are unique within a project. Nothing was changed.`,
    {
      suggestions: [`get_task {id: "${id}"} to see that task`, `Pick another slug, e.g. "${slug}-2"`],
      details: { slug, taskId: id, project: holder.key },
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

// Shape: the patched column names; arguments: their values, then uid, actor, expiry, now, and the
// generation a takeover replaces (-1: none, which no claim has). A claim always re-arms the lease's
// expiry announcement (claim_lapsed, lease-expiry.ts).
const claimRow = prepared((db, p, cols: string) => {
  const names = cols ? cols.split(',') : [];
  const n = names.length;
  return db
    .updateTable('tasks')
    .set({ ...slotRow(p, names), claimed_by: p(n + 1), claim_expires_at: p(n + 2), claim_lapsed: 0, rev: BUMP })
    .where('uid', '=', p(n))
    .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '=', p(n + 1)), eb('claim_expires_at', '<=', p(n + 3)), eb('claim_generation', '=', p(n + 4))]));
});

export async function tryClaim(db: Q, uid: string, actor: string, now: string, expiresAt: string, patch: TaskPatch, takeover = -1): Promise<boolean> {
  const cols = toColumns(patch);
  const names = Object.keys(cols);
  const r = await claimRow.run(db, [...names.map((c) => cols[c]), uid, actor, expiresAt, now, takeover], names.join(','));
  return Number(r.numAffectedRows ?? 0n) === 1;
}

export async function purgeTask(db: Q, uid: string): Promise<void> {
  await db.updateTable('tasks').set({ parent_uid: null }).where('parent_uid', '=', uid).execute();
  await db.deleteFrom('tasks').where('uid', '=', uid).execute();
}

/**
 * Keeps tasks.open_blockers equal to the number of unresolved, undeleted blockers, and
 * rel_open_blocked_by to their display ids (in blockedBy's order).
 */
// One shape for any number of tasks (completing a task refreshes all its dependents): the uids
// arrive as one JSON array.
const refreshBlockers = prepared((db, p) => {
  const e = engineSql(db);
  return sql`UPDATE tasks SET rev = rev + 1, (open_blockers, rel_open_blocked_by) = (
      SELECT count(*), ${e.jsonTextArray(sql`bp.key || '-' || b.seq`, sql`d.created_at, b.num`)}
      FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid JOIN projects bp ON bp.uid = b.project_uid
      WHERE d.task_uid = tasks.uid AND b.category NOT IN ('done', 'canceled') AND b.deleted_at IS NULL)
    WHERE uid IN ${e.elements(p(0), 'text')}`;
});

export async function refreshOpenBlockers(db: Q, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  await refreshBlockers.run(db, [JSON.stringify(uids)]);
}

const lane = prepared((db, p) =>
  db.selectFrom('tasks').select('position').where('project_uid', '=', p(0)).where('status', '=', p(1)).where('uid', '!=', p(2)).where('deleted_at', 'is', null).orderBy('position'),
);

export async function lanePositions(db: Q, projectUid: string, status: string, excludeUid: string): Promise<number[]> {
  return (await lane.all(db, [projectUid, status, excludeUid])).map((r) => r.position);
}

/** Re-spaces a lane's positions to 1, 2, 3… when midpoint insertion has run out of room. */
export async function renumberLane(db: Q, projectUid: string, status: string): Promise<void> {
  const rows = await db.selectFrom('tasks').select('uid').where('project_uid', '=', projectUid).where('status', '=', status).orderBy('position').orderBy('created_at').execute();
  for (const [i, r] of rows.entries())
    await db
      .updateTable('tasks')
      .set({ position: i + 1 })
      .where('uid', '=', r.uid)
      .execute();
}

// A literal LIMIT: bound as a parameter, SQLite plans this query worse and runs it slower.
const lastInLane = prepared((db, p) => db.selectFrom('tasks').select('position').where('project_uid', '=', p(0)).where('status', '=', p(1)).orderBy('position', 'desc').limit(sql.lit(1)));

export async function maxLanePosition(db: Q, projectUid: string, status: string): Promise<number> {
  const [r] = await lastInLane.all(db, [projectUid, status]);
  return r?.position ?? 0;
}

export async function setCategoryForStatus(db: Q, projectUid: string, status: string, category: Category, now: string): Promise<void> {
  // As a move into or out of a done status would (statusPatch): completion time kept if already done.
  const completedAt = category === 'done' ? sql<string>`coalesce(completed_at, ${now})` : null;
  await db.updateTable('tasks').set({ category, completed_at: completedAt }).where('project_uid', '=', projectUid).where('status', '=', status).execute();
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
    .select((eb) => ['status', 'priority', 'assignee', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('checklist_done').as('done'), eb.fn.sum<number>('checklist_total').as('total')])
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
