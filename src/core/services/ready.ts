/** The ready queue: what to work on next, in DESIGN §2 order, with a hint when nothing is ready. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { Kind, Labels, type TaskSummary } from '../model/task.js';
import { IncludeDetails } from './details.js';
import { summarize } from './hydrate.js';
import { activeProjectUids, resolveProject } from './resolve.js';
import { pageLimit } from '../rules/page.js';

export const NextTasksInput = lazy(() =>
  z.object({
    project: z.string().optional(),
    allProjects: z.boolean().default(false).describe('Ignore the default project'),
    assignee: z.string().optional().describe('"none": unassigned'),
    kind: Kind.optional(),
    labels: Labels.optional().describe('Any of these labels'),
    includeBacklog: z.boolean().default(false),
    limit: pageLimit('next_tasks'),
    include: IncludeDetails(),
  }),
);

export interface NextTasksResult {
  tasks: TaskSummary[];
  /** More tasks are ready than the page holds. */
  hasMore: boolean;
  /** When the queue is empty: how many tasks wait on blockers, and the blockers most worth finishing. */
  blocked?: { count: number; topBlockers: string[] };
}

export async function nextTasks(ctx: Context, input: z.infer<ReturnType<typeof NextTasksInput>>): Promise<NextTasksResult> {
  return ctx.store.read(async (tx) => {
    const now = nowIso(ctx);
    const projectUids = input.project ? [(await resolveProject(tx, input.project)).uid] : await activeProjectUids(tx);
    const base = {
      ...(projectUids ? { projectUids } : {}),
      ...(input.kind ? { kinds: [input.kind] } : {}),
      ...(input.labels?.length ? { labelsAny: input.labels } : {}),
      ...(input.assignee !== undefined ? { assignee: input.assignee === 'none' ? null : input.assignee } : {}),
    };
    const { rows, more } = await tx.listTasks({ ...base, ready: { now, actor: ctx.actor, includeBacklog: input.includeBacklog } }, 'priority', input.limit, undefined, { count: false });
    const tasks = summarize(rows, now, ctx.actor);
    if (tasks.length > 0) return { tasks, hasMore: more };
    // Empty queue: explain what blocks the todo work (counted over all of it by the engine).
    const work = await tx.openWorkCounts({ ...base, categories: ['todo'] }, { topBlockers: 3, blocked: 0 });
    const count = work.groups.reduce((n, g) => n + g.waiting, 0);
    const topBlockers = work.topBlockers.map((b) => b.id);
    return { tasks, hasMore: false, blocked: { count, topBlockers } };
  });
}
