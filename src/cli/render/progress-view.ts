/** `cairn progress`: completion by lane, by priority and by assignee, as tables (the board's cards are `cairn board`'s). */
import type * as z from 'zod';
import type { BoardOut } from '../../ops/work-ops.js';
import type { RenderEnv } from './render-env.js';
import { table } from './table.js';

type Board = z.infer<ReturnType<typeof BoardOut>>;
type Bucket = { count: number; checklistDone: number; checklistTotal: number };

const pct = (rate: number): string => `${Math.round(rate * 100)}%`;
const checklist = (b: Bucket): string => (b.checklistTotal ? `${b.checklistDone}/${b.checklistTotal}` : '-');

export function progressView(out: Board, env: RenderEnv): string {
  const s = out.summary;
  const title = env.paint('bold', out.project ? `Progress ${out.project}` : 'Progress (all projects)');
  const summary = `${s.totalTasks} tasks · ${s.doneTasks} done (${pct(s.doneRate)}) · ${s.readyTasks} ready${s.checklistTotal ? ` · checklist ${s.checklistDone}/${s.checklistTotal} (${pct(s.completionRate)})` : ''}`;
  const opts = { paint: env.paint };
  const lanes = table(
    ['LANE', 'CATEGORY', 'TASKS', 'CHECKLIST'],
    out.lanes.map((l) => [l.displayName, l.category, String(l.count), checklist(l)]),
    opts,
  );
  const priorities = Object.entries(out.byPriority);
  const byPriority = priorities.length
    ? table(
        ['PRIORITY', 'TASKS', 'DONE', 'DONE %', 'CHECKLIST'],
        priorities.map(([p, b]) => [p, String(b.count), String(b.done), pct(b.doneRate), checklist(b)]),
        opts,
      )
    : env.paint('dim', 'No tasks.');
  const assignees = Object.entries(out.byAssignee);
  const byAssignee = assignees.length
    ? table(
        ['ASSIGNEE', 'TASKS', 'CHECKLIST'],
        assignees.map(([a, b]) => [a, String(b.count), checklist(b)]),
        opts,
      )
    : env.paint('dim', 'No tasks.');
  return [title, summary, `${env.paint('bold', 'By lane')}\n${lanes}`, `${env.paint('bold', 'By priority')}\n${byPriority}`, `${env.paint('bold', 'By assignee')}\n${byAssignee}`].join('\n\n');
}
