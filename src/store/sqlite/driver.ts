/**
 * A Kysely dialect over better-sqlite3 that opens write transactions with BEGIN IMMEDIATE
 * (a deferred BEGIN that later upgrades to a writer gets SQLITE_BUSY the busy timeout cannot
 * retry) and caches prepared statements by SQL text.
 */
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

type Param = string | number | bigint | Buffer | null;

function toParam(v: unknown): Param {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  return v as Param;
}

class Connection implements DatabaseConnection {
  readonly #cache = new Map<string, BetterSqlite3.Statement>();
  constructor(readonly db: BetterSqlite3.Database) {}

  statement(sql: string): BetterSqlite3.Statement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.statement(compiled.sql);
    const params = compiled.parameters.map(toParam);
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(params) as R[] });
    const { changes, lastInsertRowid } = stmt.run(params);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the Cairn SQLite driver');
  }
}

/** Serialises use of the single connection across awaits (a transaction holds it throughout). */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

class CairnSqliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #conn: Connection;
  #release: (() => void) | undefined;
  constructor(db: BetterSqlite3.Database) {
    this.#conn = new Connection(db);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#conn;
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(settings.accessMode === 'read only' ? 'BEGIN' : 'BEGIN IMMEDIATE'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    if ((conn as Connection).db.inTransaction) await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async destroy(): Promise<void> {
    (this.#conn.db.open ? this.#conn.db : undefined)?.close();
  }
}

export function cairnSqliteDialect(db: BetterSqlite3.Database): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new CairnSqliteDriver(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (k: Kysely<any>) => new SqliteIntrospector(k),
  };
}
