/**
 * Property: paging never skips or repeats. A reader walks list_tasks (every sort, plain, label and
 * ready filters) or search_tasks page by page while other writers create, move, reprioritise,
 * complete, archive and delete tasks between the pages. Every task that matches throughout the walk
 * and is not itself edited is seen exactly once; only an edited task may show up again (after moving
 * past the cursor), and search, whose ranks shift with any write, never repeats a hit at all.
 * Crafted and garbage cursors are refused as VALIDATION_ERROR, never INTERNAL.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { TASK_SORTS } from '../../src/core/ports.js';
import { expectCode, manualClock, rawCall } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
const OPEN = ['backlog', 'todo', 'in_progress', 'review'] as const;

type Edit = { op: 'create'; priority: number; label: boolean; status: number } | { op: 'move' | 'priority' | 'score' | 'complete' | 'archive' | 'delete' | 'text'; pick: number; value: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), priority: fc.nat(4), label: fc.boolean(), status: fc.nat(3) }),
  fc.record({ op: fc.constantFrom('move', 'priority', 'score', 'complete', 'archive', 'delete', 'text') as fc.Arbitrary<Exclude<Edit['op'], 'create'>>, pick: fc.nat(1000), value: fc.nat(4) }),
);

type Seed = { priority: number; score: number; label: boolean; status: number; tick: number };
const seed: fc.Arbitrary<Seed[]> = fc.array(fc.record({ priority: fc.nat(4), score: fc.nat(2), label: fc.boolean(), status: fc.nat(3), tick: fc.nat(2) }), { minLength: 1, maxLength: 24 });

let open: Array<ReturnType<typeof tempCairn>> = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.done()));
  open = [];
});

async function workspace(tasks: Seed[]) {
  const clock = manualClock('2026-03-01T00:00:00.000Z');
  const c = tempCairn({ clock, actor: 'reader' });
  open.push(c);
  await c.call('create_project', { key: 'API', name: 'API' });
  for (const [i, t] of tasks.entries()) {
    clock.advance(t.tick * 1000); // ties on created_at are common: the uid decides
    await c.call('create_task', {
      project: 'API',
      title: `alpha task ${i}`,
      description: 'alpha '.repeat(1 + (i % 3)),
      priority: PRIORITIES[t.priority]!,
      score: t.score,
      status: OPEN[t.status]!,
      labels: t.label ? ['a'] : [],
    });
  }
  return { c, clock };
}

/** Applies one edit as another writer would; returns the id of the task it touched. */
async function apply(c: ReturnType<typeof tempCairn>, clock: ReturnType<typeof manualClock>, e: Edit, n: number): Promise<string | undefined> {
  clock.advance(500);
  if (e.op === 'create') {
    const { task } = await c.call('create_task', { project: 'API', title: `alpha new ${n}`, priority: PRIORITIES[e.priority]!, status: OPEN[e.status]!, labels: e.label ? ['a'] : [] });
    return task.id;
  }
  const { tasks } = await c.call('list_tasks', { project: 'API', limit: 200, sort: 'id' });
  if (!tasks.length) return undefined;
  const id = tasks[e.pick % tasks.length]!.id;
  switch (e.op) {
    case 'move':
      await c.call('update_task', { id, status: OPEN[e.value % OPEN.length]! });
      break;
    case 'priority':
      await c.call('update_task', { id, priority: PRIORITIES[e.value]! });
      break;
    case 'score':
      await c.call('update_task', { id, score: e.value });
      break;
    case 'text':
      await c.call('update_task', { id, description: 'alpha '.repeat(e.value + 1) + 'beta' });
      break;
    case 'complete':
      await c.call('complete_task', { id });
      break;
    case 'archive':
      await c.call('archive_task', { id });
      break;
    case 'delete':
      await c.call('delete_task', { id });
      break;
  }
  return id;
}

type Query = { sort: (typeof TASK_SORTS)[number]; labels?: string[]; ready?: boolean };
const query: fc.Arbitrary<Query> = fc.record({ sort: fc.constantFrom(...TASK_SORTS), labels: fc.constant(['a']), ready: fc.constant(true) }, { requiredKeys: ['sort'] });

describe('keyset paging', () => {
  it('list_tasks: with writes between pages, every task matching throughout and not edited is seen exactly once; only edited tasks repeat', async () => {
    await fc.assert(
      fc.asyncProperty(seed, query, fc.integer({ min: 1, max: 5 }), fc.array(fc.array(edit, { maxLength: 3 }), { maxLength: 12 }), async (tasks, q, limit, edits) => {
        const { c, clock } = await workspace(tasks);
        const args = { project: 'API', sort: q.sort, ...(q.labels ? { labels: q.labels } : {}), ...(q.ready ? { ready: true } : {}) };
        const before = new Set((await c.call('list_tasks', { ...args, limit: 200 })).tasks.map((t) => t.id));
        const touched = new Set<string>();
        const seen: string[] = [];
        let cursor: string | undefined;
        let n = 0;
        for (let page = 0; page < 100; page++) {
          const out = await c.call('list_tasks', { ...args, limit, ...(cursor ? { cursor } : {}) });
          expect(out.tasks.length).toBeLessThanOrEqual(limit);
          seen.push(...out.tasks.map((t) => t.id));
          if (!out.nextCursor) break;
          cursor = out.nextCursor;
          for (const e of edits[page] ?? []) {
            const id = await apply(c, clock, e, n++);
            if (id) touched.add(id);
          }
        }
        const after = new Set((await c.call('list_tasks', { ...args, limit: 200 })).tasks.map((t) => t.id));
        const counts = new Map<string, number>();
        for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
        for (const id of before) if (after.has(id) && !touched.has(id)) expect(counts.get(id), `${id} (untouched, matched throughout)`).toBe(1);
        for (const [id, k] of counts) if (k > 1) expect(touched.has(id), `${id} seen ${k} times without being edited`).toBe(true);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('search_tasks: with writes between pages (which shift bm25 ranks), no hit repeats and every untouched match is seen', async () => {
    await fc.assert(
      fc.asyncProperty(seed, fc.integer({ min: 1, max: 4 }), fc.array(fc.array(edit, { maxLength: 3 }), { maxLength: 12 }), async (tasks, limit, edits) => {
        const { c, clock } = await workspace(tasks);
        const before = new Set((await c.call('search_tasks', { query: 'alpha', limit: 100 })).results.map((r) => r.task.id));
        const touched = new Set<string>();
        const seen: string[] = [];
        let cursor: string | undefined;
        let n = 0;
        for (let page = 0; page < 100; page++) {
          const out = await c.call('search_tasks', { query: 'alpha', limit, ...(cursor ? { cursor } : {}) });
          seen.push(...out.results.map((r) => r.task.id));
          if (!out.nextCursor) break;
          cursor = out.nextCursor;
          for (const e of edits[page] ?? []) {
            const id = await apply(c, clock, e, n++);
            if (id) touched.add(id);
          }
        }
        const after = new Set((await c.call('search_tasks', { query: 'alpha', limit: 100 })).results.map((r) => r.task.id));
        expect(new Set(seen).size, `repeats in ${seen.join(' ')}`).toBe(seen.length);
        for (const id of before) if (after.has(id) && !touched.has(id)) expect(seen, `${id} (untouched)`).toContain(id);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});

describe('long search walks', () => {
  it('past 500 hits the cursor switches to (rank, number) and the walk still sees every hit once; cursors stay within 4,000 characters', async () => {
    const clock = manualClock('2026-03-01T00:00:00.000Z');
    const c = tempCairn({ clock, actor: 'reader' });
    open.push(c);
    await c.call('create_project', { key: 'API', name: 'API' });
    for (let i = 0; i < 620; i++) await c.call('create_task', { project: 'API', title: `alpha ${i}`, description: 'alpha '.repeat(1 + (i % 7)) });
    const seen: string[] = [];
    const lengths: number[] = [];
    let cursor: string | undefined;
    do {
      const out = await c.call('search_tasks', { query: 'alpha', limit: 100, ...(cursor ? { cursor } : {}) });
      expect(out.total).toBe(620);
      seen.push(...out.results.map((r) => r.task.id));
      cursor = out.nextCursor ?? undefined;
      if (cursor) lengths.push(cursor.length);
    } while (cursor);
    expect(seen).toHaveLength(620);
    expect(new Set(seen).size).toBe(620);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(4000);
    // The sixth page's cursor no longer lists hits: it is short again.
    expect(lengths.at(-1)!).toBeLessThan(200);
  }, 60_000);
});

describe('cursors are validated', () => {
  it('a crafted, garbage or foreign cursor is VALIDATION_ERROR, never INTERNAL', async () => {
    const { c } = await workspace([
      { priority: 1, score: 0, label: true, status: 1, tick: 1 },
      { priority: 2, score: 1, label: false, status: 1, tick: 1 },
    ]);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const { nextCursor } = await c.call('list_tasks', { project: 'API', limit: 1 });
    expect(nextCursor).toBeTruthy();
    const q = JSON.parse(Buffer.from(nextCursor!, 'base64url').toString()).q as string;
    const bad = [
      'garbage',
      '!!!',
      b64({ o: 1e20, q }),
      b64({ o: 5, q }),
      b64({ k: [1e20, 0, 0, 'x', 'y'], q }),
      b64({ k: [2, 0, 0, 'x'], q }),
      b64({ k: [2, 'zero', 0, 'x', 'y'], q }),
      b64({ k: [2, 0, 0, 'x', 'y'.repeat(300)], q }),
      b64({ k: [2, 0, 0, 'x', 'y'], q: 'other' }),
      b64([1, 2]),
      b64(null),
      b64({ k: [2, 0, 0, 'x', 'y'] }),
      'a'.repeat(600),
    ];
    for (const cursor of bad) await expectCode(rawCall(c, 'list_tasks', { project: 'API', limit: 1, cursor }), 'VALIDATION_ERROR');
    // A valid cursor is bound to its sort and filters.
    await expectCode(rawCall(c, 'list_tasks', { project: 'API', limit: 1, sort: 'created', cursor: nextCursor }), 'VALIDATION_ERROR');
    await expectCode(rawCall(c, 'list_tasks', { project: 'API', limit: 1, labels: ['a'], cursor: nextCursor }), 'VALIDATION_ERROR');
    const big = b64({ k: [1e20, 0], q });
    await expectCode(rawCall(c, 'list_tasks', { project: 'API', limit: 1, sort: 'id', cursor: big }), 'VALIDATION_ERROR');

    const s = await c.call('search_tasks', { query: 'alpha', limit: 1 });
    expect(s.nextCursor).toBeTruthy();
    const sq = JSON.parse(Buffer.from(s.nextCursor!, 'base64url').toString()).q as string;
    for (const cursor of ['garbage', b64({ o: 1e20, q: sq }), b64({ s: '-1', q: sq }), b64({ s: 'zzzzzzzzzzzzzzzz', q: sq }), b64({ r: 'x', n: 1, q: sq }), b64({ s: '1', q: 'x' }), nextCursor!]) {
      await expectCode(rawCall(c, 'search_tasks', { query: 'alpha', limit: 1, cursor }), 'VALIDATION_ERROR');
    }
    // The real cursors continue.
    expect((await c.call('list_tasks', { project: 'API', limit: 1, cursor: nextCursor! })).tasks).toHaveLength(1);
    expect((await c.call('search_tasks', { query: 'alpha', limit: 1, cursor: s.nextCursor! })).results).toHaveLength(1);
  });
});
