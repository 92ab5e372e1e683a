import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test/e2e/storefront/vendor/**',
      'src/main/tracking/beacon-validators.generated.*',
      '.search-sandbox/**',
      'test-results/**',
      'examples/*/node_modules/**',
      'examples/*/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: [
      'src/main/**/*.ts',
      'src/preload/**/*.ts',
      'test/**/*.ts',
      'test/**/*.mjs',
      '*.config.ts',
      'bin/**/*.js',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // the examples' tests and configs run in Node; Playwright fixtures without dependencies take `{}`
    files: ['examples/*/*.js', 'examples/*/tests/**/*.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
