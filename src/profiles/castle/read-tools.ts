/** Castle's read tools (seeds 000 and 001): list, get (by id or title), search, summary. Read-only, so hosts may auto-approve them. */
import * as z from 'zod';
import { CairnError } from '../../core/errors.js';
import { KINDS } from '../../core/model/task.js';
import { CASTLE_STATES } from './template.js';
import type { ProfileCall, ProfileTool } from '../profile.js';
import { castleIdOf, formatTaskDetail, formatTaskList, researchOf, truncate } from './format.js';

const State = z.enum(CASTLE_STATES).describe('Filter by task state');
const CastleKind = z.enum(['feature', 'bug', 'chore', 'spike']).describe('Filter by task kind');

/** Castle shows a project's tasks; allProjects (or no project at all) shows every project's. */
/** What a Castle list row shows beyond a summary: its description, its PR and its Castle id (origin). */
const CASTLE_ROW = ['description', 'links', 'origin'] as const;

async function scope(call: ProfileCall, allProjects: boolean): Promise<{ project?: string; allProjects?: true } | null> {
  if (allProjects) return { allProjects: true };
  const project = await call.project();
  if (project) return { project };
  // A host that names a project directory with no project rooted there sees that directory's tasks: none.
  return call.env.CASTLE_PROJECT_PATH ? null : { allProjects: true };
}

/** Seed 001's task summary: its fields, the description cut as Castle cuts long text. */
const summaryJson = (t: { id: string; title: string; status: string; kind: string; labels: string[]; createdAt: string; updatedAt: string }, description?: string) => ({
  id: t.id,
  title: t.title,
  state: t.status,
  kind: t.kind,
  labels: t.labels,
  ...(description !== undefined ? { description: truncate(description) } : {}),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

/** Castle's own id (castleId) beside Cairn's, for a task that is a Castle row. */
const withCastleId = <T extends object>(json: T, origin: string | null | undefined): T & { castleId?: string } => {
  const castleId = castleIdOf(origin);
  return castleId ? { ...json, castleId } : json;
};

const listTasks: ProfileTool = {
  name: 'castle_list_tasks',
  title: 'List Castle tasks',
  description: 'List Castle project tasks, optionally filtered by state or kind. Returns title, state, kind, labels, PR and ID, most recently updated first; done tasks only with include_done.',
  input: z.object({
    state: State.optional(),
    kind: CastleKind.optional(),
    include_done: z.boolean().optional().describe('Include completed tasks (default: false)'),
    allProjects: z.boolean().optional().describe('All projects, not just the current one'),
    limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 50)'),
  }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { state?: string; kind?: string; include_done?: boolean; allProjects?: boolean; limit?: number }) {
    const where = await scope(call, input.allProjects === true);
    if (!where) return { content: ['No tasks found.'], structured: { tasks: [], total: 0 } };
    const page = await call.op('list_tasks', {
      ...where,
      sort: 'updated',
      limit: input.limit ?? 50,
      includeDone: input.include_done === true || input.state === 'done',
      ...(input.state ? { status: input.state } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      // Castle's list line shows the PR and its rows carry the description: the list brings them along.
      include: [...CASTLE_ROW],
    });
    const text = formatTaskList(
      page.tasks,
      page.total,
      undefined,
      (t) => t.links?.prUrl,
      (t) => t.origin,
    );
    return { content: [text], structured: { tasks: page.tasks.map((t) => withCastleId(summaryJson(t, t.description), t.origin)), total: page.total } };
  },
};

const getTask: ProfileTool = {
  name: 'castle_get_task',
  title: 'Get a Castle task',
  description: 'Get full details of a Castle task by ID, or by a title search: description, research content, labels, branch, worktree, PR status, GitHub issue, close reason.',
  input: z.object({
    taskId: z.string().min(1).max(200).optional().describe('The task ID'),
    search: z.string().min(1).max(500).optional().describe('Search by title'),
  }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { taskId?: string; search?: string }) {
    let id = input.taskId;
    if (!id && input.search) {
      const where = await scope(call, false);
      const { results } = where ? await call.op('search_tasks', { query: input.search, limit: 1, ...where }) : { results: [] };
      if (!results.length) {
        throw new CairnError('TASK_NOT_FOUND', `No task matches "${input.search}".`, { suggestions: ['castle_list_tasks to see every task', 'castle_search_tasks with another word'] });
      }
      id = results[0]!.task.id;
    }
    if (!id)
      throw new CairnError('VALIDATION_ERROR', 'Invalid arguments for castle_get_task: give taskId or search.', {
        suggestions: ['castle_get_task {taskId: "CASTLE-1"}', 'castle_get_task {search: "dark mode"}'],
      });
    const { task } = await call.op('get_task', { id });
    const research = researchOf(task);
    return {
      content: [formatTaskDetail(task)],
      structured: {
        task: {
          ...withCastleId(summaryJson(task), task.origin),
          description: truncate(task.description),
          researchContent: research ? truncate(research) : null,
          branchName: task.links.branch ?? null,
          worktreePath: task.links.worktree ?? null,
          prUrl: task.links.prUrl ?? null,
          prNumber: task.links.prNumber ?? null,
          prState: task.links.prState ?? null,
          githubIssue: task.links.issue ?? null,
          closeReason: task.closeReason,
        },
      },
    };
  },
};

const searchTasks: ProfileTool = {
  name: 'castle_search_tasks',
  title: 'Search Castle tasks',
  description: 'Search Castle tasks by keyword in title or description (also labels, comments and checklists), best matches first.',
  input: z.object({ query: z.string().min(1).max(500).describe('Search term') }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { query: string }) {
    const where = await scope(call, false);
    if (!where) return { content: ['No tasks found.'], structured: { tasks: [], total: 0 } };
    const { results, total } = await call.op('search_tasks', { query: input.query, limit: 20, ...where, include: [...CASTLE_ROW] });
    const tasks = results.map((r) => r.task);
    const text = formatTaskList(
      tasks,
      total,
      `Tasks matching "${input.query}"`,
      (t) => t.links?.prUrl,
      (t) => t.origin,
    );
    return { content: [text], structured: { tasks: tasks.map((t) => withCastleId(summaryJson(t, t.description), t.origin)), total } };
  },
};

const taskSummary: ProfileTool = {
  name: 'castle_task_summary',
  title: 'Castle task summary',
  description: 'Summary of Castle tasks: total, counts by state and by kind, and the most recently updated tasks.',
  input: z.object({}),
  readOnly: true,
  idempotent: true,
  async run(call) {
    const where = await scope(call, false);
    if (!where) return { content: ['No tasks found.'], structured: { total: 0, byState: {}, byKind: {}, recent: [] } };
    const board = await call.op('get_progress', where);
    const byState: Record<string, number> = {};
    for (const lane of board.lanes) if (lane.count) byState[lane.status] = lane.count;
    const byKind: Record<string, number> = {};
    // Exact counts from the list totals (one indexed count per kind), whatever the workspace's size.
    for (const kind of KINDS) {
      const { total } = await call.op('list_tasks', { ...where, kind, includeDone: true, limit: 1 });
      if (total) byKind[kind] = total;
    }
    const { tasks: recent } = await call.op('list_tasks', { ...where, includeDone: true, sort: 'updated', limit: 5 });
    const total = board.summary.totalTasks;
    if (!total) return { content: ['No tasks found.'], structured: { total: 0, byState, byKind, recent: [] } };
    const counts = (r: Record<string, number>) =>
      Object.entries(r)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
    const text = [
      `## Castle Task Summary (${total})`,
      `**By state:** ${counts(byState)}`,
      `**By kind:** ${counts(byKind)}`,
      '',
      '### Recent activity',
      ...recent.map((t) => `- ${t.updatedAt} **${t.title}** (${t.status}) ID: ${t.id}`),
    ].join('\n');
    return { content: [text], structured: { total, byState, byKind, recent: recent.map((t) => summaryJson(t)) } };
  },
};

/**
 * Seeds 000 and 001 disagree on the text a tool answers: 000 formats markdown, 001 returns JSON. The
 * markdown is the default; `format: "json"` gives seed 001's JSON as the text (the same JSON is
 * always the structured content).
 */
function withFormat(tool: ProfileTool, pick: (structured: Record<string, unknown>) => unknown): ProfileTool {
  return {
    ...tool,
    input: tool.input.extend({ format: z.enum(['markdown', 'json']).optional().describe("markdown (seed 000, default) or json (seed 001's JSON as the text)") }),
    async run(call, input: { format?: string }) {
      const out = await tool.run(call, input);
      return input.format === 'json' && !out.isError && out.structured ? { ...out, content: [JSON.stringify(pick(out.structured), null, 2)] } : out;
    },
  };
}

export const castleReadTools: readonly ProfileTool[] = [
  withFormat(listTasks, (s) => s.tasks),
  withFormat(getTask, (s) => s.task),
  withFormat(searchTasks, (s) => s.tasks),
  withFormat(taskSummary, ({ total, byState, byKind }) => ({ total, byState, byKind })),
];
