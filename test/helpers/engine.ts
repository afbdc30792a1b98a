/**
 * Which engine this test run's workspaces use. The `postgres` project of vitest.config.ts runs the
 * engine-neutral files again with CAIRN_TEST_ENGINE=postgres: each workspace is then a fresh schema
 * on the run's PostgreSQL server (helpers/postgres-setup.ts) instead of a SQLite file.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export const ENGINE: 'sqlite' | 'postgres' = process.env.CAIRN_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = ENGINE === 'postgres';

/** The server's URL (postgres leg only). */
export const pgServerUrl = (): string => inject('pgUrl');

/** A URL for a new, empty workspace: its own schema on the run's server. */
export function pgWorkspaceUrl(): string {
  const base = pgServerUrl();
  return `${base}${base.includes('?') ? '&' : '?'}schema=cairn_test_${randomBytes(6).toString('hex')}`;
}
