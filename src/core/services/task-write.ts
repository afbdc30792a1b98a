/** The one path every task mutation takes: version check, patch, derived state, search index, activity event. */
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import type { Status } from '../model/workflow.js';
import type { TaskPatch, TaskRow, Tx } from '../ports.js';
import { isBlockerOpen } from '../rules/readiness.js';
import { diff, record, type Changes } from './activity.js';
import { assertMayWrite } from './claim-guard.js';
import { displayIdOf } from './hydrate.js';

const INDEXED = ['title', 'description'] as const;

export function checkVersion(row: TaskRow, expected: number | undefined): void {
  if (expected !== undefined && expected !== row.version) {
    const id = displayIdOf(row);
    throw new CairnError('VERSION_CONFLICT', `Task ${id} is at version ${row.version}, not ${expected}: someone changed it since you read it. Nothing was changed.`, {
      suggestions: [`get_task {id: "${id}"} to read the current version, then retry with expectedVersion: ${row.version}`],
      details: { current: row.version, expected },
    });
  }
}

export async function statusesOf(tx: Tx, row: Pick<TaskRow, 'projectUid'>): Promise<Status[]> {
  return tx.getStatuses(row.projectUid);
}

/** Re-exported for the services that import it from here; the rule itself lives in core/rules/find-status.ts. */
export { findStatus } from '../rules/find-status.js';

export function firstOfCategory(statuses: Status[], category: Status['category']): Status | undefined {
  return statuses.find((s) => s.category === category);
}

/** Position (a float) that puts a task at lane index `index`, renumbering the lane if midpoints run out. */
export async function positionAt(tx: Tx, row: Pick<TaskRow, 'uid' | 'projectUid'>, status: string, index: number | undefined): Promise<number> {
  if (index === undefined) return (await tx.maxLanePosition(row.projectUid, status)) + 1;
  let lane = await tx.lanePositions(row.projectUid, status, row.uid);
  const at = Math.min(index, lane.length);
  const mid = (l: number[]) => {
    const prev = at === 0 ? (l[0] ?? 1) - 1 : l[at - 1]!;
    const next = at >= l.length ? prev + 2 : l[at]!;
    return { prev, next, value: (prev + next) / 2 };
  };
  let m = mid(lane);
  if (!(m.next - m.prev > 1e-6)) {
    await tx.renumberLane(row.projectUid, status);
    lane = await tx.lanePositions(row.projectUid, status, row.uid);
    m = mid(lane);
  }
  return m.value;
}

/** Patch fields that go with entering a status: category and completion time. */
export function statusPatch(row: TaskRow, s: Status, now: string): TaskPatch {
  const done = s.category === 'done';
  return {
    status: s.name,
    category: s.category,
    completedAt: done ? (row.category === 'done' ? row.completedAt : now) : null,
  };
}

/**
 * Refuses a non-holder while another's claim is live (claim-guard.ts, unless `anyActor`), then
 * writes `patch` to the task with version+1 and updatedAt, keeps dependents' blocker counts and the
 * search index current, and appends the activity event. Returns the row as stored.
 */
export async function commitTaskChange(
  tx: Tx,
  ctx: Context,
  row: TaskRow,
  patch: TaskPatch,
  type: string,
  extra: Changes = {},
  opts: { reindex?: boolean; write?: (patch: TaskPatch) => Promise<void>; anyActor?: boolean } = {},
): Promise<TaskRow> {
  const now = nowIso(ctx);
  // Another's live claim excludes every write but those open to all (anyActor: comments,
  // dependency edges, a source's own changes, a workflow edit, the claim calls that check themselves).
  // Asked before the no-change shortcut: a fenced-out holder learns so even when its write changes nothing.
  if (!opts.anyActor) await assertMayWrite(tx, ctx, row, now);
  const changes = { ...diff(row as unknown as Record<string, unknown>, patch as Record<string, unknown>), ...extra };
  if (Object.keys(changes).length === 0) return row;
  const stored: TaskPatch = { ...patch, version: row.version + 1, updatedAt: now };
  // `write` replaces the plain row update with a guarded one (a claim's condition), still one UPDATE.
  await (opts.write ? opts.write(stored) : tx.updateTask(row.uid, stored));
  const wasOpen = isBlockerOpen({ category: row.category, deleted: row.deletedAt !== null });
  const isOpen = isBlockerOpen({ category: patch.category ?? row.category, deleted: (patch.deletedAt !== undefined ? patch.deletedAt : row.deletedAt) !== null });
  if (wasOpen !== isOpen) await tx.refreshOpenBlockers(await tx.dependentUids(row.uid));
  if (opts.reindex || INDEXED.some((f) => f in changes) || 'labels' in changes) await tx.reindexTask(row.uid);
  await record(tx, ctx, { projectUid: row.projectUid, taskUid: row.uid, type, changes });
  // When only the row's own columns changed, the stored row is the old one with the patch: no read back.
  // Labels, checklist, comments and parents change derived columns too (extra, reindex): read those.
  if (Object.keys(extra).length === 0 && !opts.reindex && Object.keys(stored).every((k) => OWN_COLUMNS.has(k))) {
    const saved = { ...row };
    for (const [k, v] of Object.entries(stored)) if (v !== undefined) (saved as Record<string, unknown>)[k] = v;
    return saved;
  }
  return (await tx.getTask(row.uid))!;
}

/** Patch fields stored as they are in the row and read back unchanged, from which no other field of the row is derived. */
const OWN_COLUMNS = new Set<string>([
  'title',
  'description',
  'status',
  'category',
  'kind',
  'priority',
  'score',
  'position',
  'assignee',
  'substatus',
  'slug',
  'claimedBy',
  'claimExpiresAt',
  'claimGeneration',
  'claimWhere',
  'touches',
  'evidence',
  'checkpoint',
  'links',
  'anchors',
  'closeReason',
  'origin',
  'documentPath',
  'version',
  'updatedAt',
  'completedAt',
  'archivedAt',
  'deletedAt',
] satisfies Array<keyof TaskPatch>);
