// ESLint 9 flat config: correctness rules only; formatting is Prettier's job
// (`npm run lint` runs both, `npm run format` applies Prettier).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'docs/api/', 'coverage/', '.tmp/', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `interface Charge extends z.output<typeof schema> {}` names an inferred type on purpose.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Public ground (docs/decisions/0004-public-ground.md): dependencies and the runtime only through their documented,
    // exported API, since a private path, symbol or field may change in any release the caret
    // ranges let in. scripts/check-public-ground.ts checks the same on dist/, bundled code included.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['undici/*', 'ky/*', 'zod/v4/core/*'],
              message: "A file of the package, not its public API: import from what its package.json 'exports' offers.",
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...privateGround()],
    },
  },
  {
    // The test runner itself uses these (a worker died on 'process.nextTick is not a function'
    // while a test had replaced process): tests use vi.stubEnv and vi.useFakeTimers instead.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...runnerGlobalReplacements().map((selector) => ({
          selector,
          message:
            'A test must not replace a global the runner uses: vi.stubEnv for variables, vi.useFakeTimers for timers.',
        })),
      ],
    },
  },
  prettier,
);

/** Selectors for reaching past a dependency's or the runtime's public API, each with why it is refused. */
function privateGround() {
  const deepPath = '/^(undici|ky|zod\\u002Fv4\\u002Fcore)\\u002F/';
  return [
    {
      // A specifier handed to a loader (`load('undici/lib/...')`) escapes no-restricted-imports,
      // which reports the import and export statements.
      selector: `Literal[value=${deepPath}]:not(ImportDeclaration > Literal, ExportNamedDeclaration > Literal, ExportAllDeclaration > Literal)`,
      message: "A dependency's file path, not its public API: use what its package.json 'exports' offers.",
    },
    {
      selector:
        "CallExpression[callee.object.name='Symbol'][callee.property.name='for'][arguments.0.value=/^undici\\./]",
      message: "undici's private symbols are not its API and change between releases: use undici's exports.",
    },
    {
      selector:
        "CallExpression[callee.object.name='Symbol'][callee.property.name='for'] > TemplateLiteral.arguments > TemplateElement:first-child[value.raw=/^undici\\./]",
      message: "undici's private symbols are not its API and change between releases: use undici's exports.",
    },
    {
      selector:
        "MemberExpression[object.object.name='Function'][object.property.name='prototype'][property.name='toString']",
      message: "A function's source is no API: what it reads changes with the runtime's version.",
    },
    {
      selector: "CallExpression[callee.object.name='Object'][callee.property.name='getOwnPropertySymbols']",
      message: "Another object's symbol-keyed fields are its private state: use what its API offers.",
    },
    {
      selector: "MemberExpression[property.name='_zod']",
      message: "zod's _zod is internal: use zod/mini's functions and a schema's def.",
    },
    {
      selector:
        "MemberExpression[property.name='init'][object.property.name=/^\\$?Zod/], MemberExpression[property.name='init'][object.name=/^\\$?Zod/], Identifier[name='$ZodObjectJIT']",
      message:
        "A zod class's init and its compiled object parser are internal: build schemas with zod/mini's functions.",
    },
  ];
}

/** Selectors for a replaced process, timer or clock, in each way a test could replace one. */
function runnerGlobalReplacements() {
  const names =
    '/^(process|setTimeout|clearTimeout|setInterval|clearInterval|setImmediate|clearImmediate|queueMicrotask|performance|Date)$/';
  const scope = '/^(globalThis|global|window|self)$/';
  return [
    `CallExpression[callee.object.name='vi'][callee.property.name='stubGlobal'][arguments.0.value=${names}]`,
    `AssignmentExpression > MemberExpression.left[object.name=${scope}][property.name=${names}]`,
    `AssignmentExpression > MemberExpression.left[object.expression.name=${scope}][property.name=${names}]`,
    `AssignmentExpression > MemberExpression.left[object.name='process']`,
    `AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name!='env']`,
    `CallExpression[callee.object.name=/^(Object|Reflect)$/][callee.property.name=/^define(Property|Properties)$/][arguments.0.name=${scope}][arguments.1.value=${names}]`,
    `CallExpression[callee.object.name=/^(Object|Reflect)$/][callee.property.name=/^define(Property|Properties)$/][arguments.0.name='process']`,
    `CallExpression[callee.object.name='vi'][callee.property.name='spyOn'][arguments.0.name='process']`,
    `CallExpression[callee.object.name='vi'][callee.property.name='spyOn'][arguments.0.name=${scope}][arguments.1.value=${names}]`,
  ];
}
