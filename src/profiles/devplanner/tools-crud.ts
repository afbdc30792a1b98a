/** DevPlanner's core CRUD tools (seed 004, tools 1–10): projects, cards, card tasks. Each is a few native op calls, reshaped. */
import * as z from 'zod';
import { CairnError } from '../../core/errors.js';
import type { Task } from '../../core/model/task.js';
import type { ProfileCall, ProfileTool } from '../profile.js';
import { cairnPriorities, cardProgress, cardSummary, fullCard, json, slugify, taskItem, type DpPriority, type Lane } from './cards.js';
import { allCards, createProject, findCard, getCardTask, lanesOf, projectSlugOf, projectSummary, resolveProject } from './projects.js';
import { AssigneeArg, CardSlug, CardTitle, Content, LaneArg, PriorityArg, ProjectSlug, StatusArg, Tags, TaskIndex, TaskText } from './schemas.js';

const listProjects: ProfileTool = {
  name: 'list_projects',
  title: 'List projects',
  description: 'List all projects with summary statistics. Use this to discover what projects exist and get an overview of work across the entire workspace.',
  input: z.object({ includeArchived: z.boolean().default(false).describe('Include archived projects in results') }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { includeArchived: boolean }) {
    const { projects } = await call.op('list_projects', { includeArchived: input.includeArchived });
    const out = [];
    for (const p of projects) out.push(await projectSummary(call, p));
    return json({ projects: out, total: out.length });
  },
};

const getProject: ProfileTool = {
  name: 'get_project',
  title: 'Get project',
  description: "Get detailed information about a specific project including lane configuration and card counts. Use this to understand a project's structure before querying cards.",
  input: z.object({ projectSlug: ProjectSlug }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string }) {
    const p = await resolveProject(call, input.projectSlug);
    const { cardCounts, ...summary } = await projectSummary(call, p);
    return json({
      slug: summary.slug,
      name: summary.name,
      description: summary.description,
      lanes: lanesOf(p),
      cardCounts,
      archived: summary.archived,
      created: summary.created,
      updated: summary.updated,
    });
  },
};

const createProjectTool: ProfileTool = {
  name: 'create_project',
  title: 'Create project',
  description: 'Create a new project with default lane structure. The project will be initialized with four lanes: Upcoming, In Progress, Complete, and Archive.',
  input: z.object({
    name: z.string().trim().min(1).max(100).describe('Project display name'),
    description: z.string().max(10_000).optional().describe('Optional project description'),
  }),
  readOnly: false,
  async run(call, input: { name: string; description?: string }) {
    const p = await createProject(call, input.name, input.description);
    return json({ slug: projectSlugOf(p), name: p.name, description: p.description, archived: p.archived, created: p.createdAt, updated: p.updatedAt, lanes: lanesOf(p) });
  },
};

const listCards: ProfileTool = {
  name: 'list_cards',
  title: 'List cards',
  description:
    'List cards with rich filtering options. Returns card summaries including title, status, priority, assignee, tags, and task progress. Use this to find specific cards or get an overview of work in a lane.',
  input: z.object({
    projectSlug: ProjectSlug.describe('Project identifier'),
    lane: LaneArg.optional().describe("Filter by lane, e.g. '02-in-progress'"),
    priority: PriorityArg.optional().describe('Filter by priority level'),
    assignee: AssigneeArg.optional().describe('Filter by assignee'),
    tags: Tags.optional().describe('Filter by tags (matches any tag)'),
    status: StatusArg.optional().describe('Filter by status'),
  }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string; lane?: Lane; priority?: DpPriority; assignee?: string; tags?: string[]; status?: string }) {
    const p = await resolveProject(call, input.projectSlug);
    const cards = await allCards(call, p, {
      ...(input.lane ? { status: input.lane } : {}),
      ...(input.priority ? { priority: cairnPriorities(input.priority) } : {}),
      ...(input.assignee ? { assignee: input.assignee } : {}),
      ...(input.tags?.length ? { labels: input.tags } : {}),
      ...(input.status ? { substatus: input.status } : {}),
    });
    return json({ cards: cards.map(cardSummary), total: cards.length });
  },
};

const cardArgs = { projectSlug: ProjectSlug.describe('Project identifier'), cardSlug: CardSlug.describe('Card identifier') };

const getCard: ProfileTool = {
  name: 'get_card',
  title: 'Get card',
  description: "Get complete card details including full markdown content and all tasks. Use this when you need to read the card's description or work on specific tasks.",
  input: z.object({ projectSlug: ProjectSlug.describe('Project identifier'), cardSlug: CardSlug }),
  readOnly: true,
  idempotent: true,
  async run(call, input: { projectSlug: string; cardSlug: string }) {
    const p = await resolveProject(call, input.projectSlug);
    return json(fullCard(await getCardTask(call, p, input.cardSlug)));
  },
};

/** Creates the task with the title's slug, or the first free "-2", "-3"… variant when another card has it (slugs are unique per project). */
async function createWithFreeSlug(call: ProfileCall, title: string, args: Record<string, unknown>): Promise<Task> {
  const base = slugify(title, 90) || 'card';
  for (let n = 1; ; n++) {
    try {
      return (await call.op('create_task', { ...args, title, slug: n === 1 ? base : `${base}-${n}` })).task;
    } catch (err) {
      if (!(err instanceof CairnError) || err.code !== 'SLUG_TAKEN' || n >= 1000) throw err;
    }
  }
}

const createCard: ProfileTool = {
  name: 'create_card',
  title: 'Create card',
  description: 'Create a new card in a specified lane with optional metadata. The card will be created with a unique slug and placed at the end of the lane.',
  input: z.object({
    projectSlug: ProjectSlug.describe('Project identifier'),
    title: CardTitle.describe('Card title (will be slugified for filename)'),
    lane: LaneArg.default('01-upcoming').describe("Target lane; defaults to '01-upcoming'"),
    priority: PriorityArg.optional(),
    assignee: AssigneeArg.optional(),
    tags: Tags.optional(),
    content: Content.optional().describe('Markdown body content'),
    status: StatusArg.optional(),
  }),
  readOnly: false,
  async run(call, input: { projectSlug: string; title: string; lane: Lane; priority?: DpPriority; assignee?: string; tags?: string[]; content?: string; status?: string }) {
    const p = await resolveProject(call, input.projectSlug);
    // The seed's card: priority medium unless given, placed at the top of its lane.
    const made = await createWithFreeSlug(call, input.title, {
      project: p.key,
      status: input.lane,
      priority: input.priority ?? 'medium',
      ...(input.assignee ? { assignee: input.assignee } : {}),
      ...(input.tags ? { labels: input.tags } : {}),
      ...(input.content !== undefined ? { description: input.content } : {}),
      ...(input.status ? { substatus: input.status } : {}),
    });
    const { task } = await call.op('update_task', { id: made.id, position: 0 });
    return json(fullCard(task));
  },
};

const updateCard: ProfileTool = {
  name: 'update_card',
  title: 'Update card',
  description: "Update card frontmatter fields (title, priority, assignee, tags, status). Does not modify the card's content or tasks. Use this to claim a card, change priority, or update status.",
  input: z.object({
    ...cardArgs,
    title: CardTitle.optional().describe('New card title'),
    priority: PriorityArg.optional(),
    assignee: AssigneeArg.optional(),
    tags: Tags.optional().describe('Replaces existing tags (not additive)'),
    status: StatusArg.optional(),
  }),
  readOnly: false,
  idempotent: true,
  async run(call, input: { projectSlug: string; cardSlug: string; title?: string; priority?: DpPriority; assignee?: string; tags?: string[]; status?: string }) {
    const p = await resolveProject(call, input.projectSlug);
    const card = await findCard(call, p, input.cardSlug);
    const { task } = await call.op('update_task', {
      id: card.id,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.assignee ? { assignee: input.assignee } : {}),
      ...(input.tags ? { labels: input.tags } : {}),
      ...(input.status ? { substatus: input.status } : {}),
    });
    return json(fullCard(task));
  },
};

/** Moves a card to a lane (the native status change: its lane order, completion time and blockers follow). */
export async function moveCard(call: ProfileCall, projectSlug: string, cardSlug: string, lane: Lane) {
  const p = await resolveProject(call, projectSlug);
  const card = await findCard(call, p, cardSlug);
  const { task } = await call.op('update_task', { id: card.id, status: lane });
  return json(fullCard(task));
}

const moveCardTool: ProfileTool = {
  name: 'move_card',
  title: 'Move card',
  description:
    "Move a card from one lane to another. Automatically updates the card's lane metadata and reorders both source and target lanes. Use this to progress cards through your workflow (Upcoming → In Progress → Complete).",
  input: z.object({ ...cardArgs, targetLane: LaneArg.describe('Destination lane') }),
  readOnly: false,
  idempotent: true,
  run: (call, input: { projectSlug: string; cardSlug: string; targetLane: Lane }) => moveCard(call, input.projectSlug, input.cardSlug, input.targetLane),
};

/**
 * Applies checklist ops to a card in one native update_checklist call (one transaction, all or
 * nothing), restating an out-of-range index in the card's terms.
 */
export async function editTasks(call: ProfileCall, projectSlug: string, cardSlug: string, ops: Array<Record<string, unknown>>): Promise<Task> {
  const p = await resolveProject(call, projectSlug);
  const card = await findCard(call, p, cardSlug);
  try {
    return (await call.op('update_checklist', { id: card.id, ops })).task;
  } catch (err) {
    if (!(err instanceof CairnError) || err.code !== 'CHECKLIST_INDEX_OUT_OF_RANGE') throw err;
    const { index, length } = (err.details ?? {}) as { index?: number; length?: number };
    const slug = projectSlugOf(p);
    throw new CairnError(
      'CHECKLIST_INDEX_OUT_OF_RANGE',
      `Task index ${index} is out of range: card '${cardSlug}' has ${length} task${length === 1 ? '' : 's'} (valid indexes: ${length ? `0–${length! - 1}` : 'none'}). No task was changed.`,
      { suggestions: [`Call get_card(projectSlug='${slug}', cardSlug='${cardSlug}') to see the current task list`], details: { ...err.details, projectSlug: slug, cardSlug } },
    );
  }
}

const addTask: ProfileTool = {
  name: 'add_task',
  title: 'Add task',
  description: "Add a new unchecked task to a card's checklist. Tasks are appended to the end of the existing task list. Use this when you discover additional work items while implementing a card.",
  input: z.object({ ...cardArgs, text: TaskText.describe('Task description text') }),
  readOnly: false,
  async run(call, input: { projectSlug: string; cardSlug: string; text: string }) {
    const task = await editTasks(call, input.projectSlug, input.cardSlug, [{ op: 'add', text: input.text }]);
    return json({ task: taskItem(task.checklist[task.checklist.length - 1]!), card: cardProgress(task) });
  },
};

const toggleTask: ProfileTool = {
  name: 'toggle_task',
  title: 'Toggle task',
  description: "Toggle a task's completion state (checked ↔ unchecked). Use this to mark tasks complete as you work through them, or to uncheck tasks that need rework.",
  input: z.object({
    ...cardArgs,
    taskIndex: TaskIndex.describe('Zero-based task index'),
    checked: z.boolean().optional().describe('Target state (true = checked, false = unchecked). If omitted, toggles current state.'),
  }),
  readOnly: false,
  async run(call, input: { projectSlug: string; cardSlug: string; taskIndex: number; checked?: boolean }) {
    const op = input.checked === undefined ? 'toggle' : input.checked ? 'check' : 'uncheck';
    const task = await editTasks(call, input.projectSlug, input.cardSlug, [{ op, index: input.taskIndex }]);
    return json({ task: taskItem(task.checklist[input.taskIndex]!), card: cardProgress(task) });
  },
};

export const crudTools: readonly ProfileTool[] = [listProjects, getProject, createProjectTool, listCards, getCard, createCard, updateCard, moveCardTool, addTask, toggleTask];
