/**
 * Property: the relations stored on task rows (migration 6: parent_id, rel_labels, rel_blocked_by,
 * rel_blocks, rel_children, kept by triggers) always equal what the edge tables say. After every
 * operation of a random sequence, every task's labels, blockedBy, blocks, children and parentId —
 * as list_tasks summaries (live and deleted), the op's own answer, and finally get_task,
 * next_tasks and the board return them — equal a naive reference computed from a raw read-only
 * dump of task_labels, dependencies, tasks and projects. Refused operations change nothing.
 * label_order (migration 10: one entry per label of each open task, keyed in ready order) equals
 * the same dump's open tasks × labels, and a list by project and label returns them in ready order.
 * A second process's view: a reader opened once, whose remembered summary rows (migration 11,
 * summary-cache.ts) outlive every write, answers each list exactly as a freshly opened one does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integrityCheck, manualClock } from '../helpers/core.js';
import { onPostgres } from '../helpers/engine.js';
import { openRaw, type RawDb } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { RawState, refusedOnlyAsAllowed } from './refusals.js';

// Quotes, backslashes and non-ASCII too: list rows arrive as packed JSON and relation arrays are
// split without a parse when they hold no escape; a new task's labels are written in byte order
// (😀 sorts after U+E000 in UTF-8 but before it in UTF-16).
const LABELS = ['a', 'b', 'c', 'B', 'z-9', 'say "hi"', 'back\\slash', 'ünï', '😀', '\uE000'] as const;
const PROJECTS = ['API', 'WEB'] as const;

type Op =
  | { t: 'create'; project: 0 | 1; labels: string[]; blockers: number[]; parent: number | null }
  | { t: 'labels'; i: number; labels: string[] }
  | { t: 'addLabels' | 'removeLabels'; i: number; labels: string[] }
  | { t: 'parent'; i: number; parent: number | null }
  | { t: 'dep' | 'undep'; i: number; j: number }
  | { t: 'delete' | 'restore' | 'purge' | 'deletePurge' | 'complete' | 'archive' | 'unarchive' | 'claim' | 'reopen'; i: number }
  | { t: 'reorder'; i: number; priority: 'none' | 'low' | 'high' | 'urgent'; score: number; position: number | null }
  | { t: 'status'; i: number; status: 'review' | 'in_progress' | 'backlog' }
  | { t: 'recategorize'; project: 0 | 1; category: 'done' | 'in_progress' | 'canceled' }
  | { t: 'tick'; ms: number };

const idx = fc.nat({ max: 40 });
// Untrimmed and repeated labels too: the service trims and deduplicates them.
const labelArb = fc.array(fc.constantFrom<string>(...LABELS, ' a', 'b '), { maxLength: 4 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      project: fc.constantFrom<0 | 1>(0, 0, 1),
      labels: labelArb,
      blockers: fc.oneof(fc.constant<number[]>([]), fc.array(idx, { maxLength: 3 })),
      parent: fc.option(idx, { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('labels' as const), i: idx, labels: labelArb }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('addLabels' as const, 'removeLabels' as const), i: idx, labels: labelArb }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('parent' as const), i: idx, parent: fc.option(idx, { nil: null, freq: 3 }) }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('dep' as const), i: idx, j: idx }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('undep' as const), i: idx, j: idx }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constantFrom(
        'delete' as const,
        'delete' as const,
        'restore' as const,
        'restore' as const,
        'purge' as const,
        'deletePurge' as const,
        'deletePurge' as const,
        'complete' as const,
        'archive' as const,
        'unarchive' as const,
      ),
      i: idx,
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 1000) }) },
  // Changes to a task's place in the ready order or to its openness move its label_order entries.
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('reorder' as const),
      i: idx,
      priority: fc.constantFrom('none' as const, 'low' as const, 'high' as const, 'urgent' as const),
      score: fc.constantFrom(0, 5, 5, 50),
      position: fc.option(fc.nat({ max: 5 }), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('claim' as const, 'reopen' as const), i: idx }) },
  // A status recategorized moves all its tasks in or out of the open set at once.
  { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), i: idx, status: fc.constantFrom('review' as const, 'in_progress' as const, 'backlog' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('recategorize' as const), project: fc.constantFrom<0 | 1>(0, 1), category: fc.constantFrom('done' as const, 'in_progress' as const, 'canceled' as const) }),
  },
);

/** Binary string order, as SQLite compares TEXT: UTF-8 bytes. */
const bin = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

interface RawTask {
  num: number;
  uid: string;
  project_uid: string;
  seq: number;
  parent_uid: string | null;
  deleted_at: string | null;
  archived_at: string | null;
  category: string;
  version: number;
  priority: number;
  score: number;
  position: number;
  created_at: string;
  parent_id: string | null;
  rel_labels: string;
  rel_blocked_by: string;
  rel_blocks: string;
  rel_children: string;
}
interface Dump {
  tasks: RawTask[];
  labelOrder: Array<{ project_uid: string; label: string; priority: number; score: number; position: number; created_at: string; uid: string; num: number }>;
  labels: Array<{ task_uid: string; label: string }>;
  deps: Array<{ task_uid: string; blocker_uid: string; created_at: string }>;
  projects: Array<{ uid: string; key: string }>;
  events: number;
}

async function dump(db: RawDb): Promise<Dump> {
  return {
    tasks: await db.all<RawTask>('SELECT * FROM tasks ORDER BY num'),
    labelOrder: await db.all<Dump['labelOrder'][number]>('SELECT * FROM label_order ORDER BY uid, label'),
    labels: await db.all<Dump['labels'][number]>('SELECT task_uid, label FROM task_labels ORDER BY task_uid, label'),
    deps: await db.all<Dump['deps'][number]>('SELECT task_uid, blocker_uid, created_at FROM dependencies ORDER BY task_uid, blocker_uid'),
    projects: await db.all<Dump['projects'][number]>('SELECT uid, key FROM projects ORDER BY uid'),
    events: (await db.value<number>('SELECT count(*) FROM events'))!,
  };
}

interface Rel {
  labels: string[];
  blockedBy: string[];
  blocks: string[];
  children: string[];
  parentId: string | null;
}

/** The relations of every task (by display id), written out naively from the edge tables. */
function reference(d: Dump): Map<string, Rel> {
  const key = new Map(d.projects.map((p) => [p.uid, p.key]));
  const byUid = new Map(d.tasks.map((t) => [t.uid, t]));
  const id = (uid: string) => {
    const t = byUid.get(uid)!;
    return `${key.get(t.project_uid)}-${t.seq}`;
  };
  const out = new Map<string, Rel>();
  for (const t of d.tasks) {
    // A deleted blocker leaves blockedBy, as a deleted task leaves blocks and children.
    const blockedBy = d.deps
      .filter((e) => e.task_uid === t.uid && byUid.get(e.blocker_uid)!.deleted_at === null)
      .sort((a, b) => bin(a.created_at, b.created_at) || byUid.get(a.blocker_uid)!.num - byUid.get(b.blocker_uid)!.num)
      .map((e) => id(e.blocker_uid));
    const blocks = d.deps
      .filter((e) => e.blocker_uid === t.uid && byUid.get(e.task_uid)!.deleted_at === null)
      .sort((a, b) => bin(a.created_at, b.created_at) || byUid.get(a.task_uid)!.num - byUid.get(b.task_uid)!.num)
      .map((e) => id(e.task_uid));
    const children = d.tasks
      .filter((c) => c.parent_uid === t.uid && c.deleted_at === null)
      .sort((a, b) => a.seq - b.seq || a.num - b.num)
      .map((c) => id(c.uid));
    const labels = d.labels
      .filter((l) => l.task_uid === t.uid)
      .map((l) => l.label)
      .sort(bin);
    out.set(id(t.uid), { labels, blockedBy, blocks, children, parentId: t.parent_uid === null ? null : id(t.parent_uid) });
  }
  return out;
}

const isOpen = (t: RawTask) => t.category !== 'done' && t.category !== 'canceled' && t.archived_at === null && t.deleted_at === null;

/** label_order as it should be: every label of every open task, with the task's order columns. */
function referenceLabelOrder(d: Dump): Dump['labelOrder'] {
  const byUid = new Map(d.tasks.map((t) => [t.uid, t]));
  return d.labels
    .filter((l) => isOpen(byUid.get(l.task_uid)!))
    .map((l) => {
      const t = byUid.get(l.task_uid)!;
      return { project_uid: t.project_uid, label: l.label, priority: t.priority, score: t.score, position: t.position, created_at: t.created_at, uid: t.uid, num: t.num };
    })
    .sort((a, b) => bin(a.uid, b.uid) || bin(a.label, b.label));
}

/** Open tasks of a project carrying a label, in ready order (priority, score, position, creation, uid). */
function referenceLabelList(d: Dump, projectUid: string, label: string): RawTask[] {
  const uids = new Set(d.labels.filter((l) => l.label === label).map((l) => l.task_uid));
  return d.tasks
    .filter((t) => t.project_uid === projectUid && uids.has(t.uid) && isOpen(t))
    .sort((a, b) => b.priority - a.priority || b.score - a.score || a.position - b.position || bin(a.created_at, b.created_at) || bin(a.uid, b.uid));
}

function idOf(d: Dump, uid: string): string {
  const t = d.tasks.find((x) => x.uid === uid)!;
  return `${d.projects.find((p) => p.uid === t.project_uid)!.key}-${t.seq}`;
}

const relOf = (t: Rel): Rel => ({ labels: t.labels, blockedBy: t.blockedBy, blocks: t.blocks, children: t.children, parentId: t.parentId });

describe('property: stored relations equal the edge tables', () => {
  // The timeout bounds a hang, not a speed: the runs take seconds, ten times longer on a loaded two-core machine.
  it('after random creates, label and parent edits, dependencies, deletes, restores, purges, completes and archives', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 15, maxLength: 40 }), async (ops) => {
        const clock = manualClock('2026-08-01T00:00:00.000Z');
        const c = tempCairn({ clock, actor: 'alice' });
        let raw: RawDb | undefined;
        let reader: Cairn | undefined;
        const ids: string[] = [];
        const id = (i: number) => ids[i % Math.max(ids.length, 1)] ?? 'API-999';
        const ref = (i: number | null) => (i === null ? null : id(i));
        try {
          for (const key of PROJECTS) await c.call('create_project', { key, name: key });
          raw = await openRaw(c.ws.db, { readonly: true });
          reader = openCairn({ db: c.ws.db, clock, actor: 'alice' });

          /** Lists whose rows the long-lived reader remembers: every path to list rows (plain, label, ready). */
          const views = (x: Cairn) =>
            Promise.all([
              x.call('list_tasks', { includeDone: true, includeArchived: true, sort: 'id', limit: 200 }),
              x.call('list_tasks', { deleted: true, sort: 'id', limit: 200 }),
              x.call('list_tasks', { project: 'API', labels: ['a'], limit: 200 }),
              x.call('list_tasks', { limit: 200 }),
              x.call('next_tasks', { limit: 100 }),
            ]);
          /** The reader's answers equal those of a Cairn opened afresh on the same file (nothing remembered). */
          const checkReader = async (after: string) => {
            const fresh = openCairn({ db: c.ws.db, clock, actor: 'alice' });
            try {
              expect(await views(reader!), `remembered rows after ${after}`).toEqual(await views(fresh));
            } finally {
              await fresh.close();
            }
          };

          /** Every answer that lists tasks agrees with the reference, and names every task once. */
          const checkLists = async (expected: Map<string, Rel>) => {
            const live = await c.call('list_tasks', { includeDone: true, includeArchived: true, sort: 'id', limit: 200 });
            const deleted = await c.call('list_tasks', { deleted: true, sort: 'id', limit: 200 });
            const seen = [...live.tasks, ...deleted.tasks];
            expect(seen.map((t) => t.id).sort()).toEqual([...expected.keys()].sort());
            for (const t of seen) expect(relOf(t), `list_tasks ${t.id}`).toEqual(expected.get(t.id));
          };

          for (const op of ops) {
            clock.advance(op.t === 'tick' ? op.ms : 1);
            const before = await dump(raw);
            // Mostly an edge that exists (random pairs rarely are one); sometimes a pair that is not.
            const undepEdge = op.t === 'undep' && before.deps.length && op.j % 4 !== 0 ? before.deps[op.i % before.deps.length] : undefined;
            const undepPair = op.t !== 'undep' ? undefined : undepEdge ? ([idOf(before, undepEdge.task_uid), idOf(before, undepEdge.blocker_uid)] as const) : ([id(op.i), id(op.j)] as const);
            // Refusals (cycles, self-edges, deleted or purged tasks, missing edges, claims on finished,
            // archived or blocked tasks…) are part of the game, but only those the state before the operation explains.
            const state = await RawState.read(raw, clock.now().toISOString());
            const allowed = ((): string[] => {
              switch (op.t) {
                case 'create': {
                  const refs = ids.length ? [...op.blockers.map(id), ...(op.parent !== null ? [id(op.parent)] : [])] : [];
                  return state.missingOrDeleted(...refs);
                }
                case 'labels':
                case 'addLabels':
                case 'removeLabels':
                case 'status':
                case 'reopen':
                case 'reorder':
                case 'archive':
                case 'unarchive':
                case 'complete':
                  return state.missingOrDeleted(id(op.i));
                case 'claim':
                  return [...state.missingOrDeleted(id(op.i)), ...(state.unclaimable(id(op.i)) ? ['VALIDATION_ERROR'] : []), ...(state.hasOpenBlocker(id(op.i)) ? ['BLOCKED'] : [])];
                case 'parent': {
                  if (op.parent === null) return state.missingOrDeleted(id(op.i));
                  const [task, parent] = [id(op.i), id(op.parent)];
                  return [...state.missingOrDeleted(task, parent), ...(task === parent ? ['SELF_DEPENDENCY'] : []), ...(state.parentCycle(task, parent) ? ['CYCLE_DETECTED'] : [])];
                }
                case 'dep': {
                  const [task, blocker] = [id(op.i), id(op.j)];
                  return [...state.missingOrDeleted(task, blocker), ...(task === blocker ? ['SELF_DEPENDENCY'] : []), ...(state.depCycle(task, blocker) ? ['CYCLE_DETECTED'] : [])];
                }
                case 'undep': {
                  const [task, blocker] = undepPair!;
                  return [...state.missingOrDeleted(task, blocker), ...(state.hasEdge(task, blocker) ? [] : ['VALIDATION_ERROR'])];
                }
                case 'delete':
                case 'restore':
                case 'deletePurge':
                  return state.missingOrDeleted(id(op.i)).filter((code) => code === 'TASK_NOT_FOUND');
                case 'purge':
                  return [...state.missingOrDeleted(id(op.i)).filter((code) => code === 'TASK_NOT_FOUND'), ...(state.deleted(id(op.i)) ? [] : ['VALIDATION_ERROR'])];
                case 'recategorize':
                case 'tick':
                  return [];
              }
            })();
            const attempt = async (): Promise<unknown> => {
              switch (op.t) {
                case 'create': {
                  const { task } = await c.call('create_task', {
                    project: PROJECTS[op.project],
                    title: `t${ids.length}`,
                    labels: op.labels,
                    blockedBy: ids.length ? [...new Set(op.blockers.map(id))] : [],
                    ...(op.parent !== null && ids.length ? { parentId: id(op.parent) } : {}),
                  });
                  ids.push(task.id);
                  return { task };
                }
                case 'labels':
                  return c.call('update_task', { id: id(op.i), labels: op.labels });
                case 'addLabels':
                  return c.call('update_task', { id: id(op.i), addLabels: op.labels });
                case 'removeLabels':
                  return c.call('update_task', { id: id(op.i), removeLabels: op.labels });
                case 'parent':
                  return c.call('update_task', { id: id(op.i), parentId: ref(op.parent) });
                case 'dep':
                  return c.call('add_dependency', { taskId: id(op.i), blockedBy: id(op.j) });
                case 'undep':
                  return c.call('remove_dependency', { taskId: undepPair![0], blockedBy: undepPair![1] });
                case 'delete':
                  return c.call('delete_task', { id: id(op.i) });
                case 'restore':
                  return c.call('restore_task', { id: id(op.i) });
                case 'purge':
                  return c.call('purge_task', { id: id(op.i), confirm: true });
                case 'deletePurge':
                  await c.call('delete_task', { id: id(op.i) });
                  return c.call('purge_task', { id: id(op.i), confirm: true });
                case 'complete':
                  return c.call('complete_task', { id: id(op.i) });
                case 'archive':
                  return c.call('archive_task', { id: id(op.i) });
                case 'unarchive':
                  return c.call('archive_task', { id: id(op.i), restore: true });
                case 'claim':
                  return c.call('claim_task', { id: id(op.i) });
                case 'status':
                  return c.call('update_task', { id: id(op.i), status: op.status });
                case 'recategorize':
                  return c.call('update_project', { key: PROJECTS[op.project], statuses: [{ op: 'recategorize', name: 'review', category: op.category }] });
                case 'reopen':
                  return c.call('update_task', { id: id(op.i), status: 'todo' });
                case 'reorder':
                  return c.call('update_task', { id: id(op.i), priority: op.priority, score: op.score, ...(op.position !== null ? { position: op.position } : {}) });
                case 'tick':
                  return undefined;
              }
            };
            const { refused: failed, answer } = await refusedOnlyAsAllowed(JSON.stringify(op), allowed, attempt);
            const after = await dump(raw);
            if (failed && op.t !== 'deletePurge') expect(after, `refused ${JSON.stringify(op)} changed the database`).toEqual(before);
            const expected = reference(after);
            // The stored columns themselves, then what the answers built from them say.
            for (const t of after.tasks) {
              const [key] = after.projects.filter((p) => p.uid === t.project_uid).map((p) => p.key);
              const stored: Rel = {
                labels: JSON.parse(t.rel_labels),
                blockedBy: JSON.parse(t.rel_blocked_by),
                blocks: JSON.parse(t.rel_blocks),
                children: JSON.parse(t.rel_children),
                parentId: t.parent_id,
              };
              expect(stored, `stored columns of ${key}-${t.seq} after ${JSON.stringify(op)}`).toEqual(expected.get(`${key}-${t.seq}`));
            }
            expect(after.labelOrder, `label_order after ${JSON.stringify(op)}`).toEqual(referenceLabelOrder(after));
            const task = (answer as { task?: Rel & { id: string } } | undefined)?.task;
            if (task) expect(relOf(task), `${op.t} answer for ${task.id}`).toEqual(expected.get(task.id));
            await checkLists(expected);
            await checkReader(JSON.stringify(op));
          }

          const final = await dump(raw);
          const expected = reference(final);
          for (const p of final.projects) {
            for (const label of LABELS) {
              const want = referenceLabelList(final, p.uid, label).map((t) => idOf(final, t.uid));
              const got = await c.call('list_tasks', { project: p.key, labels: [label], limit: 200 });
              expect(
                got.tasks.map((t) => t.id),
                `list ${p.key} label ${label}`,
              ).toEqual(want);
              expect(got.total).toBe(want.length);
              const page = await c.call('list_tasks', { project: p.key, labels: [label], limit: 2 });
              expect(page.tasks.map((t) => t.id)).toEqual(want.slice(0, 2));
              expect(page.total).toBe(want.length);
            }
          }
          for (const [taskId, rel] of expected) {
            expect(relOf((await c.call('get_task', { id: taskId })).task), `get_task ${taskId}`).toEqual(rel);
          }
          for (const t of (await c.call('next_tasks', { limit: 100 })).tasks) expect(relOf(t), `next_tasks ${t.id}`).toEqual(expected.get(t.id));
          for (const key of PROJECTS) {
            const board = await c.call('board_overview', { project: key, cardsPerLane: 100, includeArchived: true });
            for (const card of board.lanes.flatMap((l) => l.cards)) expect(card.blockedBy, `board card ${card.id}`).toEqual(expected.get(card.id)!.blockedBy);
          }
          await raw.close();
          raw = undefined;
          await reader.close();
          reader = undefined;
          await c.close();
          expect(await integrityCheck(c.ws.db)).toBe('ok');
        } finally {
          await raw?.close();
          await reader?.close();
          await c.done(); // closing twice is harmless; removes the workspace either way
        }
      }),
      // Each run is a fresh workspace, on PostgreSQL a new schema migrated from nothing (about 15 s a run on a loaded two-core machine): fewer runs there, the full count on SQLite.
      { numRuns: onPostgres ? 20 : 40 },
    );
  });
});
