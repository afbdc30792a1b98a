/** Task tables: `list`, `ready` and `search`. */
import type { RenderEnv } from './render-env.js';
import { checklistText, markerCell, priorityCell, statusCell, type TaskLike } from './task-parts.js';
import { table } from './table.js';

function taskTable(tasks: TaskLike[], env: RenderEnv): string {
  const rows = tasks.map((t) => [{ text: t.id, style: 'bold' as const }, statusCell(t), priorityCell(t.priority), t.title, t.assignee ?? '', checklistText(t.checklistProgress), markerCell(t)]);
  return table(['ID', 'STATUS', 'PRI', 'TITLE', 'ASSIGNEE', 'CHECK', 'STATE'], rows, { paint: env.paint, width: env.width, flex: 3 });
}

export function taskListView(out: { tasks: TaskLike[]; total: number; nextCursor: string | null }, env: RenderEnv): string {
  if (!out.tasks.length) return env.paint('dim', 'No tasks match.');
  const count = out.total > out.tasks.length ? `${out.tasks.length} of ${out.total} tasks` : `${out.total} task${out.total === 1 ? '' : 's'}`;
  const more = out.nextCursor ? ` · next page: --cursor ${out.nextCursor}` : '';
  return `${taskTable(out.tasks, env)}\n${env.paint('dim', count + more)}`;
}

export function readyView(out: { tasks: TaskLike[]; hasMore?: boolean; blocked?: { count: number; topBlockers: string[] } | undefined }, env: RenderEnv): string {
  if (out.tasks.length) return `${taskTable(out.tasks, env)}\n${env.paint('dim', `${out.hasMore ? 'More are ready: --limit N. ' : ''}Take one with: cairn start <id>`)}`;
  const lines = ['No ready tasks.'];
  if (out.blocked?.count) {
    lines.push(`${out.blocked.count} task${out.blocked.count === 1 ? ' waits' : 's wait'} on blockers; finishing these would free the most: ${out.blocked.topBlockers.join(', ')}`);
  }
  return lines.join('\n');
}

/** FTS excerpts mark hits with **…**; on a TTY they become bold. */
function excerpt(text: string, env: RenderEnv): string {
  return text.replace(/\*\*(.+?)\*\*/g, (_m, hit: string) => env.paint('bold', hit));
}

export function searchView(out: { results: Array<{ task: TaskLike; matchedFields: string[]; excerpt: string }>; total: number; nextCursor: string | null }, env: RenderEnv): string {
  if (!out.results.length) return env.paint('dim', 'No matches.');
  const lines: string[] = [];
  for (const r of out.results) {
    lines.push(`${env.paint('bold', r.task.id)}  ${r.task.title}  ${env.paint('dim', `[${r.task.status}] in ${r.matchedFields.join(', ')}`)}`);
    if (r.excerpt) lines.push(`    ${excerpt(r.excerpt, env)}`);
  }
  const more = out.nextCursor ? ` · next page: --cursor ${out.nextCursor}` : '';
  lines.push(env.paint('dim', `${out.total} match${out.total === 1 ? '' : 'es'}${more}`));
  return lines.join('\n');
}
