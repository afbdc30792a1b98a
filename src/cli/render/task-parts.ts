/** Small pieces shared by the task views: status, priority and readiness markers. */
import type { Style } from './color.js';
import type { RenderEnv } from './render-env.js';
import type { Cell } from './table.js';
import { humanTime } from './time.js';

export interface TaskLike {
  id: string;
  title: string;
  status: string;
  statusCategory: string;
  priority: string;
  assignee: string | null;
  isReady: boolean;
  blockedBy: string[];
  /** The blockers not yet finished: the only ones that make a task look blocked. */
  openBlockers: string[];
  claim: { actor: string; expiresAt: string } | null;
  version: number;
  checklistProgress: { done: number; total: number };
}

const CATEGORY_STYLE: Record<string, Style> = { backlog: 'gray', todo: 'blue', in_progress: 'yellow', blocked: 'red', done: 'green', canceled: 'gray' };
const PRIORITY_STYLE: Record<string, Style> = { urgent: 'red', high: 'magenta', medium: 'yellow', low: 'cyan', none: 'gray' };

export const statusCell = (t: Pick<TaskLike, 'status' | 'statusCategory'>): Cell => ({ text: t.status, style: CATEGORY_STYLE[t.statusCategory] });
export const priorityCell = (p: string): Cell => ({ text: p === 'none' ? '-' : p, style: PRIORITY_STYLE[p] });

/** Ready, blocked or claimed, in words a person scans quickly. */
export function markerCell(t: TaskLike): Cell {
  // Finished tasks need no marker; backlog tasks are never ready, so "blocked" would mislead there.
  if (['done', 'canceled', 'backlog'].includes(t.statusCategory)) return { text: '' };
  // The lease's end: when it lapses if not renewed (`cairn start ID` again).
  if (t.claim) return { text: `claimed by ${t.claim.actor} until ${humanTime(t.claim.expiresAt)}`, style: 'yellow' };
  if (t.isReady) return { text: 'ready', style: 'green' };
  // Only unfinished blockers block: blockedBy keeps every edge, finished ones included.
  // "Blocked" is a lane (a status); a task held up by unfinished blockers waits on them.
  if (t.openBlockers.length) return { text: `waits on ${t.openBlockers.join(',')}`, style: 'red' };
  return { text: '' };
}

/** What `show` says of a task's state: one phrase that is true in every category (a done task is not "not ready"). */
export function stateText(t: TaskLike): Cell {
  if (t.statusCategory === 'done') return { text: 'finished', style: 'green' };
  if (t.statusCategory === 'canceled') return { text: 'canceled' };
  if (t.statusCategory === 'backlog') return { text: 'in the backlog (not queued: move it to a todo lane to queue it)' };
  const marker = markerCell(t);
  if (marker.text) return marker;
  if (t.statusCategory === 'blocked') return { text: `blocked (in the ${t.status} lane)`, style: 'red' };
  if (t.statusCategory === 'in_progress') return { text: 'in progress, unclaimed' };
  return { text: 'not ready' };
}

export function checklistText(p: { done: number; total: number }): string {
  return p.total ? `${p.done}/${p.total}` : '';
}

/** `API-3  Title  [todo] high` — the line every confirmation starts with. */
export function taskLine(t: TaskLike, env: RenderEnv): string {
  const { paint } = env;
  const pri = priorityCell(t.priority);
  const status = statusCell(t);
  return `${paint('bold', t.id)}  ${t.title}  ${paint(status.style ?? 'dim', `[${t.status}]`)}${t.priority !== 'none' ? ` ${paint(pri.style ?? 'dim', t.priority)}` : ''}  ${paint('dim', `v${t.version}`)}`;
}
