// Lint config: typescript-eslint's recommended type-aware rules, run in CI.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.local/**', 'dist/**', 'src/localServices/ferretdb/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    // The platform-free core depends on nothing outside it (ARCHITECTURE.md, "Direction of
    // dependencies"): adapters, queues, the API and the composition root depend on it.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/adapters/*', '**/adapters/**'], message: 'src/ is platform-free: adapters depend on the core, not the reverse.' },
            { group: ['**/graphql/*', '**/graphql/**', '!graphql'], message: 'src/ must not import the API layer (graphql/).' },
            { group: ['**/jobs/*', '**/jobs/**'], message: 'src/ must not import the queues (jobs/): take a port (interface) instead.' },
            { group: ['**/app/*', '**/app/**'], message: 'src/ must not import the composition root (app/).' },
          ],
        },
      ],
    },
  },
  {
    files: ['eslint.config.js', 'vitest.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
