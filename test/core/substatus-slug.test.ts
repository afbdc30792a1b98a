/** Task substatus and slug (DevPlanner's card status and card slug): create, update, filter, uniqueness, events, migration. */
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { openSqliteFile, schemaVersion } from '../../src/store/sqlite/open.js';
import { allEvents, expectCode, rawCall } from '../helpers/core.js';
import { tempCairn, tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { onPostgres } from '../helpers/engine.js';

let c: ReturnType<typeof tempCairn> | undefined;
let ws: TempWorkspace | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
  ws?.cleanup();
  ws = undefined;
});

async function setup() {
  c = tempCairn();
  await c.call('create_project', { key: 'MM', name: 'Media Manager', template: 'devplanner' });
  await c.call('create_project', { key: 'OT', name: 'Other' });
  return c;
}

describe('substatus', () => {
  it('is set on create, changed and cleared on update, carried in lists and recorded in events', async () => {
    const c = await setup();
    const { task } = await c.call('create_task', { project: 'MM', title: 'Auth', substatus: 'in-progress' });
    expect(task.substatus).toBe('in-progress');
    const none = (await c.call('create_task', { project: 'MM', title: 'Plain' })).task;
    expect(none.substatus).toBeNull();
    expect((await c.call('update_task', { id: task.id, substatus: ' blocked ' })).task.substatus).toBe('blocked');
    const listed = await c.call('list_tasks', { project: 'MM' });
    expect(listed.tasks.find((t) => t.id === task.id)!.substatus).toBe('blocked');
    expect((await c.call('update_task', { id: task.id, substatus: null })).task.substatus).toBeNull();
    expect((await c.call('get_task', { id: task.id })).task.substatus).toBeNull();
    const changes = (await allEvents(c)).filter((e) => e.taskId === task.id).map((e) => e.changes.substatus);
    expect(changes).toEqual([
      { before: null, after: 'in-progress' },
      { before: 'in-progress', after: 'blocked' },
      { before: 'blocked', after: null },
    ]);
  });

  it('filters list_tasks by substatus', async () => {
    const c = await setup();
    const a = (await c.call('create_task', { project: 'MM', title: 'A', substatus: 'review' })).task;
    const b = (await c.call('create_task', { project: 'MM', title: 'B', substatus: 'testing' })).task;
    await c.call('create_task', { project: 'MM', title: 'C' });
    expect((await c.call('list_tasks', { project: 'MM', substatus: 'review' })).tasks.map((t) => t.id)).toEqual([a.id]);
    expect((await c.call('list_tasks', { project: 'MM', substatus: 'testing' })).total).toBe(1);
    // With a label too (the label_order path joins the row for the other filters).
    await c.call('update_task', { id: a.id, labels: ['x'] });
    await c.call('update_task', { id: b.id, labels: ['x'] });
    expect((await c.call('list_tasks', { project: 'MM', labels: ['x'], substatus: 'testing' })).tasks.map((t) => t.id)).toEqual([b.id]);
  });

  it('refuses malformed values with VALIDATION_ERROR naming the field', async () => {
    const c = await setup();
    for (const bad of ['', 'In Progress', 'x'.repeat(41), 'a/b']) {
      const e = await expectCode(rawCall(c, 'create_task', { project: 'MM', title: 'T', substatus: bad }), 'VALIDATION_ERROR');
      expect(e.message).toContain('substatus');
    }
  });
});

describe('slug', () => {
  it('is set on create and update, filterable exactly within a project, cleared with null', async () => {
    const c = await setup();
    const { task } = await c.call('create_task', { project: 'MM', title: 'User Authentication', slug: 'user-authentication' });
    expect(task.slug).toBe('user-authentication');
    const other = (await c.call('create_task', { project: 'OT', title: 'Same slug elsewhere', slug: 'user-authentication' })).task;
    expect(other.slug).toBe('user-authentication');
    const found = await c.call('list_tasks', { project: 'MM', slug: 'user-authentication' });
    expect(found.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(found.tasks[0]!.slug).toBe('user-authentication');
    expect((await c.call('list_tasks', { project: 'MM', slug: 'user-auth' })).tasks).toEqual([]);
    // Across projects: both.
    expect((await c.call('list_tasks', { slug: 'user-authentication' })).total).toBe(2);
    // Done and archived tasks keep their slug and are found when asked for.
    await c.call('update_task', { id: task.id, status: '03-complete' });
    expect((await c.call('list_tasks', { project: 'MM', slug: 'user-authentication' })).tasks).toEqual([]);
    expect((await c.call('list_tasks', { project: 'MM', slug: 'user-authentication', includeDone: true })).tasks.map((t) => t.id)).toEqual([task.id]);
    const renamed = await c.call('update_task', { id: task.id, slug: 'auth' });
    expect(renamed.task.slug).toBe('auth');
    expect((await c.call('update_task', { id: task.id, slug: null })).task.slug).toBeNull();
    const changes = (await allEvents(c)).filter((e) => e.taskId === task.id && e.changes.slug).map((e) => e.changes.slug);
    expect(changes).toEqual([
      { before: null, after: 'user-authentication' },
      { before: 'user-authentication', after: 'auth' },
      { before: 'auth', after: null },
    ]);
  });

  it('a duplicate within the project is SLUG_TAKEN naming the holder, on create and on update, and changes nothing', async () => {
    const c = await setup();
    const first = (await c.call('create_task', { project: 'MM', title: 'First', slug: 'card' })).task;
    const e = await expectCode(c.call('create_task', { project: 'MM', title: 'Second', slug: 'card' }), 'SLUG_TAKEN');
    expect(e.kind).toBe('conflict');
    expect(e.message).toContain(first.id);
    expect(e.details).toMatchObject({ slug: 'card', taskId: first.id });
    expect((await c.call('list_tasks', { project: 'MM' })).total).toBe(1);
    const second = (await c.call('create_task', { project: 'MM', title: 'Second', slug: 'card-2' })).task;
    const e2 = await expectCode(c.call('update_task', { id: second.id, slug: 'card', title: 'Renamed' }), 'SLUG_TAKEN');
    expect(e2.message).toContain(first.id);
    const after = (await c.call('get_task', { id: second.id })).task;
    expect(after).toMatchObject({ slug: 'card-2', title: 'Second', version: second.version });
    // Setting a task's own slug again is no change, not a conflict.
    expect((await c.call('update_task', { id: first.id, slug: 'card' })).task.version).toBe(first.version);
    // A cleared slug is free again.
    await c.call('update_task', { id: first.id, slug: null });
    expect((await c.call('update_task', { id: second.id, slug: 'card' })).task.slug).toBe('card');
  });

  it('refuses malformed slugs', async () => {
    const c = await setup();
    for (const bad of ['', 'Upper', 'has space', 'under_score', 'x'.repeat(101)]) {
      const e = await expectCode(rawCall(c, 'create_task', { project: 'MM', title: 'T', slug: bad }), 'VALIDATION_ERROR');
      expect(e.message).toContain('slug');
    }
  });

  it('two writers racing for one slug: exactly one wins, the other gets SLUG_TAKEN', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'MM', name: 'Media Manager' });
    const other = openCairn({ db: c.ws.db, actor: 'other' });
    try {
      for (let round = 0; round < 5; round++) {
        const slug = `race-${round}`;
        const results = await Promise.allSettled([c.call('create_task', { project: 'MM', title: `A${round}`, slug }), other.call('create_task', { project: 'MM', title: `B${round}`, slug })]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason.code).toBe('SLUG_TAKEN');
        expect((await other.call('list_tasks', { project: 'MM', slug })).total).toBe(1);
      }
    } finally {
      await other.close();
    }
  });
});

// SQLite's schema history; the PostgreSQL schema starts at the same columns (migrations/postgres.ts).
describe.skipIf(onPostgres)('migration 14', () => {
  it('an existing version-13 workspace gains substatus and slug (null) and keeps its tasks', async () => {
    ws = tempWorkspace();
    // A file at version 13 (no columns, no index), holding what that version's Cairn wrote.
    const db = openSqliteFile(ws.db, { targetVersion: 13 });
    expect(schemaVersion(db)).toBe(13);
    const T = '2026-01-01T00:00:00.000Z';
    db.prepare(`INSERT INTO projects (uid, key, name, description, root, aliases, next_seq, archived_at, created_at, updated_at)
      VALUES ('01JXPROJECT0000000000000AA', 'OLD', 'Old', '', NULL, '[]', 2, NULL, ?, ?)`).run(T, T);
    db.prepare(`INSERT INTO statuses (project_uid, name, display_name, color, category, position) VALUES ('01JXPROJECT0000000000000AA', 'todo', 'To do', '#112233', 'todo', 0)`).run();
    db.prepare(`INSERT INTO tasks (uid, project_uid, seq, title, description, status, category, kind, priority, score, position, version, created_at, updated_at)
      VALUES ('01JXTASK000000000000000001', '01JXPROJECT0000000000000AA', 1, 'Before slugs', '', 'todo', 'todo', 'task', 0, 0, 1, 1, ?, ?)`).run(T, T);
    db.close();

    const c2 = openCairn({ db: ws.db, actor: 'new' });
    try {
      const { task } = await c2.call('get_task', { id: 'OLD-1' });
      expect(task).toMatchObject({ title: 'Before slugs', substatus: null, slug: null });
      await c2.call('update_task', { id: 'OLD-1', slug: 'before', substatus: 'review' });
      await expectCode(c2.call('create_task', { project: 'OLD', title: 'Dup', slug: 'before' }), 'SLUG_TAKEN');
      expect((await c2.call('list_tasks', { project: 'OLD', slug: 'before', substatus: 'review' })).tasks.map((t) => t.id)).toEqual(['OLD-1']);
    } finally {
      await c2.close();
    }
  });
});
