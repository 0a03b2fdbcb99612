// Lint config: typescript-eslint's recommended type-aware rules, run in CI.
import tseslint from 'typescript-eslint';

const LAYERS = [
  {
    group: ['**/adapters/*', '**/adapters/**'],
    message: 'src/ is platform-free: adapters depend on the core, not the reverse.',
  },
  { group: ['**/graphql/*', '**/graphql/**', '!graphql'], message: 'src/ must not import the API layer (graphql/).' },
  {
    group: ['**/jobs/*', '**/jobs/**'],
    message: 'src/ must not import the queues (jobs/): take a port (interface) instead.',
  },
  { group: ['**/app/*', '**/app/**'], message: 'src/ must not import the composition root (app/).' },
];
const RAW_COLLECTIONS = {
  group: ['**/store/collections.js'],
  message: 'Read and write through the repositories of src/store, not raw collections.',
};
const RAW_HANDLE = 'Read and write through the repositories (store.<repo>), not store.c.';
const RAW_HANDLES = [
  { selector: "MemberExpression[property.name='c'][object.name='store']", message: RAW_HANDLE },
  { selector: "MemberExpression[property.name='c'][object.property.name='store']", message: RAW_HANDLE },
];
const OUTSIDE_CORE = ['graphql/**/*.ts', 'jobs/**/*.ts', 'adapters/**/*.ts', 'app/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', '.local/**', 'dist/**', 'console/dist/**', 'src/localServices/ferretdb/**'] },
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
  // Layering (ARCHITECTURE.md, "Direction of dependencies"): the platform-free core depends on
  // nothing outside it, and only src/store touches the database's collections.
  { files: ['src/store/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: LAYERS }] } },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/store/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...LAYERS, RAW_COLLECTIONS] }] },
  },
  { files: OUTSIDE_CORE, rules: { 'no-restricted-imports': ['error', { patterns: [RAW_COLLECTIONS] }] } },
  {
    files: ['src/**/*.ts', ...OUTSIDE_CORE],
    ignores: ['src/store/**'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_HANDLES] },
  },
  // The console's event handlers (onClick, onSubmit) may be async: each catches its own errors.
  {
    files: ['console/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false, arguments: false } },
      ],
    },
  },
  {
    files: ['eslint.config.js', 'vitest.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
