import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What squeezing code to fit a budget does, refused: long lines, bodies without braces, the comma operator. */
const readable = {
  // Strings and comments included: a long message is split, or a file's messages go into a table.
  'max-len': ['error', { code: 120, ignoreUrls: false, ignoreStrings: false, ignoreTemplateLiterals: false }],
  curly: ['error', 'multi-line'],
  'no-sequences': 'error',
  // ESLint's default: a function with more than 20 paths through it is split, or reads as a table.
  complexity: ['error', 20],
};

export default tseslint.config(
  { ignores: ['dist', 'build', 'public/mockServiceWorker.js', 'playwright-report', 'test-results'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    // Written by `npm run types` (supabase gen types), not by hand.
    ignores: ['**/fixtures/**', 'src/lib/database.types.ts'],
    rules: readable,
  },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.*', '**/*.spec.*', '**/test/**', '**/tests/**'],
    rules: { 'max-lines': ['error', 300] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
