/**
 * A PostgreSQL workspace named by URL: `postgres://user:password@host:port/db?schema=cairn&sslmode=…`.
 * The driver (pg) honours the URL's own options (sslmode, application_name, connect_timeout …);
 * `schema` is Cairn's, and keeps every table in that schema. The password never leaves this file:
 * `location` and every message show the URL with it masked.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { CairnError } from '../../core/errors.js';
import { redact } from './url.js';

export interface PostgresTarget {
  /** What the driver connects with (password included, `schema` removed). */
  connectionString: string;
  /** The URL as shown anywhere (password masked). */
  display: string;
  schema: string;
  applicationName: string;
  /** Named (server-side prepared) statements; `prepare=false` in the URL turns them off, for transaction-mode poolers that cannot keep them. */
  prepare: boolean;
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export function parsePostgresUrl(url: string): PostgresTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CairnError('VALIDATION_ERROR', `The database URL ${redact(url)} is not a valid URL. Nothing was opened.`, {
      suggestions: ['Write it as postgres://USER:PASSWORD@HOST:5432/DATABASE (percent-encode special characters in the password)'],
    });
  }
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!SCHEMA.test(schema)) {
    throw new CairnError('VALIDATION_ERROR', `The schema "${schema}" in the database URL is not a plain identifier. Nothing was opened.`, {
      suggestions: ['Use lower-case letters, digits and underscores, starting with a letter, e.g. ?schema=cairn'],
    });
  }
  u.searchParams.delete('schema');
  const prepare = u.searchParams.get('prepare') !== 'false';
  u.searchParams.delete('prepare');
  const applicationName = u.searchParams.get('application_name') ?? 'cairn';
  if (!u.searchParams.has('application_name')) u.searchParams.set('application_name', applicationName);
  const connectionString = u.toString();
  return { connectionString, display: redact(url), schema, applicationName, prepare };
}

// int8 (counts, event numbers, revisions) and numeric as JavaScript numbers: Cairn's never pass 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** A pool whose connections use `schema` (created if missing by the migration step). */
export function openPool(target: PostgresTarget, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max,
    types,
    // Every statement of Cairn's is short; this bounds one stuck on a lock or a dead server.
    options: `-c search_path=${target.schema} -c statement_timeout=30000 -c lock_timeout=30000`,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // A connection the server drops (restart, failover) must not crash the process. Idle in the pool,
  // its error reaches the pool, which replaces it. Checked out (a transaction between statements),
  // pg emits the error on the client itself, where nothing else listens: the caller's next statement
  // fails instead (DATABASE_UNAVAILABLE), and the pool discards the connection when it comes back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (target.prepare) pool.on('connect', prepareStatements);
  return pool;
}

/** Statements a connection keeps prepared at most: the shapes Cairn runs are a few hundred. */
const MAX_PREPARED = 2000;
const names = new Map<string, string>();
const nameOf = (text: string): string => {
  let n = names.get(text);
  if (!n) names.set(text, (n = `cairn_${createHash('sha1').update(text).digest('base64url')}`));
  return n;
};
const CONTROL = /^\s*(begin|commit|rollback|start|savepoint|release|set|listen|unlisten)\b/i;

/**
 * Runs every statement with parameters as a named one, so the server parses and plans it once per
 * connection and reuses the plan: most of a short statement's cost on the server (a get_task is
 * six statements; docs/benchmarks.md). A connection that meets "cached plan must not change result
 * type" (a migration changed a table under it) stops naming statements; the write is retried.
 */
function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = new Set<string>();
  let enabled = true;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (!enabled || typeof text !== 'string' || !Array.isArray(values) || CONTROL.test(text) || (prepared.size >= MAX_PREPARED && !prepared.has(text))) {
      return query(text, values, callback);
    }
    prepared.add(text);
    const run = query({ name: nameOf(text), text, values }) as Promise<unknown>;
    return run.catch((err: { code?: string }) => {
      if (err?.code === '0A000') enabled = false;
      throw err;
    });
  };
}
