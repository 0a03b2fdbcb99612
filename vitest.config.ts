import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: Node loads its CommonJS build (as Pothos and yoga do), while
    // Vite would pick the ESM build for our sources — two copies, and schema objects of one fail
    // the instanceof checks of the other. Point everyone at the CommonJS build, as in production.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Starts (or finds) MongoDB-wire and Redis servers once for the whole run.
    globalSetup: ['test/setup/services.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
