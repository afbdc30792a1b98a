/**
 * The store's transactions end where their callback ends: work a caller leaves running after a
 * failed write (the rest of a Promise.all) cannot write outside the transaction it belonged to.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { onPostgres } from '../helpers/engine.js';
import { tempWorkspace } from '../helpers/workspace.js';

let done: (() => Promise<void>) | undefined;
afterEach(async () => {
  await done?.();
  done = undefined;
});

describe('store transactions', () => {
  it('a query started in a write that failed is refused after the rollback, not committed on its own', async () => {
    // The engine's own store (not the lazy wrapper openCairn puts around PostgreSQL's), to look at its connections.
    const ws = tempWorkspace();
    const store = onPostgres ? new PostgresStore(ws.db) : new SqliteStore(ws.db);
    const c = openCairn({ store, actor: 'tester' });
    done = async () => {
      await c.close();
      ws.cleanup();
    };
    await c.call('create_project', { key: 'TX', name: 'Transactions' });
    const { task } = await c.call('create_task', { project: 'TX', title: 'original' });
    let late: Promise<unknown> | undefined;
    // The straggler runs once the write has settled (rolled back): ordered by the write's own
    // outcome, not by a timer racing the rollback.
    let rolledBack!: () => void;
    const afterRollback = new Promise<void>((r) => (rolledBack = r));
    await expect(
      store.write(async (tx) => {
        late = afterRollback.then(() => tx.updateTask(task.uid, { title: 'written after the rollback' }));
        throw new Error('validation failed');
      }),
    ).rejects.toThrow('validation failed');
    rolledBack();
    await expect(late).rejects.toThrow();
    expect((await c.call('get_task', { id: task.id })).task.title).toBe('original');
    // No transaction is left open behind it: SQLite's one connection is out of its transaction; every
    // connection of PostgreSQL's pool is back in the pool.
    if (store instanceof PostgresStore) {
      const pool = store.pool();
      expect(pool.totalCount - pool.idleCount).toBe(0);
    } else {
      expect(store.raw()!.inTransaction).toBe(false);
    }
  });
});
