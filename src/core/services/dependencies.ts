/** Blocking dependencies and the parent/child hierarchy; both graphs stay acyclic. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import type { Task } from '../model/task.js';
import type { TaskRow, Tx } from '../ports.js';
import { findCycle } from '../rules/cycles.js';
import { displayIdOf, hydrate } from './hydrate.js';
import { resolveLiveTask, resolveTask } from './resolve.js';
import { commitTaskChange } from './task-write.js';

export const DependencyInput = lazy(() =>
  z.object({
    taskId: TaskRef.describe('The task that waits'),
    blockedBy: TaskRef.describe('Must finish first'),
  }),
);

async function displayPath(tx: Tx, uids: string[]): Promise<string> {
  const rows = await tx.getTasks([...new Set(uids)]);
  const byUid = new Map(rows.map((r) => [r.uid, displayIdOf(r)]));
  // A task the caller cannot read (another project, for a limited token) is named without its id.
  return uids.map((u) => byUid.get(u) ?? 'a task in another project').join(' → ');
}

/** Adds the edge task → blocker after refusing self-edges and cycles. Returns false if it already existed. */
export async function linkBlocker(tx: Tx, task: TaskRow, blocker: TaskRow, at: string): Promise<boolean> {
  if (task.uid === blocker.uid) {
    throw new CairnError('SELF_DEPENDENCY', `Task ${displayIdOf(task)} cannot block itself.`, {
      suggestions: ['Pass a different task as blockedBy'],
    });
  }
  // A cycle can close through edges other writers add meanwhile: the graph's writers go one at a time.
  await tx.exclusive('graph');
  const cycle = await findCycle(task.uid, blocker.uid, (n) => tx.blockerUids(n));
  if (cycle) {
    const path = await displayPath(tx, cycle);
    throw new CairnError('CYCLE_DETECTED', `${displayIdOf(blocker)} cannot block ${displayIdOf(task)}: that would create the cycle ${path}. Nothing was changed.`, {
      suggestions: [`remove_dependency on one edge of ${path} first, or leave the dependency out`],
      details: { cycle: path.split(' → ') },
    });
  }
  return tx.addDependency(task.uid, blocker.uid, at);
}

export async function addDependency(ctx: Context, input: z.infer<ReturnType<typeof DependencyInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const task = await resolveLiveTask(tx, input.taskId, 'taskId');
    const blocker = await resolveLiveTask(tx, input.blockedBy, 'blockedBy');
    const now = nowIso(ctx);
    const before = task.blockedBy;
    if (await linkBlocker(tx, task, blocker, now)) {
      await tx.refreshOpenBlockers([task.uid]);
      const after = [...before, displayIdOf(blocker)];
      const saved = await commitTaskChange(tx, ctx, task, {}, 'dependency.added', { blockedBy: { before, after } }, { anyActor: true });
      return hydrate(tx, saved, now, ctx.actor);
    }
    return hydrate(tx, task, now, ctx.actor);
  });
}

export async function removeDependency(ctx: Context, input: z.infer<ReturnType<typeof DependencyInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const task = await resolveLiveTask(tx, input.taskId, 'taskId');
    const blocker = await resolveTask(tx, input.blockedBy, 'blockedBy');
    const now = nowIso(ctx);
    const before = task.blockedBy;
    if (!(await tx.removeDependency(task.uid, blocker.uid))) {
      throw new CairnError('VALIDATION_ERROR', `${displayIdOf(blocker)} does not block ${displayIdOf(task)}; nothing to remove. Its blockers are: ${before.join(', ') || 'none'}.`, {
        suggestions: [`get_task {id: "${displayIdOf(task)}"} to see its blockedBy list`],
      });
    }
    await tx.refreshOpenBlockers([task.uid]);
    const after = before.filter((b) => b !== displayIdOf(blocker));
    const saved = await commitTaskChange(tx, ctx, task, {}, 'dependency.removed', { blockedBy: { before, after } }, { anyActor: true });
    return hydrate(tx, saved, now, ctx.actor);
  });
}

/** Validates a new parent (exists, not self, no loop through ancestors); null detaches. Returns null if unchanged. */
export async function setParent(tx: Tx, task: TaskRow, parentRef: string | null): Promise<{ parentUid: string | null; parentId: string | null } | null> {
  if (parentRef === null) return task.parentUid === null ? null : { parentUid: null, parentId: null };
  const parent = await resolveLiveTask(tx, parentRef, 'parentId');
  if (parent.uid === task.parentUid) return null;
  await tx.exclusive('graph');
  // Through parentUidOf, not getTask: a view limited to some projects must still see a loop that passes through another.
  const parentOf = async (n: string) => {
    const up = await tx.parentUidOf(n);
    return up ? [up] : [];
  };
  const cycle = await findCycle(task.uid, parent.uid, parentOf);
  if (cycle) {
    const path = await displayPath(tx, cycle);
    const code = parent.uid === task.uid ? 'SELF_DEPENDENCY' : 'CYCLE_DETECTED';
    throw new CairnError(code, `${displayIdOf(parent)} cannot be the parent of ${displayIdOf(task)}: the hierarchy would loop (${path}). Nothing was changed.`, {
      suggestions: ['Choose a parent that is not the task itself or one of its descendants'],
      details: { cycle: path.split(' → ') },
    });
  }
  return { parentUid: parent.uid, parentId: displayIdOf(parent) };
}
