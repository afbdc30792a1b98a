/** Workflow statuses (board lanes), their fixed categories, and the registry of templates projects start from. */
import * as z from 'zod';
import { CairnError } from '../errors.js';
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

/** A template's status before it has a position: what a profile's template lists. */
export type StatusSeed = Omit<Status, 'position'>;

const DEFAULT_TEMPLATE: StatusSeed[] = [
  { name: 'backlog', displayName: 'Backlog', color: '#9ca3af', category: 'backlog' },
  { name: 'todo', displayName: 'To do', color: '#3b82f6', category: 'todo' },
  { name: 'in_progress', displayName: 'In progress', color: '#f59e0b', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
  { name: 'canceled', displayName: 'Canceled', color: '#6b7280', category: 'canceled' },
];

/**
 * The workflow templates projects start from, by name. The core has only `default`; each profile
 * registers its own (src/profiles/<name>/template.ts, registered by src/profiles/templates.ts,
 * which every entry point loads before any op runs). Names are listed in registration order.
 */
const TEMPLATES = new Map<string, readonly StatusSeed[]>([['default', DEFAULT_TEMPLATE]]);

/**
 * Adds a template. Registering the same name again with the same lanes is a no-op; with other lanes, an
 * error. The seeds are code, not input: test/profiles/templates.test.ts checks every registered one
 * against Status. Parsing them here cost each command about 10 ms at start, since each parse of a
 * new zod object schema compiles a checker first.
 */
export function registerTemplate(name: string, seeds: readonly StatusSeed[]): void {
  StatusName.parse(name);
  const had = TEMPLATES.get(name);
  if (had) {
    if (JSON.stringify(had) !== JSON.stringify(seeds)) throw new Error(`workflow template "${name}" is already registered with other statuses`);
    return;
  }
  if (seeds.length === 0) throw new Error(`workflow template "${name}" has no statuses`);
  TEMPLATES.set(name, seeds);
  const names = NAME_VIEWS.get(name);
  if (names) names.push(...seeds.map((s) => s.name));
  const cats = CATEGORY_VIEWS.get(name);
  if (cats) for (const s of seeds) cats[s.name] = s.category;
}

/** A template's status names in workflow order, as literal types (a profile's enums are made from these). */
export const namesOf = <const T extends readonly { name: string }[]>(t: T) => t.map((s) => s.name) as { [K in keyof T]: T[K]['name'] };

/** The registered template names: `default` first, then the profiles' in registration order. */
export function templateNames(): [string, ...string[]] {
  return [...TEMPLATES.keys()] as [string, ...string[]];
}

/**
 * A template's name, as create_project takes it: an enum of the registered names, built when called
 * (inside a lazy op schema, after the entry point has registered the profiles' templates).
 */
export function TemplateName() {
  const names = templateNames();
  return z.enum(names).describe(names.join('|'));
}
export type TemplateName = string;

export function templateStatuses(name: TemplateName): Status[] {
  const t = TEMPLATES.get(name);
  if (!t) throw new CairnError('VALIDATION_ERROR', `Unknown workflow template "${name}". Templates: ${templateNames().join(', ')}.`);
  return t.map((s, position) => ({ ...s, position }));
}

/**
 * A template's status names, as a live list: the same array whenever asked, filled when the template
 * is registered, so a module may hold it from its load on (before the profiles have registered).
 */
export function templateStatusNames(name: string): readonly string[] {
  let v = NAME_VIEWS.get(name);
  if (!v) {
    v = TEMPLATES.get(name)?.map((s) => s.name) ?? [];
    NAME_VIEWS.set(name, v);
  }
  return v;
}
const NAME_VIEWS = new Map<string, string[]>();

/** A template's status → category, live like templateStatusNames. */
export function templateCategories(name: string): Readonly<Record<string, Category>> {
  let v = CATEGORY_VIEWS.get(name);
  if (!v) {
    v = Object.fromEntries((TEMPLATES.get(name) ?? []).map((s) => [s.name, s.category]));
    CATEGORY_VIEWS.set(name, v);
  }
  return v;
}
const CATEGORY_VIEWS = new Map<string, Record<string, Category>>();

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
