import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Multi-process and browser tests spawn their own children; two cores are all the machine has.
    maxWorkers: 2,
  },
});
