/** Recording and reading the activity log; every mutation records its event in the same transaction. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { TaskRef } from '../model/ids.js';
import type { ActivityEvent } from '../model/activity.js';
import type { Tx } from '../ports.js';
import { resolveProject, resolveTask } from './resolve.js';
import { pageLimit } from '../rules/page.js';

export type Changes = Record<string, { before: unknown; after: unknown }>;

/** Field-by-field before/after for the keys that differ (JSON equality). */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const k of Object.keys(after)) {
    if (after[k] === undefined) continue;
    if (JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null)) out[k] = { before: before[k] ?? null, after: after[k] ?? null };
  }
  return out;
}

export async function record(tx: Tx, ctx: Context, e: { projectUid: string | null; taskUid: string | null; type: string; changes: Changes }): Promise<number> {
  return tx.appendEvent({ at: nowIso(ctx), actor: ctx.actor, ...(ctx.via ? { via: ctx.via } : {}), ...e });
}

export const HistoryInput = lazy(() =>
  z.object({
    id: TaskRef,
    limit: pageLimit('task_history'),
  }),
);

export async function taskHistory(ctx: Context, input: z.infer<ReturnType<typeof HistoryInput>>): Promise<{ taskId: string; events: ActivityEvent[]; hasMore: boolean }> {
  return ctx.store.read(async (tx) => {
    const t = await resolveTask(tx, input.id);
    // The newest events; one more read says whether older ones were left out.
    const events = await tx.events({ taskUid: t.uid, limit: input.limit + 1, desc: true });
    const hasMore = events.length > input.limit;
    return { taskId: `${t.projectKey}-${t.seq}`, events: events.slice(0, input.limit).reverse(), hasMore };
  });
}

export const ChangesSinceInput = lazy(() =>
  z.object({
    since: z.number().int().min(0).default(0).describe('Return events with seq greater than this'),
    project: z.string().optional(),
    limit: pageLimit('changes_since'),
  }),
);

export async function changesSince(ctx: Context, input: z.infer<ReturnType<typeof ChangesSinceInput>>): Promise<{ events: ActivityEvent[]; lastSeq: number; headSeq: number; hasMore: boolean }> {
  return ctx.store.read(async (tx) => {
    const projectUid = input.project ? (await resolveProject(tx, input.project)).uid : undefined;
    const end = await tx.lastSeq();
    if (input.since > end) {
      // A seq from the future means the caller follows another workspace.
      throw new CairnError('VALIDATION_ERROR', `since=${input.since} is beyond the last event (${end}); is this the same workspace?`, {
        suggestions: ['Call again with since=0 to read from the start'],
      });
    }
    const events = await tx.events({ afterSeq: input.since, limit: input.limit + 1, ...(projectUid ? { projectUid } : {}) });
    const hasMore = events.length > input.limit;
    const page = events.slice(0, input.limit);
    // With nothing new, a project-filtered feed stays where it was; the global one jumps to the end.
    const lastSeq = page.length ? page[page.length - 1]!.seq : projectUid ? input.since : end;
    return { events: page, lastSeq, headSeq: end, hasMore };
  });
}
