// Lint config lives in .config/ so the top level stays as the design card fixes it.
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'

const onlyTheContract = {
  regex: '^(\\.\\./)+src/(?!api/contract/)',
  message: 'The server may import from src/ only what src/api/contract/ shares.',
}
const noHttpErrors = {
  regex: '/http/errors$',
  message: 'Throw a domain error (server/lib/domain-errors.ts); server/http/error-handler.ts maps it to HTTP.',
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'styled-system/**', 'data/**', 'src/api/contract/schema.d.ts', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The server shares only the contract with the SPA (generated types, socket events, the post text scanner,
    // limits): nothing else under src/ may be imported from server/.
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [onlyTheContract] }] },
  },
  {
    // Services, queries and lib code throw domain errors (server/lib/domain-errors.ts); only the HTTP layer and the
    // routes speak HTTP. (Repeats the rule above: a later block's options replace an earlier one's.)
    files: ['server/**/*.ts'],
    ignores: ['server/http/**', 'server/modules/*/routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [onlyTheContract, noHttpErrors] }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
)
