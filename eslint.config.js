// ESLint 9 flat config: correctness rules only; formatting is Prettier's job
// (`npm run lint` runs both, `npm run format` applies Prettier).
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';
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
    // Public ground (docs/decisions/0004-public-ground.md): src/ here; `npm run check:ground` holds
    // dist/ to the same rules (eslint.dist.config.js), bundled code and declarations included.
    files: ['src/**/*.ts'],
    rules: publicGround(),
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

/**
 * The rules of public ground: dependencies and the runtime only through their documented,
 * exported API, since a private path, symbol or field may change in any release the caret
 * ranges let in. Each selector is written for source and for built code alike.
 */
export function publicGround() {
  const { dependencies, peerDependencies } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The subpaths lunas imports, each offered by its package's `exports`; any other is a file of the package.
  const offered = ['zod/mini', 'zod/v4/core', '@modelcontextprotocol/server/stdio'].map(escaped).join('|');
  const packages = Object.keys({ ...dependencies, ...peerDependencies })
    .map(escaped)
    .join('|');
  // Their subpaths but those offered, `/` spelt \u002F: esquery ends a regular expression at its first `/`.
  const deepPath = `/${`^(?!(?:${offered})$)(?:${packages})/`.replaceAll('/', '\\u002F')}/`;
  const zodClass = '/^\\$?Zod/';
  const undiciSymbol = "[callee.object.name='Symbol'][callee.property.name='for']";
  const refused = {
    // Any string: an import, an export, `import()`, `require`, a declaration's `import('…')` type,
    // or a specifier handed to a loader (`load('undici/lib/…')`).
    [`Literal[value=${deepPath}], TemplateLiteral > TemplateElement:first-child[value.raw=${deepPath}]`]:
      "A dependency's file path, not its public API: use what its package.json 'exports' offers.",
    [`CallExpression${undiciSymbol}[arguments.0.value=/^undici\\./], CallExpression${undiciSymbol} > TemplateLiteral.arguments > TemplateElement:first-child[value.raw=/^undici\\./]`]:
      "undici's private symbols are not its API and change between releases: use undici's exports.",
    [`MemberExpression[object.object.name='Function'][object.property.name='prototype'][property.name='toString'], MemberExpression[property.name='call'][object.property.name='toString']:not([object.object.property.name='prototype'][object.object.object.name=/^(Object|Function)$/])`]:
      "A function's source is no API: what it reads changes with the runtime's version.",
    "CallExpression[callee.object.name='Object'][callee.property.name='getOwnPropertySymbols']":
      "Another object's symbol-keyed fields are its private state: use what its API offers.",
    "MemberExpression[property.name='_zod'], TSQualifiedName[right.name='_zod']":
      "zod's _zod is internal: use zod/mini's functions and a schema's def.",
    [`MemberExpression[property.name='init'][object.property.name=${zodClass}], MemberExpression[property.name='init'][object.name=${zodClass}], TSQualifiedName[right.name='init'][left.right.name=${zodClass}], TSQualifiedName[right.name='init'][left.name=${zodClass}], Identifier[name='$ZodObjectJIT']`]:
      "A zod class's init and its compiled object parser are internal: build schemas with zod/mini's functions.",
  };
  return {
    'no-restricted-syntax': ['error', ...Object.entries(refused).map(([selector, message]) => ({ selector, message }))],
  };
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
