/**
 * WAL checkpoints off the request path. SQLite's auto-checkpoint runs inside the COMMIT that
 * crosses 1000 WAL pages: it copies them into the database file and fsyncs it, so about one write
 * in fifty would pay for a copy and a sync (docs/decisions.md, "Write latency spikes"). A process that
 * keeps writing hands that work to a worker thread with its own connection, whose PASSIVE
 * checkpoints never block the main connection's readers or writers.
 *
 * A WAL file starts over only when a write begins with every frame already copied, and a checkpoint
 * running beside a steady stream of commits never quite catches up; so when the log passes
 * `MAX_WAL_BYTES` the main connection takes one PASSIVE checkpoint itself after a commit, and the next
 * write starts the log over. That checkpoint must be short: it runs on the request path. Before
 * asking for it the worker catches up (see `catchUp` in the worker source), so the main connection
 * copies only the last few commits and syncs only their pages.
 * The worker is started lazily, after `START_AFTER` commits: a CLI command that writes once never
 * pays for a thread, and its connection keeps SQLite's ordinary auto-checkpoint. The same worker
 * merges the search index's segments once the process has been quiet (search-upkeep.ts).
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './native.js';
import { SQLITE_BINDING, SQLITE_MODULE_PATH } from './native.js';
import { tidySearchIndex } from './search-upkeep.js';

// Loaded when the first worker starts: worker_threads costs a CLI command about a millisecond to load, and most never start one.
const requireBuiltin = createRequire(import.meta.url);

/** Commits in this process before the worker takes over checkpoints. */
export const START_AFTER = 50;
/**
 * Past this much log the worker catches up and the main connection checkpoints once itself, so the
 * log can start over: about once per 300 task writes of a steady stream in a file of 2 KiB pages,
 * once per 180 in an older file of 4 KiB pages. Under writes back to back the log goes on growing
 * while the worker catches up (tens of milliseconds), to two or three times this at its largest,
 * under 64 MB (docs/benchmarks.md, footprint).
 */
export const MAX_WAL_BYTES = 16 * 1024 * 1024;

/** MAX_WAL_BYTES in frames of this page size (each frame is a page and a 24-byte header). */
export function maxFrames(pageSize: number): number {
  return Math.floor(MAX_WAL_BYTES / (pageSize + 24));
}
/** Quiet after the last commit before the worker merges search segments (search-upkeep.ts). */
export const QUIET_MS = 250;
/**
 * Merging goes in bursts of at most BURST_MS of steps, then PAUSE_MS without the lock (and a
 * checkpoint of what the burst wrote). A write of this process stops a burst at once (it says so
 * before asking for the lock); a writer in another process cannot, so the pauses give it turns.
 */
export const BURST_MS = 8;
export const PAUSE_MS = 20;

/**
 * Test hook, off in production: a worker started while `manual` is true runs a checkpoint only
 * when `Checkpointer.step()` asks for one, and nothing else (no timers, no search merges), so a
 * test can drive the checkpoint protocol commit by commit without depending on thread scheduling.
 */
export const checkpointerTesting = { manual: false };

// Shared Int32 slots: commits by the main connection, the worker's request that the main connection
// take the log-restarting checkpoint, a stop flag, checkpoints and finished search merges the worker
// has run (for tests and diagnostics), writes the main connection has begun (a merge step yields to
// them), catch-ups the worker has run, and (test hook only) checkpoints asked for and run.
const COMMITS = 0;
const RESTART = 1;
const STOP = 2;
const RUNS = 3;
const TIDIED = 4;
const WRITES = 5;
const CATCH_UPS = 6;
const STEP = 7;
const STEPPED = 8;
const SLOTS = 9;

// Plain CommonJS run with `eval`, so the bundled MCP server needs no extra file beside it. The loop
// sleeps until a commit arrives (close() bumps the counter too, so a stop never waits), lets a few
// more gather (50 ms), checkpoints, and repeats. Once commits stop for QUIET_MS it merges search
// segments, one short write transaction per step, in bursts of BURST_MS with PAUSE_MS between them,
// checkpointing after each burst. A burst ends at once when the main connection begins a write
// (WRITES) or commits, or when another connection holds the lock (busy_timeout 0), and merging
// waits for the next quiet spell. A checkpoint that keeps failing for a reason other than a busy
// lock (which PRAGMA reports in its row, not by throwing) ends the worker, and the main connection
// takes its auto-checkpoint back. The merge function is the module's own, by its source text.
//
// Catching up: a worker checkpoint copies pages into the database file without syncing it (SQLite
// syncs only a checkpoint that reaches the end of the log, which one running beside steady commits
// never does). The main connection's log-restarting checkpoint does reach the end, so it would
// sync every page copied since the last restart, on the request path. So past MAX_WAL_BYTES the worker syncs the file itself (its own descriptor; a sync covers the file, not
// the descriptor) and checkpoints again, a few rounds until one copies little, before asking.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const ctl = new Int32Array(workerData.control);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const maxFrames = Math.floor(${MAX_WAL_BYTES} / (db.pragma('page_size', { simple: true }) + 24));
const fs = require('node:fs');
let dbFd = -1;
try { dbFd = fs.openSync(workerData.file, 'r+'); } catch {}
const catchUp = (r) => {
  for (let round = 0; round < 8 && r.busy === 0; round++) {
    const copied = r.checkpointed;
    fs.fdatasyncSync(dbFd);
    r = checkpoint.get();
    if (r.checkpointed - copied < 64) break;
  }
  fs.fdatasyncSync(dbFd);
  Atomics.add(ctl, ${CATCH_UPS}, 1);
};
const tidy = (${tidySearchIndex.toString()});
let done = Atomics.load(ctl, ${COMMITS});
let failures = 0;
// Started because this process has written: the index may have segments to merge already.
let untidy = true;
let merging = false;
// The log at the last checkpoint: past half the limit, commits are not left to gather (see below).
let lastLog = 0;
const runCheckpoint = () => {
  try {
    const r = checkpoint.get();
    lastLog = r.log;
    if (r.log > maxFrames) {
      if (r.busy === 0 && dbFd >= 0) catchUp(r);
      Atomics.store(ctl, ${RESTART}, 1);
    }
    Atomics.add(ctl, ${RUNS}, 1);
    failures = 0;
  } catch (err) {
    if (++failures >= 5) throw err;
  }
};
// Test hook (checkpointerTesting): one checkpoint per step asked for, then say it ran.
if (workerData.manual) {
  let stepped = 0;
  while (Atomics.load(ctl, ${STOP}) === 0) {
    const asked = Atomics.load(ctl, ${STEP});
    if (asked === stepped) { Atomics.wait(ctl, ${STEP}, asked); continue; }
    stepped = asked;
    runCheckpoint();
    Atomics.store(ctl, ${STEPPED}, stepped);
    Atomics.notify(ctl, ${STEPPED});
  }
} else while (Atomics.load(ctl, ${STOP}) === 0) {
  const seen = Atomics.load(ctl, ${COMMITS});
  if (seen === done) {
    if (!untidy) { Atomics.wait(ctl, ${COMMITS}, seen); continue; }
    const writes = Atomics.load(ctl, ${WRITES});
    if (Atomics.wait(ctl, ${COMMITS}, seen, merging ? ${PAUSE_MS} : ${QUIET_MS}) !== 'timed-out' || Atomics.load(ctl, ${STOP}) !== 0 || Atomics.load(ctl, ${WRITES}) !== writes) {
      merging = false;
      continue;
    }
    const deadline = Date.now() + ${BURST_MS};
    const yielded = () => Atomics.load(ctl, ${COMMITS}) !== seen || Atomics.load(ctl, ${WRITES}) !== writes || Atomics.load(ctl, ${STOP}) !== 0;
    untidy = !tidy(db, 1000, () => yielded() || Date.now() >= deadline);
    if (!untidy) Atomics.add(ctl, ${TIDIED}, 1);
    // Out of time: another burst after a pause. Yielded to this process, or the lock was busy
    // elsewhere (another writer at work): back to waiting for a quiet spell.
    merging = untidy && !yielded() && Date.now() >= deadline;
    if (Atomics.load(ctl, ${STOP}) === 0) runCheckpoint();
    continue;
  }
  // Commits gather for 50 ms between checkpoints, except once the log is past half the limit: under
  // writes back to back the log grows by megabytes in that time, all of it before the restart.
  Atomics.wait(ctl, ${STOP}, 0, lastLog > maxFrames / 2 ? 5 : 50);
  if (Atomics.load(ctl, ${STOP}) !== 0) break;
  done = Atomics.load(ctl, ${COMMITS});
  runCheckpoint();
  untidy = true;
}
db.close();
if (dbFd >= 0) fs.closeSync(dbFd);
`;

/**
 * better-sqlite3 12 (node::ObjectWrap) aborts on Node 24.19+ when a statement is collected after its
 * environment is gone (see native.ts), and a worker's environment goes at every close: on Node 22+
 * the worker runs only with the Node-API build (13).
 */
const WORKERS_SAFE = Number(process.versions.node.split('.')[0]) < 22 || !SQLITE_BINDING.startsWith('better-sqlite3@12.');

export class Checkpointer {
  readonly #db: SqliteDatabase;
  readonly #file: string;
  #commits = 0;
  #worker: Worker | undefined;
  #control: Int32Array | undefined;
  #failed = !WORKERS_SAFE;
  #closed = false;

  constructor(db: SqliteDatabase, file: string) {
    this.#db = db;
    this.#file = file;
  }

  /**
   * Called after each committed write on the main connection. Never throws: the write it follows
   * is already stored, and its caller must not be told otherwise.
   */
  committed(): void {
    if (this.#closed) return;
    this.#commits++;
    const ctl = this.#control;
    if (!ctl) {
      if (this.#commits >= START_AFTER && !this.#failed) this.#start();
      return;
    }
    Atomics.add(ctl, COMMITS, 1);
    Atomics.notify(ctl, COMMITS);
    // Not inside a transaction another caller has begun on this connection meanwhile (SQLite
    // refuses a checkpoint there); the next commit tries again.
    if (Atomics.load(ctl, RESTART) === 1 && !this.#db.inTransaction) {
      try {
        this.#db.pragma('wal_checkpoint(PASSIVE)');
        Atomics.store(ctl, RESTART, 0);
      } catch {
        // Another process holds the checkpoint lock; the next commit tries again.
      }
    }
  }

  /**
   * Called before the main connection asks for the write lock: a merge step in progress is the
   * last one until the next quiet spell, so the write waits for at most that step.
   */
  writing(): void {
    const ctl = this.#control;
    if (ctl) Atomics.add(ctl, WRITES, 1);
  }

  /** Times the worker found the search index with nothing left to merge after a quiet spell. */
  get tidied(): number {
    return this.#control ? Atomics.load(this.#control, TIDIED) : 0;
  }

  /** Times the worker caught up before a log restart (see the worker source). */
  get catchUps(): number {
    return this.#control ? Atomics.load(this.#control, CATCH_UPS) : 0;
  }

  /** Checkpoints the worker has run (0 while it has not started). */
  get runs(): number {
    return this.#control ? Atomics.load(this.#control, RUNS) : 0;
  }

  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Test hook: in a worker started under `checkpointerTesting.manual`, runs one checkpoint (with
   * its catch-up and restart request) and resolves once it has run.
   */
  async step(timeoutMs = 60_000): Promise<void> {
    const ctl = this.#control;
    if (!ctl) throw new Error('No checkpoint worker is running.');
    const asked = Atomics.add(ctl, STEP, 1) + 1;
    Atomics.notify(ctl, STEP);
    const deadline = Date.now() + timeoutMs;
    while (Atomics.load(ctl, STEPPED) !== asked) {
      if (Date.now() >= deadline || this.#control !== ctl) throw new Error(`The checkpoint worker did not run step ${asked} within ${timeoutMs} ms.`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  #start(): void {
    try {
      const control = new SharedArrayBuffer(SLOTS * 4);
      const { Worker } = requireBuiltin('node:worker_threads') as typeof import('node:worker_threads');
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { file: this.#file, modulePath: SQLITE_MODULE_PATH, control, manual: checkpointerTesting.manual },
        // The worker must not keep a finished process alive, nor print into a stdio MCP stream.
        stdout: true,
        stderr: true,
      });
      worker.unref();
      worker.on('error', () => this.#fallBack(worker));
      worker.on('exit', () => this.#fallBack(worker));
      this.#worker = worker;
      this.#control = new Int32Array(control);
      this.#db.pragma('wal_autocheckpoint = 0');
    } catch {
      // No threads here (a permission model without --allow-worker, say): SQLite checkpoints inline.
      this.#fallBack(this.#worker);
    }
  }

  /** The worker could not run or stopped on its own: SQLite checkpoints inline again. */
  #fallBack(worker: Worker | undefined): void {
    if (worker !== this.#worker) return;
    this.#failed = true;
    this.#worker = undefined;
    this.#control = undefined;
    void worker?.terminate();
    if (this.#db.open) {
      try {
        this.#db.pragma('wal_autocheckpoint = 1000');
      } catch {
        // The connection is closing; nothing left to checkpoint for.
      }
    }
  }

  /** Stops the worker and waits for it to close its connection (before the main one closes). */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    const ctl = this.#control;
    this.#worker = undefined;
    this.#control = undefined;
    if (!worker || !ctl) return;
    Atomics.store(ctl, STOP, 1);
    Atomics.add(ctl, COMMITS, 1);
    Atomics.add(ctl, STEP, 1);
    Atomics.notify(ctl, STOP);
    Atomics.notify(ctl, COMMITS);
    Atomics.notify(ctl, STEP);
    // Held open until the worker has closed its connection: an unref'd worker would let the
    // process end (or a top-level await settle nothing) with its checkpoint half done.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
    });
  }
}
