/**
 * The store's transactions end where their callback ends: work a caller leaves running after a
 * failed write (the rest of a Promise.all) cannot write outside the transaction it belonged to.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

describe('store transactions', () => {
  it('a query started in a write that failed is refused after the rollback, not committed on its own', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'TX', name: 'Transactions' });
    const { task } = await c.call('create_task', { project: 'TX', title: 'original' });
    const store = c.store as SqliteStore;
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
    expect(store.raw()!.inTransaction).toBe(false);
  });
});
