import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources (no build step): every workspace
// package maps the "@gamequery/source" export condition to its src/ entry.
const conditions = ['@gamequery/source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@gamequery/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Both cores (vitest leaves one free by default): files run two at a time.
    maxWorkers: 2,
    // The CLI's tests run the compiled command: built here once if a source changed.
    globalSetup: ['scripts/test-setup.mjs'],
  },
});
