/** Reading and writing tasks: list, get, search, next, create, update. */
import * as z from 'zod';
import { CairnError } from '../core/errors.js';
import { ListedTask } from '../core/model/task.js';
import { withDetails } from '../core/services/details.js';
import { NextTasksInput, nextTasks } from '../core/services/ready.js';
import { SearchTasksInput, searchTasks } from '../core/services/search.js';
import { CreateTaskInput, createTask, GetTaskInput, getTask, ListTasksInput, listTasks, UpdateTaskInput, updateTask } from '../core/services/tasks.js';
import { defineOp, withDefaultProject } from './op.js';
import { TaskListOut, TaskOut } from './schemas.js';

export const listTasksOp = defineOp({
  name: 'list_tasks',
  toolset: 'tasks',
  title: 'List tasks',
  description: 'Filtered tasks, open ones unless includeDone, as compact rows (fields adds more); page with cursor. get_task for detail, next_tasks to pick work.',
  input: ListTasksInput,
  output: TaskListOut,
  paramToolsets: { updatedSince: 'history', includeArchived: 'history', deleted: 'history', labelsAll: 'admin', substatus: 'admin', slug: 'admin', sort: 'admin' },
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/tasks' },
  run: async (ctx, input) => {
    const page = await listTasks(ctx, withDefaultProject(ctx, input));
    return { ...page, tasks: await withDetails(ctx, page.tasks, input.include) };
  },
});

export const getTaskOp = defineOp({
  name: 'get_task',
  toolset: 'tasks',
  title: 'Get a task',
  description: 'Full task by id (API-12): description, checklist, comments, links, dependencies, version.',
  input: GetTaskInput,
  output: TaskOut,
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/tasks/:id' },
  run: async (ctx, input) => ({ task: await getTask(ctx, input) }),
});

export const searchTasksOp = defineOp({
  name: 'search_tasks',
  toolset: 'tasks',
  title: 'Search tasks',
  description: 'Ranked search of titles, labels, descriptions, comments, checklists ("phrase", prefix*). Search before creating a task.',
  input: SearchTasksInput,
  output: () =>
    z.object({
      results: z.array(z.object({ task: ListedTask(), matchedFields: z.array(z.string()), excerpt: z.string(), rank: z.number() })),
      total: z.number().int(),
      nextCursor: z.string().nullable(),
    }),
  paramToolsets: { includeArchived: 'history', category: 'admin', kind: 'admin', assignee: 'admin' },
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/search' },
  run: async (ctx, input) => {
    const out = await searchTasks(ctx, withDefaultProject(ctx, input));
    if (!input.include?.length) return out;
    const tasks = await withDetails(
      ctx,
      out.results.map((r) => r.task),
      input.include,
    );
    return { ...out, results: out.results.map((r, i) => ({ ...r, task: tasks[i]! })) };
  },
});

export const nextTasksOp = defineOp({
  name: 'next_tasks',
  toolset: 'tasks',
  title: 'Next ready tasks',
  description: 'The ready queue: todo tasks whose blockers are done and that no one else holds, best first. When empty, says what blocks.',
  input: NextTasksInput,
  output: () =>
    z.object({
      tasks: z.array(ListedTask()),
      hasMore: z.boolean().describe('More tasks are ready than limit'),
      blocked: z.object({ count: z.number().int(), topBlockers: z.array(z.string()) }).optional(),
    }),
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/ready' },
  run: async (ctx, input) => {
    const out = await nextTasks(ctx, withDefaultProject(ctx, input));
    return { ...out, tasks: await withDetails(ctx, out.tasks, input.include) };
  },
});

export const createTaskOp = defineOp({
  name: 'create_task',
  toolset: 'tasks',
  title: 'Create a task',
  description: 'Create a task (default status: the first todo lane). Returns it with its new id (KEY-N).',
  input: () => CreateTaskInput().extend({ project: CreateTaskInput().shape.project.optional() }),
  output: TaskOut,
  paramToolsets: { anchors: 'coordination', touches: 'coordination', links: 'coordination', origin: 'handoff', documentPath: 'handoff', score: 'admin', substatus: 'admin', slug: 'admin' },
  readOnly: false,
  rest: { method: 'POST', path: '/tasks' },
  run: async (ctx, input) => {
    const { project, ...rest } = withDefaultProject(ctx, input);
    return { task: await createTask(ctx, { ...rest, project: requireProject(project, 'create_task') }) };
  },
});

export const updateTaskOp = defineOp({
  name: 'update_task',
  toolset: 'tasks',
  title: 'Update a task',
  description: 'Change only the fields given; status and position move it on the board. expectedVersion refuses a stale write.',
  input: UpdateTaskInput,
  output: TaskOut,
  paramToolsets: { anchors: 'coordination', touches: 'coordination', links: 'coordination', documentPath: 'handoff', score: 'admin', substatus: 'admin', slug: 'admin' },
  readOnly: false,
  idempotent: true,
  rest: { method: 'PATCH', path: '/tasks/:id' },
  run: async (ctx, input) => ({ task: await updateTask(ctx, input) }),
});

function requireProject(project: string | undefined, op: string): string {
  if (project) return project;
  throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op}: project is required (no default project is set for this session).`, {
    suggestions: [
      'Pass project: "<KEY>"; list_projects shows the keys',
      'Or root the project at the repository: update_project {key: "<KEY>", root: "<repository path>"}: sessions started inside it then default to it',
    ],
  });
}
