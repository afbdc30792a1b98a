/** `--fields` on the list commands: the task fields to show as columns (and to keep per task under --json), as MCP's `fields` picks a row's fields. */
import { TaskSummary } from '../core/model/task.js';
import { CairnError } from '../core/errors.js';
import { markerCell, type TaskLike } from './render/task-parts.js';
import { table } from './render/table.js';
import type { RenderEnv } from './render/render-env.js';
import { relativeTime } from './render/time.js';

/** Every summary field, plus `state` (ready / blocked by … / claimed by …, as the default table shows it). */
export const fieldColumns = (): string[] => [...Object.keys(TaskSummary().shape), 'state'];

export function parseFields(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const names = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const columns = fieldColumns();
  const bad = names.filter((n) => !columns.includes(n));
  if (bad.length || !names.length) {
    throw new CairnError('VALIDATION_ERROR', `--fields: ${bad.length ? `unknown field${bad.length > 1 ? 's' : ''} ${bad.join(', ')}` : 'name at least one field'}. Valid: ${columns.join(', ')}.`, {
      suggestions: ['cairn list --fields id,title,status,assignee'],
    });
  }
  return ['id', ...names.filter((n) => n !== 'id')];
}

type Row = Record<string, unknown>;
const tasksOf = (out: Row): Row[] => (Array.isArray(out.tasks) ? (out.tasks as Row[]) : Array.isArray(out.results) ? (out.results as Array<{ task: Row }>).map((r) => r.task) : []);

/** The output with each task cut down to `fields` (for --json); `state` is human-only and skipped. */
export function pickFields(out: Row, fields: string[]): Row {
  const pick = (t: Row): Row => Object.fromEntries(fields.filter((f) => f in t).map((f) => [f, t[f]]));
  if (Array.isArray(out.tasks)) return { ...out, tasks: (out.tasks as Row[]).map(pick) };
  if (Array.isArray(out.results)) return { ...out, results: (out.results as Array<{ task: Row }>).map((r) => ({ ...r, task: pick(r.task) })) };
  return out;
}

function cellText(t: Row, f: string): string {
  if (f === 'state') return markerCell(t as unknown as TaskLike).text;
  const v = t[f];
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.join(',');
  if (f === 'claim') return (v as { actor: string }).actor;
  if (f === 'checklistProgress') return (v as { total: number }).total ? `${(v as { done: number }).done}/${(v as { total: number }).total}` : '';
  if (f === 'createdAt' || f === 'updatedAt') return relativeTime(String(v));
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The tasks as a table of the chosen columns. */
export function fieldTable(out: Row, fields: string[], env: RenderEnv): string {
  const tasks = tasksOf(out);
  if (!tasks.length) return env.paint('dim', 'No tasks.');
  const headers = fields.map((f) => f.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase());
  return table(
    headers,
    tasks.map((t) => fields.map((f) => cellText(t, f))),
    { paint: env.paint, width: env.width, ...(fields.includes('title') ? { flex: fields.indexOf('title') } : {}) },
  );
}
