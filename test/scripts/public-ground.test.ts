// Public ground's ESLint rules (eslint.config.js's publicGround) on sample texts, as they hold
// src/ (npm run lint) and the built files in dist/ (npm run check:ground, eslint.dist.config.js),
// so the rules are tested apart from whatever the source and the build hold today.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const linters = {
  src: new ESLint({ cwd: root }),
  dist: new ESLint({ cwd: root, overrideConfigFile: 'eslint.dist.config.js' }),
};

/** The public-ground messages for `text` as the file `filePath`, with their lines. */
async function breaches(filePath: string, text: string): Promise<{ line: number; message: string }[]> {
  const linter = filePath.startsWith('dist/') ? linters.dist : linters.src;
  const [result] = await linter.lintText(text, { filePath });
  return result!.messages
    .filter(({ ruleId }) => ruleId === 'no-restricted-syntax' || ruleId === null)
    .map(({ line, message }) => ({ line, message }));
}

const built = ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/testing/index.d.cts'];
const everywhere = ['src/core/wire/send.ts', ...built];

describe("a file of a dependency, not what its package.json's exports offer", () => {
  it.each([
    "import { Agent } from 'undici/lib/dispatcher/agent.js';",
    "const request = require('undici/lib/api/api-request.js');",
    'load("undici/lib/dispatcher/agent.js");',
    'load(`undici/lib/${"agent"}.js`);',
    "const { Agent } = await import('undici/index.js');",
    "import ky from 'ky/distribution/index.js';",
    "import * as core from 'zod/v4/core/schemas.js';",
    "import * as z from 'zod/v4/classic/external';",
    "export * from 'zod/v4/locales/internal/x.js';",
    "import { trace } from '@opentelemetry/api/build/src/index.js';",
    "import { McpServer } from '@modelcontextprotocol/server/_shims';",
  ])('is refused in src/ and dist/: %s', async (text) => {
    for (const file of ['src/core/wire/send.ts', 'dist/index.js']) {
      expect(await breaches(file, text), file).toEqual([
        { line: 1, message: expect.stringContaining("A dependency's file path") },
      ]);
    }
  });

  it.each([
    "import type { HTTPError } from 'ky/distribution/errors/HTTPError';",
    "export type X = import('zod/v4/core/schemas.js').$ZodType;",
  ])('is refused in the source and in a declaration file: %s', async (text) => {
    for (const file of ['src/core/wire/send.ts', 'dist/index.d.ts', 'dist/testing/index.d.cts']) {
      expect(await breaches(file, text), file).toHaveLength(1);
    }
  });
});

describe('a private symbol, field or source read', () => {
  it.each([
    ["var GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');", "undici's private symbols"],
    ['globalThis[Symbol.for(`undici.globalDispatcher.${1}`)];', "undici's private symbols"],
    ['Function.prototype.toString.call(candidate).includes("undici");', "A function's source"],
    ['const source = Function.prototype.toString;', "A function's source"],
    ['fetch.toString.call(globalThis.fetch);', "A function's source"],
    ['Object.getOwnPropertySymbols(dispatcher).find((key) => key.description === "options");', 'symbol-keyed'],
    ['const shape = schema._zod.def.shape;', "zod's _zod"],
    ['core.$ZodObjectJIT.call(inst, def);', 'compiled object parser'],
    ['z.ZodMiniType.init(inst, def);', "zod class's init"],
    ['core.$ZodObject.init(inst, def);', "zod class's init"],
  ])('is refused in the source and every built kind: %s', async (text, named) => {
    for (const file of everywhere) {
      expect(await breaches(file, text), file).toEqual([{ line: 1, message: expect.stringContaining(named) }]);
    }
  });

  it('is refused in a declaration type', async () => {
    const text = 'declare const a: typeof z.ZodMiniType.init;\ndeclare const b: typeof schema._zod;\n';
    expect((await breaches('dist/testing/index.d.cts', text)).map(({ line }) => line)).toEqual([1, 2]);
  });
});

describe('what stays allowed', () => {
  const clean = [
    "import ky from 'ky';",
    'var z = require("zod/mini");',
    "import 'zod/v4/core';",
    "import type { $ZodIssue, ParsePayload } from 'zod/v4/core';",
    "import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';",
    "const { Agent, request } = await import('undici');",
    'const tag = Object.prototype.toString.call(value);',
    "const key = Symbol.for('lunas.readBody');",
    'const text = bytes.toString("utf8");',
    'const schema = z.looseObject({ id: z.string() });',
    'class Sandbox { init() {} }',
    "const message = 'the kyber/zodiac/undicimal string';",
    "import x from 'kyber/lib/x.js';",
  ].join('\n');

  it.each(everywhere)('passes public imports, exported subpaths and look-alikes in %s', async (file) => {
    expect(await breaches(file, clean)).toEqual([]);
  });

  it("lets through only subpaths their packages' exports offer, by Node's own resolution", () => {
    const resolve = (specifier: string) =>
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `import.meta.resolve(${JSON.stringify(specifier)})`],
        {
          cwd: root,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    for (const offered of ['zod/mini', 'zod/v4/core', '@modelcontextprotocol/server/stdio']) {
      expect(() => resolve(offered), offered).not.toThrow();
    }
    expect(() => resolve('zod/v4/core/schemas.js')).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
});
