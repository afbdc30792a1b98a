/** Views for history, projects, labels and purge. */
import type { ActivityEvent } from '../../core/model/activity.js';
import type { Project } from '../../core/model/project.js';
import type { RenderEnv } from './render-env.js';
import { table } from './table.js';
import { humanTime } from './time.js';

function short(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function eventLines(events: ActivityEvent[], env: RenderEnv, withTask: boolean): string[] {
  return events.map((e) => {
    const changes = Object.entries(e.changes).map(([k, c]) => `${k}: ${short(c.before)} → ${short(c.after)}`);
    const subject = withTask ? `  ${e.taskId ?? e.project ?? ''}` : '';
    return `${env.paint('dim', `#${e.seq} ${humanTime(e.at)}`)}  ${env.paint('cyan', e.actor)}  ${env.paint('bold', e.type)}${subject}${changes.length ? `\n    ${changes.join('\n    ')}` : ''}`;
  });
}

export function historyView(out: { taskId: string; events: ActivityEvent[]; hasMore?: boolean }, env: RenderEnv): string {
  if (!out.events.length) return env.paint('dim', `No history for ${out.taskId}.`);
  const older = out.hasMore ? [env.paint('dim', `Older events exist: --limit N (the ${out.events.length} newest are shown).`)] : [];
  return [env.paint('bold', `History of ${out.taskId}`), ...older, ...eventLines(out.events, env, false)].join('\n');
}

export function changesView(out: { events: ActivityEvent[]; lastSeq: number; hasMore: boolean }, env: RenderEnv): string {
  const more = out.hasMore ? ` · more: --since ${out.lastSeq}` : '';
  return [...eventLines(out.events, env, true), env.paint('dim', `${out.events.length} events, last seq ${out.lastSeq}${more}`)].join('\n');
}

export function projectsView(out: { projects: Project[] }, env: RenderEnv): string {
  if (!out.projects.length) return env.paint('dim', 'No projects. Create one: cairn project create KEY "Name"');
  const rows = out.projects.map((p) => [{ text: p.key, style: 'bold' as const }, p.name, String(p.taskCount), p.root ?? '', p.archived ? { text: 'archived', style: 'gray' as const } : '']);
  return table(['KEY', 'NAME', 'TASKS', 'ROOT', ''], rows, { paint: env.paint, width: env.width, flex: 3 });
}

export function projectView(out: { project: Project }, env: RenderEnv): string {
  const p = out.project;
  const head = `${env.verb ? `${env.verb} ` : ''}${env.paint('bold', p.key)}  ${p.name}${p.archived ? env.paint('gray', '  (archived)') : ''}`;
  const lines = [head];
  if (p.description) lines.push(p.description);
  lines.push(`${env.paint('dim', 'root:'.padEnd(9))}${p.root ?? '-'}`, `${env.paint('dim', 'tasks:'.padEnd(9))}${p.taskCount}`);
  if (p.aliases.length) lines.push(`${env.paint('dim', 'aliases:')} ${p.aliases.join(', ')}`);
  const rows = p.statuses.map((s) => [s.name, s.displayName, s.category, s.color]);
  lines.push('', table(['STATUS', 'NAME', 'CATEGORY', 'COLOUR'], rows, { paint: env.paint }));
  return lines.join('\n');
}

export function labelsView(out: { labels: Array<{ label: string; count: number }> }, env: RenderEnv): string {
  if (!out.labels.length) return env.paint('dim', 'No labels in use.');
  return table(
    ['LABEL', 'TASKS'],
    out.labels.map((l) => [l.label, String(l.count)]),
    { paint: env.paint },
  );
}

export function purgedView(out: { purged: string }, env: RenderEnv): string {
  return `${env.paint('red', 'Purged')} ${out.purged} (permanently erased)`;
}
