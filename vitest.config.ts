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
    // Files share a worker's modules, not a new set each (the codec's grammars compiled and the
    // sources transformed once per worker): 4 min 18 s -> 3 min 36 s for the suite on this
    // 2-core machine. No test mocks a module; those that spy on a function restore it.
    isolate: false,
    // The CLI's tests run the compiled command: built here once if a source changed.
    globalSetup: ['scripts/test-setup.mjs'],
  },
});
