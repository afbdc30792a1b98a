import { defineConfig } from 'vitest/config';
import { ENGINE_FREE, POSTGRES_SUITE, REMOTE_SUITE, SQLITE_ONLY } from './test/engines.js';

// The per-user repository registry stays out of tests (they make hundreds of throwaway workspaces);
// the tests of the registry name their own file. Set in every project: a project's env replaces the root's.
const QUIET = { CAIRN_REGISTRY: 'off' };

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Multi-process and browser tests spawn their own children; two cores are all the machine has.
    maxWorkers: 2,
    env: QUIET,
    // One suite, two engines: every file on SQLite, and the engine-neutral ones again on PostgreSQL.
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      // The seeds' suites again with each profile server in remote mode (CAIRN_URL to a real cairn serve).
      { extends: true, test: { name: 'remote', include: REMOTE_SUITE, env: { ...QUIET, CAIRN_TEST_REMOTE: '1' } } },
      // And again over Streamable HTTP: the client on /mcp/{profile} of a real cairn serve.
      { extends: true, test: { name: 'http', include: REMOTE_SUITE, env: { ...QUIET, CAIRN_TEST_HTTP: '1' } } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITE,
          exclude: [...SQLITE_ONLY, ...ENGINE_FREE],
          env: { ...QUIET, CAIRN_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
    ],
  },
});
