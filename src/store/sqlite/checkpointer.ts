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
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageInfo } from '../../package-info.js';
import type { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './native.js';
import { SQLITE_BINDING, SQLITE_MODULE_PATH } from './native.js';
import { type CheckpointWorkerData, SLOT, SLOTS } from './checkpoint-protocol.js';

export { BURST_MS, MAX_WAL_BYTES, maxFrames, PAUSE_MS, QUIET_MS } from './checkpoint-protocol.js';

// Loaded when the first worker starts: worker_threads costs a CLI command about a millisecond to load, and most never start one.
const requireBuiltin = createRequire(import.meta.url);

/** Commits in this process before the worker takes over checkpoints. */
export const START_AFTER = 50;
/**
 * Test hook, off in production: a worker started while `manual` is true runs a checkpoint only
 * when `Checkpointer.step()` asks for one, and nothing else (no timers, no search merges), so a
 * test can drive the checkpoint protocol commit by commit without depending on thread scheduling.
 */
export const checkpointerTesting = { manual: false };

/**
 * The worker's compiled module: beside this one in tsc's dist/ tree, else in the package's dist/
 * (this module inside a bundle, or run from its TypeScript source by the tests).
 */
function workerFile(): string {
  const beside = fileURLToPath(new URL('./checkpoint-worker.js', import.meta.url));
  return existsSync(beside) ? beside : join(packageInfo().root, 'dist', 'store', 'sqlite', 'checkpoint-worker.js');
}

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
    Atomics.add(ctl, SLOT.COMMITS, 1);
    Atomics.notify(ctl, SLOT.COMMITS);
    // Not inside a transaction another caller has begun on this connection meanwhile (SQLite
    // refuses a checkpoint there); the next commit tries again.
    if (Atomics.load(ctl, SLOT.RESTART) === 1 && !this.#db.inTransaction) {
      try {
        this.#db.pragma('wal_checkpoint(PASSIVE)');
        Atomics.store(ctl, SLOT.RESTART, 0);
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
    if (ctl) Atomics.add(ctl, SLOT.WRITES, 1);
  }

  /** Times the worker found the search index with nothing left to merge after a quiet spell. */
  get tidied(): number {
    return this.#control ? Atomics.load(this.#control, SLOT.TIDIED) : 0;
  }

  /** Times the worker caught up before a log restart (see the worker source). */
  get catchUps(): number {
    return this.#control ? Atomics.load(this.#control, SLOT.CATCH_UPS) : 0;
  }

  /** Checkpoints the worker has run (0 while it has not started). */
  get runs(): number {
    return this.#control ? Atomics.load(this.#control, SLOT.RUNS) : 0;
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
    const asked = Atomics.add(ctl, SLOT.STEP, 1) + 1;
    Atomics.notify(ctl, SLOT.STEP);
    const deadline = Date.now() + timeoutMs;
    while (Atomics.load(ctl, SLOT.STEPPED) !== asked) {
      if (Date.now() >= deadline || this.#control !== ctl) throw new Error(`The checkpoint worker did not run step ${asked} within ${timeoutMs} ms.`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  #start(): void {
    try {
      const control = new SharedArrayBuffer(SLOTS * 4);
      const { Worker } = requireBuiltin('node:worker_threads') as typeof import('node:worker_threads');
      const workerData: CheckpointWorkerData = { file: this.#file, modulePath: SQLITE_MODULE_PATH, control, manual: checkpointerTesting.manual };
      const worker = new Worker(workerFile(), {
        workerData,
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
    Atomics.store(ctl, SLOT.STOP, 1);
    Atomics.add(ctl, SLOT.COMMITS, 1);
    Atomics.add(ctl, SLOT.STEP, 1);
    Atomics.notify(ctl, SLOT.STOP);
    Atomics.notify(ctl, SLOT.COMMITS);
    Atomics.notify(ctl, SLOT.STEP);
    // Held open until the worker has closed its connection: an unref'd worker would let the
    // process end (or a top-level await settle nothing) with its checkpoint half done.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
    });
  }
}
