import { defineConfig } from 'vitest/config';
import { ENGINE_FREE, POSTGRES_SUITE, SQLITE_ONLY } from './test/engines.js';

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Multi-process and browser tests spawn their own children; two cores are all the machine has.
    maxWorkers: 2,
    // One suite, two engines: every file on SQLite, and the engine-neutral ones again on PostgreSQL.
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITE,
          exclude: [...SQLITE_ONLY, ...ENGINE_FREE],
          env: { CAIRN_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
    ],
  },
});
