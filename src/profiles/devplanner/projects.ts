/**
 * DevPlanner's addressing over Cairn's: a project slug is a project alias (or its key, lower-cased)
 * resolved by the native project resolution; a card slug is a task slug found with list_tasks'
 * slug filter. Also the project views (lanes, card counts) and how a new project gets its key.
 */
import { CairnError } from '../../core/errors.js';
import { keyInitials, keyLetters, keyVariants } from '../../core/rules/project-key.js';
import type { Task, TaskSummary } from '../../core/model/task.js';
import type { OpOutput, ProfileCall } from '../profile.js';

export type ProjectRef = OpOutput<'get_project'>['project'];
import { cardSlugOf, slugify } from './cards.js';

const SLUG_RE = /^[a-z0-9-]+$/;

/** A project's slug: its first slug-shaped alias (projects made through this profile have one), else its key lower-cased. */
export const projectSlugOf = (p: Pick<ProjectRef, 'aliases' | 'key'>): string => p.aliases.find((a) => SLUG_RE.test(a)) ?? p.key.toLowerCase();

/** The project a projectSlug names; PROJECT_NOT_FOUND (with the seed's wording) when none. */
export async function resolveProject(call: ProfileCall, projectSlug: string): Promise<ProjectRef> {
  try {
    return (await call.op('get_project', { key: projectSlug })).project;
  } catch (err) {
    if (!(err instanceof CairnError) || err.code !== 'PROJECT_NOT_FOUND') throw err;
    const { projects } = await call.op('list_projects', { includeArchived: true });
    const slugs = projects.map(projectSlugOf);
    throw new CairnError('PROJECT_NOT_FOUND', `Project '${projectSlug}' not found. Project slugs are lower-case with hyphens, made from the project name.`, {
      suggestions: [
        'Call list_projects() to see available projects',
        ...(slugs.length ? [`Known project slugs: ${slugs.slice(0, 10).join(', ')}`] : ["Call create_project(name='...') to create the first project"]),
      ],
      details: { projectSlug, known: slugs },
    });
  }
}

/** Lanes as DevPlanner configures them; Cairn has no collapsed flag, so finished lanes (done, canceled) show collapsed. */
export function lanesOf(p: ProjectRef) {
  return Object.fromEntries(p.statuses.map((s) => [s.name, { displayName: s.displayName, color: s.color, collapsed: s.category === 'done' || s.category === 'canceled' }]));
}

/** Cards per lane (every lane listed, 0 when empty), from the native board. */
export async function cardCountsOf(call: ProfileCall, p: ProjectRef): Promise<Record<string, number>> {
  const board = await call.op('board_overview', { project: p.key, cardsPerLane: 0 });
  const counts = new Map(board.lanes.map((l) => [l.status, l.count]));
  return Object.fromEntries(p.statuses.map((s) => [s.name, counts.get(s.name) ?? 0]));
}

export async function projectSummary(call: ProfileCall, p: ProjectRef) {
  return {
    slug: projectSlugOf(p),
    name: p.name,
    description: p.description,
    cardCounts: await cardCountsOf(call, p),
    archived: p.archived,
    created: p.createdAt,
    updated: p.updatedAt,
  };
}

/**
 * Keys to try for a project made from a name: the words' initials ("Media Manager" → MM), the
 * name's letters (MEDIAMANAG), then each with a letter appended or replacing the last (MMA, MMB…).
 */
export function keyCandidates(name: string): string[] {
  const bases = [keyInitials(name), keyLetters(name)];
  if (!bases.some(Boolean)) {
    const one = name
      .normalize('NFKD')
      .replace(/[^A-Za-z]/g, '')
      .toUpperCase();
    bases.push(one.length === 1 ? `${one}P` : 'DP');
  }
  return keyVariants(bases);
}

/** Creates a devplanner-template project with the name's slug as its alias and the first free key. */
export async function createProject(call: ProfileCall, name: string, description: string | undefined): Promise<ProjectRef> {
  const slug = slugify(name, 60) || 'project';
  const existing = await call.op('get_project', { key: slug }).catch((err: unknown) => {
    if (err instanceof CairnError && err.code === 'PROJECT_NOT_FOUND') return undefined;
    throw err;
  });
  if (existing) {
    throw new CairnError('PROJECT_EXISTS', `A project with slug '${slug}' already exists ('${existing.project.name}'). Project slugs come from the name and must be unique.`, {
      suggestions: [`Call get_project(projectSlug='${slug}') to use it`, 'Choose a different project name'],
      details: { projectSlug: slug },
    });
  }
  for (const key of keyCandidates(name)) {
    try {
      const args = { key, name, aliases: [slug], template: 'devplanner', ...(description !== undefined ? { description } : {}) };
      return (await call.op('create_project', args)).project;
    } catch (err) {
      if (!(err instanceof CairnError) || err.code !== 'PROJECT_EXISTS') throw err;
    }
  }
  throw new CairnError('PROJECT_EXISTS', `Every project key made of the letters of '${name}' is taken. Nothing was changed.`, { suggestions: ['Choose a different project name'] });
}

/** The card (task summary) a cardSlug names in a project: by slug, else by its lower-cased id ("mm-3"). */
export async function findCard(call: ProfileCall, p: ProjectRef, cardSlug: string): Promise<TaskSummary | Task> {
  const wanted = cardSlug.trim().toLowerCase().replace(/\.md$/, '');
  // A slug that reads as an id ("mm-3") is looked up by id first: one indexed read, where a slug
  // filter is a list query. A task of this project whose own slug differs is not that card.
  const idLike = /^[a-z]{2,10}-[1-9][0-9]*$/.test(wanted);
  if (idLike) {
    const byId = await call.op('get_task', { id: wanted }).catch(() => undefined);
    if (byId && byId.task.project === p.key && byId.task.deletedAt === null && (byId.task.slug ?? wanted) === wanted) return byId.task;
  }
  const { tasks } = await call.op('list_tasks', { project: p.key, slug: wanted, includeDone: true, includeArchived: true, limit: 1 });
  if (tasks[0]) return tasks[0];
  return cardNotFound(call, p, cardSlug);
}

async function cardNotFound(call: ProfileCall, p: ProjectRef, cardSlug: string): Promise<never> {
  const slug = projectSlugOf(p);
  const words = cardSlug.replace(/[^a-zA-Z0-9]+/g, ' ').trim();
  const similar = words
    ? (
        await call
          .op('search_tasks', {
            query: words
              .split(' ')
              .map((w) => `${w}*`)
              .join(' '),
            project: p.key,
            limit: 3,
          })
          .catch(() => ({ results: [] }))
      ).results.map((r) => cardSlugOf(r.task))
    : [];
  throw new CairnError(
    'TASK_NOT_FOUND',
    `Card '${cardSlug}' not found in project '${slug}'. This usually means the slug is misspelled or the card was deleted.${similar.length ? ` Similar cards: ${similar.join(', ')}.` : ''}`,
    {
      suggestions: [
        `Call list_cards(projectSlug='${slug}') to see all available cards`,
        ...(words ? [`Call search_cards(projectSlug='${slug}', query='${words}') to find similar cards`] : []),
        'Verify the card slug spelling (slugs are lowercase with hyphens)',
      ],
      details: { projectSlug: slug, cardSlug, similar },
    },
  );
}

/** The full task behind a card slug. */
export async function getCardTask(call: ProfileCall, p: ProjectRef, cardSlug: string): Promise<Task> {
  const t = await findCard(call, p, cardSlug);
  return 'description' in t ? t : (await call.op('get_task', { id: t.id })).task;
}

/** Every card of a project matching `filter` (list_tasks arguments), in lane order then position. */
export async function allCards(call: ProfileCall, p: ProjectRef, filter: Record<string, unknown> = {}): Promise<TaskSummary[]> {
  const out: TaskSummary[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call.op('list_tasks', { project: p.key, includeDone: true, sort: 'position', limit: 200, ...filter, ...(cursor ? { cursor } : {}) });
    out.push(...page.tasks);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  const lane = new Map(p.statuses.map((s, i) => [s.name, i]));
  return out.sort((a, b) => (lane.get(a.status) ?? 99) - (lane.get(b.status) ?? 99) || a.position - b.position);
}
