/** PostgreSQL and connection failures as Cairn's errors: a server that is down or restarting is DATABASE_UNAVAILABLE (HTTP 503). */
import { CairnError } from '../../core/errors.js';
import { constraintViolation } from '../queries/constraint-errors.js';

const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
// 57P01–57P03: shutting down, crash recovery, not accepting connections yet; class 08: connection exceptions.
const RESTARTING = /^(57P0[123]|08...)$/;
const CONNECTION_LOST = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  return NETWORK.has(code) || RESTARTING.test(code) || CONNECTION_LOST.test(typeof e?.message === 'string' ? e.message : '');
}

/**
 * Safe to retry from the start: serialization failure, deadlock, and a prepared plan a migration
 * made stale (the connection has stopped preparing statements: connection.ts).
 */
export const isRetryable = (err: unknown): boolean => ['40001', '40P01', '0A000'].includes(String((err as { code?: unknown } | null)?.code ?? ''));

export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/** A driver error as a CairnError when it is about the server rather than the statement; undefined otherwise. */
export function translatePgError(err: unknown, location: string): CairnError | undefined {
  if (err instanceof CairnError) return undefined;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (isUnavailable(err)) {
    return new CairnError('DATABASE_UNAVAILABLE', `The PostgreSQL server at ${location} cannot be reached or is restarting; nothing was changed. Retry in a moment.`, {
      cause: err,
      suggestions: ['Retry the call; Cairn reconnects by itself once the server is back', 'Check that PostgreSQL is running and reachable from this machine'],
    });
  }
  if (code === '28P01' || code === '28000') {
    return new CairnError('FORBIDDEN', `PostgreSQL at ${location} refused the login (${code === '28P01' ? 'wrong password' : 'no access for this user'}). Nothing was opened.`, {
      cause: err,
      suggestions: ['Check the user and password in the database URL (CAIRN_DB or --db)'],
    });
  }
  if (code === '3D000') {
    return new CairnError('NO_WORKSPACE', `The database named in ${location} does not exist on that server. Nothing was opened.`, {
      cause: err,
      suggestions: ['Create it first (createdb NAME, or CREATE DATABASE NAME), then retry'],
    });
  }
  if (code === '25006') {
    return new CairnError('READ_ONLY', `The PostgreSQL server at ${location} is read-only (a standby, or default_transaction_read_only); nothing was changed.`, {
      cause: err,
      suggestions: ['Point writers at the primary server'],
    });
  }
  if (code === '53100') {
    return new CairnError('DISK_FULL', `The PostgreSQL server at ${location} is out of disk space; nothing was changed.`, {
      cause: err,
      suggestions: ['Free space on the database server, then retry'],
    });
  }
  if (code === '57014') {
    return new CairnError('BUSY', `A statement on ${location} waited too long (a lock held by another session, or a very slow query); nothing was changed. Retry the command.`, {
      cause: err,
      suggestions: ['Retry in a moment; if it persists, look for a long-running transaction on the server (pg_stat_activity)'],
    });
  }
  if (code.startsWith('23')) return constraintViolation(err);
  return undefined;
}
