/** Board overview and progress: lanes with counts and checklist completion, by priority, by assignee, overall. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { PRIORITIES, type Priority, type TaskSummary } from '../model/task.js';
import type { Category } from '../model/workflow.js';
import type { BoardRow, ProjectRow, Tx } from '../ports.js';
import { summarize } from './hydrate.js';
import { resolveProject } from './resolve.js';

export const BoardInput = lazy(() =>
  z.object({
    project: z.string().optional(),
    allProjects: z.boolean().default(false).describe('Ignore the default project'),
    includeArchived: z.boolean().default(false),
    cardsPerLane: z.number().int().min(0).max(100).default(5).describe('0: counts only'),
  }),
);

interface Bucket {
  count: number;
  checklistDone: number;
  checklistTotal: number;
  completionRate: number;
}
const bucket = (): Bucket => ({ count: 0, checklistDone: 0, checklistTotal: 0, completionRate: 0 });
function add(b: Bucket, r: BoardRow): void {
  b.count += r.count;
  b.checklistDone += r.checklistDone;
  b.checklistTotal += r.checklistTotal;
  b.completionRate = b.checklistTotal ? Math.round((b.checklistDone / b.checklistTotal) * 1000) / 1000 : 0;
}

export interface Lane extends Bucket {
  status: string;
  displayName: string;
  category: Category;
  color: string;
  priorityBreakdown: Partial<Record<Priority, number>>;
  cards: Array<Pick<TaskSummary, 'id' | 'title' | 'priority' | 'assignee' | 'isReady' | 'blockedBy' | 'openBlockers' | 'checklistProgress'>>;
}

export interface BoardOverview {
  project: string | null;
  lanes: Lane[];
  byCategory: Record<string, Bucket>;
  byPriority: Record<string, Bucket & { done: number; doneRate: number }>;
  byAssignee: Record<string, Bucket>;
  summary: { totalTasks: number; doneTasks: number; doneRate: number; checklistDone: number; checklistTotal: number; completionRate: number; readyTasks: number };
  /** The first 20 blocked tasks in ready order; `blockedCount` counts them all. */
  blocked: Array<{ id: string; title: string; blockedBy: string[]; openBlockers: string[] }>;
  blockedCount: number;
  /** Ids of in-progress tasks per assignee (the first IN_PROGRESS_LISTED in ready order); `inProgressCounts` counts them all. */
  inProgressByAssignee: Record<string, string[]>;
  inProgressCounts: Record<string, number>;
}

/** In-progress ids listed per board at most (counts are exact beyond it). */
export const IN_PROGRESS_LISTED = 500;

async function lanesFor(tx: Tx, projects: ProjectRow[]) {
  const byName = new Map<string, { displayName: string; category: Category; color: string; order: number }>();
  for (const p of projects) {
    for (const s of await tx.getStatuses(p.uid)) if (!byName.has(s.name)) byName.set(s.name, { displayName: s.displayName, category: s.category, color: s.color, order: byName.size });
  }
  return byName;
}

export async function boardOverview(ctx: Context, input: z.infer<ReturnType<typeof BoardInput>>): Promise<BoardOverview> {
  return ctx.store.read(async (tx) => {
    const now = nowIso(ctx);
    const projects = input.project ? [await resolveProject(tx, input.project)] : await tx.listProjects(false);
    const uids = projects.map((p) => p.uid);
    const statuses = await lanesFor(tx, projects);
    const rows = await tx.boardRows(uids, input.includeArchived);
    const lanes = new Map<string, Lane>();
    for (const [name, s] of statuses) lanes.set(name, { status: name, displayName: s.displayName, category: s.category, color: s.color, ...bucket(), priorityBreakdown: {}, cards: [] });
    const byCategory: Record<string, Bucket> = {};
    const byPriority: Record<string, Bucket & { done: number; doneRate: number }> = {};
    const byAssignee: Record<string, Bucket> = {};
    const total = bucket();
    let doneTasks = 0;
    for (const r of rows) {
      const s = statuses.get(r.status);
      const lane = lanes.get(r.status);
      const category = s?.category ?? 'todo';
      if (lane) {
        add(lane, r);
        lane.priorityBreakdown[r.priority] = (lane.priorityBreakdown[r.priority] ?? 0) + r.count;
      }
      add((byCategory[category] ??= bucket()), r);
      const pb = (byPriority[r.priority] ??= { ...bucket(), done: 0, doneRate: 0 });
      add(pb, r);
      if (category === 'done') {
        pb.done += r.count;
        doneTasks += r.count;
      }
      pb.doneRate = pb.count ? Math.round((pb.done / pb.count) * 1000) / 1000 : 0;
      add((byAssignee[r.assignee ?? 'unassigned'] ??= bucket()), r);
      add(total, r);
    }
    if (input.cardsPerLane > 0) {
      for (const lane of lanes.values()) {
        if (lane.count === 0) continue;
        // Open lanes list their most pressing cards (priority, score, then position), so a lane's urgent work is never among the cards left out.
        const finished = lane.category === 'done' || lane.category === 'canceled';
        const { rows: top } = await tx.listTasks(
          { projectUids: uids, statuses: [lane.status], includeDone: true, includeArchived: input.includeArchived },
          finished ? 'position' : 'ready',
          input.cardsPerLane,
          undefined,
        );
        lane.cards = summarize(top, now, ctx.actor).map(({ id, title, priority, assignee, isReady, blockedBy, openBlockers, checklistProgress }) => ({
          id,
          title,
          priority,
          assignee,
          isReady,
          blockedBy,
          openBlockers,
          checklistProgress,
        }));
      }
    }
    // Counted over all open work by the engine; the listed ids are the first few in ready order.
    const work = await tx.openWorkCounts({ projectUids: uids, categories: ['todo', 'backlog', 'blocked', 'in_progress'] }, { topBlockers: 0, blocked: 20 });
    let blockedCount = 0;
    const inProgressCounts: Record<string, number> = {};
    for (const g of work.groups) {
      if (g.category === 'blocked') blockedCount += g.count;
      else if (g.category === 'todo' || g.category === 'backlog') blockedCount += g.waiting;
      else inProgressCounts[g.assignee ?? 'unassigned'] = (inProgressCounts[g.assignee ?? 'unassigned'] ?? 0) + g.count;
    }
    const blocked = summarize(await tx.getTaskSummaries(work.blocked), now, ctx.actor).map((t) => ({ id: t.id, title: t.title, blockedBy: t.blockedBy, openBlockers: t.openBlockers }));
    const inProgressByAssignee: Record<string, string[]> = {};
    const working = await tx.listTasks({ projectUids: uids, categories: ['in_progress'] }, 'priority', IN_PROGRESS_LISTED, undefined, { count: false });
    for (const t of working.rows) (inProgressByAssignee[t.assignee ?? 'unassigned'] ??= []).push(`${t.projectKey}-${t.seq}`);
    const ready = await tx.listTasks({ projectUids: uids, ready: { now, actor: ctx.actor } }, 'priority', 1, undefined);
    return {
      project: input.project ? projects[0]!.key : null,
      lanes: [...lanes.values()],
      byCategory,
      byPriority: Object.fromEntries(
        PRIORITIES.filter((p) => byPriority[p])
          .reverse()
          .map((p) => [p, byPriority[p]!]),
      ),
      byAssignee,
      summary: {
        totalTasks: total.count,
        doneTasks,
        doneRate: total.count ? Math.round((doneTasks / total.count) * 1000) / 1000 : 0,
        checklistDone: total.checklistDone,
        checklistTotal: total.checklistTotal,
        completionRate: total.completionRate,
        readyTasks: ready.total,
      },
      blocked,
      blockedCount,
      inProgressByAssignee,
      inProgressCounts,
    };
  });
}
