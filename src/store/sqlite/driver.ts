/**
 * A Kysely dialect over better-sqlite3 that opens write transactions with BEGIN IMMEDIATE
 * (a deferred BEGIN that later upgrades to a writer gets SQLITE_BUSY the busy timeout cannot
 * retry) and caches prepared statements by SQL text.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings } from 'kysely';
import { CairnSqliteAdapter } from './engine-sql.js';
import { LimitInliner } from './limit-literals.js';

type Param = string | number | bigint | Buffer | null;

function toParam(v: unknown): Param {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  return v as Param;
}

interface Prepared {
  stmt: BetterSqlite3.Statement;
  /** Builds a row object from a raw row array (readers only). */
  row?: (values: unknown[]) => Record<string, unknown>;
}

/**
 * A row-object factory for a statement's columns. better-sqlite3 builds each row object key by
 * key, which for 30-column task rows costs several times the query itself; fetching arrays
 * (`raw`) and building objects with one literal (a stable shape V8 keeps fast) gives the same
 * objects (a later duplicate column name wins, as in better-sqlite3's own) at a fraction of the cost.
 */
function rowFactory(columns: string[]): (values: unknown[]) => Record<string, unknown> {
  const last = new Map(columns.map((c, i) => [c, i]));
  const body = [...last].map(([name, i]) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${body} };`) as (values: unknown[]) => Record<string, unknown>;
}

export class Connection implements DatabaseConnection {
  readonly #cache = new Map<string, Prepared>();
  readonly #limits = new LimitInliner();
  constructor(readonly db: BetterSqlite3.Database) {}

  prepared(sql: string): Prepared {
    let p = this.#cache.get(sql);
    if (!p) {
      const stmt = this.db.prepare(sql);
      p = stmt.reader ? { stmt: stmt.raw(true), row: rowFactory(stmt.columns().map((c) => c.name)) } : { stmt };
      // Each LIMIT value is its own statement (limit-literals.ts), so leave room for a few per query.
      if (this.#cache.size > 1000) this.#cache.clear();
      this.#cache.set(sql, p);
    }
    return p;
  }

  /** Runs a statement synchronously (better-sqlite3 does); the transaction's hot path calls this directly. */
  run<R>(compiled: CompiledQuery): QueryResult<R> {
    const { sql, params } = this.#limits.inline(compiled.sql, compiled.parameters.map(toParam));
    const { stmt, row } = this.prepared(sql);
    if (row) return { rows: (stmt.all(params) as unknown[][]).map(row) as R[] };
    const { changes, lastInsertRowid } = stmt.run(params);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.run<R>(compiled));
    } catch (err) {
      return Promise.reject(err);
    }
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

/**
 * One lock per database file for the whole process. Two connections to one file in one thread must
 * not meet inside SQLite's busy handler: it sleeps synchronously, so the holder (parked at an await
 * mid-transaction) can never finish, and the waiter ends in SQLITE_BUSY after blocking the event loop.
 */
const fileLocks = new Map<string, Mutex>();
function lockFor(db: BetterSqlite3.Database): Mutex {
  if (db.memory) return new Mutex();
  let m = fileLocks.get(db.name);
  if (!m) fileLocks.set(db.name, (m = new Mutex()));
  return m;
}

class CairnSqliteDriver implements Driver {
  readonly #mutex: Mutex;
  readonly #conn: Connection;
  #release: (() => void) | undefined;
  constructor(conn: Connection) {
    this.#conn = conn;
    this.#mutex = lockFor(conn.db);
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

/** The dialect over one connection; pass the same Connection to runDirectly for a transaction's hot queries. */
export function cairnSqliteDialect(conn: Connection): Dialect {
  return {
    createAdapter: () => new CairnSqliteAdapter(),
    createDriver: () => new CairnSqliteDriver(conn),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (k: Kysely<any>) => new SqliteIntrospector(k),
  };
}
