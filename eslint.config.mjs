// Lint rules for every TypeScript file in the monorepo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import architecture from './tools/eslint/boundaries.mjs';

// Architecture boundaries (ADR 0027): what each project may import besides its own files. Imports are judged by where
// they resolve ('../../x' against the importing file, '@market/<name>' to its workspace); test files are not exempt.
// Later blocks replace the options of earlier ones for the files they match.
const projectImports = (options) => ({ 'architecture/project-imports': ['error', options] });
const boundaries = [
  { files: ['apps/**', 'libs/**'], plugins: { architecture } },
  // An app imports no other app's sources: only libs and packages. apps/system-tests (multi-service tests) is the one
  // project that may import every app.
  { files: ['apps/**'], ignores: ['apps/system-tests/**'], rules: projectImports({ allow: ['libs/*'] }) },
  { files: ['apps/web/**'], rules: projectImports({ allow: ['libs/domain', 'libs/contracts'] }) },
  { files: ['apps/e2e/**'], rules: projectImports({ allow: ['libs/*', 'scripts/lib'] }) },
  // Libs never import apps; domain imports nothing, contracts only domain (and zod).
  { files: ['libs/**'], rules: projectImports({ allow: ['libs/*'] }) },
  { files: ['libs/server-kit/**'], rules: projectImports({ allow: ['libs/domain', 'libs/contracts'] }) },
  { files: ['libs/contracts/**'], rules: projectImports({ allow: ['libs/domain'], packages: ['zod'] }) },
  { files: ['libs/domain/**'], rules: projectImports({ allow: [], packages: [] }) },
  { files: ['libs/domain/**/*.spec.ts'], rules: projectImports({ allow: [], packages: ['fast-check'] }) },
  // Web: shared code (api/, lib/, components/) never imports a feature; a feature never imports another feature.
  {
    files: ['apps/web/src/{api,lib,components,features}/**'],
    rules: { 'architecture/feature-imports': ['error', { features: 'apps/web/src/features' }] },
  },
  // bidding-service's sub-domains (ADR 0070): auctions/ is the shared core below them; bids, sales, holds, close and
  // listing-terms keep their repositories to themselves. Specs beside the code are not exempt; testing/ helpers are.
  {
    files: ['apps/bidding-service/src/**'],
    rules: { 'architecture/sub-domains': ['error', { root: 'apps/bidding-service/src', core: ['auctions'], open: ['testing', 'migrations'] }] },
  },
  // Web layers point down (bulletproof-react): app (store, router, layout, pages) ← features ← components ← lib, with
  // api and the session state built on it beside lib. Tests are not exempt: a spec builds its store through testing/.
  {
    files: ['apps/web/src/**'],
    rules: {
      'architecture/web-layers': [
        'error',
        {
          root: 'apps/web/src',
          may: {
            lib: [],
            api: ['lib', 'session', 'testing'],
            session: ['lib', 'api'],
            components: ['lib', 'testing'],
            features: ['lib', 'api', 'session', 'components', 'testing', 'styles'],
          },
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', 'tmp/**', 'data/**', 'coverage/**', '.nx/**', 'deploy/k6/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['scripts/**/*.mjs', 'apps/e2e/src/support/*.mjs', '*.js', '*.mjs'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Nest injects by the runtime class of constructor parameters: those imports must stay value imports.
    files: ['apps/*/src/**/*.ts', 'libs/server-kit/src/**/*.ts'],
    ignores: ['apps/web/**'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  ...boundaries,
);
