/** Project and workflow-status queries. */
import type { Kysely } from 'kysely';
import { CairnError } from '../../core/errors.js';
import type { ProjectPatch, ProjectRow } from '../../core/ports.js';
import type { Category, Status } from '../../core/model/workflow.js';
import type { DB } from '../schema.js';
import { engineSql } from './engine-sql.js';
import { prepared } from './prepared.js';
import { isFinishedLive, isOpen } from './task-list.js';
import { toColumns, toProjectRow } from './rows.js';

type Q = Kysely<DB>;

export async function listProjects(db: Q, includeArchived: boolean): Promise<ProjectRow[]> {
  let q = db.selectFrom('projects').selectAll().orderBy('key');
  if (!includeArchived) q = q.where('archived_at', 'is', null);
  return (await q.execute()).map(toProjectRow);
}

const projectBy = prepared((db, p, column: 'key' | 'uid') => db.selectFrom('projects').selectAll().where(column, '=', p(0)));

export async function getProjectBy(db: Q, column: 'key' | 'uid', value: string): Promise<ProjectRow | undefined> {
  const [r] = await projectBy.all(db, [value], column);
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
      require_evidence: row.requireEvidence ? 1 : 0,
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

const statusesOf = prepared((db, p) => db.selectFrom('statuses').selectAll().where('project_uid', '=', p(0)).orderBy('position'));

export async function getStatuses(db: Q, projectUid: string): Promise<Status[]> {
  const rows = await statusesOf.all(db, [projectUid]);
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

const nextSeq = prepared((db, p) =>
  db
    .updateTable('projects')
    .set((eb) => ({ next_seq: eb('next_seq', '+', 1) }))
    .where('uid', '=', p(0))
    .returning('next_seq'),
);

export async function allocateSeq(db: Q, projectUid: string): Promise<number> {
  const [r] = await nextSeq.all(db, [projectUid]);
  if (!r) {
    throw new CairnError('PROJECT_NOT_FOUND', `Project ${projectUid} does not exist (it may have been removed meanwhile), so no task number can be allocated in it. Nothing was changed.`, {
      suggestions: ['list_projects to see the projects there are'],
      details: { projectUid },
    });
  }
  return r.next_seq - 1;
}

/**
 * Each project's tasks that are neither archived nor deleted. Where the ready order is indexed apart
 * for open and closed work (SQLite), that is a count on each of those indexes, which hold every
 * column the count tests. Counting the rows themselves would read every task of the project, which
 * costs about ten times as much.
 */
export async function taskCounts(db: Q, projectUids: string[]): Promise<Map<string, number>> {
  if (projectUids.length === 0) return new Map();
  const count = (where: typeof isOpen) =>
    db
      .selectFrom('tasks')
      .select(['tasks.project_uid', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tasks.project_uid', 'in', projectUids)
      .where(where)
      .groupBy('tasks.project_uid');
  const rows = engineSql(db).splitReadyOrder
    ? await db
        .selectFrom(count(isOpen).unionAll(count(isFinishedLive)).as('c'))
        .select(['c.project_uid', (eb) => eb.fn.sum<number>('c.n').as('n')])
        .groupBy('c.project_uid')
        .execute()
    : await db
        .selectFrom('tasks')
        .select(['project_uid', (eb) => eb.fn.countAll<number>().as('n')])
        .where('project_uid', 'in', projectUids)
        .where('deleted_at', 'is', null)
        .where('archived_at', 'is', null)
        .groupBy('project_uid')
        .execute();
  return new Map(rows.map((r) => [r.project_uid, Number(r.n)]));
}
