/**
 * What a store remembers between transactions, and when it must forget:
 * - summary rows (SummaryCache, store/queries/summary-cache.ts; migration 11): a reader that has
 *   listed a task answers with its new state after any change to the row — by another process, by
 *   SQL that knows nothing of revisions, or to a task number reused after a purge;
 * - projects and workflows (ProjectCache): another connection's commit, or a change rolled back.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { BIN } from '../cli/cli-harness.js';
import { integrityCheck } from '../helpers/core.js';
import { onPostgres } from '../helpers/engine.js';
import { openRaw } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let reader: Cairn;

beforeEach(async () => {
  c = tempCairn({ actor: 'alice' });
  await c.call('create_project', { key: 'API', name: 'API' });
  for (let i = 1; i <= 3; i++) await c.call('create_task', { project: 'API', title: `task ${i}`, labels: ['x'] });
  reader = openCairn({ db: c.ws.db, actor: 'bob' }); // another process's connection, with its own memory
});
afterEach(async () => {
  await reader.close();
  expect(await integrityCheck(c.ws.db)).toBe('ok');
  await c.done();
});

const titles = async (x: Cairn) => (await x.call('list_tasks', { project: 'API', sort: 'id' })).tasks.map((t) => `${t.id} ${t.title}`);

describe('remembered summary rows', () => {
  it('a row changed by SQL that never touches rev still moves its revision, and the reader sees the change', async () => {
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-3 task 3']);
    const raw = await openRaw(c.ws.db);
    try {
      const rev = async () => (await raw.value<number>('SELECT rev FROM tasks WHERE seq = 2'))!;
      const before = await rev();
      await raw.run("UPDATE tasks SET title = 'renamed outside' WHERE seq = 2");
      expect(await rev()).toBe(before + 1);
      // A relation column rewritten by a trigger moves it too.
      await raw.run("INSERT INTO task_labels (task_uid, label) SELECT uid, 'late' FROM tasks WHERE seq = 3");
    } finally {
      await raw.close();
    }
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 renamed outside', 'API-3 task 3']);
    const [, , third] = (await reader.call('list_tasks', { project: 'API', sort: 'id' })).tasks;
    expect(third!.labels).toEqual(['late', 'x']);
  });

  it('a change made by a CLI process shows in the next list of a reader that remembered the row', async () => {
    await titles(reader);
    await reader.call('next_tasks', { project: 'API' });
    const r = spawnSync(process.execPath, [BIN, '--db', c.ws.db, 'update', 'API-1', '--title', 'from the cli', '--priority', 'urgent'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(await titles(reader)).toEqual(['API-1 from the cli', 'API-2 task 2', 'API-3 task 3']);
    const next = await reader.call('next_tasks', { project: 'API' });
    expect(next.tasks[0]).toMatchObject({ id: 'API-1', title: 'from the cli', priority: 'urgent' });
  });

  it('a task number reused after a purge is not mistaken for the purged task', async () => {
    expect(await titles(reader)).toHaveLength(3);
    // The newest task has the highest number; purged, its number goes to the next task created.
    await c.call('delete_task', { id: 'API-3' });
    await c.call('purge_task', { id: 'API-3', confirm: true });
    const raw = await openRaw(c.ws.db);
    // PostgreSQL's identity column never hands a number out twice by itself: its sequence is set
    // back (as a restore from a dump may leave it), so the next task gets the purged number there too.
    if (onPostgres) await raw.value("SELECT setval(pg_get_serial_sequence('tasks', 'num'), (SELECT max(num) FROM tasks))");
    await c.call('create_task', { project: 'API', title: 'successor' });
    const nums = (await raw.all<{ num: number }>('SELECT num FROM tasks ORDER BY num')).map((r) => r.num);
    await raw.close();
    expect(nums).toEqual([1, 2, 3]); // the number really was reused
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-4 successor']);
  });

  // SQLite: INSERT OR REPLACE (a delete no trigger sees, then an insert). PostgreSQL has no such
  // statement (ON CONFLICT DO UPDATE is an UPDATE): there the row is deleted and inserted again in one transaction.
  it('a row replaced wholesale by outside SQL (same number and uid, no UPDATE: INSERT OR REPLACE, or a delete and an insert) is read again', async () => {
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-3 task 3']);
    const raw = await openRaw(c.ws.db);
    try {
      const cols = onPostgres
        ? (await raw.all<{ name: string }>("SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'tasks' ORDER BY ordinal_position")).map(
            (x) => x.name,
          )
        : (await raw.all<{ name: string }>('PRAGMA table_info(tasks)')).map((x) => x.name);
      expect(cols).toEqual(expect.arrayContaining(['num', 'uid', 'title', 'rev']));
      const identity = await raw.get('SELECT num, uid FROM tasks WHERE seq = 2');
      const select = cols.map((n) => (n === 'title' ? "'replaced outside'" : n === 'rev' ? '0' : n)).join(', ');
      if (onPostgres) {
        await raw.run('BEGIN');
        await raw.run('CREATE TEMP TABLE replaced ON COMMIT DROP AS SELECT * FROM tasks WHERE seq = 2');
        expect((await raw.run('DELETE FROM tasks WHERE seq = 2')).changes).toBe(1);
        await raw.run(`INSERT INTO tasks (${cols.join(', ')}) SELECT ${select} FROM replaced`);
        await raw.run('COMMIT');
      } else {
        await raw.run(`INSERT OR REPLACE INTO tasks (${cols.join(', ')}) SELECT ${select} FROM tasks WHERE seq = 2`);
      }
      expect(await raw.get('SELECT num, uid FROM tasks WHERE seq = 2')).toEqual(identity);
    } finally {
      await raw.close();
    }
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 replaced outside', 'API-3 task 3']);
  });

  it('answers built from remembered rows cannot be changed in place by a caller', async () => {
    const first = (await reader.call('list_tasks', { project: 'API', sort: 'id' })).tasks[0]!;
    expect(() => (first.labels as string[]).push('sneaky')).toThrow(TypeError);
    const again = (await reader.call('list_tasks', { project: 'API', sort: 'id' })).tasks[0]!;
    expect(again.labels).toEqual(['x']);
  });
});

describe('remembered projects and workflows', () => {
  it('a workflow changed by another connection is seen by the next operation', async () => {
    await reader.call('create_task', { project: 'API', title: 'remembers the workflow' });
    await expect(reader.call('create_task', { project: 'API', title: 'x', status: 'qa' })).rejects.toMatchObject({ code: 'INVALID_STATUS' });
    const raw = await openRaw(c.ws.db);
    try {
      await raw.run("INSERT INTO statuses (project_uid, name, display_name, color, category, position) SELECT uid, 'qa', 'QA', '#888', 'in_progress', 99 FROM projects WHERE key = 'API'");
      await raw.run("UPDATE projects SET name = 'Renamed elsewhere' WHERE key = 'API'");
    } finally {
      await raw.close();
    }
    const { task } = await reader.call('create_task', { project: 'API', title: 'in qa', status: 'qa' });
    expect(task).toMatchObject({ status: 'qa', statusCategory: 'in_progress' });
    expect((await reader.call('get_project', { key: 'API' })).project.name).toBe('Renamed elsewhere');
  });

  it('a store closed and used again does not trust what it read before', async () => {
    expect((await reader.call('get_project', { key: 'API' })).project.name).toBe('API');
    await reader.store.close();
    const raw = await openRaw(c.ws.db);
    await raw.run("UPDATE projects SET name = 'Renamed while closed' WHERE key = 'API'");
    await raw.close();
    expect((await reader.call('get_project', { key: 'API' })).project.name).toBe('Renamed while closed');
  });

  it('a project read after its change in a transaction that rolls back is not remembered', async () => {
    const api = (await c.store.read((tx) => tx.getProjectByKey('API')))!;
    await expect(
      c.store.write(async (tx) => {
        await tx.updateProject(api.uid, { name: 'never committed' });
        expect((await tx.getProjectByKey('API'))!.name).toBe('never committed');
        expect(await tx.getStatuses(api.uid)).toHaveLength((await tx.getStatuses(api.uid)).length);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await c.store.read((tx) => tx.getProjectByKey('API')))!.name).toBe(api.name);
    expect((await c.call('get_project', { key: 'API' })).project.name).toBe(api.name);
  });
});
