/**
 * DevPlanner's card as a view of a Cairn task: slug = task slug, lane = status, frontmatter status =
 * substatus, tags = labels, content = description, tasks = checklist. Only shapes; no rules.
 */
import type { ChecklistItem, Priority, Task, TaskSummary } from '../../core/model/task.js';
import { DEVPLANNER_LANES } from './template.js';

export const LANES = DEVPLANNER_LANES;
export type Lane = (typeof LANES)[number];
export const DP_PRIORITIES = ['low', 'medium', 'high'] as const;
export type DpPriority = (typeof DP_PRIORITIES)[number];

/** Cairn's five priorities as DevPlanner's three: urgent reads as high, none as no priority. */
export function dpPriority(p: Priority): DpPriority | undefined {
  if (p === 'urgent') return 'high';
  return p === 'none' ? undefined : p;
}

/** A DevPlanner priority as the Cairn priorities it covers (a filter for "high" finds urgent too). */
export const cairnPriorities = (p: DpPriority): Priority[] => (p === 'high' ? ['high', 'urgent'] : [p]);

/** Lower-case words joined by "-", as DevPlanner names card files; at most `max` characters. */
export function slugify(text: string, max = 100): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s.slice(0, max).replace(/-+$/, '');
}

/** A card's slug: its task's slug, or for a task made without one (natively), its lower-cased id ("mm-3"). */
export const cardSlugOf = (t: Pick<TaskSummary, 'slug' | 'id'>): string => t.slug ?? t.id.toLowerCase();

export interface Frontmatter {
  title: string;
  status?: string;
  priority?: DpPriority;
  assignee?: string;
  created: string;
  updated: string;
  tags?: string[];
}

/** Fields in the order DevPlanner writes them (title, status, priority, assignee, created, updated, tags); absent ones left out. */
export function frontmatterOf(t: TaskSummary): Frontmatter {
  const priority = dpPriority(t.priority);
  return {
    title: t.title,
    ...(t.substatus !== null ? { status: t.substatus } : {}),
    ...(priority ? { priority } : {}),
    ...(t.assignee !== null ? { assignee: t.assignee } : {}),
    created: t.createdAt,
    updated: t.updatedAt,
    ...(t.labels.length ? { tags: [...t.labels] } : {}),
  };
}

export const taskProgressOf = (t: Pick<TaskSummary, 'checklistProgress'>) => ({ total: t.checklistProgress.total, checked: t.checklistProgress.done });

/** What list_cards and search_cards show of a card. */
export function cardSummary(t: TaskSummary) {
  const slug = cardSlugOf(t);
  return { slug, filename: `${slug}.md`, lane: t.status, frontmatter: frontmatterOf(t), taskProgress: taskProgressOf(t) };
}
export type CardSummary = ReturnType<typeof cardSummary>;

export const taskItem = (i: ChecklistItem) => ({ index: i.index, text: i.text, checked: i.checked });

/** The full card get_card returns: frontmatter, markdown content and its tasks. */
export function fullCard(t: Task) {
  const slug = cardSlugOf(t);
  return { slug, filename: `${slug}.md`, lane: t.status, frontmatter: frontmatterOf(t), content: t.description, tasks: t.checklist.map(taskItem) };
}
export type FullCard = ReturnType<typeof fullCard>;

/** `{slug, taskProgress}`: how add_task, toggle_task and batch_update_tasks name the card. */
export const cardProgress = (t: Task) => ({ slug: cardSlugOf(t), taskProgress: taskProgressOf(t) });

/** The tool answer: the JSON as text (what DevPlanner's clients read) and as structuredContent. */
export const json = (value: Record<string, unknown>) => ({ content: [JSON.stringify(value, null, 2)], structured: value });

/** A rate rounded as DevPlanner shows it (0.745). */
export const rate = (done: number, total: number): number => (total ? Math.round((done / total) * 1000) / 1000 : 0);
