/**
 * Completing, archiving, deleting (soft, restorable) and purging tasks.
 * Policy: a deleted task stops blocking (like canceled) but keeps its edges, so restore brings them
 * back; its children stay, detached only by purge. Purge is separate, explicit and only for deleted tasks.
 */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import { EvidenceInput, type Evidence } from '../model/coordination.js';
import { commitExists } from './git-facts.js';
import type { Task } from '../model/task.js';
import { newUlid as ulid } from '../model/ids.js';
import { record } from './activity.js';
import { displayIdOf, hydrate, summarize } from './hydrate.js';
import { resolveLiveTask, resolveTask } from './resolve.js';
import { checkVersion, commitTaskChange, firstOfCategory, positionAt, statusPatch, statusesOf } from './task-write.js';

export const CompleteTaskInput = lazy(() =>
  z.object({
    id: TaskRef,
    closeReason: z.string().trim().max(500).optional().describe('Why it closed, e.g. fixed, duplicate, wont_fix'),
    comment: z.string().trim().min(1).max(100_000).optional().describe('Recorded as a comment'),
    evidence: EvidenceInput().optional(),
    expectedVersion: z.number().int().min(1).optional(),
  }),
);

/**
 * The evidence as stored: a commit is looked up in the project's repository when this machine has
 * it (refused when git says it is not there), and the answer is `verified`; anything else is `reported`.
 */
async function checkedEvidence(ctx: Context, input: EvidenceInput, id: string, root: string | null): Promise<Evidence> {
  let status: Evidence['status'] = 'reported';
  if (input.commit && root) {
    const found = await commitExists(root, input.commit);
    if (found === false) {
      throw new CairnError('VALIDATION_ERROR', `Commit ${input.commit} is not in the repository at ${root}, so it cannot be the evidence that ${id} is done. Nothing was changed.`, {
        suggestions: [`git -C ${root} fetch, if the commit was pushed from elsewhere`, 'Check the SHA (git log --oneline -1)', 'Send evidence.prUrl or evidence.test instead'],
        details: { field: 'evidence.commit', commit: input.commit, repository: root },
      });
    }
    if (found) status = 'verified';
  }
  return { ...input, status, at: nowIso(ctx), actor: ctx.actor };
}

/** Completing (complete_task, or moving it to a done lane) in a project that requires evidence, without it. */
export function evidenceRequired(id: string, key: string): CairnError {
  return new CairnError(
    'VALIDATION_ERROR',
    `Project ${key} requires evidence to complete a task: send evidence with a commit SHA, a PR url or a test command and its exit code. Nothing was changed.`,
    {
      suggestions: [
        `complete_task {id: "${id}", evidence: {commit: "<sha>", test: {command: "npm test", exitCode: 0}}}`,
        `update_project {key: "${key}", requireEvidence: false} to stop requiring it`,
      ],
      details: { field: 'evidence', required: true },
    },
  );
}

export async function completeTask(ctx: Context, input: z.infer<ReturnType<typeof CompleteTaskInput>>): Promise<{ task: Task; nowReady: string[] }> {
  // git is asked before the write transaction, which it would otherwise hold for the lookup.
  const given = input.evidence && Object.keys(input.evidence).length ? input.evidence : undefined;
  const evidence = given
    ? await ctx.store.read(async (tx) => {
        const row = await resolveLiveTask(tx, input.id);
        return checkedEvidence(ctx, given, displayIdOf(row), (await tx.getProjectByUid(row.projectUid))?.root ?? null);
      })
    : undefined;
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    checkVersion(row, input.expectedVersion);
    if (!evidence && (await tx.getProjectByUid(row.projectUid))?.requireEvidence) throw evidenceRequired(displayIdOf(row), row.projectKey);
    const now = nowIso(ctx);
    const dependents = await tx.dependentUids(row.uid);
    const wasReady = new Set(
      summarize(await tx.getTaskSummaries(dependents), now)
        .filter((t) => t.isReady)
        .map((t) => t.uid),
    );
    const statuses = await statusesOf(tx, row);
    const done = firstOfCategory(statuses, 'done')!;
    const patch = {
      ...(row.category === 'done' ? {} : { ...statusPatch(row, done, now), position: await positionAt(tx, row, done.name, undefined) }),
      claimedBy: null,
      claimExpiresAt: null,
      claimWhere: null,
      ...(evidence ? { evidence } : {}),
      ...(input.closeReason !== undefined ? { closeReason: input.closeReason } : {}),
    };
    let extra = {};
    if (input.comment) {
      await tx.addComment(row.uid, { id: ulid(), author: ctx.actor, kind: 'implementation', body: input.comment, createdAt: now });
      extra = { comment: { before: null, after: input.comment.slice(0, 200) } };
    }
    const saved = await commitTaskChange(tx, ctx, row, patch, 'task.completed', extra, { reindex: input.comment !== undefined });
    const after = summarize(await tx.getTaskSummaries(dependents), now);
    const nowReady = after.filter((t) => t.isReady && !wasReady.has(t.uid)).map((t) => t.id);
    return { task: await hydrate(tx, saved, now, ctx.actor), nowReady };
  });
}

export const ArchiveTaskInput = lazy(() => z.object({ id: TaskRef, restore: z.boolean().default(false).describe('true un-archives') }));

export async function archiveTask(ctx: Context, input: z.infer<ReturnType<typeof ArchiveTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const archivedAt = input.restore ? null : (row.archivedAt ?? now);
    const saved = await commitTaskChange(tx, ctx, row, { archivedAt }, input.restore ? 'task.unarchived' : 'task.archived');
    return hydrate(tx, saved, now, ctx.actor);
  });
}

export const DeleteTaskInput = lazy(() => z.object({ id: TaskRef }));

export async function deleteTask(ctx: Context, input: z.infer<ReturnType<typeof DeleteTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveTask(tx, input.id);
    const now = nowIso(ctx);
    if (row.deletedAt) return hydrate(tx, row, now, ctx.actor);
    const saved = await commitTaskChange(tx, ctx, row, { deletedAt: now, claimedBy: null, claimExpiresAt: null, claimWhere: null }, 'task.deleted');
    return hydrate(tx, saved, now, ctx.actor);
  });
}

export async function restoreTask(ctx: Context, input: z.infer<ReturnType<typeof DeleteTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveTask(tx, input.id);
    const now = nowIso(ctx);
    if (!row.deletedAt) return hydrate(tx, row, now, ctx.actor);
    const saved = await commitTaskChange(tx, ctx, row, { deletedAt: null }, 'task.restored');
    return hydrate(tx, saved, now, ctx.actor);
  });
}

export const PurgeTaskInput = lazy(() =>
  z.object({
    id: TaskRef,
    confirm: z.literal(true, { error: 'purge is permanent: pass confirm: true' }).describe('Must be true: purge cannot be undone'),
  }),
);

export async function purgeTask(ctx: Context, input: z.infer<ReturnType<typeof PurgeTaskInput>>): Promise<{ purged: string }> {
  return ctx.store.write(async (tx) => {
    const row = await resolveTask(tx, input.id);
    const id = displayIdOf(row);
    if (!row.deletedAt) {
      throw new CairnError('VALIDATION_ERROR', `Task ${id} is not deleted; only deleted tasks can be purged. Nothing was changed.`, {
        suggestions: [`delete_task {id: "${id}"} first (restorable), then purge it if you really mean to erase it`],
      });
    }
    const dependents = await tx.dependentUids(row.uid);
    await record(tx, ctx, { projectUid: row.projectUid, taskUid: null, type: 'task.purged', changes: { id: { before: id, after: null }, title: { before: row.title, after: null } } });
    await tx.purgeTask(row.uid);
    await tx.refreshOpenBlockers(dependents);
    return { purged: id };
  });
}
