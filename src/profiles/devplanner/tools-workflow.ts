/** DevPlanner's smart/workflow tools (seed 004, tools 11–17): board overview, next tasks, batch updates, search, content, progress, archive. */
import * as z from 'zod';
import { PRIORITIES, type TaskSummary } from '../../core/model/task.js';
import type { OpOutput, ProfileCall, ProfileTool } from '../profile.js';
import { cairnPriorities, cardProgress, cardSlugOf, cardSummary, dpPriority, fullCard, json, rate, taskItem, type Lane } from './cards.js';
import { editTasks, moveCard } from './tools-crud.js';
import { allCards, getCardTask, projectSlugOf, resolveProject, type ProjectRef as Project } from './projects.js';
import { AssigneeArg, CardSlug, Content, LaneArg, ProjectSlug, TaskIndex } from './schemas.js';

const projectArg = { projectSlug: ProjectSlug.describe('Project identifier') };
const cardArgs = { ...projectArg, cardSlug: CardSlug.describe('Card identifier') };

type Board = OpOutput<'board_overview'>;
type Bucket = { count: number; checklistDone: number; checklistTotal: number };

/** DevPlanner's three priorities from Cairn's five: urgent counts as high; "none" is added only when some card has no priority. */
function byDpPriority<T>(buckets: Partial<Record<string, Bucket>>, shape: (b: Bucket) => T): Record<string, T> {
  const sum = (names: string[]): Bucket =>
    names.reduce(
      (a, n) => ({
        count: a.count + (buckets[n]?.count ?? 0),
        checklistDone: a.checklistDone + (buckets[n]?.checklistDone ?? 0),
        checklistTotal: a.checklistTotal + (buckets[n]?.checklistTotal ?? 0),
      }),
      { count: 0, checklistDone: 0, checklistTotal: 0 },
    );
  // Exactly the seed's keys: a card without a priority counts in none of them, as in DevPlanner.
  return { high: shape(sum(['high', 'urgent'])), medium: shape(sum(['medium'])), low: shape(sum(['low'])) };
}

async function boardOf(call: ProfileCall, p: Project): Promise<Board> {
  return call.op('board_overview', { project: p.key, cardsPerLane: 0 });
}

/** Lanes in the project's order, each with its native counts (every lane listed, also when empty). */
const lanesIn = (p: Project, board: Board) => p.statuses.map((s) => ({ status: s, lane: board.lanes.find((l) => l.status === s.name) }));

const getBoardOverview: ProfileTool = {
  name: 'get_board_overview',
  title: 'Get board overview',
  description:
    'Get a comprehensive board summary with all lanes, card counts, task progress statistics, and priority breakdowns. This is designed to give an LLM maximum context in a single call, ideal for agents to understand the full state of a project before starting work.',
  input: z.object(projectArg),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string }) {
    const p = await resolveProject(call, input.projectSlug);
    const board = await boardOf(call, p);
    const lanes = Object.fromEntries(
      lanesIn(p, board).map(({ status, lane }) => {
        const breakdown = lane?.priorityBreakdown ?? {};
        const priorities = byDpPriority(Object.fromEntries(Object.entries(breakdown).map(([k, n]) => [k, { count: n, checklistDone: 0, checklistTotal: 0 }])), (b) => b.count);
        return [
          status.name,
          {
            displayName: status.displayName,
            color: status.color,
            cardCount: lane?.count ?? 0,
            taskStats: { total: lane?.checklistTotal ?? 0, completed: lane?.checklistDone ?? 0, completionRate: rate(lane?.checklistDone ?? 0, lane?.checklistTotal ?? 0) },
            priorityBreakdown: priorities,
          },
        ];
      }),
    );
    const s = board.summary;
    return json({
      project: { slug: projectSlugOf(p), name: p.name, description: p.description },
      lanes,
      summary: { totalCards: s.totalTasks, totalTasks: s.checklistTotal, completedTasks: s.checklistDone, overallCompletionRate: rate(s.checklistDone, s.checklistTotal) },
    });
  },
};

const getNextTasks: ProfileTool = {
  name: 'get_next_tasks',
  title: 'Get next tasks',
  description:
    'Get all uncompleted tasks across a project, optionally filtered by assignee. Returns tasks sorted by card priority (high → medium → low) and lane order (in-progress first). Perfect for agents to find their next work item without scanning all cards manually.',
  input: z.object({
    ...projectArg,
    assignee: AssigneeArg.optional().describe('Filter tasks by card assignee'),
    lane: LaneArg.optional().describe('Filter tasks by lane'),
    limit: z.number().int().min(1).max(100).default(20).describe('Maximum number of tasks to return'),
  }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string; assignee?: string; lane?: Lane; limit: number }) {
    const p = await resolveProject(call, input.projectSlug);
    // The seed's words: "all uncompleted tasks across a project", every lane unless one is named, in-progress lanes first.
    const cards = await allCards(call, p, { ...(input.assignee ? { assignee: input.assignee } : {}), ...(input.lane ? { status: input.lane } : {}) });
    const category = new Map(p.statuses.map((s, i) => [s.name, { inProgress: s.category === 'in_progress', order: i }]));
    const laneRank = (t: TaskSummary) => (category.get(t.status)?.inProgress ? -1 : (category.get(t.status)?.order ?? 99));
    const open = cards.filter((t) => t.checklistProgress.done < t.checklistProgress.total).sort((a, b) => PRIORITIES.indexOf(b.priority) - PRIORITIES.indexOf(a.priority) || laneRank(a) - laneRank(b));
    const total = open.reduce((n, t) => n + t.checklistProgress.total - t.checklistProgress.done, 0);
    const project = { slug: projectSlugOf(p), name: p.name };
    const tasks = [];
    for (const card of open) {
      if (tasks.length >= input.limit) break;
      const { task } = await call.op('get_task', { id: card.id });
      const ref = {
        slug: cardSlugOf(task),
        title: task.title,
        lane: task.status,
        ...(dpPriority(task.priority) ? { priority: dpPriority(task.priority) } : {}),
        ...(task.assignee !== null ? { assignee: task.assignee } : {}),
        ...(task.substatus !== null ? { status: task.substatus } : {}),
      };
      for (const item of task.checklist) if (!item.checked && tasks.length < input.limit) tasks.push({ task: taskItem(item), card: ref, project });
    }
    return json({ tasks, total });
  },
};

const batchUpdateTasks: ProfileTool = {
  name: 'batch_update_tasks',
  title: 'Batch update tasks',
  description:
    'Toggle multiple tasks at once for efficiency. Useful when an agent completes several related subtasks simultaneously. All tasks are updated atomically: if any index is invalid, none change.',
  input: z.object({
    ...cardArgs,
    updates: z
      .array(z.object({ taskIndex: TaskIndex, checked: z.boolean() }))
      .min(1)
      .max(200)
      .describe('Array of task updates'),
  }),
  readOnly: false,
  idempotent: true,
  async run(call, input: { projectSlug: string; cardSlug: string; updates: Array<{ taskIndex: number; checked: boolean }> }) {
    const ops = input.updates.map((u) => ({ op: u.checked ? 'check' : 'uncheck', index: u.taskIndex }));
    const task = await editTasks(call, input.projectSlug, input.cardSlug, ops);
    const indexes = [...new Set(input.updates.map((u) => u.taskIndex))];
    return json({ updated: indexes.map((i) => taskItem(task.checklist[i]!)), card: cardProgress(task) });
  },
};

const SEARCH_FIELDS = ['title', 'content', 'tags', 'assignee', 'priority', 'status'] as const;
type SearchField = (typeof SEARCH_FIELDS)[number];
/** Cairn's indexed fields by DevPlanner's names (comments and checklist text are card content too). */
const FIELD_NAMES: Record<string, SearchField | 'tasks'> = { title: 'title', labels: 'tags', description: 'content', comments: 'content', checklist: 'tasks' };

/** Cards whose frontmatter field equals the query (assignee, priority, status are not full text in Cairn). */
async function frontmatterMatches(call: ProfileCall, p: Project, field: 'assignee' | 'priority' | 'status', query: string): Promise<TaskSummary[]> {
  const q = query.trim().toLowerCase();
  if (field === 'priority') return q === 'low' || q === 'medium' || q === 'high' ? allCards(call, p, { priority: cairnPriorities(q) }) : [];
  if (field === 'status') return /^[a-z0-9_-]{1,40}$/.test(q) ? allCards(call, p, { substatus: q }) : [];
  return allCards(call, p, { assignee: query.trim() });
}

/**
 * DevPlanner matches substrings ("OAuth" finds "OAuth2 Integration"); Cairn's index matches words,
 * so each bare word is searched as a prefix. Quoted phrases and words already ending in * stay as typed.
 */
const asPrefixes = (query: string): string =>
  query.includes('"')
    ? query
    : query
        .trim()
        .split(/\s+/)
        .map((w) => (w.endsWith('*') ? w : `${w}*`))
        .join(' ');

const searchCards: ProfileTool = {
  name: 'search_cards',
  title: 'Search cards',
  description:
    'Full-text search across card titles, content, tags, and frontmatter fields. Returns ranked results. Use this to find cards by keyword, locate related work, or check if a card already exists before creating a duplicate.',
  input: z.object({
    ...projectArg,
    query: z.string().trim().min(1).max(500).describe('Search query (searches title, content, tags)'),
    fields: z.array(z.enum(SEARCH_FIELDS)).optional().describe('Limit search to specific fields'),
    limit: z.number().int().min(1).max(100).default(20).describe('Maximum results to return'),
  }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string; query: string; fields?: SearchField[]; limit: number }) {
    const p = await resolveProject(call, input.projectSlug);
    const wanted = new Set<string>(input.fields ?? ['title', 'content', 'tags']);
    const textual = ['title', 'content', 'tags'].some((f) => wanted.has(f));
    const results: Array<{ card: ReturnType<typeof cardSummary>; matchedFields: string[]; excerpt: string }> = [];
    const seen = new Map<string, (typeof results)[number]>();
    let total = 0;
    if (textual) {
      const found = await call.op('search_tasks', { query: asPrefixes(input.query), project: p.key, includeDone: true, limit: input.fields ? 100 : input.limit });
      total = found.total;
      for (const r of found.results) {
        const matched = [...new Set(r.matchedFields.map((f) => FIELD_NAMES[f] ?? f))].filter((f) => wanted.has(f) || (f === 'tasks' && wanted.has('content')));
        if (input.fields && matched.length === 0) continue;
        const hit = { card: cardSummary(r.task), matchedFields: matched, excerpt: r.excerpt.replace(/\*\*/g, '').replace(/…/g, '...') };
        results.push(hit);
        seen.set(r.task.id, hit);
      }
      if (input.fields) total = results.length;
    }
    for (const field of ['assignee', 'priority', 'status'] as const) {
      if (!input.fields?.includes(field)) continue;
      for (const t of await frontmatterMatches(call, p, field, input.query)) {
        const known = seen.get(t.id);
        if (known) {
          if (!known.matchedFields.includes(field)) known.matchedFields.push(field);
          continue;
        }
        const hit = { card: cardSummary(t), matchedFields: [field], excerpt: `${field}: ${input.query.trim()}` };
        results.push(hit);
        seen.set(t.id, hit);
        total++;
      }
    }
    return json({ results: results.slice(0, input.limit), total, query: input.query });
  },
};

const updateCardContent: ProfileTool = {
  name: 'update_card_content',
  title: 'Update card content',
  description:
    'Update the markdown body of a card (the content below frontmatter). Use this to add implementation notes, documentation, code snippets, or other details after completing work. Does not modify frontmatter or tasks.',
  input: z.object({
    ...cardArgs,
    content: Content.describe('New markdown content (replaces existing content)'),
    append: z.boolean().default(false).describe('If true, appends to existing content instead of replacing'),
  }),
  readOnly: false,
  async run(call, input: { projectSlug: string; cardSlug: string; content: string; append: boolean }) {
    const p = await resolveProject(call, input.projectSlug);
    const card = await getCardTask(call, p, input.cardSlug);
    const change = input.append ? (input.content ? { appendDescription: input.content } : {}) : { description: input.content };
    const { task } = await call.op('update_task', { id: card.id, ...change });
    return json(fullCard(task));
  },
};

const progressOf = (b: Bucket) => ({ cardCount: b.count, taskCount: b.checklistTotal, completedTasks: b.checklistDone, completionRate: rate(b.checklistDone, b.checklistTotal) });

const getProjectProgress: ProfileTool = {
  name: 'get_project_progress',
  title: 'Get project progress',
  description: 'Get detailed completion statistics for a project broken down by lane and priority level. Useful for reporting overall project health and identifying bottlenecks.',
  input: z.object(projectArg),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string }) {
    const p = await resolveProject(call, input.projectSlug);
    const board = await call.op('get_progress', { project: p.key });
    const byLane = Object.fromEntries(lanesIn(p, board).map(({ status, lane }) => [status.name, progressOf(lane ?? { count: 0, checklistDone: 0, checklistTotal: 0 })]));
    const s = board.summary;
    return json({
      project: { slug: projectSlugOf(p), name: p.name },
      byLane,
      byPriority: byDpPriority(board.byPriority, progressOf),
      overall: { totalCards: s.totalTasks, totalTasks: s.checklistTotal, completedTasks: s.checklistDone, completionRate: rate(s.checklistDone, s.checklistTotal) },
    });
  },
};

const archiveCard: ProfileTool = {
  name: 'archive_card',
  title: 'Archive card',
  description:
    'Archive a card by moving it to the 04-archive lane. This is a convenience wrapper around move_card specifically for archival. Use this for completed work that should be hidden from active views or for abandoned cards.',
  input: z.object(cardArgs),
  readOnly: false,
  idempotent: true,
  run: (call, input: { projectSlug: string; cardSlug: string }) => moveCard(call, input.projectSlug, input.cardSlug, '04-archive'),
};

export const workflowTools: readonly ProfileTool[] = [getBoardOverview, getNextTasks, batchUpdateTasks, searchCards, updateCardContent, getProjectProgress, archiveCard];
