/** History and housekeeping: task history, archive, delete/restore/purge, progress, labels, the change feed. */
import * as z from 'zod';
import { ActivityEvent } from '../core/model/activity.js';
import { ChangesSinceInput, changesSince, HistoryInput, taskHistory } from '../core/services/activity.js';
import { BoardInput, boardOverview } from '../core/services/board.js';
import { ListLabelsInput, listLabels } from '../core/services/comments.js';
import { ArchiveTaskInput, archiveTask, DeleteTaskInput, deleteTask, PurgeTaskInput, purgeTask, restoreTask } from '../core/services/lifecycle.js';
import { defineOp, withDefaultProject } from './op.js';
import { TaskOut } from './schemas.js';
import { BoardOut } from './work-ops.js';

export const taskHistoryOp = defineOp({
  name: 'task_history',
  toolset: 'history',
  title: 'Task history',
  description: 'Who changed what on a task and when: the newest events (limit), oldest first, each with actor, type and before/after of changed fields; hasMore when older ones exist.',
  input: HistoryInput,
  output: () => z.object({ taskId: z.string(), events: z.array(ActivityEvent()), hasMore: z.boolean() }),
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/tasks/:id/history' },
  run: (ctx, input) => taskHistory(ctx, input),
});

export const archiveTaskOp = defineOp({
  name: 'archive_task',
  toolset: 'history',
  title: 'Archive a task',
  description: 'Hide a task from lists and the ready queue without deleting it (restore: true un-archives).',
  input: ArchiveTaskInput,
  output: TaskOut,
  readOnly: false,
  destructive: true,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:id/archive' },
  run: async (ctx, input) => ({ task: await archiveTask(ctx, input) }),
});

export const deleteTaskOp = defineOp({
  name: 'delete_task',
  toolset: 'history',
  title: 'Delete a task',
  description: 'Soft-delete a task: it leaves lists and stops blocking others; restore_task brings it back with its dependencies. Nothing is erased.',
  input: DeleteTaskInput,
  output: TaskOut,
  readOnly: false,
  destructive: true,
  idempotent: true,
  rest: { method: 'DELETE', path: '/tasks/:id' },
  run: async (ctx, input) => ({ task: await deleteTask(ctx, input) }),
});

export const getProgressOp = defineOp({
  name: 'get_progress',
  toolset: 'history',
  title: 'Project progress',
  description: 'Completion statistics by lane, category, priority and assignee, with overall done and checklist rates.',
  input: () => BoardInput().omit({ cardsPerLane: true }),
  output: BoardOut,
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/progress' },
  run: (ctx, input) => boardOverview(ctx, { ...withDefaultProject(ctx, input), cardsPerLane: 0 }),
});

export const restoreTaskOp = defineOp({
  name: 'restore_task',
  toolset: 'admin',
  title: 'Restore a deleted task',
  description: 'Undo delete_task: the task returns with its dependencies and children.',
  input: DeleteTaskInput,
  output: TaskOut,
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:id/restore' },
  run: async (ctx, input) => ({ task: await restoreTask(ctx, input) }),
});

export const purgeTaskOp = defineOp({
  name: 'purge_task',
  toolset: 'admin',
  title: 'Purge a deleted task',
  description: 'Permanently erase a task that is already deleted (confirm: true required). Its edges go; children are detached. Cannot be undone.',
  input: PurgeTaskInput,
  output: () => z.object({ purged: z.string() }),
  readOnly: false,
  destructive: true,
  rest: { method: 'POST', path: '/tasks/:id/purge' },
  run: (ctx, input) => purgeTask(ctx, input),
});

export const listLabelsOp = defineOp({
  name: 'list_labels',
  toolset: 'admin',
  title: 'List labels',
  description: 'Every label in use with how many tasks carry it, most used first.',
  input: ListLabelsInput,
  output: () => z.object({ labels: z.array(z.object({ label: z.string(), count: z.number().int() })) }),
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/labels' },
  run: (ctx, input) => listLabels(ctx, withDefaultProject(ctx, input)),
});

export const changesSinceOp = defineOp({
  name: 'changes_since',
  toolset: 'admin',
  title: 'Changes since',
  description: 'The activity feed after a sequence number (0 = from the start): what live views follow. Returns events, lastSeq to pass next time, headSeq (the newest event) and hasMore.',
  input: ChangesSinceInput,
  output: () => z.object({ events: z.array(ActivityEvent()), lastSeq: z.number().int(), headSeq: z.number().int(), hasMore: z.boolean() }),
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/changes' },
  run: (ctx, input) => changesSince(ctx, input),
});
