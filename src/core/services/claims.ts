/**
 * Claims: an atomic lease on a task so that of many agents exactly one works on it; renewing is a
 * heartbeat. A claim means "I can work on this": a task with open blockers is refused unless forced,
 * and claim_next takes the first ready task in one write transaction.
 */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import type { Task } from '../model/task.js';
import { Kind } from '../model/task.js';
import type { ListAfter, LiveReservation, TaskFilter, TaskPatch, TaskRow, Tx } from '../ports.js';
import { isBlockerOpen, isClaimLive } from '../rules/readiness.js';
import { sortKeyOf } from './cursor.js';
import { displayIdOf, hydrate } from './hydrate.js';
import { activeProjectUids, resolveLiveTask, resolveProject } from './resolve.js';
import { assertMayTakeOver, assertMayWrite } from './claim-guard.js';
import { pathConflicts, pathsReserved, type PathConflict } from './reservations.js';
import { whereIs } from './git-facts.js';
import { commitTaskChange, findStatus, firstOfCategory, positionAt, statusPatch, statusesOf } from './task-write.js';

export const DEFAULT_LEASE_SECONDS = 1800;

const LeaseSeconds = z
  .number()
  .int()
  .min(10)
  .max(7 * 24 * 3600)
  .default(DEFAULT_LEASE_SECONDS);

export const ClaimTaskInput = lazy(() =>
  z.object({
    id: TaskRef,
    leaseSeconds: LeaseSeconds,
    force: z.boolean().default(false).describe('Past open blockers (recorded)'),
    takeover: z.boolean().default(false).describe("Take another's live claim (recorded)"),
  }),
);

function alreadyClaimed(row: TaskRow): CairnError {
  const id = displayIdOf(row);
  return new CairnError('ALREADY_CLAIMED', `Task ${id} is claimed by ${row.claimedBy} until ${row.claimExpiresAt}. Only one agent works a task at a time.`, {
    suggestions: [
      'claim_next {} to take another ready task',
      `Wait until ${row.claimExpiresAt}, when the lease lapses if not renewed`,
      `claim_task {id: "${id}", takeover: true} to take it over (needs a token that may act as anyone)`,
    ],
    details: { holder: row.claimedBy, expiresAt: row.claimExpiresAt, generation: row.claimGeneration },
  });
}

function blocked(row: TaskRow): CairnError {
  const id = displayIdOf(row);
  const open = row.openBlockerIds.length ? row.openBlockerIds : [`${row.openBlockers} task(s)`];
  return new CairnError('BLOCKED', `Task ${id} is blocked by ${open.join(', ')}, not finished yet; a claim says you can work on it now. Nothing was changed.`, {
    suggestions: [
      `claim_next {} to take the first ready task`,
      `get_task {id: "${row.openBlockerIds[0] ?? id}"} and finish or unblock it first`,
      `claim_task {id: "${id}", force: true} to claim it anyway (history records it)`,
    ],
    details: { blockedBy: row.openBlockerIds },
  });
}

export async function claimTask(ctx: Context, input: z.infer<ReturnType<typeof ClaimTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => hydrate(tx, await claimRow(tx, ctx, await resolveLiveTask(tx, input.id), input), nowIso(ctx), ctx.actor));
}

/**
 * Claims `row` for ctx.actor inside the caller's write transaction and returns the saved row. A new
 * claim moves the generation on, which fences out the earlier holder (claim-guard.ts). The holder's
 * renewal is not a new claim, even after its lease expired, as long as nobody else took the task.
 */
async function claimRow(
  tx: Tx,
  ctx: Context,
  row: TaskRow,
  input: { leaseSeconds: number; force: boolean; takeover?: boolean; ignorePaths?: boolean; reservations?: LiveReservation[] },
): Promise<TaskRow> {
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
  const takingOver = stored !== null && isClaimLive(stored, now) && stored.actor !== ctx.actor;
  if (takingOver && !input.takeover) throw alreadyClaimed(row);
  if (takingOver) assertMayTakeOver(ctx, row, 'take over');
  // Another's lapsed lease is open to anyone: a holder fenced out by it (LEASE_LOST on writes) claims afresh.
  const renewing = stored?.actor === ctx.actor;
  // The holder renewing keeps the lease even if a blocker was added meanwhile; a new claim must be workable.
  const forced = row.openBlockers > 0 && !renewing;
  if (forced && !input.force) throw blocked(row);
  // A new claim reserves the task's paths: another actor's overlapping reservation refuses it unless forced.
  const conflicts = renewing || input.ignorePaths ? [] : await pathConflicts(tx, ctx, row, now, input.reservations);
  if (conflicts.length && !input.force) throw pathsReserved(row, conflicts);
  const expiresAt = new Date(ctx.clock.now().getTime() + input.leaseSeconds * 1000).toISOString();
  const patch: TaskPatch = { claimedBy: ctx.actor, claimExpiresAt: expiresAt, assignee: ctx.actor };
  if (!renewing) patch.claimGeneration = row.claimGeneration + 1;
  // Where the claim was made from (worktree, branch, HEAD); a renewal is a heartbeat and keeps it
  // (checkpoints carry the HEAD work reached).
  const dir = ctx.workdir ?? ctx.cwd;
  if (!renewing) patch.claimWhere = (dir ? whereIs(dir) : undefined) ?? null;
  // A record of a source Cairn does not write (Castle's castle.db) keeps its assignee and status as
  // the source has them: the claim is the lease alone, which is Cairn's own data.
  const leaseOnly = await tx.links.inReadOnlyLink(row.uid);
  if (leaseOnly) delete patch.assignee;
  else if (row.category === 'todo' || row.category === 'backlog') {
    const inProgress = firstOfCategory(await statusesOf(tx, row), 'in_progress');
    if (inProgress) Object.assign(patch, statusPatch(row, inProgress, now), { position: await positionAt(tx, row, inProgress.name, undefined) });
  }
  // The claim and its status change are one conditional UPDATE: the condition holds on engines
  // without an exclusive write lock too, and the row (and its indexes) is written once. A takeover
  // wins only over the claim it read (its generation).
  const guarded = async ({ claimedBy: _holder, claimExpiresAt: _expiry, ...rest }: TaskPatch) => {
    if (!(await tx.tryClaim(row.uid, ctx.actor, now, expiresAt, rest, takingOver ? row.claimGeneration : -1))) throw alreadyClaimed((await tx.getTask(row.uid))!);
  };
  // Diff against the pre-claim row so the event shows the claim itself, and a forced claim the blockers it went past.
  const extra: Record<string, { before: unknown; after: unknown }> = forced ? { forcedPastBlockers: { before: null, after: row.openBlockerIds } } : {};
  if (takingOver) extra.takenOver = { before: { holder: stored.actor, expiresAt: stored.expiresAt }, after: ctx.actor };
  if (conflicts.length) extra.forcedPastReservations = { before: null, after: conflicts.map((c) => ({ task: c.task, holder: c.holder })) };
  return commitTaskChange(tx, ctx, row, patch, renewing ? 'task.claim_renewed' : 'task.claimed', extra, { write: guarded, anyActor: true });
}

// Kept small: every default tool list carries it (the budget is test/mcp/surface.test.ts).
export const ClaimNextInput = lazy(() =>
  z.object({
    project: z.string().optional(),
    labels: z.array(z.string()).max(50).optional().describe('Any of these'),
    assignee: z.string().optional().describe('"none": unassigned'),
    kind: Kind.optional(),
    leaseSeconds: LeaseSeconds,
    avoidOverlap: z.boolean().default(true).describe("Skip tasks whose touches overlap another's live claim"),
  }),
);

/** A ready task claim_next passed over because its paths overlap a live reservation. */
export interface SkippedTask {
  id: string;
  reservedBy: Array<{ task: string; holder: string; paths: string[] }>;
}

/**
 * Claims the first ready task (DESIGN §2 order) matching the filter, in one write transaction:
 * on SQLite the transaction holds the write lock, and on any engine each attempt is tryClaim's
 * conditional UPDATE, so a task lost to a concurrent claimer is passed over, never shared.
 */
export async function claimNext(ctx: Context, input: z.infer<ReturnType<typeof ClaimNextInput>>): Promise<{ task: Task | null; skipped?: SkippedTask[] }> {
  return ctx.store.write(async (tx) => {
    const skipped: SkippedTask[] = [];
    const answer = (task: Task | null) => (skipped.length ? { task, skipped } : { task });
    // Read once per call, and only once a candidate declares paths.
    let reservations: LiveReservation[] | undefined;
    const now = nowIso(ctx);
    const projectUids = input.project ? [(await resolveProject(tx, input.project)).uid] : await activeProjectUids(tx);
    const filter: TaskFilter = {
      ...(projectUids ? { projectUids } : {}),
      ...(input.kind ? { kinds: [input.kind] } : {}),
      ...(input.labels?.length ? { labelsAny: input.labels } : {}),
      ...(input.assignee !== undefined ? { assignee: input.assignee === 'none' ? null : input.assignee } : {}),
      ready: { now, actor: ctx.actor },
    };
    let after: ListAfter | undefined;
    for (;;) {
      const { rows, more } = await tx.listTasks(filter, 'priority', 8, after, { count: false });
      for (const r of rows) {
        // Ready already means unclaimed (or the lease lapsed) with no open blockers; a task this
        // actor holds is in progress, so never "next".
        // Read again (locked, on PostgreSQL): another writer may have finished, deleted or claimed it since
        // the list; such a candidate is skipped, never answered as an error.
        const row = await tx.getTask(r.uid);
        if (!row || row.claimedBy === ctx.actor || row.deletedAt !== null || !isBlockerOpen({ category: row.category, deleted: false })) continue;
        if (row.touches.length && input.avoidOverlap && !reservations) {
          await tx.exclusive('reservations');
          reservations = await tx.liveReservations(now);
        }
        try {
          const claimed = await claimRow(tx, ctx, row, { leaseSeconds: input.leaseSeconds, force: false, ignorePaths: !input.avoidOverlap, ...(reservations ? { reservations } : {}) });
          return answer(await hydrate(tx, claimed, now, ctx.actor));
        } catch (err) {
          if (err instanceof CairnError && err.code === 'PATHS_RESERVED') {
            const conflicts = (err.details as { conflicts?: PathConflict[] } | undefined)?.conflicts ?? [];
            skipped.push({ id: displayIdOf(row), reservedBy: conflicts.map((c) => ({ task: c.task, holder: c.holder, paths: [...new Set(c.overlaps.map((o) => o.reserved))] })) });
            continue;
          }
          if (!(err instanceof CairnError) || (err.code !== 'ALREADY_CLAIMED' && err.code !== 'BLOCKED')) throw err;
        }
      }
      if (!more || !rows.length) return answer(null);
      after = sortKeyOf(rows[rows.length - 1]!, 'priority');
    }
  });
}

export const ReleaseTaskInput = lazy(() =>
  z.object({
    id: TaskRef,
    force: z.boolean().default(false).describe("Release another's live claim"),
    toStatus: z.string().optional().describe('Default: the first todo status'),
  }),
);

export async function releaseTask(ctx: Context, input: z.infer<ReturnType<typeof ReleaseTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const id = displayIdOf(row);
    if (!row.claimedBy) {
      throw new CairnError('NOT_CLAIMED', `Task ${id} is not claimed; there is nothing to release.`, { suggestions: [`claim_task {id: "${id}"} to claim it`] });
    }
    const live = isClaimLive({ actor: row.claimedBy, expiresAt: row.claimExpiresAt ?? '' }, now);
    if (live && row.claimedBy !== ctx.actor && input.force) assertMayTakeOver(ctx, row, 'release');
    else await assertMayWrite(tx, ctx, row, now);
    const statuses = await statusesOf(tx, row);
    const leaseOnly = await tx.links.inReadOnlyLink(row.uid);
    const patch: TaskPatch = { claimedBy: null, claimExpiresAt: null, claimWhere: null, ...(row.assignee === row.claimedBy && !leaseOnly ? { assignee: null } : {}) };
    // findStatus: the same matching (case, spaces) and the same error with suggestions as everywhere else.
    const target =
      leaseOnly && !input.toStatus ? undefined : input.toStatus ? findStatus(statuses, input.toStatus, row.projectKey) : row.category === 'in_progress' ? firstOfCategory(statuses, 'todo') : undefined;
    if (target && target.name !== row.status) Object.assign(patch, statusPatch(row, target, now), { position: await positionAt(tx, row, target.name, 0) });
    // Ending another's live claim is recorded as such, as a takeover is.
    const extra: Record<string, { before: unknown; after: unknown }> =
      live && row.claimedBy !== ctx.actor ? { releasedFrom: { before: { holder: row.claimedBy, expiresAt: row.claimExpiresAt }, after: ctx.actor } } : {};
    const saved = await commitTaskChange(tx, ctx, row, patch, 'task.released', extra, { anyActor: true });
    return hydrate(tx, saved, now, ctx.actor);
  });
}
