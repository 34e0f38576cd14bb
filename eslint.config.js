import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';

import { boundaryConfigs } from './eslint.boundaries.js';

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      '.tools/**',
      'dist/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The BFF's Fastify plugins and hooks are async functions whether or not they await: one signature.
    files: ['bff/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  ...boundaryConfigs,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every screen is translated into each language of web/src/i18n: the words a traveler reads (text and
    // the labels of assistive technology) come from the catalogs, never from literals.
    files: ['web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx', 'web/src/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXText[value=/[A-Za-z\\u00C0-\\u024F]/]',
          message: 'Words the traveler reads come from the message catalogs (useT), not literals.',
        },
        {
          selector: 'JSXAttribute[name.name=/^(aria-label|title|alt|placeholder)$/] > Literal',
          message: 'Labels the traveler hears come from the message catalogs (useT), not literals.',
        },
      ],
    },
  },
  {
    // A file of the SPA says one thing: past 400 lines it is split by what it does.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/test-support/**'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], extends: [tseslint.configs.disableTypeChecked] },
);
