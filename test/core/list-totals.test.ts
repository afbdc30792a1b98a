/**
 * list_tasks totals and the count cache (CountCache, store/queries/task-list.ts): a total counted
 * once is reused only while the activity log's last seq is unchanged, so a commit by another
 * connection, another process, or a change of filter never leaves a stale total behind.
 * Every total is checked against a count over a raw read-only connection.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { BIN } from '../cli/cli-harness.js';
import { expectCode, integrityCheck, manualClock } from '../helpers/core.js';
import { onPostgres } from '../helpers/engine.js';
import { openRaw } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let other: Cairn;

beforeEach(async () => {
  c = tempCairn({ actor: 'alice' });
  await c.call('create_project', { key: 'API', name: 'API' });
  for (let i = 1; i <= 6; i++) await c.call('create_task', { project: 'API', title: `task ${i}`, labels: i % 2 ? ['x'] : ['y'] });
  other = openCairn({ db: c.ws.db, actor: 'bob' }); // a second connection to the same file, as another process would hold
});
afterEach(async () => {
  await other.close();
  expect(await integrityCheck(c.ws.db)).toBe('ok');
  await c.done();
});

/** Open, live, unarchived tasks of API (optionally carrying `label`), counted on a separate raw connection. */
async function rawOpenCount(file: string, label?: string): Promise<number> {
  const db = await openRaw(file, { readonly: true });
  try {
    const n = await db.value<number>(
      `SELECT count(*) FROM tasks t JOIN projects p ON p.uid = t.project_uid
        WHERE p.key = 'API' AND t.deleted_at IS NULL AND t.archived_at IS NULL AND t.category NOT IN ('done', 'canceled')
        ${label ? 'AND EXISTS (SELECT 1 FROM task_labels l WHERE l.task_uid = t.uid AND l.label = ?)' : ''}`,
      label ? [label] : [],
    );
    expect(typeof n).toBe('number');
    return n!;
  } finally {
    await db.close();
  }
}

/** The total of a full first page of 2, so it is counted (a short page's total is just its length). */
async function total(cairn: Cairn, extra: Record<string, unknown> = {}): Promise<number> {
  const page = await cairn.call('list_tasks', { project: 'API', limit: 2, ...extra } as never);
  expect(page.tasks).toHaveLength(2);
  expect(page.nextCursor === null).toBe(page.total === 2);
  return page.total;
}

describe('list_tasks totals are never stale', () => {
  it('a task created through a second connection raises the total the first one reports', async () => {
    expect(await total(c)).toBe(6);
    expect(await total(c)).toBe(6); // counted once, remembered
    await other.call('create_task', { project: 'API', title: 'from elsewhere' });
    expect(await total(c)).toBe(7);
    expect(await total(c)).toBe(await rawOpenCount(c.ws.db));
    // …and the other way round: the writer's own cache follows the first connection's commits
    expect(await total(other)).toBe(7);
    await c.call('create_task', { project: 'API', title: 'from here' });
    expect(await total(other)).toBe(8);
    expect(await total(c)).toBe(8);
  });

  it('a task completed by a CLI process lowers the default list total', async () => {
    const defaultTotal = async () => {
      const page = await c.call('list_tasks', { limit: 2 }); // the default list: open tasks of every active project
      expect(page.nextCursor).not.toBeNull();
      return page.total;
    };
    expect(await defaultTotal()).toBe(6);
    expect(await defaultTotal()).toBe(6);
    const r = spawnSync(process.execPath, [BIN, 'done', 'API-1', '--json'], {
      env: { ...process.env, CAIRN_DB: c.ws.db, CAIRN_ACTOR: 'cli', NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr || r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).task).toMatchObject({ id: 'API-1', statusCategory: 'done' });
    expect(await defaultTotal()).toBe(5);
    expect(await defaultTotal()).toBe(await rawOpenCount(c.ws.db));
    expect(await total(c, { includeDone: true })).toBe(6);
  });

  it('totals of different filters, and of one filter shape with different values, do not leak into each other', async () => {
    const all = await total(c);
    const x = await total(c, { labels: ['x'] });
    const y = await total(c, { labels: ['y'] });
    expect([all, x, y]).toEqual([6, 3, 3]);
    await c.call('update_task', { id: 'API-2', labels: ['x', 'z'] }); // a y task becomes an x task
    await c.call('create_task', { project: 'API', title: 'plain' });
    // Interleaved, each read at the same seq: every one must come from its own count.
    expect(await total(c, { labels: ['x'] })).toBe(4);
    expect(await total(c)).toBe(7);
    expect(await total(c, { labels: ['y'] })).toBe(2);
    expect(await total(c, { labels: ['x'] })).toBe(await rawOpenCount(c.ws.db, 'x'));
    expect(await total(c, { labels: ['y'] })).toBe(await rawOpenCount(c.ws.db, 'y'));
    expect((await c.call('list_tasks', { project: 'API', labelsAll: ['x', 'z'], limit: 2 })).total).toBe(1);
    expect(await total(c)).toBe(await rawOpenCount(c.ws.db));
  });

  it('a change that needs no commit (a lease running out) still shows in a counted ready total', async () => {
    const clock = manualClock('2026-03-01T00:00:00.000Z');
    const a = openCairn({ db: c.ws.db, actor: 'alice', clock });
    const b = openCairn({ db: c.ws.db, actor: 'bob', clock });
    try {
      const ready = async (who: Cairn) => {
        const page = await who.call('list_tasks', { project: 'API', ready: true, sort: 'id', limit: 2 });
        expect(page.nextCursor).not.toBeNull();
        return page.total;
      };
      await a.call('claim_task', { id: 'API-1', leaseSeconds: 60 });
      expect(await ready(b)).toBe(5); // alice's live claim hides API-1 from bob
      expect(await ready(b)).toBe(5);
      clock.advance(61_000); // no event: the lease lapses on its own
      expect(await ready(b)).toBe(6);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refused writes (version conflict, cycle, deleted blocker) leave totals unchanged and correct; the next commit is seen', async () => {
    await c.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-1' });
    expect(await total(c)).toBe(6);
    expect(await total(c, { labels: ['x'] })).toBe(3);
    await expectCode(c.call('update_task', { id: 'API-3', expectedVersion: 99, status: 'done' }), 'VERSION_CONFLICT');
    await expectCode(other.call('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' }), 'CYCLE_DETECTED');
    await c.call('delete_task', { id: 'API-6' });
    expect(await total(c)).toBe(5);
    await expectCode(other.call('create_task', { project: 'API', title: 'never', blockedBy: ['API-6'] }), 'TASK_DELETED');
    expect(await total(c)).toBe(5);
    expect(await total(other)).toBe(5);
    expect(await total(c, { labels: ['x'] })).toBe(3);
    expect(await total(c)).toBe(await rawOpenCount(c.ws.db));
    await other.call('complete_task', { id: 'API-3' });
    expect(await total(c)).toBe(4);
    expect(await total(c, { labels: ['x'] })).toBe(2);
  });

  // (A failed write transaction that counted inside it is not reachable: only read transactions get
  // the cache, see SqliteStore.read/write.) The nearest reachable case: reads queued around a
  // failing and a succeeding write in the same process; none may see a total from a state that
  // never committed, and once all have settled the total is the committed one.
  it('reads queued around a failing write and a succeeding write report committed totals', async () => {
    expect(await total(c)).toBe(6);
    const [t1, , t2, , t3] = await Promise.all([
      total(c),
      c.call('update_task', { id: 'API-1', expectedVersion: 42, status: 'done' }).catch((e: { code: string }) => e.code),
      total(c),
      c.call('complete_task', { id: 'API-1' }),
      total(c),
    ]);
    // Each read reports a committed state: the one commit among the writes lowers the total by one.
    for (const t of [t1, t2, t3]) expect([5, 6]).toContain(t);
    // On SQLite the reads take the one connection in call order. On PostgreSQL each takes a pooled
    // connection of its own, so reads in flight together may see the commit in either order.
    if (!onPostgres) {
      expect(t1).toBeGreaterThanOrEqual(t2);
      expect(t2).toBeGreaterThanOrEqual(t3);
    }
    expect(await total(c)).toBe(5);
    expect(await total(c)).toBe(await rawOpenCount(c.ws.db));
  });
});
