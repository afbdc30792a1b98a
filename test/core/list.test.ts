import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode, manualClock } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();

const ids = (r: { tasks: Array<{ id: string }> }) => r.tasks.map((t) => t.id).sort();
const create = async (project: string, title: string, extra: Record<string, unknown> = {}) => {
  clock.advance(1000);
  return (await c.call('create_task', { project, title, ...extra } as never)).task;
};

/**
 * API-1 todo high [auth, ui] alice      API-5 done
 * API-2 todo low  [auth]     bob, blocked by API-3
 * API-3 in_progress medium bug           API-6 backlog chore, parent API-7
 * API-4 todo urgent [ui] archived        API-7 epic todo
 * WEB-1 todo feature none
 */
beforeEach(async () => {
  clock.set('2026-01-01T00:00:00.000Z');
  c = tempCairn({ clock });
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_project', { key: 'WEB', name: 'Web' });
  await create('API', 'one', { priority: 'high', labels: ['auth', 'ui'], assignee: 'alice' });
  await create('API', 'two', { priority: 'low', labels: ['auth'], assignee: 'bob' });
  await create('API', 'three', { priority: 'medium', kind: 'bug', status: 'in_progress' });
  await c.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-3' });
  await create('API', 'four', { priority: 'urgent', labels: ['ui'] });
  await c.call('archive_task', { id: 'API-4' });
  await create('API', 'five');
  await c.call('complete_task', { id: 'API-5' });
  await create('API', 'six', { kind: 'chore', status: 'backlog' });
  await create('API', 'seven', { kind: 'epic' });
  await c.call('update_task', { id: 'API-6', parentId: 'API-7' });
  await create('WEB', 'web one', { kind: 'feature' });
});
afterEach(async () => c.done());

describe('list_tasks filters', () => {
  it('defaults to open, unarchived tasks in every project', async () => {
    expect(ids(await c.call('list_tasks', {}))).toEqual(['API-1', 'API-2', 'API-3', 'API-6', 'API-7', 'WEB-1']);
  });

  it('includeDone and includeArchived widen the list; deleted tasks are only listed with deleted: true', async () => {
    expect(ids(await c.call('list_tasks', { project: 'API', includeDone: true }))).toEqual(['API-1', 'API-2', 'API-3', 'API-5', 'API-6', 'API-7']);
    expect(ids(await c.call('list_tasks', { project: 'API', includeArchived: true }))).toEqual(['API-1', 'API-2', 'API-3', 'API-4', 'API-6', 'API-7']);
    await c.call('delete_task', { id: 'API-1' });
    expect(ids(await c.call('list_tasks', { project: 'API', includeDone: true, includeArchived: true }))).not.toContain('API-1');
    expect(ids(await c.call('list_tasks', { deleted: true }))).toEqual(['API-1']);
  });

  it('filters by project, status, category, kind and priority (single or several)', async () => {
    expect(ids(await c.call('list_tasks', { project: 'web' }))).toEqual(['WEB-1']);
    expect(ids(await c.call('list_tasks', { project: 'API', status: 'in_progress' }))).toEqual(['API-3']);
    expect(ids(await c.call('list_tasks', { project: 'API', status: ['backlog', 'done'] }))).toEqual(['API-5', 'API-6']);
    expect(ids(await c.call('list_tasks', { category: 'backlog' }))).toEqual(['API-6']);
    expect(ids(await c.call('list_tasks', { category: ['done', 'in_progress'] }))).toEqual(['API-3', 'API-5']);
    expect(ids(await c.call('list_tasks', { kind: 'bug' }))).toEqual(['API-3']);
    expect(ids(await c.call('list_tasks', { kind: ['epic', 'feature'] }))).toEqual(['API-7', 'WEB-1']);
    expect(ids(await c.call('list_tasks', { priority: 'high' }))).toEqual(['API-1']);
    expect(ids(await c.call('list_tasks', { priority: ['low', 'medium'] }))).toEqual(['API-2', 'API-3']);
  });

  it('labels match any; labelsAll match all', async () => {
    expect(ids(await c.call('list_tasks', { labels: ['ui', 'auth'] }))).toEqual(['API-1', 'API-2']);
    expect(ids(await c.call('list_tasks', { labels: ['ui'], includeArchived: true }))).toEqual(['API-1', 'API-4']);
    expect(ids(await c.call('list_tasks', { labelsAll: ['ui', 'auth'] }))).toEqual(['API-1']);
    expect(ids(await c.call('list_tasks', { labelsAll: ['auth', 'nope'] }))).toEqual([]);
  });

  it('filters by assignee ("none" for unassigned), parent and readiness', async () => {
    expect(ids(await c.call('list_tasks', { assignee: 'bob' }))).toEqual(['API-2']);
    expect(ids(await c.call('list_tasks', { project: 'API', assignee: 'none' }))).toEqual(['API-3', 'API-6', 'API-7']);
    expect(ids(await c.call('list_tasks', { parentId: 'API-7' }))).toEqual(['API-6']);
    expect(ids(await c.call('list_tasks', { ready: true }))).toEqual(['API-1', 'API-7', 'WEB-1']);
    expect((await c.call('list_tasks', { ready: true })).tasks.every((t) => t.isReady)).toBe(true);
  });

  it('updatedSince returns what changed at or after the time', async () => {
    clock.advance(1000);
    const since = clock.now().toISOString();
    await c.call('update_task', { id: 'API-1', title: 'one!' });
    expect(ids(await c.call('list_tasks', { updatedSince: since }))).toEqual(['API-1']);
    expect(ids(await c.call('list_tasks', { updatedSince: '2026-01-01T01:00:00+01:00', includeDone: true, includeArchived: true }))).toHaveLength(8);
  });

  it('filters combine with AND', async () => {
    expect(ids(await c.call('list_tasks', { project: 'API', labels: ['auth'], priority: ['high', 'low'], assignee: 'alice' }))).toEqual(['API-1']);
    expect(ids(await c.call('list_tasks', { project: 'WEB', labels: ['auth'] }))).toEqual([]);
  });

  it('each summary carries blockedBy, blocks, children and isReady', async () => {
    const { tasks } = await c.call('list_tasks', { project: 'API' });
    const by = new Map(tasks.map((t) => [t.id, t]));
    expect(by.get('API-2')).toMatchObject({ blockedBy: ['API-3'], isReady: false });
    expect(by.get('API-3')).toMatchObject({ blocks: ['API-2'] });
    expect(by.get('API-7')).toMatchObject({ children: ['API-6'] });
  });
});

describe('list_tasks sort and paging', () => {
  it('sorts by priority (ready order), created, updated, id and position', async () => {
    const order = async (sort: string) => (await c.call('list_tasks', { project: 'API', sort } as never)).tasks.map((t) => t.id);
    expect(await order('priority')).toEqual(['API-1', 'API-3', 'API-2', 'API-6', 'API-7']);
    expect(await order('created')).toEqual(['API-7', 'API-6', 'API-3', 'API-2', 'API-1']);
    expect(await order('id')).toEqual(['API-1', 'API-2', 'API-3', 'API-6', 'API-7']);
    clock.advance(1000);
    await c.call('update_task', { id: 'API-3', title: 'three!' });
    expect((await order('updated'))[0]).toBe('API-3');
    await c.call('update_task', { id: 'API-7', position: 0 });
    const todo = (await c.call('list_tasks', { project: 'API', status: 'todo', sort: 'position' })).tasks.map((t) => t.id);
    expect(todo).toEqual(['API-7', 'API-1', 'API-2']);
  });

  it('limit caps the page and total counts every match', async () => {
    const r = await c.call('list_tasks', { limit: 2 });
    expect(r.tasks).toHaveLength(2);
    expect(r.total).toBe(6);
    expect(r.nextCursor).toEqual(expect.any(String));
  });

  it('an opaque cursor pages through everything with no duplicates or gaps, for every sort', async () => {
    for (let i = 0; i < 23; i++) await create(i % 2 ? 'API' : 'WEB', `bulk ${i}`, { priority: (['none', 'low', 'high'] as const)[i % 3], score: i % 4 });
    const everything = ids(await c.call('list_tasks', { includeDone: true, limit: 200 }));
    expect(everything).toHaveLength(30);
    for (const sort of ['priority', 'created', 'updated', 'id', 'position'] as const) {
      for (const limit of [1, 4, 7]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await c.call('list_tasks', { includeDone: true, sort, limit, ...(cursor ? { cursor } : {}) });
          expect(page.total).toBe(30);
          seen.push(...page.tasks.map((t) => t.id));
          cursor = page.nextCursor ?? undefined;
          pages++;
        } while (cursor);
        expect(pages).toBe(Math.ceil(30 / limit));
        expect(seen).toHaveLength(30);
        expect([...seen].sort()).toEqual(everything);
      }
    }
  });

  it('a ready-filtered cursor pages the ready queue completely', async () => {
    for (let i = 0; i < 9; i++) await create('API', `r${i}`, { priority: i % 2 ? 'high' : 'none' });
    const all = await c.call('list_tasks', { ready: true, limit: 200 });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.call('list_tasks', { ready: true, limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(all.total);
      seen.push(...page.tasks.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.tasks.map((t) => t.id));
  });

  it('refuses a cursor reused with other filters or sort, and a forged cursor', async () => {
    const first = await c.call('list_tasks', { project: 'API', limit: 2 });
    const cursor = first.nextCursor!;
    expect((await c.call('list_tasks', { project: 'API', limit: 2, cursor })).tasks).toHaveLength(2);
    await expectCode(c.call('list_tasks', { project: 'WEB', limit: 2, cursor }), 'VALIDATION_ERROR');
    await expectCode(c.call('list_tasks', { project: 'API', sort: 'id', limit: 2, cursor }), 'VALIDATION_ERROR');
    await expectCode(c.call('list_tasks', { project: 'API', includeDone: true, limit: 2, cursor }), 'VALIDATION_ERROR');
    await expectCode(c.call('list_tasks', { project: 'API', limit: 2, cursor: 'not-a-cursor' }), 'VALIDATION_ERROR');
    const forged = Buffer.from(JSON.stringify({ o: -5, q: 'x' })).toString('base64url');
    await expectCode(c.call('list_tasks', { project: 'API', limit: 2, cursor: forged }), 'VALIDATION_ERROR');
  });
});
