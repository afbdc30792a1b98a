/** Full-text search over the FTS5 index: bm25 ranking with field weights, matched fields and a highlighted excerpt. */
import { sql, type Kysely } from 'kysely';
import type { SearchHit, TaskFilter } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { applyFilter } from '../queries/tasks.js';
import { toFtsQuery } from './fts-query.js';

type Q = Kysely<DB>;

export const SEARCH_FIELDS = ['title', 'labels', 'description', 'comments', 'checklist'] as const;
// title > labels > description > comments = checklist
const WEIGHTS = sql.raw('10.0, 6.0, 3.0, 1.0, 1.0');

/** Rewrites the search row of one task from its current title, labels, description, comments and checklist. */
export async function reindexTask(db: Q, uid: string): Promise<void> {
  await sql`DELETE FROM task_search WHERE rowid = (SELECT num FROM tasks WHERE uid = ${uid})`.execute(db);
  await sql`INSERT INTO task_search (rowid, title, labels, description, comments, checklist)
    SELECT t.num, t.title,
      COALESCE((SELECT group_concat(label, ' ') FROM task_labels l WHERE l.task_uid = t.uid), ''),
      t.description,
      COALESCE((SELECT group_concat(body, ' ') FROM comments c WHERE c.task_uid = t.uid), ''),
      COALESCE((SELECT group_concat(text, ' ') FROM checklist_items i WHERE i.task_uid = t.uid), '')
    FROM tasks t WHERE t.uid = ${uid}`.execute(db);
}

export async function removeFromIndex(db: Q, num: number): Promise<void> {
  await sql`DELETE FROM task_search WHERE rowid = ${num}`.execute(db);
}

export async function search(db: Q, query: string, filter: TaskFilter, limit: number, offset: number): Promise<{ hits: SearchHit[]; total: number }> {
  const match = toFtsQuery(query);
  if (!match) return { hits: [], total: 0 };
  const ranked = sql<{ rowid: number; rank: number }>`(SELECT rowid, bm25(task_search, ${WEIGHTS}) AS rank FROM task_search WHERE task_search MATCH ${match})`.as('s');
  const from = () =>
    db
      .selectFrom(ranked)
      .innerJoin('tasks', 'tasks.num', 's.rowid')
      .innerJoin('projects as p', 'p.uid', 'tasks.project_uid');
  // applyFilter is written for the tasks+projects query shape; the extra `s` source does not change it.
  const page = await (applyFilter(from().select(['tasks.uid', 'tasks.num', 's.rank']) as never, filter) as ReturnType<typeof from>)
    .select(['tasks.uid', 'tasks.num', 's.rank'])
    .orderBy('s.rank')
    .orderBy('tasks.num')
    .limit(limit)
    .offset(offset)
    .execute();
  let total = offset + page.length;
  if (page.length === limit || (offset > 0 && page.length === 0)) {
    const c = await (applyFilter(from() as never, filter) as ReturnType<typeof from>)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    total = Number(c.n);
  }
  if (page.length === 0) return { hits: [], total };
  // Excerpts and matched fields only for the page, not for every match.
  const nums = page.map((r) => r.num);
  const marks = await sql<Record<string, string | number>>`SELECT rowid,
      highlight(task_search, 0, char(1), '') AS f0, highlight(task_search, 1, char(1), '') AS f1,
      highlight(task_search, 2, char(1), '') AS f2, highlight(task_search, 3, char(1), '') AS f3,
      highlight(task_search, 4, char(1), '') AS f4,
      snippet(task_search, -1, '**', '**', '…', 16) AS excerpt
    FROM task_search WHERE task_search MATCH ${match} AND rowid IN (${sql.join(nums)})`.execute(db);
  const byNum = new Map(marks.rows.map((r) => [Number(r.rowid), r]));
  const hits = page.map((r) => {
    const m = byNum.get(r.num);
    const matchedFields = SEARCH_FIELDS.filter((_, i) => String(m?.[`f${i}`] ?? '').includes('\u0001'));
    return { uid: r.uid, rank: r.rank, matchedFields: [...matchedFields], excerpt: String(m?.excerpt ?? '').replace(/\s+/g, ' ').trim() };
  });
  return { hits, total };
}
