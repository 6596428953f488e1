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
