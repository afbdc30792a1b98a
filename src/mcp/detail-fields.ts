/**
 * `fields` for list tools: lists answer with compact summaries; a caller that wants more names the
 * full-task fields to add (description, checklist, comments, …) instead of calling get_task per row.
 * Applies to every op whose output lists TaskSummary items, found by shape, so no tool is special-cased.
 */
import * as z from 'zod';
import { Task, TaskSummary } from '../core/model/task.js';
import type { Op } from '../ops/index.js';

export const DETAIL_FIELDS = ['description', 'checklist', 'comments', 'links', 'anchors'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

export const FieldsArg = z
  .array(z.enum(DETAIL_FIELDS))
  .max(DETAIL_FIELDS.length)
  .optional()
  .describe('Full-task fields to add to each summary (default: none, compact)');

const DetailedSummary = TaskSummary.extend(Task.pick(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, true])) as Record<DetailField, true>).partial().shape);

type ListShape = 'tasks' | 'results';

/** Whether an op lists tasks as summaries: `{tasks: TaskSummary[]}` or `{results: [{task: TaskSummary}]}`. */
export function listShapeOf(op: Op): ListShape | undefined {
  if (!(op.output instanceof z.ZodObject) || 'fields' in op.input.shape) return undefined;
  const shape = op.output.shape as Record<string, z.ZodType>;
  const tasks = shape.tasks;
  if (tasks instanceof z.ZodArray && tasks.element === TaskSummary) return 'tasks';
  const results = shape.results;
  if (results instanceof z.ZodArray && results.element instanceof z.ZodObject && (results.element.shape as Record<string, unknown>).task === TaskSummary) return 'results';
  return undefined;
}

/** The op's schemas as the MCP tool advertises them: input plus `fields`, summaries that may carry those fields. */
export function detailSchemas(op: Op, shape: ListShape): { input: z.ZodObject; output: z.ZodType } {
  const out = op.output as z.ZodObject;
  const output =
    shape === 'tasks'
      ? out.extend({ tasks: z.array(DetailedSummary) })
      : out.extend({ results: z.array(((out.shape as Record<string, z.ZodArray<z.ZodObject>>).results!.element).extend({ task: DetailedSummary })) });
  return { input: op.input.extend({ fields: FieldsArg }), output };
}

/** Splits `fields` off the raw arguments, so the op itself still parses strictly. */
export function takeFields(raw: unknown): { args: unknown; fields: unknown } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('fields' in raw)) return { args: raw, fields: undefined };
  const { fields, ...args } = raw as Record<string, unknown>;
  return { args, fields };
}

/** Adds the requested full-task fields to each summary in the op's output. */
export async function addDetail(output: unknown, shape: ListShape, fields: readonly DetailField[], load: (id: string) => Promise<Task>): Promise<unknown> {
  if (fields.length === 0) return output;
  const o = output as Record<string, unknown>;
  const enrich = async (t: Record<string, unknown>) => {
    const full = await load(String(t.uid ?? t.id));
    return { ...t, ...Object.fromEntries(fields.map((f) => [f, full[f]])) };
  };
  if (shape === 'tasks') return { ...o, tasks: await Promise.all((o.tasks as Array<Record<string, unknown>>).map(enrich)) };
  const results = o.results as Array<Record<string, unknown>>;
  return { ...o, results: await Promise.all(results.map(async (r) => ({ ...r, task: await enrich(r.task as Record<string, unknown>) }))) };
}
