import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: Node loads its CommonJS build (as Pothos and yoga do), while
    // Vite would pick the ESM build for our sources — two copies, and schema objects of one fail
    // the instanceof checks of the other. Point everyone at the CommonJS build, as in production.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    // Starts (or finds) MongoDB-wire and Redis servers once for the whole run.
    globalSetup: ['test/setup/services.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/fault/**'] } },
      // The gateway as child processes under faults, load and hostile input: after the rest,
      // one file at a time, so their timing budgets are not shared with a loaded machine (a
      // restart under the whole suite's load took the budget of the SIGKILL test).
      {
        extends: true,
        test: {
          name: 'fault',
          include: ['test/fault/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
