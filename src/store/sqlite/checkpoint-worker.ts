/**
 * The checkpointer's worker thread (checkpointer.ts starts it with this file). The loop sleeps until
 * a commit arrives (close() bumps the counter too, so a stop never waits), lets a few more gather
 * (50 ms), checkpoints, and repeats. Once commits stop for QUIET_MS it merges search segments, one
 * short write transaction per step, in bursts of BURST_MS with PAUSE_MS between them, checkpointing
 * after each burst. A burst ends at once when the main connection begins a write (WRITES) or
 * commits, or when another connection holds the lock (busy_timeout 0), and merging waits for the
 * next quiet spell. A checkpoint that keeps failing for a reason other than a busy lock (which
 * PRAGMA reports in its row, not by throwing) ends the worker, and the main connection takes its
 * auto-checkpoint back.
 *
 * Catching up: a worker checkpoint copies pages into the database file without syncing it (SQLite
 * syncs only a checkpoint that reaches the end of the log, which one running beside steady commits
 * never does). The main connection's log-restarting checkpoint does reach the end, so it would sync
 * every page copied since the last restart, on the request path. So past MAX_WAL_BYTES the worker
 * syncs the file itself (its own descriptor: a sync covers the file, not the descriptor) and
 * checkpoints again, a few rounds until one copies little, before asking.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { workerData as given } from 'node:worker_threads';
import { BURST_MS, type CheckpointWorkerData, maxFrames as framesFor, PAUSE_MS, QUIET_MS, SLOT } from './checkpoint-protocol.js';
import { tidySearchIndex } from './search-upkeep.js';

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

const data = given as CheckpointWorkerData;
const Database = createRequire(import.meta.url)(data.modulePath) as typeof BetterSqlite3;
const ctl = new Int32Array(data.control);
const db = new Database(data.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = db.prepare<[], CheckpointRow>('PRAGMA wal_checkpoint(PASSIVE)');
const maxFrames = framesFor(db.pragma('page_size', { simple: true }) as number);
let dbFd = -1;
try {
  dbFd = openSync(data.file, 'r+');
} catch {
  // Without its own descriptor the worker cannot sync, so it never catches up: the main connection's checkpoint syncs.
}

function catchUp(first: CheckpointRow): void {
  let r = first;
  for (let round = 0; round < 8 && r.busy === 0; round++) {
    const copied = r.checkpointed;
    fdatasyncSync(dbFd);
    r = checkpoint.get()!;
    if (r.checkpointed - copied < 64) break;
  }
  fdatasyncSync(dbFd);
  Atomics.add(ctl, SLOT.CATCH_UPS, 1);
}

let failures = 0;
// The log at the last checkpoint: past half the limit, commits are not left to gather (see below).
let lastLog = 0;
function runCheckpoint(): void {
  try {
    const r = checkpoint.get()!;
    lastLog = r.log;
    if (r.log > maxFrames) {
      if (r.busy === 0 && dbFd >= 0) catchUp(r);
      Atomics.store(ctl, SLOT.RESTART, 1);
    }
    Atomics.add(ctl, SLOT.RUNS, 1);
    failures = 0;
  } catch (err) {
    if (++failures >= 5) throw err;
  }
}

/** Test hook (checkpointerTesting): one checkpoint per step asked for, then say it ran. */
function stepped(): void {
  let done = 0;
  while (Atomics.load(ctl, SLOT.STOP) === 0) {
    const asked = Atomics.load(ctl, SLOT.STEP);
    if (asked === done) {
      Atomics.wait(ctl, SLOT.STEP, asked);
      continue;
    }
    done = asked;
    runCheckpoint();
    Atomics.store(ctl, SLOT.STEPPED, done);
    Atomics.notify(ctl, SLOT.STEPPED);
  }
}

function loop(): void {
  let done = Atomics.load(ctl, SLOT.COMMITS);
  // Started because this process has written: the index may have segments to merge already.
  let untidy = true;
  let merging = false;
  while (Atomics.load(ctl, SLOT.STOP) === 0) {
    const seen = Atomics.load(ctl, SLOT.COMMITS);
    if (seen === done) {
      if (!untidy) {
        Atomics.wait(ctl, SLOT.COMMITS, seen);
        continue;
      }
      const writes = Atomics.load(ctl, SLOT.WRITES);
      if (Atomics.wait(ctl, SLOT.COMMITS, seen, merging ? PAUSE_MS : QUIET_MS) !== 'timed-out' || Atomics.load(ctl, SLOT.STOP) !== 0 || Atomics.load(ctl, SLOT.WRITES) !== writes) {
        merging = false;
        continue;
      }
      const deadline = Date.now() + BURST_MS;
      const yielded = () => Atomics.load(ctl, SLOT.COMMITS) !== seen || Atomics.load(ctl, SLOT.WRITES) !== writes || Atomics.load(ctl, SLOT.STOP) !== 0;
      untidy = !tidySearchIndex(db, 1000, () => yielded() || Date.now() >= deadline);
      if (!untidy) Atomics.add(ctl, SLOT.TIDIED, 1);
      // Out of time: another burst after a pause. Yielded to this process, or the lock was busy
      // elsewhere (another writer at work): back to waiting for a quiet spell.
      merging = untidy && !yielded() && Date.now() >= deadline;
      if (Atomics.load(ctl, SLOT.STOP) === 0) runCheckpoint();
      continue;
    }
    // Commits gather for 50 ms between checkpoints, except once the log is past half the limit: under
    // writes back to back the log grows by megabytes in that time, all of it before the restart.
    Atomics.wait(ctl, SLOT.STOP, 0, lastLog > maxFrames / 2 ? 5 : 50);
    if (Atomics.load(ctl, SLOT.STOP) !== 0) break;
    done = Atomics.load(ctl, SLOT.COMMITS);
    runCheckpoint();
    untidy = true;
  }
}

try {
  if (data.manual) stepped();
  else loop();
} finally {
  db.close();
  if (dbFd >= 0) closeSync(dbFd);
}
