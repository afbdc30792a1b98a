/**
 * Blocked means blocked (issue 20, item 3): a finished blocker never makes a task look blocked. Views
 * carry `openBlockers` (the blockedBy ids not yet done, canceled or deleted) beside the full
 * `blockedBy`, and the CLI, the board and next_tasks say "blocked by" from it alone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations/sqlite.js';
import { Database } from '../../src/store/sqlite/native.js';
import { tempCairn } from '../helpers/workspace.js';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

describe('openBlockers on task views', () => {
  let c: ReturnType<typeof tempCairn>;
  afterEach(async () => c?.done());

  it('lists only unfinished blockers, in blockedBy order, through complete, cancel, delete and restore', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'BEN', name: 'Bench' });
    for (const title of ['one', 'two', 'three']) await c.call('create_task', { project: 'BEN', title });
    const { task } = await c.call('create_task', { project: 'BEN', title: 'waits', blockedBy: ['BEN-1', 'BEN-2', 'BEN-3'] });
    expect(task).toMatchObject({ blockedBy: ['BEN-1', 'BEN-2', 'BEN-3'], openBlockers: ['BEN-1', 'BEN-2', 'BEN-3'], isReady: false });
    await c.call('complete_task', { id: 'BEN-2' });
    expect((await c.call('get_task', { id: 'BEN-4' })).task).toMatchObject({ blockedBy: ['BEN-1', 'BEN-2', 'BEN-3'], openBlockers: ['BEN-1', 'BEN-3'] });
    await c.call('update_task', { id: 'BEN-3', status: 'canceled' });
    await c.call('delete_task', { id: 'BEN-1' });
    const listed = (await c.call('list_tasks', { project: 'BEN' })).tasks.find((t) => t.id === 'BEN-4')!;
    // A deleted blocker leaves blockedBy; finished ones stay listed.
    expect(listed).toMatchObject({ blockedBy: ['BEN-2', 'BEN-3'], openBlockers: [], isReady: true });
    await c.call('restore_task', { id: 'BEN-1' });
    expect((await c.call('get_task', { id: 'BEN-4' })).task).toMatchObject({ blockedBy: ['BEN-1', 'BEN-2', 'BEN-3'], openBlockers: ['BEN-1'] });
    await c.call('remove_dependency', { taskId: 'BEN-4', blockedBy: 'BEN-1' });
    expect((await c.call('get_task', { id: 'BEN-4' })).task).toMatchObject({ blockedBy: ['BEN-2', 'BEN-3'], openBlockers: [] });
  });

  it("migration 16's backfill fills the stored ids of a workspace made before it", async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'BEN', name: 'Bench' });
    for (const title of ['one', 'two']) await c.call('create_task', { project: 'BEN', title });
    await c.call('create_task', { project: 'BEN', title: 'waits', blockedBy: ['BEN-1', 'BEN-2'] });
    await c.call('complete_task', { id: 'BEN-1' });
    await c.close();
    // As an older Cairn left the file: no ids stored. Then migration 16's backfill (its SQL after the ALTER).
    const db = new Database(c.ws.db);
    db.exec("UPDATE tasks SET rel_open_blocked_by = '[]'");
    const m16 = SQLITE_MIGRATIONS.find((m) => m.version === 16)!;
    db.exec(
      m16.sql
        .split('\n')
        .filter((l) => !l.startsWith('ALTER TABLE'))
        .join('\n'),
    );
    db.close();
    const again = openCairn({ db: c.ws.db, actor: 'tester' });
    try {
      expect((await again.call('get_task', { id: 'BEN-3' })).task).toMatchObject({ blockedBy: ['BEN-1', 'BEN-2'], openBlockers: ['BEN-2'] });
    } finally {
      await again.close();
    }
    c.ws.cleanup();
    c = tempCairn(); // afterEach closes and removes this one
  });

  it('the board names open blockers only', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'BEN', name: 'Bench' });
    await c.call('create_task', { project: 'BEN', title: 'first' });
    await c.call('create_task', { project: 'BEN', title: 'second' });
    await c.call('create_task', { project: 'BEN', title: 'third', blockedBy: ['BEN-1', 'BEN-2'] });
    await c.call('complete_task', { id: 'BEN-1' });
    const board = await c.call('board_overview', { project: 'BEN' });
    expect(board.blocked).toEqual([{ id: 'BEN-3', title: 'third', blockedBy: ['BEN-1', 'BEN-2'], openBlockers: ['BEN-2'] }]);
    const todo = board.lanes.find((l) => l.status === 'todo')!;
    expect(todo.cards.find((x) => x.id === 'BEN-3')).toMatchObject({ openBlockers: ['BEN-2'] });
  });
});

describe('cairn CLI: a finished blocker does not block', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness();
  });
  afterAll(() => h.cleanup());

  it('done reports now ready, and move, show, list and board never say a finished blocker holds it up', () => {
    const r = h.runMany([
      ['init', '--key', 'BEN', '--name', 'Bench'],
      ['add', 'Blocker'],
      ['add', 'Dependent', '--blocked-by', 'BEN-1'],
      ['done', 'BEN-1'],
      ['move', 'BEN-2', 'review'],
      ['show', 'BEN-2'],
      ['list'],
      ['board'],
      ['show', 'BEN-2', '--json'],
    ]);
    for (const x of r) expect(x.code, x.stdout + x.stderr).toBe(0);
    expect(r[3]!.stdout).toContain('now ready: BEN-2');
    for (const x of r.slice(4, 8)) expect(x.stdout).not.toMatch(/waits on|blocked by/);
    expect(r[5]!.stdout).toMatch(/waited on: *BEN-1 \(finished\)/);
    expect(okJson(r[8]!).task).toMatchObject({ blockedBy: ['BEN-1'], openBlockers: [] });
  });
});
