/**
 * What a store remembers between transactions, and when it must forget:
 * - summary rows (SummaryCache, store/queries/summary-cache.ts; migration 11): a reader that has
 *   listed a task answers with its new state after any change to the row — by another process, by
 *   SQL that knows nothing of revisions, or to a task number reused after a purge;
 * - projects and workflows (ProjectCache): another connection's commit, or a change rolled back.
 */
import { spawnSync } from 'node:child_process';
import { Database } from '../../src/store/sqlite/native.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { BIN } from '../cli/cli-harness.js';
import { integrityCheck } from '../helpers/core.js';
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
  expect(integrityCheck(c.ws.db)).toBe('ok');
  await c.done();
});

const titles = async (x: Cairn) => (await x.call('list_tasks', { project: 'API', sort: 'id' })).tasks.map((t) => `${t.id} ${t.title}`);

describe('remembered summary rows', () => {
  it('a row changed by SQL that never touches rev still moves its revision, and the reader sees the change', async () => {
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-3 task 3']);
    const raw = new Database(c.ws.db, { fileMustExist: true });
    try {
      const rev = () => raw.prepare("SELECT rev FROM tasks WHERE seq = 2").pluck().get() as number;
      const before = rev();
      raw.prepare("UPDATE tasks SET title = 'renamed outside' WHERE seq = 2").run();
      expect(rev()).toBe(before + 1);
      // A relation column rewritten by a trigger moves it too.
      raw.prepare("INSERT INTO task_labels (task_uid, label) SELECT uid, 'late' FROM tasks WHERE seq = 3").run();
    } finally {
      raw.close();
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
    await c.call('create_task', { project: 'API', title: 'successor' });
    const raw = new Database(c.ws.db, { readonly: true, fileMustExist: true });
    const nums = raw.prepare('SELECT num FROM tasks ORDER BY num').pluck().all();
    raw.close();
    expect(nums).toEqual([1, 2, 3]); // the number really was reused
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-4 successor']);
  });

  it('a row replaced wholesale by outside SQL (INSERT OR REPLACE: same number and uid, no UPDATE) is read again', async () => {
    expect(await titles(reader)).toEqual(['API-1 task 1', 'API-2 task 2', 'API-3 task 3']);
    const raw = new Database(c.ws.db, { fileMustExist: true });
    try {
      const cols = (raw.prepare('PRAGMA table_info(tasks)').all() as Array<{ name: string }>).map((x) => x.name);
      const select = cols.map((n) => (n === 'title' ? "'replaced outside'" : n === 'rev' ? '0' : n)).join(', ');
      raw.prepare(`INSERT OR REPLACE INTO tasks (${cols.join(', ')}) SELECT ${select} FROM tasks WHERE seq = 2`).run();
    } finally {
      raw.close();
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
    const raw = new Database(c.ws.db, { fileMustExist: true });
    try {
      raw.prepare("INSERT INTO statuses (project_uid, name, display_name, color, category, position) SELECT uid, 'qa', 'QA', '#888', 'in_progress', 99 FROM projects WHERE key = 'API'").run();
      raw.prepare("UPDATE projects SET name = 'Renamed elsewhere' WHERE key = 'API'").run();
    } finally {
      raw.close();
    }
    const { task } = await reader.call('create_task', { project: 'API', title: 'in qa', status: 'qa' });
    expect(task).toMatchObject({ status: 'qa', statusCategory: 'in_progress' });
    expect((await reader.call('get_project', { key: 'API' })).project.name).toBe('Renamed elsewhere');
  });

  it('a store closed and used again does not trust what it read before', async () => {
    expect((await reader.call('get_project', { key: 'API' })).project.name).toBe('API');
    await reader.store.close();
    const raw = new Database(c.ws.db, { fileMustExist: true });
    raw.prepare("UPDATE projects SET name = 'Renamed while closed' WHERE key = 'API'").run();
    raw.close();
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
