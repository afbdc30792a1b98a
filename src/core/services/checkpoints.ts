/**
 * Checkpoints: a short, structured hand-on (what is done, the next step, HEAD, changed files, open
 * questions) for whoever works the task next. The latest rides on the task, so the claim that
 * hands it to a fresh agent (after a compaction, a crash or a lapsed lease) returns it with no
 * extra read; each one is also an event in the task's history.
 */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import { nowIso, type Context } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import { CheckpointInput, type Checkpoint } from '../model/coordination.js';
import type { Task } from '../model/task.js';
import { whereIs } from './git-facts.js';
import { displayIdOf, hydrate } from './hydrate.js';
import { resolveLiveTask } from './resolve.js';
import { commitTaskChange } from './task-write.js';

/** A checkpoint is read by every claim of its task and kept in its history: this bounds both. */
export const MAX_CHECKPOINT_CHARS = 16_000;

export const CheckpointTaskInput = lazy(() => z.object({ id: TaskRef }).extend(CheckpointInput().shape));

export async function checkpointTask(ctx: Context, input: z.infer<ReturnType<typeof CheckpointTaskInput>>): Promise<{ task: Task }> {
  // HEAD from the agent's own checkout when it does not say: read before the write, off the lock.
  const dir = ctx.workdir ?? ctx.cwd;
  const head = input.head ?? (dir ? (whereIs(dir)?.head ?? undefined) : undefined);
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    const now = nowIso(ctx);
    const checkpoint: Checkpoint = {
      summary: input.summary,
      ...(input.next ? { next: input.next } : {}),
      ...(head ? { head } : {}),
      ...(input.changedFiles?.length ? { changedFiles: input.changedFiles } : {}),
      ...(input.questions?.length ? { questions: input.questions } : {}),
      at: now,
      actor: ctx.actor,
    };
    const size = JSON.stringify(checkpoint).length;
    if (size > MAX_CHECKPOINT_CHARS) {
      throw new CairnError('VALIDATION_ERROR', `The checkpoint for ${displayIdOf(row)} is ${size} characters; at most ${MAX_CHECKPOINT_CHARS} are kept. Nothing was changed.`, {
        suggestions: ['Shorten summary to what the next agent needs', 'List the changed files by folder, not one by one', 'Put long notes in a comment (add_comment) and refer to it'],
        details: { field: 'checkpoint', size, max: MAX_CHECKPOINT_CHARS },
      });
    }
    // The history keeps each checkpoint once (its `after`); the one it replaced is the previous event's.
    const saved = await commitTaskChange(tx, ctx, row, { checkpoint }, 'task.checkpoint', { checkpoint: { before: null, after: checkpoint } });
    return { task: await hydrate(tx, saved, now, ctx.actor) };
  });
}
