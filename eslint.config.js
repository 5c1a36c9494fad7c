// The house's lint rules (pnpm lint): ESLint's and typescript-eslint's recommended sets, no type
// information (fast enough to run on every change), over the sources, tests, benchmarks and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/cli/bin/**',
      '**/node_modules/**',
      '.scratch/**',
      'packages/*/test/fixtures/**',
      'packages/*/test/consumer/**',
      'packages/*/test/golden/expected/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        globalThis: 'readonly',
        document: 'readonly',
        window: 'readonly',
        fetch: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Type tests state types as expressions that tsc checks and nothing runs.
  { files: ['**/*.test-d.ts'], rules: { '@typescript-eslint/no-unused-expressions': 'off' } },
);
