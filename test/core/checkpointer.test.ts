/**
 * Background WAL checkpoints (store/sqlite/checkpointer.ts): a process that keeps writing hands
 * checkpoints to a worker thread, the log stays bounded under a steady stream of commits, and
 * closing stops the worker with every write in the file.
 */
import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { MAX_FRAMES, START_AFTER } from '../../src/store/sqlite/checkpointer.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { integrityCheck } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

const walSize = (db: string) => (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);
const autoCheckpoint = (store: SqliteStore) => store.raw()!.pragma('wal_autocheckpoint', { simple: true });

describe('background checkpoints', () => {
  it('start after a burst of writes, keep the WAL bounded, and stop on close with nothing lost', async () => {
    c = tempCairn();
    const store = c.store as SqliteStore;
    await c.call('create_project', { key: 'CK', name: 'Checkpoints' });
    // A short-lived writer (one CLI command) keeps SQLite's own auto-checkpoint and no thread.
    for (let i = 0; i < START_AFTER - 2; i++) await c.call('create_task', { project: 'CK', title: `early ${i}` });
    expect(store.checkpointer()!.running).toBe(false);
    expect(autoCheckpoint(store)).toBe(1000);

    const description = 'words to index for the search table '.repeat(20);
    const total = 3000;
    let maxWal = 0;
    for (let i = 0; i < total; i++) {
      await c.call('create_task', { project: 'CK', title: `steady ${i}`, description, labels: ['ck'] });
      if (i % 50 === 0) maxWal = Math.max(maxWal, walSize(c.ws.db));
    }
    const checkpointer = store.checkpointer()!;
    expect(checkpointer.running).toBe(true);
    expect(autoCheckpoint(store)).toBe(0);
    expect(checkpointer.runs).toBeGreaterThan(0);
    // Back-to-back commits: the worker never catches up fully, so only the main connection's own
    // checkpoint past MAX_FRAMES lets the log start over. ~25 WAL pages per create: 3000 creates
    // with no checkpoint would leave a 300 MB log.
    expect(maxWal).toBeLessThan(2 * MAX_FRAMES * 4096);

    const dbFile = c.ws.db;
    await c.close();
    expect(checkpointer.running).toBe(false);
    const raw = new Database(dbFile, { readonly: true });
    expect(raw.prepare("SELECT count(*) FROM tasks WHERE title LIKE 'steady %'").pluck().get()).toBe(total);
    raw.close();
    expect(integrityCheck(dbFile)).toBe('ok');
    c.ws.cleanup();
    c = undefined;
  });
});
