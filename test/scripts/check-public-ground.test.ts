// The rules of scripts/check-public-ground.ts on sample texts, so the check is
// tested apart from whatever dist/ holds today.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DependencyExports,
  installedExports,
  isExported,
  scanDirectory,
  scanText,
} from '../../scripts/check-public-ground.js';

/** The three dependencies' `exports` as they ship them today: zod's subpaths, ky's one entry, none for undici. */
const dependencies: DependencyExports = {
  zod: {
    './package.json': './package.json',
    '.': { import: './index.js', require: './index.cjs' },
    './mini': { import: './mini/index.js' },
    './v4/core': { import: './v4/core/index.js' },
    './v4/locales/*': { import: './v4/locales/*' },
    './v4/locales/internal/*': null,
  },
  ky: { types: './distribution/index.d.ts', default: './distribution/index.js' },
  undici: undefined,
};

const rules = (text: string) => scanText(text, dependencies).map(({ rule }) => rule);

describe('scanText', () => {
  it.each([
    ["import { Agent } from 'undici/lib/dispatcher/agent.js';", 'undici/lib/dispatcher/agent.js'],
    ["const request = require('undici/lib/api/api-request.js');", 'undici/lib/api/api-request.js'],
    ['load("undici/lib/dispatcher/agent.js"),', 'undici/lib/dispatcher/agent.js'],
    ["const { Agent } = await import('undici/index.js');", 'undici/index.js'],
    ["import ky from 'ky/distribution/index.js';", 'ky/distribution/index.js'],
    ["import type { HTTPError } from 'ky/distribution/errors/HTTPError';", 'ky/distribution/errors/HTTPError'],
    ["import * as core from 'zod/v4/core/schemas.js';", 'zod/v4/core/schemas.js'],
    ["import * as z from 'zod/v4/classic/external';", 'zod/v4/classic/external'],
    ["export * from 'zod/v4/locales/internal/x.js';", 'zod/v4/locales/internal/x.js'],
  ])('catches a subpath the dependency does not export: %s', (text, path) => {
    expect(rules(text)).toEqual([expect.stringContaining(`${path}: a subpath`)]);
  });

  it.each([
    ["var GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');", 'Symbol.for'],
    ['globalThis[Symbol.for("undici.globalDispatcher.1")]', 'Symbol.for'],
    ['return Function.prototype.toString.call(candidate).includes("undici");', 'Function.prototype.toString'],
    ['const source = Function.prototype.toString;', 'Function.prototype.toString'],
    ['fetch.toString.call(globalThis.fetch)', '.toString.call'],
    ['Object.getOwnPropertySymbols(dispatcher).find((key) => key.description === "options")', 'getOwnPropertySymbols'],
    ['const shape = schema._zod.def.shape;', '_zod'],
    ['core.$ZodObjectJIT.call(inst, def)', '$ZodObjectJIT'],
    ['z.ZodMiniType.init(inst, def);', '.init'],
    ['core.$ZodObject.init(inst, def);', '.init'],
  ])('catches a private symbol, field or source read: %s', (text, named) => {
    const found = rules(text);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(named);
  });

  it('names the line of each breach in a file', () => {
    const text = [
      'import * as z from "zod/mini";',
      '',
      'var s = Symbol.for("undici.x");',
      "load('undici/lib/a.js');",
    ].join('\n');
    expect(scanText(text, dependencies).map(({ line, text }) => ({ line, text }))).toEqual([
      { line: 3, text: 'var s = Symbol.for("undici.x");' },
      { line: 4, text: "load('undici/lib/a.js');" },
    ]);
  });

  it('passes public imports, exported subpaths and look-alikes', () => {
    const clean = [
      "import ky from 'ky';",
      'var z = require("zod/mini");',
      "import 'zod/v4/core';",
      "import type { $ZodIssue, ParsePayload } from 'zod/v4/core';",
      "import en from 'zod/v4/locales/en.js';",
      "const { Agent, request } = await import('undici');",
      "var pkg = require('zod/package.json');",
      'const tag = Object.prototype.toString.call(value);',
      "const key = Symbol.for('lunas.readBody');",
      'const text = bytes.toString("utf8");',
      'const schema = z.looseObject({ id: z.string() });',
      'class Sandbox { init() {} }',
      "const message = 'the kyber/zodiac/undicimal string';",
      "import x from 'kyber/lib/x.js';",
    ].join('\n');
    expect(scanText(clean, dependencies)).toEqual([]);
  });
});

describe('isExported', () => {
  it('follows Node: exact keys, one-star patterns, null targets, top-level conditions for `.` only', () => {
    expect(isExported(dependencies.zod, '.')).toBe(true);
    expect(isExported(dependencies.zod, './mini')).toBe(true);
    expect(isExported(dependencies.zod, './v4/core')).toBe(true);
    expect(isExported(dependencies.zod, './v4/core/index.js')).toBe(false);
    expect(isExported(dependencies.zod, './v4/locales/en.js')).toBe(true);
    expect(isExported(dependencies.zod, './v4/locales/internal/x.js')).toBe(false);
    expect(isExported(dependencies.ky, '.')).toBe(true);
    expect(isExported(dependencies.ky, './distribution/index.js')).toBe(false);
    expect(isExported(undefined, './lib/dispatcher/agent.js')).toBe(false);
    expect(isExported('./index.js', './index.js')).toBe(false);
  });
});

describe('scanDirectory and installedExports', () => {
  it('reads every built file (js, cjs, d.ts, d.cts) and leaves maps and clean files out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lunas-public-ground-'));
    try {
      mkdirSync(join(dir, 'testing'));
      writeFileSync(join(dir, 'index.js'), "import * as z from 'zod/mini';\n");
      writeFileSync(join(dir, 'index.cjs'), "require('ky/distribution/index.js');\n");
      writeFileSync(join(dir, 'index.d.ts'), "export type X = import('zod/v4/core/schemas.js').$ZodType;\n");
      writeFileSync(join(dir, 'testing', 'index.d.cts'), 'declare const a: typeof z.ZodMiniType.init;\n');
      writeFileSync(join(dir, 'index.js.map'), '{"sourcesContent":["Symbol.for(\'undici.x\')"]}');
      expect(scanDirectory(dir, dependencies).map(({ file, breaches }) => [file, breaches.length])).toEqual([
        ['index.cjs', 1],
        ['index.d.ts', 1],
        [join('testing', 'index.d.cts'), 1],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the installed dependencies' exports: zod's subpaths, ky's entry, none for undici", () => {
    const installed = installedExports(process.cwd());
    expect(Object.keys(installed)).toEqual(expect.arrayContaining(['ky', 'undici', 'zod']));
    expect(isExported(installed.zod, './mini')).toBe(true);
    expect(isExported(installed.zod, './v4/core')).toBe(true);
    expect(isExported(installed.ky, './distribution/index.js')).toBe(false);
    expect(installed.undici).toBeUndefined();
  });
});
