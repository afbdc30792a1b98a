/**
 * The PostgreSQL store: one pool per process, many processes (replicas) per database. Reads run in
 * a read-only REPEATABLE READ snapshot (every query of an answer sees one state); writes in READ
 * COMMITTED with the locks PostgresTx takes, retried from the start when the server reports a
 * deadlock or a serialization failure, or when a unique constraint meets a concurrent insert (the
 * retry's own checks then see the committed row and give their specific error).
 */
import { Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Store, StoreStatus, Tx } from '../../core/ports.js';
import { LATEST_POSTGRES_VERSION } from '../migrations/postgres.js';
import type { DB } from '../schema.js';
import { CountCache } from '../queries/task-list.js';
import { SummaryCache } from '../queries/summary-cache.js';
import { openPool, parsePostgresUrl, type PostgresTarget } from './connection.js';
import { cairnPostgresDialect } from './engine-sql.js';
import { migratePostgres, schemaVersionOf } from './migrate.js';
import { isRetryable, isUniqueViolation, translatePgError } from './pg-errors.js';
import { PostgresTx } from './tx.js';
import { indexNewTasks, reindexTask, removeFromIndex, search } from './search.js';
import { CommitListener } from './notify.js';

const SEARCH = { reindexTask, indexNewTasks, removeFromIndex, search };

/** Attempts per write: conflicts between concurrent writers are rare and short-lived. */
const WRITE_ATTEMPTS = 8;

export interface PostgresStoreOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
}

export class PostgresStore implements Store {
  readonly location: string;
  readonly #target: PostgresTarget;
  readonly #poolSize: number | undefined;
  #pool: pg.Pool;
  #db: Kysely<DB>;
  #ready: Promise<void> | undefined;
  readonly #counts = new CountCache();
  readonly #summaries = new SummaryCache();
  readonly #channel: string;
  #listener: CommitListener | undefined;
  readonly #waitListeners = new Set<(seconds: number) => void>();
  readonly #onWait = (seconds: number): void => {
    for (const l of this.#waitListeners) l(seconds);
  };

  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.#target = parsePostgresUrl(url);
    this.location = this.#target.display;
    this.#poolSize = options.poolSize;
    this.#pool = openPool(this.#target, options.poolSize);
    this.#db = new Kysely<DB>({ dialect: cairnPostgresDialect(this.#pool, this.#onWait) });
    this.#closed = false;
    this.#channel = `cairn_${this.#target.schema}`;
  }

  #closed: boolean;

  /** Migrates on first use; a failure is not remembered, so the next call tries again (the server may be back). */
  #init(): Promise<void> {
    // Used again after close (as a SQLite store reopens its file): a new pool, nothing remembered.
    if (this.#closed) {
      this.#pool = openPool(this.#target, this.#poolSize);
      this.#db = new Kysely<DB>({ dialect: cairnPostgresDialect(this.#pool, this.#onWait) });
      this.#closed = false;
    }
    this.#ready ??= migratePostgres(this.#pool, this.#target.schema, this.location).catch((err: unknown) => {
      this.#ready = undefined;
      throw this.#translate(err);
    });
    return this.#ready;
  }

  #translate(err: unknown): unknown {
    return translatePgError(err, this.location) ?? err;
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    await this.#init();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#db
          .transaction()
          .setIsolationLevel('repeatable read')
          .setAccessMode('read only')
          .execute((trx) => fn(new PostgresTx(trx, SEARCH, false, this.#channel, this.#counts, this.#summaries)));
      } catch (err) {
        // A plan a migration made stale: the connection has stopped preparing (connection.ts); once more.
        if (attempt < 3 && (err as { code?: unknown } | null)?.code === '0A000') continue;
        throw this.#translate(err);
      }
    }
  }

  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    await this.#init();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#db.transaction().execute((trx) => fn(new PostgresTx(trx, SEARCH, true, this.#channel)));
      } catch (err) {
        const again = attempt < WRITE_ATTEMPTS && (isRetryable(err) || (attempt <= 2 && isUniqueViolation(err)));
        if (!again) throw this.#translate(err);
        await new Promise((r) => setTimeout(r, Math.random() * 2 ** attempt));
      }
    }
  }

  /**
   * Moves with every commit that changes what a reader sees: each such commit appends an event,
   * except token changes, which move their own counter (cairn_state).
   */
  async changeToken(): Promise<string> {
    const r = await this.#state();
    return `${r.seq}:${r.tokens}`;
  }

  /** Moves when a project or workflow changes, not with task writes (what the MCP default project depends on). */
  async projectsToken(): Promise<string> {
    return String((await this.#state()).projects);
  }

  async #state(): Promise<{ seq: number; tokens: number; projects: number }> {
    await this.#init();
    try {
      const r = await sql<{
        seq: number | null;
        tokens: number;
        projects: number;
      }>`SELECT (SELECT max(seq) FROM events) AS seq, tokens_version AS tokens, projects_version AS projects FROM cairn_state`.execute(this.#db);
      const row = r.rows[0]!;
      return { seq: row.seq ?? 0, tokens: row.tokens, projects: row.projects };
    } catch (err) {
      throw this.#translate(err);
    }
  }

  observePoolWaits(listener: (seconds: number) => void): () => void {
    this.#waitListeners.add(listener);
    return () => this.#waitListeners.delete(listener);
  }

  onCommit(listener: () => void): () => void {
    this.#listener ??= new CommitListener(this.#target, this.#channel);
    return this.#listener.add(listener);
  }

  /** Forgets remembered totals and summaries (benchmarks measure a first read with it). */
  forget(): void {
    this.#counts.clear();
    this.#summaries.clear();
  }

  /** Read without migrating: a status check must not change the schema it reports. */
  async status(): Promise<StoreStatus> {
    const pool = this.#pool;
    const client = await pool.connect();
    let version: number;
    try {
      version = await schemaVersionOf(client, this.#target.schema);
    } catch (err) {
      throw this.#translate(err);
    } finally {
      client.release();
    }
    return {
      engine: 'postgres',
      schemaVersion: version,
      latestSchemaVersion: LATEST_POSTGRES_VERSION,
      pool: { max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      ...(this.#listener ? { listening: this.#listener.listening } : {}),
    };
  }

  /** The pool, for tests and maintenance. */
  pool(): pg.Pool {
    return this.#pool;
  }

  async close(): Promise<void> {
    this.forget();
    await this.#listener?.close();
    this.#listener = undefined;
    if (this.#closed) return;
    this.#closed = true;
    this.#ready = undefined;
    await this.#db.destroy();
    // Kysely ends the pool only if it ran a query; a store that failed at its migration (a newer
    // schema) used the pool alone, and its idle connection would hold the process for 30 s.
    if (!this.#pool.ended) await this.#pool.end().catch(() => undefined);
  }
}
