/** tx's tools (seed 002, "MCP Tool Definitions"), each a reshaping of one or two native ops. */
import * as z from 'zod';
import { CairnError } from '../../core/errors.js';
import { TX_STATUSES } from './template.js';
import type { ProfileCall, ProfileTool } from '../profile.js';
import { answer, none, TaskWithDeps, WITH_DEPS, withDeps } from './task-with-deps.js';

export { TX_STATUSES };
const Status = z.enum(TX_STATUSES);
const Id = z.string().min(1).max(200);
const TaskOut = z.object({ task: TaskWithDeps });

/**
 * A task as tx sees it: a deleted one is gone (tx deletes for good; Cairn keeps it restorable by
 * the native restore_task, which tx has no tool for).
 */
async function liveTask(call: ProfileCall, id: string) {
  const { task } = await call.op('get_task', { id });
  if (task.deletedAt) {
    throw new CairnError('TASK_NOT_FOUND', `Task ${id} not found: it was deleted.`, { suggestions: ['tx_list to see the tasks there are'] });
  }
  return task;
}

/** Reads look in the session's project, or across all when the workspace has several and none is chosen. */
const where = async (call: ProfileCall) => {
  const project = await call.project();
  return project ? { project } : { allProjects: true };
};

const txReady: ProfileTool = {
  name: 'tx_ready',
  title: 'Ready tasks',
  description: 'Get tasks that are ready to work on (no open blockers).\nReturns the highest-priority unblocked tasks with full dependency information including blockedBy, blocks, and children.',
  input: z.object({ limit: z.number().int().min(1).max(20).default(5) }),
  output: z.object({ tasks: z.array(TaskWithDeps) }),
  // The seed's Agent SDK tool bounds limit at 10 and returns TaskWithDeps[].
  inProcess: { input: z.object({ limit: z.number().int().min(1).max(10).default(5) }), value: (s: { tasks: unknown[] }) => s.tasks },
  readOnly: true,
  idempotent: true,
  async run(call, input: { limit: number }) {
    const tasks = (await call.op('next_tasks', { ...(await where(call)), limit: input.limit, include: [...WITH_DEPS] })).tasks.map(withDeps);
    const text =
      tasks.length === 0
        ? 'No ready tasks.'
        : `${tasks.length} ready task(s):\n${tasks.map((t) => `- ${t.id} [${t.score}]: ${t.title}\n  blocked by: ${none(t.blockedBy)}\n  blocks: ${none(t.blocks)}`).join('\n')}`;
    return answer(text, { tasks });
  },
};

const txShow: ProfileTool = {
  name: 'tx_show',
  title: 'Show a task',
  description: 'Get detailed information about a task including all dependencies.\nReturns blockedBy (what blocks this task), blocks (what this task blocks), children, and isReady status.',
  input: z.object({ id: Id }),
  output: TaskOut,
  inProcess: { value: (s: { task: unknown }) => s.task },
  readOnly: true,
  idempotent: true,
  async run(call, input: { id: string }) {
    const task = withDeps(await liveTask(call, input.id));
    const text = [
      `Task: ${task.id}`,
      `Title: ${task.title}`,
      `Status: ${task.status}`,
      `Score: ${task.score}`,
      `Ready: ${task.isReady}`,
      `Blocked by: ${none(task.blockedBy)}`,
      `Blocks: ${none(task.blocks)}`,
      `Children: ${none(task.children)}`,
    ].join('\n');
    return answer(text, { task });
  },
};

const txList: ProfileTool = {
  name: 'tx_list',
  title: 'List tasks',
  description: 'List tasks with optional filtering (status, parentId). Includes full dependency information.',
  input: z.object({ status: Status.optional(), parentId: Id.optional(), limit: z.number().int().min(1).max(100).default(20) }),
  output: z.object({ tasks: z.array(TaskWithDeps), total: z.number() }),
  inProcess: { value: (s: { tasks: unknown[] }) => s.tasks },
  readOnly: true,
  idempotent: true,
  async run(call, input: { status?: string; parentId?: string; limit: number }) {
    const page = await call.op('list_tasks', {
      ...(await where(call)),
      includeDone: true,
      sort: 'id',
      limit: input.limit,
      include: [...WITH_DEPS],
      ...(input.status ? { status: input.status } : {}),
      ...(input.parentId ? { parentId: input.parentId } : {}),
    });
    const tasks = page.tasks.map(withDeps);
    const text = tasks.length === 0 ? 'No tasks found.' : `${page.total} task(s):\n${tasks.map((t) => `- ${t.id} [${t.status}] ${t.title} (score: ${t.score})`).join('\n')}`;
    return answer(text, { tasks, total: page.total });
  },
};

const txAdd: ProfileTool = {
  name: 'tx_add',
  title: 'Add a task',
  description: 'Create a new task. Returns the created task with dependency info.',
  input: z.object({
    title: z.string().min(1).max(200),
    description: z.string().max(100_000).optional(),
    parentId: Id.optional(),
    score: z.number().min(-1e9).max(1e9).default(0),
  }),
  output: TaskOut,
  inProcess: { value: (s: { task: unknown }) => s.task },
  readOnly: false,
  async run(call, input: { title: string; description?: string; parentId?: string; score: number }) {
    const project = await call.project({ create: true });
    const { task } = await call.op('create_task', { project, ...input });
    return answer(`Created: ${task.id} - ${task.title}`, { task: withDeps(task) });
  },
};

const txDone: ProfileTool = {
  name: 'tx_done',
  title: 'Complete a task',
  description: 'Mark a task as complete. Returns the completed task and list of tasks now unblocked (nowReady).',
  input: z.object({ id: Id }),
  output: z.object({ task: TaskWithDeps, nowReady: z.array(z.string()).describe('Task IDs now unblocked by completing this task') }),
  readOnly: false,
  async run(call, input: { id: string }) {
    const { task, nowReady } = await call.op('complete_task', { id: input.id });
    const text = `Completed: ${task.id} - ${task.title}${nowReady.length > 0 ? `\nNow unblocked: ${nowReady.join(', ')}` : ''}`;
    return answer(text, { task: withDeps(task), nowReady });
  },
};

const txUpdate: ProfileTool = {
  name: 'tx_update',
  title: 'Update a task',
  description: "Update a task's status, score, or details. Returns updated task with dependency info.",
  input: z.object({
    id: Id,
    status: Status.optional(),
    score: z.number().min(-1e9).max(1e9).optional(),
    title: z.string().min(1).max(200).optional(),
    description: z.string().max(100_000).optional(),
  }),
  output: TaskOut,
  readOnly: false,
  idempotent: true,
  async run(call, input: { id: string; status?: string }) {
    const { task } = await call.op('update_task', input);
    return answer(`Updated: ${task.id} - ${task.title} [${task.status}]`, { task: withDeps(task) });
  },
};

const Edge = z.object({ taskId: Id.describe('Task that will be blocked'), blockerId: Id.describe('Task that does the blocking') });

const txBlock: ProfileTool = {
  name: 'tx_block',
  title: 'Add a blocker',
  description: 'Add a blocking dependency (refused if it would make a cycle). Returns the blocked task with updated dependency info.',
  input: Edge,
  output: z.object({ success: z.boolean(), task: TaskWithDeps.describe('Updated blocked task showing new dependency') }),
  readOnly: false,
  idempotent: true,
  async run(call, input: { taskId: string; blockerId: string }) {
    const { task } = await call.op('add_dependency', { taskId: input.taskId, blockedBy: input.blockerId });
    return answer(`${input.blockerId} now blocks ${task.id}\nBlocked by: ${task.blockedBy.join(', ')}`, { success: true, task: withDeps(task) });
  },
};

const txUnblock: ProfileTool = {
  name: 'tx_unblock',
  title: 'Remove a blocker',
  description: 'Remove a blocking dependency.',
  input: Edge,
  output: z.object({ success: z.boolean() }),
  readOnly: false,
  idempotent: true,
  async run(call, input: { taskId: string; blockerId: string }) {
    await call.op('remove_dependency', { taskId: input.taskId, blockedBy: input.blockerId });
    return answer(`${input.blockerId} no longer blocks ${input.taskId}`, { success: true });
  },
};

const txChildren: ProfileTool = {
  name: 'tx_children',
  title: 'Child tasks',
  description: 'List child tasks with dependency info.',
  input: z.object({ id: Id }),
  output: z.object({ children: z.array(TaskWithDeps) }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { id: string }) {
    const task = await liveTask(call, input.id);
    // tx answers with every child: page through them all rather than stop at one page.
    const kids = [];
    for (let cursor: string | undefined, first = true; task.children.length > 0 && (first || cursor); first = false) {
      const page = await call.op('list_tasks', {
        parentId: task.id,
        allProjects: true,
        includeDone: true,
        includeArchived: true,
        sort: 'id',
        limit: 200,
        include: [...WITH_DEPS],
        ...(cursor ? { cursor } : {}),
      });
      kids.push(...page.tasks);
      cursor = page.nextCursor ?? undefined;
    }
    const children = kids.map(withDeps);
    const text = children.length === 0 ? 'No children.' : `${children.length} child task(s):\n${children.map((c) => `- ${c.id} [${c.status}] ${c.title}`).join('\n')}`;
    return answer(text, { children });
  },
};

const txDelete: ProfileTool = {
  name: 'tx_delete',
  title: 'Delete a task',
  description: 'Delete a task (soft: it stops blocking others and leaves lists).',
  input: z.object({ id: Id }),
  output: z.object({ success: z.boolean(), id: z.string() }),
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(call, input: { id: string }) {
    const { task } = await call.op('delete_task', { id: input.id });
    return answer(`Deleted: ${task.id}`, { success: true, id: task.id });
  },
};

export const txTools: readonly ProfileTool[] = [txReady, txShow, txList, txAdd, txDone, txUpdate, txBlock, txUnblock, txChildren, txDelete];
