import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * The direction of dependencies (ARCHITECTURE.md), enforced: views → machines → api; machines → rules,
 * money; nothing imports the views but the entry; server http → domain → db; providers never import the
 * domain (they are outside parties). Each file gets one list: a later block would replace, not add to,
 * an earlier one for the same file.
 */
const UI = ['react', 'react-dom', 'react-dom/*', '@xstate/react', 'wouter', 'wouter/*', 'react-hot-toast', 'goober', 'dompurify'];
const NO_VIEWS = { group: ['**/views/**', '**/src/views/**'], message: 'Nothing imports the views but the entry (src/main.tsx).' };
const NO_FLOW_TOOLS = { group: ['**/flows/**', '!**/views/flows/**'], message: 'The flow chart tooling reads the machines, not the other way round.' };
/** 'node:crypto', 'crypto', 'fs/promises', …: whole names (Node's have no regex characters), so './events.ts' is no match. */
const NODE_MODULE = `^(node:.*|(${builtinModules.join('|')})(/.*)?)$`;
const boundary = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const boundaries = [
  boundary(['src/machines/**'], [
    { group: UI, message: 'Machines are pure: no React, router, toast or styling (side effects are named actions, given at src/views/wiring.ts).' },
    NO_VIEWS,
    { group: ['**/i18n/**'], message: 'Machines hold codes and message keys, never strings.' },
    NO_FLOW_TOOLS,
  ]),
  boundary(['src/api/**'], [
    { group: UI, message: 'The API client is no view.' },
    { group: ['**/machines/**'], message: 'api is below the machines: machines import api, not the other way round.' },
    NO_VIEWS,
    NO_FLOW_TOOLS,
  ]),
  boundary(['src/rules/**', 'src/money.ts'], [
    { group: UI, message: 'Rules and money are plain TypeScript shared with the server.' },
    { group: ['**/api/client*', '**/api/errors*', '**/machines/**', '**/i18n/**'], message: 'Rules and money depend on nothing of the app.' },
    NO_VIEWS,
  ]),
  boundary(['src/fairness/**'], [
    { group: UI, message: 'The provably fair outcomes are plain TypeScript, shared by the server and the browser.' },
    { group: ['**/api/client*', '**/api/errors*', '**/machines/**', '**/i18n/**'], message: 'The fairness library depends on nothing of the app: its errors are codes.' },
    { regex: NODE_MODULE, message: 'The browser runs the fairness library too: Web Crypto (globalThis.crypto), no Node modules.' },
    NO_VIEWS,
    NO_FLOW_TOOLS,
  ]),
  boundary(['src/i18n/**', 'src/flows/**', 'src/format.ts'], [NO_VIEWS]),
  // The composition roots: the SPA's (src/views/wiring.ts) and the house games' pages' (src/views/house/wiring.ts).
  boundary(['src/views/**'], [{ group: ['**/api/client*'], message: 'Views do not call the API: a machine does, with the actor wired in src/views/wiring.ts.' }], ['src/views/wiring.ts', 'src/views/house/wiring.ts']),
  {
    files: ['src/views/**'],
    ignores: ['src/views/wiring.ts', 'src/views/house/wiring.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='provide']",
          message: 'Machines get their implementations in one place, src/views/wiring.ts; a view takes a running flow with useFlow.',
        },
      ],
    },
  },
  boundary(['server/**'], [
    { group: ['**/src/views/**', '**/src/machines/**', '**/src/flows/**'], message: 'The server shares rules, money and the API types with the SPA, nothing else.' },
  ], ['server/domain/**', 'server/db/**', 'server/providers/**', 'server/games/**']),
  boundary(['server/domain/**'], [
    { group: ['**/src/views/**', '**/src/machines/**', '**/src/flows/**'], message: 'The server shares rules, money and the API types with the SPA, nothing else.' },
    { group: ['**/http/**'], message: 'http → domain → db: the domain knows nothing of HTTP (statuses live in server/http/status.ts).' },
  ]),
  boundary(['server/db/**'], [
    { group: ['**/src/views/**', '**/src/machines/**', '**/src/flows/**'], message: 'The server shares rules, money and the API types with the SPA, nothing else.' },
    { group: ['**/domain/**', '**/http/**'], message: 'http → domain → db: the database layer is below the domain.' },
  ]),
  boundary(['server/providers/**', 'server/games/**'], [
    { group: ['**/src/views/**', '**/src/machines/**', '**/src/flows/**'], message: 'The server shares rules, money and the API types with the SPA, nothing else.' },
    { group: ['**/domain/**', '**/http/**'], message: 'Providers are outside parties: they never import the domain or the API layer.' },
  ]),
];


export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'build/', '.data/', '.tmp/', 'bench/', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...boundaries,
  {
    // Tests read API responses that their helpers have already checked against openapi.yaml.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
