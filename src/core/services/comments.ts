/** Comments on tasks, and the label vocabulary with usage counts. */
import { newUlid as ulid } from '../model/ids.js';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { TaskRef } from '../model/ids.js';
import { CommentBody, CommentKind, type Task } from '../model/task.js';
import { hydrate } from './hydrate.js';
import { resolveLiveTask, resolveProject } from './resolve.js';
import { commitTaskChange } from './task-write.js';

export const AddCommentInput = lazy(() =>
  z.object({
    id: TaskRef,
    body: CommentBody,
    kind: CommentKind.default('comment'),
  }),
);

export async function addComment(ctx: Context, input: z.infer<ReturnType<typeof AddCommentInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const id = ulid();
    await tx.addComment(row.uid, { id, author: ctx.actor, kind: input.kind, body: input.body, createdAt: now });
    const saved = await commitTaskChange(
      tx,
      ctx,
      row,
      {},
      'comment.added',
      { comment: { before: null, after: { id, kind: input.kind, body: input.body.slice(0, 500) } } },
      { reindex: true, anyActor: true },
    );
    return hydrate(tx, saved, now, ctx.actor);
  });
}

export const ListLabelsInput = lazy(() => z.object({ project: z.string().optional().describe('Default: all projects') }));

export async function listLabels(ctx: Context, input: z.infer<ReturnType<typeof ListLabelsInput>>): Promise<{ labels: Array<{ label: string; count: number }> }> {
  return ctx.store.read(async (tx) => {
    const projectUids = input.project ? [(await resolveProject(tx, input.project)).uid] : null;
    return { labels: await tx.labelCounts(projectUids) };
  });
}
