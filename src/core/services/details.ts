/**
 * The long fields of several tasks in one read. Lists carry summaries; a caller that shows a
 * description, links or completion time per row (tx's TaskWithDeps, Castle's PR column) names them
 * in the list's `include` and gets them in the same answer, instead of one get_task per row.
 */
import * as z from 'zod';
import type { Context } from '../context.js';
import { DETAIL_FIELDS, type DetailField, type Task } from '../model/task.js';

export { DETAIL_FIELDS, type DetailField };
export type TaskDetails = Pick<Task, DetailField>;

/** The `include` input of the list ops. */
export const IncludeDetails = () =>
  z.array(z.enum(DETAIL_FIELDS)).max(DETAIL_FIELDS.length).optional().describe('Long fields to add to each row: description, links, completedAt, closeReason, origin');

/** Details by task uid (descriptions empty unless asked for); tasks that no longer exist are absent. */
export async function detailsOf(ctx: Context, uids: readonly string[], opts: { description: boolean }): Promise<Map<string, TaskDetails>> {
  if (uids.length === 0) return new Map();
  const rows = await ctx.store.read((tx) => tx.taskDetails([...uids], opts.description));
  return new Map(rows.map((r) => [r.uid, { description: r.description, links: r.links, completedAt: r.completedAt, closeReason: r.closeReason, origin: r.origin }]));
}

/** `rows` with the `include`d detail fields added (read in one go); the rows themselves when none are asked for. */
export async function withDetails<T extends { uid: string }>(ctx: Context, rows: T[], include: readonly DetailField[] | undefined): Promise<T[]> {
  if (!include?.length || rows.length === 0) return rows;
  const details = await detailsOf(
    ctx,
    rows.map((r) => r.uid),
    { description: include.includes('description') },
  );
  return rows.map((r) => {
    const d = details.get(r.uid);
    if (!d) return r;
    const out: Record<string, unknown> = { ...r };
    for (const f of include) out[f] = d[f];
    return out as T;
  });
}
