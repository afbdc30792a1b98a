/** Property: list_tasks with any combination of filters, sorts and page sizes equals a naive filter over a raw dump. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/core.js';
import { openRaw } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';
import { RawState, refusedOnlyAsAllowed } from './refusals.js';

const LABELS = ['a', 'b', 'c'] as const;
const KINDS = ['task', 'bug', 'epic'] as const;
const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
const STATUSES = ['backlog', 'todo', 'in_progress', 'review', 'done', 'canceled'] as const;
const ASSIGNEES = [null, 'alice', 'bob'] as const;

/** Binary string order, as SQLite compares TEXT. */
const bin = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Raw {
  uid: string;
  seq: number;
  project_uid: string;
  key: string;
  status: string;
  category: string;
  kind: string;
  priority: number;
  score: number;
  position: number;
  assignee: string | null;
  parent_uid: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  deleted_at: string | null;
  claimed_by: string | null;
  claim_expires_at: string | null;
  labels: string[];
  blockersOpen: number;
}

const clock = manualClock('2026-07-01T00:00:00.000Z');
let c: ReturnType<typeof tempCairn>;
let raw: Raw[];
const times: string[] = [];

/** A small deterministic generator so the workspace is the same on every run. */
function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

beforeAll(async () => {
  c = tempCairn({ clock, actor: 'alice' });
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_project', { key: 'WEB', name: 'Web' });
  const r = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ids: string[] = [];
  for (let i = 0; i < 36; i++) {
    clock.advance(1000 + Math.floor(r() * 3) * 1000);
    times.push(clock.now().toISOString());
    const parent = ids.length && r() < 0.3 ? pick(ids) : undefined;
    const blocker = ids.length && r() < 0.25 ? pick(ids) : undefined;
    const assignee = pick(ASSIGNEES);
    const { task } = await c.call('create_task', {
      project: r() < 0.7 ? 'API' : 'WEB',
      title: `task ${i}`,
      status: pick(STATUSES),
      kind: pick(KINDS),
      priority: pick(PRIORITIES),
      score: Math.floor(r() * 3),
      labels: LABELS.filter(() => r() < 0.4),
      ...(assignee ? { assignee } : {}),
      ...(parent ? { parentId: parent } : {}),
      ...(blocker ? { blockedBy: [blocker] } : {}),
    });
    ids.push(task.id);
    if (r() < 0.15) await c.call('archive_task', { id: task.id });
    if (r() < 0.1) {
      await c.call('delete_task', { id: task.id });
      ids.pop();
    }
    // Refused only for the reasons the task has just now: deleted (no changes until restored);
    // archived, finished or waiting on an open blocker (no claims).
    const now = async () => {
      const db = await openRaw(c.ws.db, { readonly: true });
      try {
        return await RawState.read(db, clock.now().toISOString());
      } finally {
        await db.close();
      }
    };
    if (r() < 0.2) await refusedOnlyAsAllowed(`update_task ${task.id} position 0`, (await now()).missingOrDeleted(task.id), () => c.call('update_task', { id: task.id, position: 0 }));
    if (r() < 0.15) {
      const state = await now();
      const allowed = [...state.missingOrDeleted(task.id), ...(state.unclaimable(task.id) ? ['VALIDATION_ERROR'] : []), ...(state.hasOpenBlocker(task.id) ? ['BLOCKED'] : [])];
      await refusedOnlyAsAllowed(`claim_task ${task.id}`, allowed, () => c.call('claim_task', { id: task.id, leaseSeconds: 10 }));
    }
  }
  clock.advance(5000); // some leases lapse
  const db = await openRaw(c.ws.db, { readonly: true });
  const rows = await db.all<Raw>('SELECT t.*, p.key FROM tasks t JOIN projects p ON p.uid = t.project_uid');
  const labels = await db.all<{ task_uid: string; label: string }>('SELECT task_uid, label FROM task_labels');
  const deps = await db.all<{ task_uid: string; blocker_uid: string }>('SELECT task_uid, blocker_uid FROM dependencies');
  await db.close();
  const byUid = new Map(rows.map((t) => [t.uid, t]));
  for (const t of rows) {
    t.labels = labels.filter((l) => l.task_uid === t.uid).map((l) => l.label);
    t.blockersOpen = deps.filter((d) => {
      const b = byUid.get(d.blocker_uid)!;
      return d.task_uid === t.uid && !b.deleted_at && b.category !== 'done' && b.category !== 'canceled';
    }).length;
  }
  raw = rows;
});
afterAll(async () => c.done());

interface Filter {
  project?: 'API' | 'WEB';
  status?: string[];
  category?: string[];
  kind?: string[];
  priority?: string[];
  labels?: string[];
  labelsAll?: string[];
  assignee?: string;
  parentId?: string;
  ready?: boolean;
  updatedSince?: string;
  includeDone?: boolean;
  includeArchived?: boolean;
}

function reference(f: Filter, sort: 'priority' | 'id' | 'created'): string[] {
  const now = clock.now().toISOString();
  const ready = (t: Raw) => {
    const live = t.claimed_by !== null && t.claim_expires_at! > now;
    const abandoned = t.claimed_by !== null && !live && t.category === 'in_progress';
    return (t.category === 'todo' || abandoned) && !t.archived_at && !t.deleted_at && t.blockersOpen === 0 && (!live || t.claimed_by === 'alice');
  };
  const parentUid = f.parentId ? raw.find((t) => `${t.key}-${t.seq}` === f.parentId)!.uid : undefined;
  const out = raw.filter(
    (t) =>
      !t.deleted_at &&
      (f.includeArchived || !t.archived_at) &&
      (f.includeDone || f.status?.length || f.category?.length || !['done', 'canceled'].includes(t.category)) &&
      (!f.project || t.key === f.project) &&
      (!f.status?.length || f.status.includes(t.status)) &&
      (!f.category?.length || f.category.includes(t.category)) &&
      (!f.kind?.length || f.kind.includes(t.kind)) &&
      (!f.priority?.length || f.priority.map((p) => PRIORITIES.indexOf(p as never)).includes(t.priority)) &&
      (!f.labels?.length || f.labels.some((l) => t.labels.includes(l))) &&
      (!f.labelsAll?.length || f.labelsAll.every((l) => t.labels.includes(l))) &&
      (f.assignee === undefined || t.assignee === (f.assignee === 'none' ? null : f.assignee)) &&
      (!parentUid || t.parent_uid === parentUid) &&
      (!f.ready || ready(t)) &&
      (!f.updatedSince || t.updated_at >= f.updatedSince),
  );
  const cmp = {
    priority: (a: Raw, b: Raw) => b.priority - a.priority || b.score - a.score || a.position - b.position || bin(a.created_at, b.created_at) || bin(a.uid, b.uid),
    id: (a: Raw, b: Raw) => bin(a.project_uid, b.project_uid) || a.seq - b.seq,
    created: (a: Raw, b: Raw) => bin(b.created_at, a.created_at) || bin(b.uid, a.uid),
  }[sort];
  return out.sort(cmp).map((t) => `${t.key}-${t.seq}`);
}

const sub = <T>(xs: readonly T[]) => fc.subarray([...xs], { minLength: 1 });
const allFilters = fc.record({
  project: fc.constantFrom('API' as const, 'WEB' as const),
  status: sub(STATUSES),
  category: sub(['todo', 'in_progress', 'done', 'backlog', 'canceled']),
  kind: sub(KINDS),
  priority: sub(PRIORITIES),
  labels: sub(LABELS),
  labelsAll: sub(LABELS),
  assignee: fc.constantFrom('alice', 'bob', 'none'),
  parentId: fc.constantFrom('API-1', 'API-2', 'WEB-1', 'API-3'),
  ready: fc.boolean(),
  updatedSince: fc.nat({ max: 35 }).map((i) => times[i]!),
  includeDone: fc.boolean(),
  includeArchived: fc.boolean(),
});
/** A few filters at a time (every one of them AND-ed would leave nothing to compare). */
const filterArb: fc.Arbitrary<Filter> = fc
  .tuple(
    allFilters,
    fc.subarray(['project', 'status', 'category', 'kind', 'priority', 'labels', 'labelsAll', 'assignee', 'parentId', 'ready', 'updatedSince', 'includeDone', 'includeArchived'] as const, {
      maxLength: 3,
    }),
  )
  .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k]])) as Filter);

describe('property: list filters, sorts and cursors equal a naive reference', () => {
  it('any filter combination, sort and page size', async () => {
    await fc.assert(
      fc.asyncProperty(filterArb, fc.constantFrom('priority' as const, 'id' as const, 'created' as const), fc.integer({ min: 1, max: 9 }), async (f, sort, limit) => {
        if (f.status && !f.project) delete f.status; // status names are validated per project
        if (f.parentId && !raw.some((t) => `${t.key}-${t.seq}` === f.parentId)) delete f.parentId;
        const expected = reference(f, sort);
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await c.call('list_tasks', { ...f, sort, limit, ...(cursor ? { cursor } : {}) } as never);
          expect(page.total).toBe(expected.length);
          seen.push(...page.tasks.map((t) => t.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });
});
