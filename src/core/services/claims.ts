/** Claims: an atomic lease on a task so that of many agents exactly one works on it; renewing is a heartbeat. */
import * as z from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import type { Task } from '../model/task.js';
import type { TaskPatch, TaskRow } from '../ports.js';
import { isClaimLive } from '../rules/readiness.js';
import { displayIdOf, hydrate } from './hydrate.js';
import { resolveLiveTask } from './resolve.js';
import { commitTaskChange, findStatus, firstOfCategory, positionAt, statusPatch, statusesOf } from './task-write.js';

export const DEFAULT_LEASE_SECONDS = 1800;

export const ClaimTaskInput = z.object({
  id: TaskRef,
  leaseSeconds: z.number().int().min(10).max(7 * 24 * 3600).default(DEFAULT_LEASE_SECONDS).describe('Lease length; claim again before it ends to renew'),
});

function alreadyClaimed(row: TaskRow): CairnError {
  const id = displayIdOf(row);
  return new CairnError('ALREADY_CLAIMED', `Task ${id} is claimed by ${row.claimedBy} until ${row.claimExpiresAt}. Only one agent works a task at a time.`, {
    suggestions: ['next_tasks to find another ready task', `Wait until ${row.claimExpiresAt}, when the lease lapses if not renewed`],
    details: { holder: row.claimedBy, expiresAt: row.claimExpiresAt },
  });
}

export async function claimTask(ctx: Context, input: z.infer<typeof ClaimTaskInput>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const id = displayIdOf(row);
    if (row.category === 'done' || row.category === 'canceled') {
      throw new CairnError('VALIDATION_ERROR', `Task ${id} is ${row.status} (${row.category}); finished tasks cannot be claimed.`, {
        suggestions: ['next_tasks to find a ready task', `update_task {id: "${id}", status: "todo"} to reopen it first`],
      });
    }
    if (row.archivedAt) {
      throw new CairnError('VALIDATION_ERROR', `Task ${id} is archived; archived tasks cannot be claimed.`, {
        suggestions: ['next_tasks to find a ready task', `archive_task {id: "${id}", restore: true} to un-archive it first`],
      });
    }
    const stored = row.claimedBy && row.claimExpiresAt ? { actor: row.claimedBy, expiresAt: row.claimExpiresAt } : null;
    if (stored && isClaimLive(stored, now) && stored.actor !== ctx.actor) throw alreadyClaimed(row);
    const expiresAt = new Date(ctx.clock.now().getTime() + input.leaseSeconds * 1000).toISOString();
    const patch: TaskPatch = { claimedBy: ctx.actor, claimExpiresAt: expiresAt, assignee: ctx.actor };
    if (row.category === 'todo' || row.category === 'backlog') {
      const inProgress = firstOfCategory(await statusesOf(tx, row), 'in_progress');
      if (inProgress) Object.assign(patch, statusPatch(row, inProgress, now), { position: await positionAt(tx, row, inProgress.name, undefined) });
    }
    const renewing = stored?.actor === ctx.actor && isClaimLive(stored, now);
    // The claim and its status change are one conditional UPDATE: the condition holds on engines
    // without an exclusive write lock too, and the row (and its indexes) is written once.
    const guarded = async ({ claimedBy: _holder, claimExpiresAt: _expiry, ...rest }: TaskPatch) => {
      if (!(await tx.tryClaim(row.uid, ctx.actor, now, expiresAt, rest))) throw alreadyClaimed((await tx.getTask(row.uid))!);
    };
    // Diff against the pre-claim row so the event shows the claim itself.
    const saved = await commitTaskChange(tx, ctx, row, patch, renewing ? 'task.claim_renewed' : 'task.claimed', {}, { write: guarded });
    return hydrate(tx, saved, now, ctx.actor);
  });
}

export const ReleaseTaskInput = z.object({
  id: TaskRef,
  force: z.boolean().default(false).describe("Release someone else's live claim (humans steering agents)"),
  toStatus: z.string().optional().describe("Status to return to; default the project's first todo status if in progress"),
});

export async function releaseTask(ctx: Context, input: z.infer<typeof ReleaseTaskInput>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const id = displayIdOf(row);
    if (!row.claimedBy) {
      throw new CairnError('NOT_CLAIMED', `Task ${id} is not claimed; there is nothing to release.`, { suggestions: [`claim_task {id: "${id}"} to claim it`] });
    }
    const live = isClaimLive({ actor: row.claimedBy, expiresAt: row.claimExpiresAt ?? '' }, now);
    if (live && row.claimedBy !== ctx.actor && !input.force) throw alreadyClaimed(row);
    const statuses = await statusesOf(tx, row);
    const patch: TaskPatch = { claimedBy: null, claimExpiresAt: null, ...(row.assignee === row.claimedBy ? { assignee: null } : {}) };
    // findStatus: the same matching (case, spaces) and the same error with suggestions as everywhere else.
    const target = input.toStatus
      ? findStatus(statuses, input.toStatus, row.projectKey)
      : row.category === 'in_progress' ? firstOfCategory(statuses, 'todo') : undefined;
    if (target && target.name !== row.status) Object.assign(patch, statusPatch(row, target, now), { position: await positionAt(tx, row, target.name, 0) });
    const saved = await commitTaskChange(tx, ctx, row, patch, 'task.released');
    return hydrate(tx, saved, now, ctx.actor);
  });
}
