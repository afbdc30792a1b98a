/**
 * Raw SQL access to a test workspace's database, on either engine, through a connection of its own
 * (as another process would hold): better-sqlite3 on the file, or a pg Client on the workspace's
 * schema. Tests use it to read what the store really wrote, or to change rows behind its back.
 *
 * SQL is written once with `?` placeholders (turned into $1, $2 … for PostgreSQL). The table and
 * column names are the same on both engines; SQL that only one engine understands is the test's to
 * branch on (helpers/engine.ts `onPostgres`). Row objects compare equal across engines: int8 and
 * numeric come back as numbers on PostgreSQL too (as the store's own pool reads them), so count(*)
 * is a number on both.
 */
import pg from 'pg';
import { Database } from '../../src/store/sqlite/native.js';

export interface RawDb {
  readonly engine: 'sqlite' | 'postgres';
  /** Every row. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The first column of the first row, or undefined when there is no row. */
  value<T = unknown>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** A statement that returns no rows; how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  close(): Promise<void>;
}

export interface OpenRawOptions {
  /** A connection that refuses writes (SQLite: opened read-only; PostgreSQL: read-only transactions). */
  readonly?: boolean;
}

export const isPostgresUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s);

/** `?` placeholders (outside quoted strings and identifiers) as PostgreSQL's $1, $2 … */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | null = null;
  let out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

// int8 (count(*), bigint columns) and numeric as JavaScript numbers, as src/store/postgres/connection.ts reads them.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Opens raw access to `db`: a SQLite file path, or a postgres:// URL with `?schema=…` (helpers/workspace.ts). */
export async function openRaw(db: string, opts: OpenRawOptions = {}): Promise<RawDb> {
  return isPostgresUrl(db) ? openPg(db, opts) : openSqlite(db, opts);
}

function openSqlite(file: string, opts: OpenRawOptions): RawDb {
  const conn = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: true });
  const args = (params?: readonly unknown[]) => (params ?? []) as unknown[];
  return {
    engine: 'sqlite',
    all: async <T>(sql: string, params?: readonly unknown[]) => conn.prepare(sql).all(...args(params)) as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => conn.prepare(sql).get(...args(params)) as T | undefined,
    value: async <T>(sql: string, params?: readonly unknown[]) =>
      conn
        .prepare(sql)
        .pluck()
        .get(...args(params)) as T | undefined,
    run: async (sql: string, params?: readonly unknown[]) => ({ changes: conn.prepare(sql).run(...args(params)).changes }),
    close: async () => {
      conn.close();
    },
  };
}

async function openPg(url: string, opts: OpenRawOptions): Promise<RawDb> {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'public';
  u.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: u.toString(), types: pgTypes });
  client.on('error', () => undefined); // a server gone at the end of the run is not this test's failure
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema.replace(/"/g, '""')}"`);
    if (opts.readonly) await client.query('SET default_transaction_read_only = on');
  } catch (err) {
    await client.end();
    throw err;
  }
  const query = (sql: string, params?: readonly unknown[]) => client.query({ text: toPgPlaceholders(sql), values: [...(params ?? [])] });
  return {
    engine: 'postgres',
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    value: async <T>(sql: string, params?: readonly unknown[]) => {
      const r = await client.query({ text: toPgPlaceholders(sql), values: [...(params ?? [])], rowMode: 'array' });
      return (r.rows[0] as unknown[] | undefined)?.[0] as T | undefined;
    },
    run: async (sql: string, params?: readonly unknown[]) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    close: () => client.end(),
  };
}
