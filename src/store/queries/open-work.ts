/**
 * Aggregates over open work for the board and the ready queue's hint, counted by the engine over
 * every matching task: the answers must hold for any number of tasks, and loading rows to count
 * them would cost a read per task.
 */
import { sql, type Kysely } from 'kysely';
import type { OpenWorkCounts, TaskFilter } from '../../core/ports.js';
import { RESOLVED_CATEGORIES, type Category } from '../../core/model/workflow.js';
import type { DB } from '../schema.js';
import { applyFilter } from './task-list.js';

type Q = Kysely<DB>;

const matching = (db: Q, filter: TaskFilter) => applyFilter(db, db.selectFrom('tasks').innerJoin('projects as p', 'p.uid', 'tasks.project_uid'), filter);

export async function openWorkCounts(db: Q, filter: TaskFilter, opts: { topBlockers: number; blocked: number }): Promise<OpenWorkCounts> {
  const groups = await matching(db, filter)
    .select((eb) => ['tasks.category', 'tasks.assignee', eb.fn.countAll<number>().as('n'), sql<number>`sum(CASE WHEN tasks.open_blockers > 0 THEN 1 ELSE 0 END)`.as('waiting')])
    .groupBy(['tasks.category', 'tasks.assignee'])
    .execute();
  // Blockers ranked by how many waiting matches they hold up; ties in the order they were created.
  const topBlockers =
    opts.topBlockers > 0
      ? await matching(db, filter)
          .where('tasks.open_blockers', '>', 0)
          .innerJoin('dependencies as d', 'd.task_uid', 'tasks.uid')
          .innerJoin('tasks as b', 'b.uid', 'd.blocker_uid')
          .innerJoin('projects as bp', 'bp.uid', 'b.project_uid')
          .where('b.category', 'not in', [...RESOLVED_CATEGORIES])
          .where('b.deleted_at', 'is', null)
          .select((eb) => [sql<string>`bp.key || '-' || b.seq`.as('id'), eb.fn.countAll<number>().as('n')])
          .groupBy(['b.num', 'bp.key', 'b.seq'])
          .orderBy('n', 'desc')
          .orderBy('b.num')
          .limit(opts.topBlockers)
          .execute()
      : [];
  // Blocked: in a blocked-category status, or waiting on open blockers before work started. In ready order.
  const blocked =
    opts.blocked > 0
      ? await matching(db, filter)
          .where((eb) => eb.or([eb('tasks.category', '=', 'blocked'), eb.and([eb('tasks.open_blockers', '>', 0), eb('tasks.category', 'in', ['todo', 'backlog'])])]))
          // The categories above are open work, so tasks_open serves the ready order when the filter also
          // leaves out archived and deleted tasks (its WHERE, with literal constants): walked in order, it
          // stops at the limit.
          .$if(!filter.includeArchived && !filter.includeDeleted && !filter.onlyDeleted, (q) => q.where('tasks.category', 'not in', [sql.lit('done'), sql.lit('canceled')]))
          .select('tasks.uid')
          .orderBy('tasks.priority', 'desc')
          .orderBy('tasks.score', 'desc')
          .orderBy('tasks.position')
          .orderBy('tasks.created_at')
          .orderBy('tasks.uid')
          .limit(opts.blocked)
          .execute()
      : [];
  return {
    groups: groups.map((g) => ({ category: g.category as Category, assignee: g.assignee, count: Number(g.n), waiting: Number(g.waiting ?? 0) })),
    topBlockers: topBlockers.map((b) => ({ id: b.id, count: Number(b.n) })),
    blocked: blocked.map((r) => r.uid),
  };
}
