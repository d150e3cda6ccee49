// A small rule set, without type information so that it stays fast: ESLint's and typescript-eslint's
// recommended rules, which catch mistakes rather than argue style. CI runs it with --max-warnings 0.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks what a destructuring leaves out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests and the bench read parsed JSON answers field by field, and tests match terminal output.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.js', 'web/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
