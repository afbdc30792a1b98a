/**
 * A PostgreSQL workspace named by URL: `postgres://user:password@host:port/db?schema=cairn&sslmode=…`.
 * The driver (pg) honours the URL's own options (sslmode, application_name, connect_timeout …);
 * `schema` is Cairn's, and keeps every table in that schema. The password never leaves this file:
 * `location` and every message show the URL with it masked.
 */
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
  const applicationName = u.searchParams.get('application_name') ?? 'cairn';
  if (!u.searchParams.has('application_name')) u.searchParams.set('application_name', applicationName);
  const connectionString = u.toString();
  return { connectionString, display: redact(url), schema, applicationName };
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
  // An idle connection the server drops (restart, failover) must not crash the process: the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}
