/** Project and workflow-status queries. */
import type { Kysely } from 'kysely';
import type { ProjectPatch, ProjectRow } from '../../core/ports.js';
import type { Category, Status } from '../../core/model/workflow.js';
import type { DB } from '../schema.js';
import { toColumns, toProjectRow } from './rows.js';

type Q = Kysely<DB>;

export async function listProjects(db: Q, includeArchived: boolean): Promise<ProjectRow[]> {
  let q = db.selectFrom('projects').selectAll().orderBy('key');
  if (!includeArchived) q = q.where('archived_at', 'is', null);
  return (await q.execute()).map(toProjectRow);
}

export async function getProjectBy(db: Q, column: 'key' | 'uid', value: string): Promise<ProjectRow | undefined> {
  const r = await db.selectFrom('projects').selectAll().where(column, '=', value).executeTakeFirst();
  return r && toProjectRow(r);
}

export async function insertProject(db: Q, row: ProjectRow, statuses: Status[]): Promise<void> {
  await db
    .insertInto('projects')
    .values({
      uid: row.uid,
      key: row.key,
      name: row.name,
      description: row.description,
      root: row.root,
      aliases: JSON.stringify(row.aliases),
      next_seq: 1,
      archived_at: row.archivedAt,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })
    .execute();
  await replaceStatuses(db, row.uid, statuses);
}

export async function updateProject(db: Q, uid: string, patch: ProjectPatch): Promise<void> {
  const cols = toColumns(patch);
  if (Object.keys(cols).length === 0) return;
  await db.updateTable('projects').set(cols).where('uid', '=', uid).execute();
}

export async function getStatuses(db: Q, projectUid: string): Promise<Status[]> {
  const rows = await db.selectFrom('statuses').selectAll().where('project_uid', '=', projectUid).orderBy('position').execute();
  return rows.map((r) => ({ name: r.name, displayName: r.display_name, color: r.color, category: r.category as Category, position: r.position }));
}

export async function replaceStatuses(db: Q, projectUid: string, statuses: Status[]): Promise<void> {
  await db.deleteFrom('statuses').where('project_uid', '=', projectUid).execute();
  if (statuses.length === 0) return;
  await db
    .insertInto('statuses')
    .values(statuses.map((s, i) => ({ project_uid: projectUid, name: s.name, display_name: s.displayName, color: s.color, category: s.category, position: i })))
    .execute();
}

export async function allocateSeq(db: Q, projectUid: string): Promise<number> {
  const r = await db
    .updateTable('projects')
    .set((eb) => ({ next_seq: eb('next_seq', '+', 1) }))
    .where('uid', '=', projectUid)
    .returning('next_seq')
    .executeTakeFirstOrThrow();
  return r.next_seq - 1;
}

export async function taskCounts(db: Q, projectUids: string[]): Promise<Map<string, number>> {
  if (projectUids.length === 0) return new Map();
  const rows = await db
    .selectFrom('tasks')
    .select(['project_uid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_uid', 'in', projectUids)
    .where('deleted_at', 'is', null)
    .where('archived_at', 'is', null)
    .groupBy('project_uid')
    .execute();
  return new Map(rows.map((r) => [r.project_uid, Number(r.n)]));
}
