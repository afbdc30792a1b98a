/**
 * Workflow edits (add, rename, move, recolor, recategorize, remove a status) and the tasks that
 * follow them. The status list changes in one transaction; the tasks then follow through the task
 * write path (commitTaskChange: version + 1, updatedAt, their event, blocker counts, search) in
 * transactions of at most TASKS_PER_TRANSACTION, so no write holds the lock for a whole project.
 *
 * Order: the workflow commits first, the tasks after. A crash between batches leaves tasks that
 * still carry an old status name, or their status's old category; re-issuing the same edit
 * completes the move (a rename whose target already exists and whose source is gone is taken as
 * done, and its tasks are moved; a recategorize to the category the status already has moves the
 * tasks still in the old one). Tasks-first would leave the new names on tasks while the workflow
 * still lacks them, with nothing in the stored state to say what was meant.
 */
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { CATEGORIES, type Status, type StatusOp } from '../model/workflow.js';
import type { ProjectRow, TaskFilter, Tx } from '../ports.js';
import { findStatus } from '../rules/find-status.js';
import { commitTaskChange, statusPatch } from './task-write.js';

/** Tasks moved per write transaction: bounds how long one workflow edit holds the write lock. */
export const TASKS_PER_TRANSACTION = 500;

/** A status whose tasks must follow the edit: the names they may still carry, and where they go. */
export interface StatusMove {
  to: Status;
  from: string[];
}

export interface WorkflowPlan {
  /** The new status list, positions renumbered. */
  statuses: Status[];
  moves: StatusMove[];
}

/** Applies `ops` to the project's status list in memory (nothing is written); refuses what would break the workflow. */
export async function planStatusOps(tx: Tx, p: ProjectRow, ops: StatusOp[]): Promise<WorkflowPlan> {
  const statuses = (await tx.getStatuses(p.uid)).map((s) => ({ ...s }));
  // Tracked by object, not name: a later rename in the same batch must not lose the recategorization.
  const origins = new Map<Status, Set<string>>(statuses.map((s) => [s, new Set([s.name])]));
  const touched = new Set<Status>();
  for (const op of ops) {
    if (op.op === 'add') {
      if (statuses.some((s) => s.name === op.name)) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} already has a status "${op.name}".`);
      const s: Status = { name: op.name, displayName: op.displayName ?? op.name, color: op.color ?? '#64748b', category: op.category, position: 0 };
      statuses.splice(Math.min(op.position ?? statuses.length, statuses.length), 0, s);
      origins.set(s, new Set());
      continue;
    }
    const from = op.name.trim().toLowerCase();
    if (op.op === 'rename' && !statuses.some((x) => x.name === from)) {
      // Already renamed, and tasks still carry the old name (a retry after an interrupted edit):
      // move them. With none left it is an unknown status, as any other (findStatus below).
      const target = statuses.find((x) => x.name === op.to);
      if (target && (await tx.countTasksInStatus(p.uid, from)) > 0) {
        origins.get(target)!.add(from);
        touched.add(target);
        continue;
      }
    }
    const s = findStatus(statuses, op.name, p.key);
    if (op.op === 'rename') {
      if (statuses.some((x) => x.name === op.to)) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} already has a status "${op.to}".`);
      s.name = op.to;
      if (op.displayName) s.displayName = op.displayName;
      touched.add(s);
    } else if (op.op === 'move') {
      statuses.splice(statuses.indexOf(s), 1);
      statuses.splice(Math.min(op.position, statuses.length), 0, s);
    } else if (op.op === 'recolor') s.color = op.color;
    else if (op.op === 'recategorize') {
      s.category = op.category;
      touched.add(s);
    } else {
      const n = await tx.countTasksInStatus(p.uid, s.name);
      if (n > 0) {
        throw new CairnError('STATUS_IN_USE', `Status "${s.name}" of ${p.key} still holds ${n} task(s); move them to another status first. Nothing was changed.`, {
          suggestions: [`list_tasks {project: "${p.key}", status: "${s.name}"}`],
        });
      }
      statuses.splice(statuses.indexOf(s), 1);
    }
  }
  if (statuses.length === 0) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} must keep at least one status.`);
  for (const c of ['todo', 'done'] as const) {
    if (!statuses.some((s) => s.category === c)) {
      throw new CairnError(
        'VALIDATION_ERROR',
        `Project ${p.key} needs at least one status in category "${c}" (new tasks start in the first todo status; complete moves to the first done status). Nothing was changed.`,
      );
    }
  }
  const final = statuses.map((s, position) => ({ ...s, position }));
  const moves = statuses.flatMap((s, i) => (touched.has(s) ? [{ to: final[i]!, from: [...origins.get(s)!] }] : []));
  return { statuses: final, moves };
}

/**
 * The tasks of a move still to change, as filters: those under an old name the workflow no longer
 * has, then those in the status with another category. Built from the workflow as it is now, so an
 * edit that committed meanwhile wins, and every task a filter finds leaves it once moved.
 */
function pendingFilters(projectUid: string, m: StatusMove, workflow: Status[]): TaskFilter[] {
  const everything = { projectUids: [projectUid], includeArchived: true, includeDeleted: true, includeDone: true };
  const renamed = m.from.filter((n) => !workflow.some((s) => s.name === n));
  return [...(renamed.length ? [{ ...everything, statuses: renamed }] : []), { ...everything, statuses: [m.to.name], categories: CATEGORIES.filter((c) => c !== m.to.category) }];
}

/**
 * Moves a project's tasks to follow `moves`, each through commitTaskChange, at most `perTransaction`
 * per write transaction. Each batch re-reads what is still pending, so a task moved meanwhile by
 * another writer is not moved twice, and a batch that fails leaves the rest for a retry.
 * Returns how many tasks changed.
 */
export async function moveTasksToWorkflow(ctx: Context, projectUid: string, moves: StatusMove[], perTransaction = TASKS_PER_TRANSACTION): Promise<number> {
  let moved = 0;
  for (const m of moves) {
    for (;;) {
      const n = await ctx.store.write(async (tx) => {
        const workflow = await tx.getStatuses(projectUid);
        const to = workflow.find((s) => s.name === m.to.name);
        if (!to) return 0;
        const uids: string[] = [];
        for (const filter of pendingFilters(projectUid, { to, from: m.from }, workflow)) {
          if (uids.length >= perTransaction) break;
          const { rows } = await tx.listTasks(filter, 'id', perTransaction - uids.length, undefined, { count: false });
          uids.push(...rows.map((r) => r.uid));
        }
        for (const row of await tx.getTasks(uids)) {
          const patch = statusPatch(row, to, nowIso(ctx));
          await commitTaskChange(tx, ctx, row, patch, patch.status !== row.status ? 'task.moved' : 'task.updated', {}, { anyActor: true });
        }
        return uids.length;
      });
      moved += n;
      if (n < perTransaction) break;
    }
  }
  return moved;
}
