/**
 * Background WAL checkpoints (store/sqlite/checkpointer.ts): a process that keeps writing hands
 * checkpoints to a worker thread, the log is bounded by the restart protocol (past MAX_WAL_BYTES the
 * worker catches up and asks, the main connection checkpoints after its next commit, and the write
 * after that starts the log over), and closing stops the worker with every write in the file.
 *
 * The protocol is driven step by step (checkpointerTesting.manual: the worker checkpoints only when
 * asked) and measured in WAL frames read from the log itself, so nothing here depends on how fast
 * the worker thread gets scheduled. How large the log grows under a free-running worker beside a
 * steady stream of writes is a benchmark figure, not a test.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { checkpointerTesting, maxFrames, START_AFTER } from '../../src/store/sqlite/checkpointer.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { integrityCheck } from '../helpers/core.js';
import { waitFor } from '../helpers/wait.js';
import { sqliteOf, tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  checkpointerTesting.manual = false;
  await c?.done();
  c = undefined;
});

const autoCheckpoint = (store: SqliteStore) => store.raw()!.pragma('wal_autocheckpoint', { simple: true });

interface Wal {
  /** The header's salts: they change exactly when the log starts over. */
  salt: string;
  /** Frames of the current log: from the start, while a frame carries the header's salts. */
  frames: number;
  /** The file's length: the most the log has ever held since the file was last truncated. */
  bytes: number;
  frameBytes: number;
}

/** Reads the WAL file's header and frame headers (the format is SQLite's documented WAL format). */
function wal(db: string): Wal {
  const file = `${db}-wal`;
  if (!existsSync(file)) return { salt: '', frames: 0, bytes: 0, frameBytes: 0 };
  const bytes = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(32);
    if (readSync(fd, head, 0, 32, 0) < 32) return { salt: '', frames: 0, bytes, frameBytes: 0 };
    const frameBytes = 24 + head.readUInt32BE(8);
    const [salt1, salt2] = [head.readUInt32BE(16), head.readUInt32BE(20)];
    const frame = Buffer.alloc(24);
    let frames = 0;
    for (let at = 32; at + frameBytes <= bytes; at += frameBytes) {
      readSync(fd, frame, 0, 24, at);
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      frames++;
    }
    return { salt: `${salt1}:${salt2}`, frames, bytes, frameBytes };
  } finally {
    closeSync(fd);
  }
}

/**
 * A reader on its own connection holding a snapshot: while it is open no checkpoint may copy frames
 * committed after it into the database file. It stands in, deterministically, for the commits that
 * keep arriving while the worker checkpoints, so the worker cannot catch up to the end of the log.
 */
function pinSnapshot(db: string): { release(): void } {
  const reader = new Database(db, { readonly: true });
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM tasks').pluck().get();
  return {
    release() {
      reader.exec('COMMIT');
      reader.close();
    },
  };
}

describe('background checkpoints', () => {
  it('start after a burst of writes; past MAX_WAL_BYTES the worker asks and the main connection lets the log start over; close loses nothing', async () => {
    checkpointerTesting.manual = true;
    c = tempCairn();
    const store = sqliteOf(c.store);
    const db = c.ws.db;
    await c.call('create_project', { key: 'CK', name: 'Checkpoints' });
    // A short-lived writer (one CLI command) keeps SQLite's own auto-checkpoint and no thread.
    for (let i = 0; i < START_AFTER - 2; i++) await c.call('create_task', { project: 'CK', title: `early ${i}` });
    expect(store.checkpointer()!.running).toBe(false);
    expect(autoCheckpoint(store)).toBe(1000);
    // The START_AFTER-th commit starts the worker, and SQLite's auto-checkpoint goes off.
    await c.call('create_task', { project: 'CK', title: 'the last early one' });
    const checkpointer = store.checkpointer()!;
    expect(checkpointer.running).toBe(true);
    expect(autoCheckpoint(store)).toBe(0);

    const description = 'words to index for the search table '.repeat(20);
    let written = 0;
    const write = async (n = 1) => {
      for (let k = 0; k < n; k++) await c!.call('create_task', { project: 'CK', title: `steady ${written++}`, description, labels: ['ck'] });
    };
    // Frames per commit, on a log that no checkpoint touches now.
    await write(2);
    const w0 = wal(db);
    await write();
    const w1 = wal(db);
    expect(w1.salt).toBe(w0.salt);
    const perCommit = w1.frames - w0.frames;
    expect(perCommit).toBeGreaterThan(0);

    const limit = maxFrames(store.raw()!.pragma('page_size', { simple: true }) as number);
    // Below that, a checkpoint that cannot reach the end of the log asks for nothing: the log
    // keeps growing in place, commit after commit.
    let pin = pinSnapshot(db);
    await write(3);
    await checkpointer.step();
    expect(checkpointer.runs).toBe(1);
    expect(checkpointer.catchUps).toBe(0);
    pin.release();
    const before = wal(db);
    await write(2);
    const after = wal(db);
    expect(after.salt).toBe(before.salt);
    expect(after.frames).toBeGreaterThan(before.frames);

    // Nothing but the protocol checkpoints now: the log passes SQLite's 1000-page threshold and
    // MAX_WAL_BYTES without ever starting over.
    while (wal(db).frames <= limit) await write(Math.max(1, Math.ceil((limit + 1 - wal(db).frames) / perCommit / 2)));
    const full = wal(db);
    expect(full.salt).toBe(w0.salt);
    expect(full.frames).toBeGreaterThan(limit);

    // Commits keep arriving while the worker checkpoints (the pinned snapshot): it copies what it
    // may, catches up (syncs the file, tries again), and asks the main connection to finish.
    pin = pinSnapshot(db);
    await write(3);
    await checkpointer.step();
    expect(checkpointer.runs).toBe(2);
    expect(checkpointer.catchUps).toBe(1);
    expect(wal(db).salt).toBe(w0.salt);
    pin.release();
    // The next commit is followed by the main connection's own checkpoint, to the end of the log…
    await write();
    const last = wal(db);
    expect(last.salt).toBe(w0.salt);
    expect(last.frames).toBeGreaterThan(full.frames);
    // …so the write after it starts the log over.
    await write();
    const restarted = wal(db);
    expect(restarted.salt).not.toBe(w0.salt);
    expect(restarted.frames).toBeLessThan(2 * perCommit + 10);
    // Bounded: the file never held more than the log at its longest, and the writes after the
    // restart reuse it from the start instead of growing it.
    expect(restarted.bytes).toBe(32 + last.frames * last.frameBytes);
    await write(100);
    const reused = wal(db);
    expect(reused.salt).toBe(restarted.salt);
    expect(reused.frames).toBeGreaterThan(restarted.frames);
    expect(reused.bytes).toBe(restarted.bytes);

    await c.close();
    expect(checkpointer.running).toBe(false);
    const raw = new Database(db, { readonly: true });
    expect(raw.prepare("SELECT count(*) FROM tasks WHERE title LIKE 'steady %'").pluck().get()).toBe(written);
    raw.close();
    expect(await integrityCheck(db)).toBe('ok');
    c.ws.cleanup();
    c = undefined;
  });

  it('the free-running worker takes checkpoints on its own while writes come, and stops on close with nothing lost', async () => {
    c = tempCairn();
    const store = sqliteOf(c.store);
    await c.call('create_project', { key: 'CK', name: 'Checkpoints' });
    for (let i = 0; i < START_AFTER + 20; i++) await c.call('create_task', { project: 'CK', title: `t${i}` });
    const checkpointer = store.checkpointer()!;
    expect(checkpointer.running).toBe(true);
    expect(autoCheckpoint(store)).toBe(0);
    // The worker sleeps until a commit arrives, so it has one to act on: wait for it, however long
    // the thread takes to be scheduled.
    await waitFor(() => checkpointer.runs > 0, 'a checkpoint by the worker');
    const dbFile = c.ws.db;
    await c.close();
    expect(checkpointer.running).toBe(false);
    const raw = new Database(dbFile, { readonly: true });
    expect(raw.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(START_AFTER + 20);
    raw.close();
    expect(await integrityCheck(dbFile)).toBe('ok');
    c.ws.cleanup();
    c = undefined;
  });

  it('a write still in flight when the store closes does not start the worker again', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'CK', name: 'Checkpoints' });
    for (let i = 0; i < START_AFTER + 5; i++) await c.call('create_task', { project: 'CK', title: `t${i}` });
    const checkpointer = sqliteOf(c.store).checkpointer()!;
    expect(checkpointer.running).toBe(true);
    const inFlight = c.call('create_task', { project: 'CK', title: 'in flight' }).then(
      () => 'ok',
      () => 'refused',
    );
    await c.close();
    expect(checkpointer.running).toBe(false);
    // The write's commit hook runs before its call settles, and starting the worker is synchronous:
    // had the hook started it again, it would be running now.
    await inFlight;
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
      const store = c.store.inner ?? c.store;
      const raw = store.raw();
      const out = { ok, errors, stored: raw.prepare('SELECT count(*) FROM tasks').pluck().get(), auto: raw.pragma('wal_autocheckpoint', { simple: true }), running: store.checkpointer().running };
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
