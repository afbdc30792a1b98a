/**
 * Brings a schema to the latest version: all pending migrations in one transaction, under an
 * advisory lock, so replicas that start together migrate once and the others wait, then find
 * nothing left to do.
 */
import type pg from 'pg';
import { CairnError } from '../../core/errors.js';
import { LATEST_POSTGRES_VERSION, POSTGRES_MIGRATIONS } from '../migrations/postgres.js';

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The schema's version: 0 when Cairn has not created it. */
export async function schemaVersionOf(client: pg.PoolClient | pg.Client, schema: string): Promise<number> {
  const r = await client.query<{ v: number | null }>(`SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 1 END AS v`, [`${quote(schema)}.cairn_schema`]);
  if (r.rows[0]?.v === null) return 0;
  const v = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${quote(schema)}.cairn_schema`);
  return v.rows[0]?.v ?? 0;
}

export async function migratePostgres(pool: pg.Pool, schema: string, location: string): Promise<void> {
  const client = await pool.connect();
  try {
    const current = await schemaVersionOf(client, schema);
    if (current > LATEST_POSTGRES_VERSION) {
      throw new CairnError('VALIDATION_ERROR', `The workspace ${location} has schema version ${current}, newer than this Cairn understands (${LATEST_POSTGRES_VERSION}). Upgrade Cairn to open it.`, {
        suggestions: ['npm install -g cairn-tasks@latest'],
      });
    }
    if (current === LATEST_POSTGRES_VERSION) return;
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext($1), 0)`, [schema]);
      // Extensions (pg_trgm) belong to the database, not the schema: workspaces in two schemas of one
      // new database migrating at once would both create it, and one would fail on its unique name.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('cairn:database'), 1)`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
      await client.query(`SET LOCAL search_path TO ${quote(schema)}`);
      await client.query(`CREATE TABLE IF NOT EXISTS cairn_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      // Another replica may have migrated while this one waited for the lock.
      const now = await schemaVersionOf(client, schema);
      for (const m of POSTGRES_MIGRATIONS) {
        if (m.version <= now) continue;
        await client.query(m.sql);
        await client.query('INSERT INTO cairn_schema (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    client.release();
  }
}
