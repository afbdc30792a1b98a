/** Workflow statuses (board lanes), their fixed categories, and the templates projects start from. */
import * as z from 'zod';
import { lazy } from './lazy.js';

/** Categories drive all logic (readiness, completion); status names are free-form per project. */
export const CATEGORIES = ['backlog', 'todo', 'in_progress', 'blocked', 'done', 'canceled'] as const;
export const Category = z.enum(CATEGORIES).describe('Status category: backlog|todo|in_progress|blocked|done|canceled');
export type Category = z.infer<typeof Category>;

/** Categories in which a task no longer blocks anything. */
export const RESOLVED_CATEGORIES: readonly Category[] = ['done', 'canceled'];

export const StatusName = z
  .string()
  .trim()
  .min(1, 'status name must not be empty')
  .max(40, 'status name must be at most 40 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'status name must be lower-case letters, digits, "-" or "_" (e.g. "in_review")');

export const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'colour must be a hex colour like "#3b82f6"');

export const Status = lazy(() =>
  z.object({
    name: StatusName,
    displayName: z.string().min(1).max(60),
    color: Color,
    category: Category,
    position: z.number().int(),
  }),
);
export type Status = z.infer<ReturnType<typeof Status>>;

type StatusSeed = Omit<Status, 'position'>;

const DEFAULT_TEMPLATE: StatusSeed[] = [
  { name: 'backlog', displayName: 'Backlog', color: '#9ca3af', category: 'backlog' },
  { name: 'todo', displayName: 'To do', color: '#3b82f6', category: 'todo' },
  { name: 'in_progress', displayName: 'In progress', color: '#f59e0b', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
  { name: 'canceled', displayName: 'Canceled', color: '#6b7280', category: 'canceled' },
];

/** DevPlanner's four lanes; 04-archive is a resolved lane so archived cards never block. */
const DEVPLANNER_TEMPLATE = [
  { name: '01-upcoming', displayName: 'Upcoming', color: '#3b82f6', category: 'todo' },
  { name: '02-in-progress', displayName: 'In Progress', color: '#f59e0b', category: 'in_progress' },
  { name: '03-complete', displayName: 'Complete', color: '#10b981', category: 'done' },
  { name: '04-archive', displayName: 'Archive', color: '#6b7280', category: 'canceled' },
] as const satisfies readonly StatusSeed[];

/** Castle's task states (seeds 000/001). "active" and "review" are work under way, like in_progress. */
const CASTLE_TEMPLATE = [
  { name: 'new', displayName: 'New', color: '#3b82f6', category: 'todo' },
  { name: 'in_progress', displayName: 'In progress', color: '#f59e0b', category: 'in_progress' },
  { name: 'active', displayName: 'Active', color: '#f97316', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
] as const satisfies readonly StatusSeed[];

/**
 * tx's statuses (seed 002). tx counts backlog, ready and planning as workable, so all three are
 * todo: its ready queue (tx_ready) is Cairn's, unchanged.
 */
const TX_TEMPLATE = [
  { name: 'backlog', displayName: 'Backlog', color: '#9ca3af', category: 'todo' },
  { name: 'ready', displayName: 'Ready', color: '#3b82f6', category: 'todo' },
  { name: 'planning', displayName: 'Planning', color: '#06b6d4', category: 'todo' },
  { name: 'active', displayName: 'Active', color: '#f59e0b', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'human_needs_to_review', displayName: 'Human needs to review', color: '#ec4899', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
] as const satisfies readonly StatusSeed[];

export const TEMPLATES: Readonly<Record<'default' | 'castle' | 'tx' | 'devplanner', readonly StatusSeed[]>> = {
  default: DEFAULT_TEMPLATE,
  castle: CASTLE_TEMPLATE,
  tx: TX_TEMPLATE,
  devplanner: DEVPLANNER_TEMPLATE,
};

/** The status names of a profile's template, in workflow order, as literal types: the profiles' enums and the importers' checks use these. */
const namesOf = <const T extends readonly { name: string }[]>(t: T) => t.map((s) => s.name) as { [K in keyof T]: T[K]['name'] };
export const CASTLE_STATES = namesOf(CASTLE_TEMPLATE);
export const TX_STATUSES = namesOf(TX_TEMPLATE);
export const DEVPLANNER_LANES = namesOf(DEVPLANNER_TEMPLATE);
/** DevPlanner lane → Cairn category, from the template. */
export const DEVPLANNER_CATEGORY: Readonly<Record<string, Category>> = Object.fromEntries(DEVPLANNER_TEMPLATE.map((s) => [s.name, s.category]));
export const TemplateName = z.enum(['default', 'castle', 'tx', 'devplanner']).describe('default|castle|tx|devplanner');
export type TemplateName = z.infer<typeof TemplateName>;

export function templateStatuses(name: TemplateName): Status[] {
  return TEMPLATES[name].map((s, position) => ({ ...s, position }));
}

/** One edit of a project's workflow (update_project's `statuses`), applied in order by services/workflow-edits.ts. */
export const StatusOp = lazy(() =>
  z.discriminatedUnion('op', [
    z.object({
      op: z.literal('add'),
      name: StatusName,
      category: Category,
      displayName: z.string().trim().min(1).max(60).optional(),
      color: Color.optional(),
      position: z.number().int().min(0).optional().describe('Lane index; default last'),
    }),
    z.object({ op: z.literal('rename'), name: StatusName, to: StatusName, displayName: z.string().trim().min(1).max(60).optional() }),
    z.object({ op: z.literal('move'), name: StatusName, position: z.number().int().min(0) }),
    z.object({ op: z.literal('recolor'), name: StatusName, color: Color }),
    z.object({ op: z.literal('recategorize'), name: StatusName, category: Category }),
    z.object({ op: z.literal('remove'), name: StatusName }),
  ]),
);
export type StatusOp = z.infer<ReturnType<typeof StatusOp>>;
