/**
 * List rows for MCP: list_tasks, next_tasks and search_tasks answer with compact rows, and a caller
 * that wants more names the fields to add (`fields`) instead of calling get_task per row.
 *
 * A row always has what an agent picks, orders and unblocks work by (id, title, status, priority,
 * labels, blockedBy, openBlockers, blocks, children, isReady) and, only when they say something, assignee, claim,
 * parentId, kind (not "task"), checklistProgress (has items), substatus and slug. A full summary is more
 * than twice the size of a row, and half of it is ids, timestamps, ordering keys and nulls that no
 * agent reads from a list. The CLI's --json and REST keep the full TaskSummary.
 *
 * Applies to every op whose output lists TaskSummary items, found by shape, so no tool is special-cased.
 */
import * as z from 'zod';
import { lazy } from '../core/model/lazy.js';
import { Claim, Kind, ListedTask, Progress, Task, TaskSummary } from '../core/model/task.js';
import { DETAIL_FIELDS as LISTED_DETAILS } from '../core/model/task.js';
import type { Op } from '../ops/index.js';

/** Summary fields a row leaves out unless asked for. */
export const SUMMARY_EXTRAS = ['uid', 'project', 'statusCategory', 'score', 'position', 'version', 'createdAt', 'updatedAt'] as const;
/** Full-task fields, loaded per row when asked for. */
export const DETAIL_FIELDS = ['description', 'checklist', 'comments', 'links', 'anchors'] as const;
export const FIELD_NAMES = [...SUMMARY_EXTRAS, ...DETAIL_FIELDS] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type DetailField = (typeof DETAIL_FIELDS)[number];

export const FieldsArg = z.array(z.enum(FIELD_NAMES)).max(FIELD_NAMES.length).optional();

/** The row as the tool's outputSchema states it. */
export const TaskRow = lazy(() =>
  TaskSummary()
    .pick({ id: true, title: true, status: true, priority: true, labels: true, blockedBy: true, openBlockers: true, blocks: true, children: true, isReady: true })
    .extend({
      assignee: z.string().optional().describe('Omitted when unassigned'),
      claim: Claim().optional().describe('Omitted when not claimed'),
      parentId: z.string().optional().describe('Omitted when the task has no parent'),
      kind: Kind.optional().describe('Omitted for plain tasks'),
      checklistProgress: Progress().optional().describe('Omitted when the task has no checklist'),
      substatus: z.string().optional().describe('Omitted when not set'),
      slug: z.string().optional().describe('Omitted when not set'),
    })
    .extend(TaskSummary().pick({ uid: true, project: true, statusCategory: true, score: true, position: true, version: true, createdAt: true, updatedAt: true }).partial().shape)
    .extend(Task().pick({ description: true, checklist: true, comments: true, links: true, anchors: true }).partial().shape),
);
export type TaskRow = z.infer<ReturnType<typeof TaskRow>>;

/**
 * What a row leaves out when it says nothing, and the summary's value then: a client that wants
 * whole summaries back (the MCP Apps views) fills them in from this.
 */
export const ROW_OMITS = { assignee: null, claim: null, parentId: null, kind: 'task', checklistProgress: { done: 0, total: 0 }, substatus: null, slug: null } as const;

/** A summary (with any detail fields added) as a list row with the extra fields asked for. */
export function toRow(t: TaskSummary & Partial<Task>, fields: readonly FieldName[]): TaskRow {
  const row: TaskRow = {
    id: t.id,
    title: t.title,
    status: t.status,
    priority: t.priority,
    labels: t.labels,
    blockedBy: t.blockedBy,
    openBlockers: t.openBlockers,
    blocks: t.blocks,
    children: t.children,
    isReady: t.isReady,
  };
  if (t.assignee !== null) row.assignee = t.assignee;
  if (t.claim) row.claim = t.claim;
  if (t.parentId !== null) row.parentId = t.parentId;
  if (t.kind !== 'task') row.kind = t.kind;
  if (t.checklistProgress.total > 0) row.checklistProgress = t.checklistProgress;
  if (t.substatus !== null) row.substatus = t.substatus;
  if (t.slug !== null) row.slug = t.slug;
  for (const f of fields) (row as Record<string, unknown>)[f] = t[f];
  return row;
}

type ListShape = 'tasks' | 'results';

/** Whether an op lists tasks as summaries: `{tasks: TaskSummary[]}` or `{results: [{task: TaskSummary}]}`. */
export function listShapeOf(op: Op): ListShape | undefined {
  if (!(op.output instanceof z.ZodObject) || 'fields' in op.input.shape) return undefined;
  const shape = op.output.shape as Record<string, z.ZodType>;
  const tasks = shape.tasks;
  if (tasks instanceof z.ZodArray && tasks.element === ListedTask()) return 'tasks';
  const results = shape.results;
  if (results instanceof z.ZodArray && results.element instanceof z.ZodObject && (results.element.shape as Record<string, unknown>).task === ListedTask()) return 'results';
  return undefined;
}

/**
 * The op's schemas as the MCP tool advertises them: input plus `fields` (which covers the op's own
 * `include`, so an agent sees one way to ask for more), rows instead of summaries.
 */
export function detailSchemas(op: Op, shape: ListShape): { input: z.ZodObject; output: z.ZodType } {
  const out = op.output as z.ZodObject;
  const output =
    shape === 'tasks'
      ? out.extend({ tasks: z.array(TaskRow()) })
      : out.extend({ results: z.array((out.shape as Record<string, z.ZodArray<z.ZodObject>>).results!.element.extend({ task: TaskRow() })) });
  const input = 'include' in op.input.shape ? op.input.omit({ include: true }) : op.input;
  return { input: input.extend({ fields: FieldsArg }), output };
}

/** Splits `fields` off the raw arguments, so the op itself still parses strictly. */
export function takeFields(raw: unknown): { args: unknown; fields: unknown } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('fields' in raw)) return { args: raw, fields: undefined };
  const { fields, ...args } = raw as Record<string, unknown>;
  return { args, fields };
}

/** The wanted detail fields the list op reads itself, in one query for the page (`include`); the rest are loaded per row. */
export function listedDetails(fields: readonly FieldName[]): Array<DetailField & (typeof LISTED_DETAILS)[number]> {
  return fields.filter((f): f is DetailField & (typeof LISTED_DETAILS)[number] => (LISTED_DETAILS as readonly string[]).includes(f));
}

/** The op's output with each summary as a row: full-task fields asked for are loaded per row first. */
export async function toRows(output: unknown, shape: ListShape, fields: readonly FieldName[], load: (id: string) => Promise<Task>): Promise<unknown> {
  const o = output as Record<string, unknown>;
  const listed = new Set<string>(listedDetails(fields));
  const details = fields.filter((f): f is DetailField => (DETAIL_FIELDS as readonly string[]).includes(f) && !listed.has(f));
  const results = o.results as Array<Record<string, unknown>> | undefined;
  if (details.length === 0) {
    if (shape === 'tasks') return { ...o, tasks: (o.tasks as TaskSummary[]).map((t) => toRow(t, fields)) };
    return { ...o, results: results!.map((r) => ({ ...r, task: toRow(r.task as TaskSummary, fields) })) };
  }
  const rowOf = async (t: TaskSummary) => {
    const full = await load(t.uid);
    return toRow({ ...t, ...Object.fromEntries(details.map((f) => [f, full[f]])) }, fields);
  };
  if (shape === 'tasks') return { ...o, tasks: await Promise.all((o.tasks as TaskSummary[]).map(rowOf)) };
  return { ...o, results: await Promise.all(results!.map(async (r) => ({ ...r, task: await rowOf(r.task as TaskSummary) }))) };
}
