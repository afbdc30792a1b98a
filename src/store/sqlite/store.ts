/**
 * The embedded SQLite store. A workspace whose file does not exist yet answers reads from an
 * empty in-memory schema and creates the file on its first write, so reads never leave garbage.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { CairnError } from '../../core/errors.js';
import type { Store, StoreStatus, Tx } from '../../core/ports.js';
import { LATEST_SQLITE_VERSION } from '../migrations/sqlite.js';
import type { DB } from '../schema.js';
import { KyselyTx } from '../queries/kysely-tx.js';
import { CountCache } from '../queries/task-list.js';
import { SummaryCache } from '../queries/summary-cache.js';
import { ProjectCache } from '../queries/project-cache.js';
import { cairnSqliteDialect, Connection } from './driver.js';
import { runDirectly } from '../queries/prepared.js';
import { hasDatabaseFile, openSqliteFile, readSchemaVersion, schemaVersion, type OpenOptions } from './open.js';
import { readOnlyError, readOnlyReason, translateSqliteError } from './sqlite-errors.js';
import { Checkpointer } from './checkpointer.js';
import { CLOSING_STEPS, tidySearchIndex } from './search-upkeep.js';
import { indexNewTasks, reindexTask, removeFromIndex, search } from './search.js';

interface Handle {
  raw: BetterSqlite3.Database;
  conn: Connection;
  /** Background WAL checkpoints for a file that keeps being written (none for in-memory schemas). */
  checkpointer: Checkpointer | undefined;
  db: Kysely<DB>;
  /** PRAGMA data_version, prepared once: servers ask it on every call (db.pragma() prepares anew each time). */
  dataVersion: BetterSqlite3.Statement<[], number>;
}

function handle(raw: BetterSqlite3.Database): Handle {
  // Never wait in SQLite's busy handler: it sleeps synchronously, freezing a server's event loop for
  // as long as another process holds the write lock. The store waits instead (waitForLock below).
  if (!raw.memory) raw.pragma('busy_timeout = 0');
  const checkpointer = raw.memory ? undefined : new Checkpointer(raw, raw.name);
  const conn = new Connection(raw);
  return { raw, conn, checkpointer, db: new Kysely<DB>({ dialect: cairnSqliteDialect(conn) }), dataVersion: raw.prepare<[], number>('PRAGMA data_version').pluck() };
}

/** How long a write waits for another process's write lock before reporting BUSY (OpenOptions.busyTimeoutMs overrides). */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/** Between attempts at a lock: 1, 2, 4 … ms, at most 50, with jitter so waiting processes do not retry in step. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

export class SqliteStore implements Store {
  readonly location: string;
  readonly #options: OpenOptions;
  #file: Handle | undefined;
  #empty: Handle | undefined;
  #localWrites = 0;
  /** Transactions that found the lock held by another process's write and waited for it (since open). */
  #lockWaits = 0;
  /** Committed a write since the file was (re)opened: closing then merges the search index a little. */
  #wrote = false;
  readonly #counts = new CountCache();
  readonly #summaries = new SummaryCache();
  readonly #projects = new ProjectCache();
  static readonly #search = { reindexTask, indexNewTasks, removeFromIndex, search };

  constructor(file: string, options: OpenOptions = {}) {
    this.location = file;
    this.#options = options;
    if (file === ':memory:' || hasDatabaseFile(file)) this.#file = handle(openSqliteFile(file, options));
  }

  /** The open file, if the workspace exists (after any write, or if it existed at open). */
  #current(): Handle | undefined {
    if (!this.#file && hasDatabaseFile(this.location)) this.#file = handle(openSqliteFile(this.location, this.#options));
    return this.#file;
  }

  /**
   * Runs `fn` with the Tx of one transaction. Its prepared queries go straight to `conn` while the
   * transaction lasts, and only then: a call still pending after it ends goes through Kysely, which
   * refuses a finished transaction.
   */
  async #run<T>(db: Kysely<DB>, h: Handle, reading: boolean, fn: (tx: Tx) => Promise<T>): Promise<T> {
    runDirectly(db, h.conn);
    try {
      // Only the file remembers anything (the empty stand-in is rolled back or never written), and
      // projects only while no other connection has committed since they were read.
      const file = h === this.#file;
      if (file) this.#projects.sync(h.dataVersion.get()!);
      const projects = file ? this.#projects : undefined;
      return await fn(reading && file ? new KyselyTx(db, SqliteStore.#search, this.#counts, this.#summaries, projects) : new KyselyTx(db, SqliteStore.#search, undefined, undefined, projects));
    } finally {
      runDirectly(db, undefined);
    }
  }

  /** Read without migrating: a file not opened yet is looked at read-only. */
  async status(): Promise<StoreStatus> {
    const version = this.#file ? schemaVersion(this.#file.raw) : hasDatabaseFile(this.location) ? readSchemaVersion(this.location) : 0;
    return { engine: 'sqlite', schemaVersion: version, latestSchemaVersion: LATEST_SQLITE_VERSION, lockWaits: this.#lockWaits };
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const h = this.#current() ?? (this.#empty ??= handle(openSqliteFile(':memory:')));
    // WAL readers do not wait for writers; BUSY reaches a reader only in rare moments (another
    // connection recovering the log), and is waited out like a writer's.
    return this.#waitForLock(() =>
      h.db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => this.#run(trx, h, true, fn)),
    );
  }

  get #lockWaitMs(): number {
    return this.#options.busyTimeoutMs ?? DEFAULT_LOCK_WAIT_MS;
  }

  /**
   * Runs `attempt` until it gets past SQLITE_BUSY, waiting between tries on timers so the event
   * loop keeps serving (reads, health checks, heartbeats) meanwhile; BUSY after the deadline. The
   * connection is released between tries (the transaction never began, or was rolled back).
   */
  async #waitForLock<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.#lockWaitMs;
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (!isBusy(err)) throw this.#translate(err);
        if (n === 0) {
          this.#lockWaits++;
          this.#options.onLockWait?.();
        }
        if (Date.now() >= deadline) {
          throw new CairnError(
            'BUSY',
            `The workspace ${this.location} stayed locked by another writer for ${this.#lockWaitMs >= 1000 ? `${Math.round(this.#lockWaitMs / 1000)} s` : `${this.#lockWaitMs} ms`}; nothing was changed. Retry the command.`,
            {
              cause: err,
              suggestions: ['Retry in a moment; if it persists, look for a stuck process holding the database open'],
            },
          );
        }
        await backoff(n);
      }
    }
  }

  /** A damaged file, a full disk or a read-only folder named as such (sqlite-errors.ts); anything else as it is. */
  #translate(err: unknown): unknown {
    return translateSqliteError(err, this.location) ?? err;
  }

  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let h = this.#current();
    if (!h) {
      // No workspace yet: rehearse on the empty schema and roll back, so a write that fails
      // (unknown project, bad id…) leaves no file or directory behind.
      const rehearsal = Symbol('rehearsal');
      const empty = (this.#empty ??= handle(openSqliteFile(':memory:')));
      await empty.db
        .transaction()
        .execute(async (trx) => {
          await this.#run(trx, empty, false, fn);
          throw rehearsal;
        })
        .catch((err: unknown) => {
          if (err !== rehearsal) throw err;
        });
      h = this.#current() ?? (this.#file = handle(openSqliteFile(this.location, this.#options)));
    }
    if (h.raw.readonly) throw readOnlyError(this.location, readOnlyReason(this.location));
    const file = h;
    const result = await this.#waitForLock(() => {
      file.checkpointer?.writing();
      return file.db.transaction().execute((trx) => this.#run(trx, file, false, fn));
    });
    // Committed: nothing after this point may turn the write into a reported failure.
    this.#localWrites++;
    this.#wrote = true;
    file.checkpointer?.committed();
    return result;
  }

  async changeToken(): Promise<string> {
    const h = this.#current();
    if (!h) return 'empty';
    return `${h.dataVersion.get()}:${this.#localWrites}`;
  }

  async projectsToken(): Promise<string> {
    const h = this.#current();
    if (!h) return 'empty';
    return `${h.dataVersion.get()}:${this.#projects.generation}`;
  }

  /** Forgets every remembered total, summary row and project: benchmarks measure a first read with it. */
  forget(): void {
    this.#counts.clear();
    this.#summaries.clear();
    this.#projects.clear();
  }

  /** The underlying connection, for tests and maintenance (integrity checks, backups). */
  raw(): BetterSqlite3.Database | undefined {
    return this.#current()?.raw;
  }

  /** Merges the search index's segments until nothing is left to merge or `maxSteps` ran (search-upkeep.ts); true when done. */
  tidySearchIndex(maxSteps = 10_000): boolean {
    const raw = this.#file?.raw;
    return raw ? tidySearchIndex(raw, maxSteps) : true;
  }

  /** The background checkpointer of the open file, for tests and diagnostics. */
  checkpointer(): Checkpointer | undefined {
    return this.#file?.checkpointer;
  }

  async close(): Promise<void> {
    // The store may be used again (the file reopens on demand), on a connection whose
    // data_version starts over: nothing read through this one may be trusted then.
    this.forget();
    await this.#file?.checkpointer?.close();
    // A process that wrote leaves the search index merged (search-upkeep.ts): a few bounded steps,
    // skipped at once if another process holds the write lock.
    const raw = this.#file?.raw;
    if (raw?.open && !raw.memory && this.#wrote) {
      try {
        raw.pragma('busy_timeout = 0');
        tidySearchIndex(raw, CLOSING_STEPS);
      } catch {
        // Upkeep only: the connection closes below either way.
      }
    }
    this.#wrote = false;
    await this.#file?.db.destroy();
    await this.#empty?.db.destroy();
    this.#file = undefined;
    this.#empty = undefined;
  }
}
