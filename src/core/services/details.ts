/**
 * The long fields of several tasks in one read. Lists carry summaries; a surface that shows a
 * description, links or completion time per row (tx's TaskWithDeps, Castle's PR column) reads them
 * here at once instead of one full task per row.
 */
import type { Context } from '../context.js';
import type { Task } from '../model/task.js';

export type TaskDetails = Pick<Task, 'description' | 'links' | 'completedAt' | 'closeReason' | 'origin'>;

/** Details by task uid (descriptions empty unless asked for); tasks that no longer exist are absent. */
export async function detailsOf(ctx: Context, uids: readonly string[], opts: { description: boolean }): Promise<Map<string, TaskDetails>> {
  if (uids.length === 0) return new Map();
  const rows = await ctx.store.read((tx) => tx.taskDetails([...uids], opts.description));
  return new Map(rows.map((r) => [r.uid, { description: r.description, links: r.links, completedAt: r.completedAt, closeReason: r.closeReason, origin: r.origin }]));
}
