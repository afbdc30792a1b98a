/** Checklist edits as one atomic batch on a task. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { TaskRef } from '../model/ids.js';
import type { Task } from '../model/task.js';
import { applyChecklistOps, ChecklistOps } from '../rules/checklist-ops.js';
import { displayIdOf, hydrate } from './hydrate.js';
import { resolveLiveTask } from './resolve.js';
import { checkVersion, commitTaskChange } from './task-write.js';

export const UpdateChecklistInput = lazy(() =>
  z.object({
    id: TaskRef,
    ops: ChecklistOps().describe('In order; each index sees the list the previous op left'),
    expectedVersion: z.number().int().min(1).optional(),
  }),
);

export async function updateChecklist(ctx: Context, input: z.infer<ReturnType<typeof UpdateChecklistInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    checkVersion(row, input.expectedVersion);
    const before = await tx.getChecklist(row.uid);
    const after = applyChecklistOps(before, input.ops, displayIdOf(row));
    const now = nowIso(ctx);
    if (JSON.stringify(before) === JSON.stringify(after)) return hydrate(tx, row, now, ctx.actor);
    await tx.replaceChecklist(row.uid, after);
    const saved = await commitTaskChange(tx, ctx, row, {}, 'checklist.updated', { checklist: { before, after } }, { reindex: true });
    return hydrate(tx, saved, now, ctx.actor);
  });
}
