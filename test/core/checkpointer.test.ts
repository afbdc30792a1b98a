/**
 * Background WAL checkpoints (store/sqlite/checkpointer.ts): a process that keeps writing hands
 * checkpoints to a worker thread, the log stays bounded under a steady stream of commits, and
 * closing stops the worker with every write in the file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
    // Before each restart the worker synced the file and caught up, so that checkpoint was short.
    expect(checkpointer.catchUps).toBeGreaterThan(0);

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

  it('a write still in flight when the store closes does not start the worker again', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'CK', name: 'Checkpoints' });
    for (let i = 0; i < START_AFTER + 5; i++) await c.call('create_task', { project: 'CK', title: `t${i}` });
    const checkpointer = (c.store as SqliteStore).checkpointer()!;
    expect(checkpointer.running).toBe(true);
    const inFlight = c.call('create_task', { project: 'CK', title: 'in flight' }).then(
      () => 'ok',
      () => 'refused',
    );
    await c.close();
    expect(checkpointer.running).toBe(false);
    await inFlight;
    await new Promise((r) => setTimeout(r, 50));
    expect(checkpointer.running).toBe(false);
  });

  it('without threads (a permission model that forbids workers) every write succeeds, checkpointed inline', () => {
    c = tempCairn();
    const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const script = `
      const { openCairn } = await import(${JSON.stringify(dist)});
      const c = openCairn({ db: ${JSON.stringify(c.ws.db)}, actor: 'perm' });
      await c.call('create_project', { key: 'PM', name: 'Permissions' });
      let ok = 0; const errors = [];
      for (let i = 0; i < ${START_AFTER + 10}; i++) {
        try { await c.call('create_task', { project: 'PM', title: 't' + i }); ok++; } catch (e) { errors.push(e.code + ' ' + e.message); }
      }
      const raw = c.store.raw();
      const out = { ok, errors, stored: raw.prepare('SELECT count(*) FROM tasks').pluck().get(), auto: raw.pragma('wal_autocheckpoint', { simple: true }), running: c.store.checkpointer().running };
      await c.close();
      console.log(JSON.stringify(out));`;
    const flag = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
    const r = spawnSync(process.execPath, [flag, '--allow-fs-read=*', '--allow-fs-write=*', '--allow-addons', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
    expect(line, r.stderr).toBeDefined();
    const out = JSON.parse(line!);
    expect(out.errors).toEqual([]);
    expect(out.ok).toBe(START_AFTER + 10);
    expect(out.stored).toBe(START_AFTER + 10);
    expect(out.running).toBe(false);
    expect(out.auto).toBe(1000);
  });
});
