/** The board for `board`: each lane with its top cards, then totals, blocked tasks and who works on what. */
import type * as z from 'zod';
import type { BoardOut } from '../../ops/work-ops.js';
import type { RenderEnv } from './render-env.js';
import { priorityCell } from './task-parts.js';

type Board = z.infer<ReturnType<typeof BoardOut>>;
type Lane = Board['lanes'][number];

const pct = (rate: number): string => `${Math.round(rate * 100)}%`;

function laneLines(lane: Lane, env: RenderEnv): string[] {
  const check = lane.checklistTotal ? `  checklist ${lane.checklistDone}/${lane.checklistTotal}` : '';
  // The status id in brackets, as task lines show it (what `cairn move` takes), and the category in
  // words, each only where the display name does not already say it (no "Backlog [backlog] · backlog").
  const plain = lane.displayName.toLowerCase().replace(/\s+/g, '_');
  const id = lane.status !== plain ? ` [${lane.status}]` : '';
  const kind = lane.category !== plain && lane.category !== lane.status ? ` · ${lane.category.replace(/_/g, ' ')}` : '';
  const head = `${env.paint('bold', lane.displayName)}${env.paint('dim', `${id}${kind}`)}  ${lane.count}${env.paint('dim', check)}`;
  const idWidth = Math.max(0, ...lane.cards.map((c) => c.id.length));
  const titleWidth = Math.min(60, Math.max(0, ...lane.cards.map((c) => c.title.length)));
  const cards = lane.cards.map((c) => {
    const pri = priorityCell(c.priority);
    const tags = [
      c.assignee ? env.paint('cyan', `@${c.assignee}`) : '',
      c.isReady ? env.paint('green', 'ready') : c.openBlockers.length && lane.category !== 'done' && lane.category !== 'canceled' ? env.paint('red', `waits on ${c.openBlockers.join(',')}`) : '',
    ];
    const progress = c.checklistProgress.total ? `${c.checklistProgress.done}/${c.checklistProgress.total}` : '';
    const title = c.title.length > titleWidth ? `${c.title.slice(0, titleWidth - 1)}…` : c.title.padEnd(titleWidth);
    return `  ${c.id.padEnd(idWidth)}  ${env.paint(pri.style ?? 'dim', pri.text.padEnd(6))}  ${title}  ${env.paint('dim', progress.padEnd(5))}  ${tags.filter(Boolean).join('  ')}`.trimEnd();
  });
  const hidden = lane.count - lane.cards.length;
  if (hidden > 0 && lane.cards.length)
    cards.push(env.paint('dim', `  … ${hidden} more (cairn list --status ${lane.status}${lane.category === 'done' || lane.category === 'canceled' ? ' --include-done' : ''})`));
  return [head, ...cards];
}

export function boardView(out: Board, env: RenderEnv): string {
  const s = out.summary;
  const title = out.project ? `Board ${out.project}` : 'Board (all projects)';
  const blocks = [env.paint('bold', title), ...out.lanes.map((l) => laneLines(l, env).join('\n'))];
  const summary = `${s.totalTasks} tasks · ${s.doneTasks} done (${pct(s.doneRate)}) · ${s.readyTasks} ready${s.checklistTotal ? ` · checklist ${s.checklistDone}/${s.checklistTotal} (${pct(s.completionRate)})` : ''}`;
  const tail = [summary];
  if (out.blocked.length) tail.push(`blocked: ${out.blocked.map((b) => (b.openBlockers.length ? `${b.id} (by ${b.openBlockers.join(',')})` : b.id)).join(', ')}`);
  const working = Object.entries(out.inProgressByAssignee);
  if (working.length) tail.push(`in progress: ${working.map(([who, ids]) => `${who}: ${ids.join(',')}`).join('; ')}`);
  blocks.push(tail.join('\n'));
  return blocks.join('\n\n');
}
