import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followChanges } from '../../src/core/services/change-feed.js';
import { openCairn, type Store } from '../../src/index.js';
import { allEvents, expectCode, manualClock, snapshot } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-05-01T08:00:00.000Z');
  c = tempCairn({ clock, actor: 'alice' });
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterEach(async () => c.done());

const create = async (title: string, extra: Record<string, unknown> = {}) => (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;

describe('board_overview and get_progress', () => {
  beforeEach(async () => {
    await create('t1', { priority: 'high', checklist: ['a', 'b', 'c', 'd'] });
    await c.call('update_checklist', { id: 'API-1', ops: [{ op: 'check', index: 0 }] });
    await create('t2', { priority: 'high', assignee: 'bob' });
    await create('t3', { priority: 'low', checklist: ['x'] });
    await c.call('claim_task', { id: 'API-3' });
    await c.call('update_checklist', { id: 'API-3', ops: [{ op: 'check', index: 0 }] });
    await create('t4', { blockedBy: ['API-3'] });
    await create('t5', { priority: 'high' });
    await c.call('complete_task', { id: 'API-5' });
    await create('t6');
    await c.call('archive_task', { id: 'API-6' });
    await create('t7');
    await c.call('delete_task', { id: 'API-7' });
  });

  it('lanes carry counts, top cards, checklist totals, completion rate and priority breakdown', async () => {
    const b = await c.call('board_overview', { project: 'API' });
    expect(b.project).toBe('API');
    expect(b.lanes.map((l) => l.status)).toEqual(['backlog', 'todo', 'in_progress', 'blocked', 'review', 'done', 'canceled']);
    const lane = Object.fromEntries(b.lanes.map((l) => [l.status, l]));
    expect(lane.todo).toMatchObject({ count: 3, checklistDone: 1, checklistTotal: 4, completionRate: 0.25, priorityBreakdown: { high: 2, none: 1 } });
    expect(lane.todo!.cards.map((x) => x.id)).toEqual(['API-1', 'API-2', 'API-4']);
    expect(lane.todo!.cards[2]).toMatchObject({ isReady: false, blockedBy: ['API-3'] });
    expect(lane.in_progress).toMatchObject({ count: 1, checklistDone: 1, checklistTotal: 1, completionRate: 1 });
    expect(lane.done!.count).toBe(1);
    expect(lane.backlog).toMatchObject({ count: 0, cards: [] });
  });

  it('totals by category, priority and assignee, overall summary, blocked list and who works on what', async () => {
    const b = await c.call('board_overview', { project: 'API', cardsPerLane: 0 });
    expect(b.lanes.every((l) => l.cards.length === 0)).toBe(true);
    expect(Object.fromEntries(Object.entries(b.byCategory).map(([k, v]) => [k, v.count]))).toEqual({ todo: 3, in_progress: 1, done: 1 });
    expect(b.byPriority.high).toMatchObject({ count: 3, done: 1, doneRate: 0.333 });
    expect(b.byPriority.low).toMatchObject({ count: 1, done: 0 });
    expect(Object.keys(b.byPriority)).toEqual(['high', 'low', 'none']);
    expect(Object.fromEntries(Object.entries(b.byAssignee).map(([k, v]) => [k, v.count]))).toEqual({ unassigned: 3, bob: 1, alice: 1 });
    expect(b.summary).toEqual({ totalTasks: 5, doneTasks: 1, doneRate: 0.2, checklistDone: 2, checklistTotal: 5, completionRate: 0.4, readyTasks: 2 });
    expect(b.blocked).toEqual([{ id: 'API-4', title: 't4', blockedBy: ['API-3'], openBlockers: ['API-3'] }]);
    expect(b.inProgressByAssignee).toEqual({ alice: ['API-3'] });
    const withArchived = await c.call('board_overview', { project: 'API', includeArchived: true });
    expect(withArchived.summary.totalTasks).toBe(6);
  });

  it('get_progress gives the same numbers without cards; board over all projects adds them up', async () => {
    const p = await c.call('get_progress', { project: 'API' });
    const b = await c.call('board_overview', { project: 'API' });
    expect(p.summary).toEqual(b.summary);
    expect(p.lanes.every((l) => l.cards.length === 0)).toBe(true);
    await c.call('create_project', { key: 'WEB', name: 'Web' });
    await c.call('create_task', { project: 'WEB', title: 'w' });
    const all = await c.call('board_overview', {});
    expect(all.project).toBeNull();
    expect(all.summary.totalTasks).toBe(6);
    expect(all.summary.readyTasks).toBe(3);
  });
});

describe('activity', () => {
  it('every mutation appends exactly one event with actor, task and changed fields', async () => {
    const steps: Array<[string, () => Promise<unknown>, string, string | null]> = [
      ['create', () => create('a', { labels: ['x'] }), 'task.created', 'API-1'],
      ['create b', () => create('b'), 'task.created', 'API-2'],
      ['update', () => c.call('update_task', { id: 'API-1', title: 'A' }), 'task.updated', 'API-1'],
      ['move', () => c.call('update_task', { id: 'API-1', status: 'review' }), 'task.moved', 'API-1'],
      ['dep', () => c.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-1' }), 'dependency.added', 'API-2'],
      ['undep', () => c.call('remove_dependency', { taskId: 'API-2', blockedBy: 'API-1' }), 'dependency.removed', 'API-2'],
      ['checklist', () => c.call('update_checklist', { id: 'API-1', ops: [{ op: 'add', text: 'x' }] }), 'checklist.updated', 'API-1'],
      ['comment', () => c.call('add_comment', { id: 'API-1', body: 'hi' }), 'comment.added', 'API-1'],
      ['claim', () => c.call('claim_task', { id: 'API-2' }), 'task.claimed', 'API-2'],
      ['release', () => c.call('release_task', { id: 'API-2' }), 'task.released', 'API-2'],
      ['complete', () => c.call('complete_task', { id: 'API-1' }), 'task.completed', 'API-1'],
      ['archive', () => c.call('archive_task', { id: 'API-1' }), 'task.archived', 'API-1'],
      ['unarchive', () => c.call('archive_task', { id: 'API-1', restore: true }), 'task.unarchived', 'API-1'],
      ['delete', () => c.call('delete_task', { id: 'API-2' }), 'task.deleted', 'API-2'],
      ['restore', () => c.call('restore_task', { id: 'API-2' }), 'task.restored', 'API-2'],
      ['project', () => c.call('update_project', { key: 'API', name: 'Renamed' }), 'project.updated', null],
      ['archive project', () => c.call('archive_project', { key: 'API' }), 'project.archived', null],
    ];
    for (const [name, run, type, taskId] of steps) {
      const before = (await allEvents(c)).length;
      clock.advance(1000);
      await run();
      const events = await allEvents(c);
      expect(events.length, name).toBe(before + 1);
      expect(events.at(-1), name).toMatchObject({ type, taskId, actor: 'alice', at: clock.now().toISOString(), project: 'API' });
      expect(Object.keys(events.at(-1)!.changes).length, name).toBeGreaterThan(0);
    }
    const seqs = (await allEvents(c)).map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('the event is part of the change’s transaction: if appending it fails, the change is rolled back', async () => {
    await create('a');
    const store = c.store;
    const failing: Store = {
      read: (fn) => store.read(fn),
      write: (fn) => store.write((tx) => fn(new Proxy(tx, { get: (t, k, r) => (k === 'appendEvent' ? () => Promise.reject(new Error('log full')) : Reflect.get(t, k, r)) }))),
      changeToken: () => store.changeToken(),
      projectsToken: () => store.projectsToken(),
      close: async () => undefined,
      location: store.location,
    };
    const broken = openCairn({ store: failing, clock, actor: 'alice' });
    const before = await snapshot(c);
    await expectCode(broken.call('update_task', { id: 'API-1', title: 'changed', priority: 'high' }), 'INTERNAL');
    await expectCode(broken.call('create_task', { project: 'API', title: 'b', blockedBy: ['API-1'] }), 'INTERNAL');
    await expectCode(broken.call('complete_task', { id: 'API-1' }), 'INTERNAL');
    expect(await snapshot(c)).toEqual(before);
  });

  it('the change feed notices commits from this and from other connections, in order, without repeats', async () => {
    const other = openCairn({ db: c.ws.db, clock, actor: 'bob' });
    await create('seed');
    const feed = await followChanges(c.store, { intervalMs: 60_000 });
    const got: string[] = [];
    feed.subscribe((events) => got.push(...events.map((e) => `${e.actor}:${e.type}:${e.taskId}`)));
    try {
      await feed.poll();
      expect(got).toEqual([]);
      await other.call('create_task', { project: 'API', title: 'from bob' });
      await feed.poll();
      expect(got).toEqual(['bob:task.created:API-2']);
      await c.call('update_task', { id: 'API-1', title: 'by alice' });
      await other.call('complete_task', { id: 'API-2' });
      await feed.poll();
      await feed.poll();
      expect(got).toEqual(['bob:task.created:API-2', 'alice:task.updated:API-1', 'bob:task.completed:API-2']);
      expect(feed.lastSeq).toBe((await allEvents(c)).at(-1)!.seq);
    } finally {
      await feed.close();
      await other.close();
    }
  });

  it('the change feed reads whole events only for listeners that want them, each filtered to its types', async () => {
    // Counts reads of whole events: an idle subscriber must not cost the server a read per poll.
    let reads = 0;
    const store = c.store;
    const counting = new Proxy(store, {
      get(target, key) {
        if (key === 'read') {
          return (fn: (tx: unknown) => unknown) => target.read((tx) => fn(new Proxy(tx, { get: (t, k) => (k === 'events' && reads++, Reflect.get(t, k)) })) as never);
        }
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Store;
    const feed = await followChanges(counting, { intervalMs: 60_000 });
    let listening = false;
    const updates: string[] = [];
    const projects: string[] = [];
    feed.subscribe((events) => updates.push(...events.map((e) => `${e.type}:${e.taskId}`)), { active: () => listening });
    feed.subscribe((events) => projects.push(...events.map((e) => e.type)), { types: new Set(['project.created']) });
    try {
      await create('nobody listens');
      await feed.poll();
      expect({ reads, updates, projects }).toEqual({ reads: 0, updates: [], projects: [] });
      listening = true;
      await create('heard');
      await feed.poll();
      expect({ reads, updates, projects }).toEqual({ reads: 1, updates: ['task.created:API-2'], projects: [] });
      listening = false;
      await c.call('create_project', { key: 'WEB', name: 'Web' });
      await create('not heard');
      await feed.poll();
      expect({ reads, updates, projects }).toEqual({ reads: 2, updates: ['task.created:API-2'], projects: ['project.created'] });
      expect(feed.lastSeq).toBe((await allEvents(c)).at(-1)!.seq);
    } finally {
      await feed.close();
    }
  });

  it('task_history lists one task’s events oldest first with before/after', async () => {
    await create('a', { priority: 'low' });
    await create('other');
    await c.call('update_task', { id: 'API-1', priority: 'high' });
    await c.call('update_task', { id: 'API-2', priority: 'high' });
    await c.call('complete_task', { id: 'API-1' });
    const h = await c.call('task_history', { id: 'API-1' });
    expect(h.taskId).toBe('API-1');
    expect(h.events.map((e) => e.type)).toEqual(['task.created', 'task.updated', 'task.completed']);
    expect(h.events[1]!.changes.priority).toEqual({ before: 'low', after: 'high' });
    expect(h.events[2]!.changes.status).toEqual({ before: 'todo', after: 'done' });
    expect((await c.call('task_history', { id: 'API-1', limit: 2 })).events.map((e) => e.type)).toEqual(['task.updated', 'task.completed']);
  });

  it('changes_since resumes after a seq, pages with hasMore, filters by project, and refuses a future seq', async () => {
    await c.call('create_project', { key: 'WEB', name: 'Web' });
    for (let i = 0; i < 5; i++) await create(`t${i}`);
    await c.call('create_task', { project: 'WEB', title: 'w' });
    const all = await c.call('changes_since', { since: 0 });
    expect(all.events).toHaveLength(8);
    expect(all.hasMore).toBe(false);
    expect(all.lastSeq).toBe(all.events.at(-1)!.seq);
    const page = await c.call('changes_since', { since: 0, limit: 3 });
    expect(page).toMatchObject({ hasMore: true, lastSeq: all.events[2]!.seq });
    const rest = await c.call('changes_since', { since: page.lastSeq });
    expect([...page.events, ...rest.events]).toEqual(all.events);
    const web = await c.call('changes_since', { since: 0, project: 'WEB' });
    expect(web.events.map((e) => e.type)).toEqual(['project.created', 'task.created']);
    const empty = await c.call('changes_since', { since: all.lastSeq });
    expect(empty).toEqual({ events: [], lastSeq: all.lastSeq, headSeq: all.lastSeq, hasMore: false });
    await expectCode(c.call('changes_since', { since: all.lastSeq + 100 }), 'VALIDATION_ERROR');
  });
});
