/** Working a task: claim, release, complete, dependencies, checklist, comments, board overview. */
import * as z from 'zod';
import { lazy } from '../core/model/lazy.js';
import { BoardInput, boardOverview } from '../core/services/board.js';
import { UpdateChecklistInput, updateChecklist } from '../core/services/checklist.js';
import { ClaimNextInput, claimNext, ClaimTaskInput, claimTask, ReleaseTaskInput, releaseTask } from '../core/services/claims.js';
import { AddCommentInput, addComment } from '../core/services/comments.js';
import { addDependency, DependencyInput, removeDependency } from '../core/services/dependencies.js';
import { CompleteTaskInput, completeTask } from '../core/services/lifecycle.js';
import { Task } from '../core/model/task.js';
import { defineOp, withDefaultProject } from './op.js';
import { TaskOut } from './schemas.js';

export const claimTaskOp = defineOp({
  name: 'claim_task',
  toolset: 'tasks',
  title: 'Claim a task',
  description: 'Lease a task: until it ends only you change it (others may comment); todo moves to in progress. Claim again to renew.',
  input: ClaimTaskInput,
  output: TaskOut,
  paramToolsets: { takeover: 'coordination' },
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:id/claim' },
  run: async (ctx, input) => ({ task: await claimTask(ctx, input) }),
});

export const claimNextOp = defineOp({
  name: 'claim_next',
  toolset: 'tasks',
  title: 'Claim the next ready task',
  description: 'Claim the first ready task atomically: concurrent callers never get the same one. task is null when none is ready.',
  input: ClaimNextInput,
  output: () =>
    z.object({
      task: Task().nullable(),
      skipped: z.array(z.object({ id: z.string(), reservedBy: z.array(z.object({ task: z.string(), holder: z.string(), paths: z.array(z.string()) })) })).optional(),
    }),
  paramToolsets: { avoidOverlap: 'coordination' },
  readOnly: false,
  rest: { method: 'POST', path: '/claims/next' },
  run: (ctx, input) => claimNext(ctx, withDefaultProject(ctx, input)),
});

export const releaseTaskOp = defineOp({
  name: 'release_task',
  toolset: 'tasks',
  title: 'Release a claim',
  description: 'Give up a claim you will not finish; in-progress work goes back to the first todo lane.',
  input: ReleaseTaskInput,
  output: TaskOut,
  paramToolsets: { force: 'coordination' },
  readOnly: false,
  rest: { method: 'POST', path: '/tasks/:id/release' },
  run: async (ctx, input) => ({ task: await releaseTask(ctx, input) }),
});

export const completeTaskOp = defineOp({
  name: 'complete_task',
  toolset: 'tasks',
  title: 'Complete a task',
  description: 'Mark it done and release the claim. nowReady: the tasks this unblocked.',
  input: CompleteTaskInput,
  output: () => z.object({ task: Task(), nowReady: z.array(z.string()).describe('Tasks that became ready because of this') }),
  paramToolsets: { evidence: 'coordination' },
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:id/complete' },
  run: (ctx, input) => completeTask(ctx, input),
});

export const addDependencyOp = defineOp({
  name: 'add_dependency',
  toolset: 'tasks',
  title: 'Add a blocker',
  description: 'taskId cannot start until blockedBy is done. Refuses cycles (CYCLE_DETECTED names the loop).',
  input: DependencyInput,
  output: TaskOut,
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:taskId/dependencies' },
  run: async (ctx, input) => ({ task: await addDependency(ctx, input) }),
});

export const removeDependencyOp = defineOp({
  name: 'remove_dependency',
  toolset: 'tasks',
  title: 'Remove a blocker',
  description: 'Remove the edge "taskId is blocked by blockedBy".',
  input: DependencyInput,
  output: TaskOut,
  readOnly: false,
  idempotent: false,
  rest: { method: 'DELETE', path: '/tasks/:taskId/dependencies/:blockedBy' },
  run: async (ctx, input) => ({ task: await removeDependency(ctx, input) }),
});

export const updateChecklistOp = defineOp({
  name: 'update_checklist',
  toolset: 'tasks',
  title: 'Update a checklist',
  description: 'Checklist ops, in order, all or nothing: add {text, index?}, check/uncheck/toggle/remove {index}, edit {index, text}.',
  input: UpdateChecklistInput,
  output: TaskOut,
  readOnly: false,
  rest: { method: 'POST', path: '/tasks/:id/checklist' },
  run: async (ctx, input) => ({ task: await updateChecklist(ctx, input) }),
});

export const addCommentOp = defineOp({
  name: 'add_comment',
  toolset: 'tasks',
  title: 'Comment on a task',
  description: 'Add a markdown comment: notes for whoever comes next.',
  input: AddCommentInput,
  output: TaskOut,
  readOnly: false,
  rest: { method: 'POST', path: '/tasks/:id/comments' },
  run: async (ctx, input) => ({ task: await addComment(ctx, input) }),
});

const Bucket = lazy(() => z.object({ count: z.number(), checklistDone: z.number(), checklistTotal: z.number(), completionRate: z.number() }));
export const BoardOut = lazy(() =>
  z.object({
    project: z.string().nullable(),
    lanes: z.array(
      Bucket().extend({
        status: z.string(),
        displayName: z.string(),
        category: z.string(),
        color: z.string(),
        priorityBreakdown: z.record(z.string(), z.number()),
        cards: z.array(
          z.object({
            id: z.string(),
            title: z.string(),
            priority: z.string(),
            assignee: z.string().nullable(),
            isReady: z.boolean(),
            blockedBy: z.array(z.string()),
            openBlockers: z.array(z.string()),
            checklistProgress: z.object({ done: z.number(), total: z.number() }),
          }),
        ),
      }),
    ),
    byCategory: z.record(z.string(), Bucket()),
    byPriority: z.record(z.string(), Bucket().extend({ done: z.number(), doneRate: z.number() })),
    byAssignee: z.record(z.string(), Bucket()),
    summary: z.object({
      totalTasks: z.number(),
      doneTasks: z.number(),
      doneRate: z.number(),
      checklistDone: z.number(),
      checklistTotal: z.number(),
      completionRate: z.number(),
      readyTasks: z.number(),
    }),
    blocked: z.array(z.object({ id: z.string(), title: z.string(), blockedBy: z.array(z.string()), openBlockers: z.array(z.string()) })).describe('The first 20 blocked tasks in ready order'),
    blockedCount: z.number().int().describe('All blocked tasks: in a blocked lane, or waiting on open blockers in todo or backlog'),
    inProgressByAssignee: z.record(z.string(), z.array(z.string())).describe('In-progress task ids per assignee (the first 500)'),
    inProgressCounts: z.record(z.string(), z.number().int()).describe('All in-progress tasks per assignee'),
  }),
);

export const boardOverviewOp = defineOp({
  name: 'board_overview',
  toolset: 'tasks',
  title: 'Board overview',
  description: 'The board at a glance: lanes, counts, top cards, blocked tasks, who works on what. Start a session here.',
  input: BoardInput,
  output: BoardOut,
  paramToolsets: { includeArchived: 'history' },
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/board' },
  run: (ctx, input) => boardOverview(ctx, withDefaultProject(ctx, input)),
});
