/** Migrations: from an empty file, a missing file, and every earlier schema version, with a backup before migrating. */
import { Database, type SqliteDatabase } from '../../src/store/sqlite/native.js';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { LATEST_SQLITE_VERSION, SQLITE_MIGRATIONS } from '../../src/store/migrations/sqlite.js';
import { CAIRN_APPLICATION_ID, openSqliteFile, schemaVersion } from '../../src/store/sqlite/open.js';
import { expectCode, integrityCheck } from '../helpers/core.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

let ws: TempWorkspace;
afterEach(() => ws?.cleanup());

const versionOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
};

const T = '2025-06-01T00:00:00.000Z';
const P = '01JXPROJECT0000000000000AA';
const U1 = '01JXTASK000000000000000001';
const U2 = '01JXTASK000000000000000002';

/** Data as a version-1 workspace would hold it, written with raw SQL (the schema at that version allows exactly this). */
function seedV1(db: SqliteDatabase): void {
  db.prepare(`INSERT INTO projects (uid, key, name, description, root, aliases, next_seq, archived_at, created_at, updated_at)
    VALUES (?, 'OLD', 'Old project', 'from v1', '/repo', '["legacy"]', 3, NULL, ?, ?)`).run(P, T, T);
  const statuses = [
    ['todo', 'todo'],
    ['doing', 'in_progress'],
    ['done', 'done'],
  ];
  statuses.forEach(([name, cat], i) => db.prepare('INSERT INTO statuses (project_uid, name, display_name, color, category, position) VALUES (?, ?, ?, ?, ?, ?)').run(P, name, name, '#112233', cat, i));
  const task = db.prepare(`INSERT INTO tasks (uid, project_uid, seq, title, description, status, category, kind, priority, score, position,
      open_blockers, checklist_done, checklist_total, version, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'task', ?, 0, ?, ?, ?, ?, 1, ?, ?)`);
  task.run(U1, P, 1, 'Legacy platypus migration', 'described long ago', 'doing', 'in_progress', 3, 1, 0, 1, 2, T, T);
  task.run(U2, P, 2, 'Waits for the first', '', 'todo', 'todo', 0, 2, 1, 0, 0, T, T);
  db.prepare("INSERT INTO task_labels (task_uid, label) VALUES (?, 'archaic')").run(U1);
  db.prepare('INSERT INTO dependencies (task_uid, blocker_uid, created_at) VALUES (?, ?, ?)').run(U2, U1, T);
  db.prepare("INSERT INTO checklist_items (task_uid, idx, text, checked) VALUES (?, 0, 'first step', 1), (?, 1, 'second step', 0)").run(U1, U1);
  db.prepare("INSERT INTO comments (id, task_uid, author, kind, body, created_at) VALUES ('01JXCOMMENT000000000000001', ?, 'ann', 'research', 'found a quokka', ?)").run(U1, T);
  db.prepare("INSERT INTO events (at, actor, project_uid, task_uid, type, changes) VALUES (?, 'ann', ?, ?, 'task.created', '{}')").run(T, P, U1);
}

/** What a later-version app would also have written for the same data. */
function seedIndexIfPresent(db: SqliteDatabase, version: number): void {
  if (version < 2) return;
  db.exec(
    SQLITE_MIGRATIONS.find((m) => m.version === 2)!
      .sql.split(';')
      .filter((s) => s.includes('INSERT INTO task_search'))
      .join(';'),
  );
}

describe('migrations', () => {
  it('there is at least one earlier version to migrate from, and versions are consecutive', () => {
    expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: LATEST_SQLITE_VERSION }, (_, i) => i + 1));
  });

  for (const from of SQLITE_MIGRATIONS.map((m) => m.version).filter((v) => v < LATEST_SQLITE_VERSION)) {
    it(`from version ${from}: data intact, search index backfilled, backup <file>.bak-v${from}-* kept`, async () => {
      ws = tempWorkspace();
      const old = openSqliteFile(ws.db, { targetVersion: from });
      expect(schemaVersion(old)).toBe(from);
      seedV1(old);
      seedIndexIfPresent(old, from);
      old.close();

      const c = openCairn({ db: ws.db, actor: 'tester' });
      try {
        const { projects } = await c.call('list_projects', {});
        expect(projects).toMatchObject([{ key: 'OLD', name: 'Old project', aliases: ['legacy'], root: '/repo', taskCount: 2 }]);
        expect(projects[0]!.statuses.map((s) => s.name)).toEqual(['todo', 'doing', 'done']);
        const t1 = (await c.call('get_task', { id: 'OLD-1' })).task;
        expect(t1).toMatchObject({
          uid: U1,
          title: 'Legacy platypus migration',
          status: 'doing',
          priority: 'high',
          labels: ['archaic'],
          blocks: ['OLD-2'],
          checklist: [
            { index: 0, text: 'first step', checked: true },
            { index: 1, text: 'second step', checked: false },
          ],
          checklistProgress: { done: 1, total: 2 },
          comments: [{ author: 'ann', kind: 'research', body: 'found a quokka' }],
        });
        expect((await c.call('get_task', { id: U2 })).task).toMatchObject({ blockedBy: ['OLD-1'], isReady: false });
        expect((await c.call('task_history', { id: 'OLD-1' })).events.map((e) => e.type)).toEqual(['task.created']);
        for (const [q, field] of [
          ['platypus', 'title'],
          ['archaic', 'labels'],
          ['long ago', 'description'],
          ['quokka', 'comments'],
          ['second step', 'checklist'],
        ]) {
          const r = await c.call('search_tasks', { query: q! });
          expect(
            r.results.map((h) => [h.task.id, h.matchedFields]),
            q,
          ).toEqual([['OLD-1', [field]]]);
        }
        // the sequence continues where v1 left it
        expect((await c.call('create_task', { project: 'OLD', title: 'new' })).task.id).toBe('OLD-3');
        const done = await c.call('complete_task', { id: 'OLD-1' });
        expect(done.nowReady).toEqual(['OLD-2']);
      } finally {
        await c.close();
      }
      expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
      const backups = readdirSync(dirname(ws.db)).filter((f) => f.startsWith(`cairn.db.bak-v${from}-`));
      expect(backups).toHaveLength(1);
      const backup = join(dirname(ws.db), backups[0]!);
      expect(versionOf(backup)).toBe(from);
      const b = new Database(backup, { readonly: true });
      expect(b.prepare('SELECT title FROM tasks ORDER BY seq').pluck().all()).toEqual(['Legacy platypus migration', 'Waits for the first']);
      b.close();
      expect(await integrityCheck(ws.db)).toBe('ok');
    });
  }

  it('from version 5: labels, blockers, blocked, children (a deleted one left out) and parent ids are stored on the rows, and stay current', async () => {
    ws = tempWorkspace();
    const old = openSqliteFile(ws.db, { targetVersion: 5 });
    expect(schemaVersion(old)).toBe(5);
    const t = (s: number) => `2025-06-01T00:00:0${s}.000Z`;
    const uid = (n: number) => `01JXTASK00000000000000000${n}`;
    old
      .prepare(`INSERT INTO projects (uid, key, name, description, root, aliases, next_seq, archived_at, created_at, updated_at)
      VALUES (?, 'OLD', 'Old project', '', NULL, '[]', 6, NULL, ?, ?)`)
      .run(P, T, T);
    [
      ['todo', 'todo'],
      ['doing', 'in_progress'],
      ['done', 'done'],
    ].forEach(([name, cat], i) => old.prepare('INSERT INTO statuses (project_uid, name, display_name, color, category, position) VALUES (?, ?, ?, ?, ?, ?)').run(P, name, name, '#112233', cat, i));
    const task = old.prepare(`INSERT INTO tasks (uid, project_uid, seq, title, status, category, position, parent_uid, open_blockers, created_at, updated_at, deleted_at)
      VALUES (?, ?, ?, ?, 'todo', 'todo', ?, ?, ?, ?, ?, ?)`);
    // Inserted out of seq order (OLD-4 before OLD-2), so children must come out by seq, not by row.
    task.run(uid(1), P, 1, 'Epic', 1, null, 0, T, T, null);
    task.run(uid(4), P, 4, 'Second child', 2, uid(1), 0, T, T, null);
    task.run(uid(2), P, 2, 'First child', 3, uid(1), 2, T, T, null);
    task.run(uid(3), P, 3, 'Deleted child', 4, uid(1), 1, T, T, t(5));
    task.run(uid(5), P, 5, 'Loose', 5, null, 0, T, T, null);
    const label = old.prepare('INSERT INTO task_labels (task_uid, label) VALUES (?, ?)');
    for (const l of ['zeta', 'alpha', 'Beta']) label.run(uid(1), l);
    label.run(uid(2), 'x');
    const dep = old.prepare('INSERT INTO dependencies (task_uid, blocker_uid, created_at) VALUES (?, ?, ?)');
    dep.run(uid(2), uid(1), t(2)); // OLD-2 waits for OLD-1 (second edge in time)…
    dep.run(uid(2), uid(5), t(1)); // …and for OLD-5 (first)
    dep.run(uid(3), uid(1), t(1)); // the deleted child waits for OLD-1: not among OLD-1's blocks
    dep.run(uid(5), uid(3), t(3)); // a deleted blocker leaves blockedBy (migration 22)
    old.prepare("INSERT INTO events (at, actor, project_uid, task_uid, type, changes) VALUES (?, 'ann', ?, ?, 'task.created', '{}')").run(T, P, uid(1));
    old.exec(
      SQLITE_MIGRATIONS.find((m) => m.version === 5)!
        .sql.split(';')
        .filter((s) => s.includes('INSERT INTO task_search'))
        .join(';'),
    );
    old.close();

    const rel = (x: { labels: string[]; blockedBy: string[]; blocks: string[]; children: string[]; parentId: string | null }) => ({
      labels: x.labels,
      blockedBy: x.blockedBy,
      blocks: x.blocks,
      children: x.children,
      parentId: x.parentId,
    });
    const expected: Record<string, ReturnType<typeof rel>> = {
      'OLD-1': { labels: ['Beta', 'alpha', 'zeta'], blockedBy: [], blocks: ['OLD-2'], children: ['OLD-2', 'OLD-4'], parentId: null },
      'OLD-2': { labels: ['x'], blockedBy: ['OLD-5', 'OLD-1'], blocks: [], children: [], parentId: 'OLD-1' },
      'OLD-3': { labels: [], blockedBy: ['OLD-1'], blocks: ['OLD-5'], children: [], parentId: 'OLD-1' },
      'OLD-4': { labels: [], blockedBy: [], blocks: [], children: [], parentId: 'OLD-1' },
      'OLD-5': { labels: [], blockedBy: [], blocks: ['OLD-2'], children: [], parentId: null },
    };
    const c = openCairn({ db: ws.db, actor: 'tester' });
    try {
      for (const [id, want] of Object.entries(expected)) expect(rel((await c.call('get_task', { id })).task), `get_task ${id}`).toEqual(want);
      const listed = [...(await c.call('list_tasks', { sort: 'id' })).tasks, ...(await c.call('list_tasks', { deleted: true })).tasks];
      expect(Object.fromEntries(listed.map((x) => [x.id, rel(x)]))).toEqual(expected);
      expect((await c.call('get_task', { id: 'OLD-1' })).task.childProgress).toEqual({ done: 0, total: 2 });
      // The rebuilt search index (migration 13) keeps the deleted child out of search…
      const found = async () => (await c.call('search_tasks', { query: 'child' })).results.map((h) => h.task.id).sort();
      expect(await found()).toEqual(['OLD-2', 'OLD-4']);
      // The triggers are installed on the upgraded file: restoring the child brings it back everywhere.
      await c.call('restore_task', { id: 'OLD-3' });
      expect(await found()).toEqual(['OLD-2', 'OLD-3', 'OLD-4']);
      expect(rel((await c.call('get_task', { id: 'OLD-1' })).task)).toEqual({ ...expected['OLD-1'], blocks: ['OLD-3', 'OLD-2'], children: ['OLD-2', 'OLD-3', 'OLD-4'] });
      expect(rel((await c.call('get_task', { id: 'OLD-5' })).task).blockedBy).toEqual(['OLD-3']);
      await c.call('update_task', { id: 'OLD-4', parentId: null, addLabels: ['new'] });
      expect(rel((await c.call('get_task', { id: 'OLD-1' })).task).children).toEqual(['OLD-2', 'OLD-3']);
      expect(rel((await c.call('get_task', { id: 'OLD-4' })).task)).toMatchObject({ parentId: null, labels: ['new'] });
    } finally {
      await c.close();
    }
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
    expect(readdirSync(dirname(ws.db)).filter((f) => f.startsWith('cairn.db.bak-v5-'))).toHaveLength(1);
    expect(await integrityCheck(ws.db)).toBe('ok');
    const db = new Database(ws.db, { readonly: true });
    try {
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a workspace missing an index a later migration replaces (an early build) still migrates, and gets it back', async () => {
    ws = tempWorkspace();
    const old = openSqliteFile(ws.db, { targetVersion: 6 });
    old.exec('DROP INDEX tasks_abandoned_project; DROP INDEX tasks_open');
    old.close();
    const c = openCairn({ db: ws.db });
    await c.call('create_project', { key: 'NEW', name: 'n' });
    await c.close();
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
    const db = new Database(ws.db, { readonly: true });
    try {
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('tasks_abandoned_project', 'tasks_open')").pluck().all();
      expect(names.sort()).toEqual(['tasks_abandoned_project', 'tasks_open']);
    } finally {
      db.close();
    }
  });

  it('from version 19: events keep their numbers and the next continues after them; closed work is still listed', async () => {
    ws = tempWorkspace();
    const old = openSqliteFile(ws.db, { targetVersion: 19 });
    seedV1(old);
    old.prepare("INSERT INTO events (at, actor, project_uid, task_uid, type, changes) VALUES (?, 'ann', ?, ?, 'task.updated', '{}')").run(T, P, U2);
    const was = old.prepare('SELECT seq FROM events ORDER BY seq').pluck().all() as number[];
    old.close();
    const c = openCairn({ db: ws.db });
    await c.call('update_task', { id: 'OLD-1', status: 'done' });
    const open = (await c.call('list_tasks', { project: 'OLD' })).tasks.map((t: { id: string }) => t.id);
    const all = (await c.call('list_tasks', { project: 'OLD', includeDone: true })).tasks.map((t: { id: string }) => t.id);
    const done = (await c.call('list_tasks', { project: 'OLD', status: ['done'] })).tasks.map((t: { id: string }) => t.id);
    await c.close();
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
    expect([open, all.sort(), done]).toEqual([['OLD-2'], ['OLD-1', 'OLD-2'], ['OLD-1']]);
    const db = new Database(ws.db, { readonly: true });
    try {
      const now = db.prepare('SELECT seq FROM events ORDER BY seq').pluck().all() as number[];
      expect(now.slice(0, was.length)).toEqual(was);
      expect(now[was.length]).toBe(was[was.length - 1]! + 1);
      expect(db.prepare("SELECT count(*) FROM sqlite_sequence WHERE name = 'events'").pluck().get()).toBe(0);
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'tasks_%' ORDER BY name").pluck().all();
      expect(names).toContain('tasks_closed');
      for (const gone of ['tasks_order', 'tasks_ready_all', 'tasks_abandoned']) expect(names).not.toContain(gone);
    } finally {
      db.close();
    }
    expect(await integrityCheck(ws.db)).toBe('ok');
  });

  it('a migration that fails changes nothing and leaves no backup behind, however often it is retried', async () => {
    ws = tempWorkspace();
    const old = openSqliteFile(ws.db, { targetVersion: 12 });
    old.exec('DROP TABLE comments'); // migration 13 reads it to rebuild the search index
    old.close();
    for (let attempt = 0; attempt < 2; attempt++) expect(() => openCairn({ db: ws.db })).toThrow(/comments/);
    expect(versionOf(ws.db)).toBe(12);
    expect(readdirSync(dirname(ws.db)).filter((f) => f.includes('.bak-'))).toEqual([]);
  });

  it('opens a 0-byte file: migrates it in place, no backup of nothing', async () => {
    ws = tempWorkspace();
    mkdirSync(dirname(ws.db), { recursive: true });
    writeFileSync(ws.db, '');
    const c = openCairn({ db: ws.db });
    expect((await c.call('list_projects', {})).projects).toEqual([]);
    await c.call('create_project', { key: 'NEW', name: 'n' });
    await c.close();
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
    expect(readdirSync(dirname(ws.db)).filter((f) => f.includes('.bak-'))).toEqual([]);
  });

  it('an up-to-date file is opened without a backup', async () => {
    ws = tempWorkspace();
    openSqliteFile(ws.db).close();
    const c = openCairn({ db: ws.db });
    await c.call('create_project', { key: 'NEW', name: 'n' });
    await c.close();
    expect(readdirSync(dirname(ws.db)).filter((f) => f.includes('.bak-'))).toEqual([]);
  });

  it('a missing file: reads answer empty and create nothing; the first write creates directory and file', async () => {
    ws = tempWorkspace();
    const c = openCairn({ db: ws.db });
    try {
      expect((await c.call('list_projects', {})).projects).toEqual([]);
      expect((await c.call('list_tasks', {})).tasks).toEqual([]);
      expect((await c.call('next_tasks', {})).tasks).toEqual([]);
      expect((await c.call('search_tasks', { query: 'x' })).results).toEqual([]);
      expect((await c.call('changes_since', { since: 0 })).events).toEqual([]);
      expect((await c.call('board_overview', {})).summary.totalTasks).toBe(0);
      await expectCode(c.call('get_task', { id: 'API-1' }), 'TASK_NOT_FOUND');
      await expectCode(c.call('create_task', { project: 'API', title: 'x' }), 'PROJECT_NOT_FOUND');
      expect(existsSync(dirname(ws.db))).toBe(false);
      await c.call('create_project', { key: 'API', name: 'API' });
      expect(existsSync(ws.db)).toBe(true);
      expect((await c.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['API']);
    } finally {
      await c.close();
    }
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION);
  });

  it('a reader opened before another process created the file sees the new data', async () => {
    ws = tempWorkspace();
    const reader = openCairn({ db: ws.db });
    const writer = openCairn({ db: ws.db });
    try {
      expect((await reader.call('list_projects', {})).projects).toEqual([]);
      await writer.call('create_project', { key: 'API', name: 'API' });
      expect((await reader.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['API']);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('refuses a file from a newer Cairn without touching it', () => {
    ws = tempWorkspace();
    mkdirSync(dirname(ws.db), { recursive: true });
    const db = new Database(ws.db);
    db.pragma(`application_id = ${CAIRN_APPLICATION_ID}`); // a newer Cairn marks its files too
    db.pragma(`user_version = ${LATEST_SQLITE_VERSION + 1}`);
    db.close();
    expect(() => openSqliteFile(ws.db)).toThrow(/newer than this Cairn understands/);
    expect(versionOf(ws.db)).toBe(LATEST_SQLITE_VERSION + 1);
  });

  it('refuses a directory as the database path', () => {
    ws = tempWorkspace();
    mkdirSync(ws.db, { recursive: true });
    expect(() => openSqliteFile(ws.db)).toThrow(/is a directory/);
  });
});
