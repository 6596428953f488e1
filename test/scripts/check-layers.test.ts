// scripts/check-layers.ts: an import circle is named, type-only and re-export
// edges count, a floored module imports nothing from a higher floor, and
// src/ itself keeps both rules.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BOUNDARIES,
  boundaryProblems,
  checkLayers,
  checkSource,
  importGraph,
  type LayerRules,
  specifiersOf,
} from '../../scripts/check-layers.js';

const sources = (files: Record<string, string>) => new Map(Object.entries(files));

/** core/a.ts on the bottom floor, core/b.ts above it, core/c.ts on top; no exception. */
const rules: LayerRules = { floored: 'core', floors: [['a'], ['b'], ['c']], allowed: [] };

describe('specifiersOf', () => {
  it('reads every form of import: type-only, export from, namespace, require, import() and import types', () => {
    const text = [
      "import { x } from './x.js';",
      "import type { T } from './t.js';",
      "import type * as N from './n.js';",
      "export { y } from './y.js';",
      "export type { U } from './u.js';",
      "export * from './all.js';",
      "import r = require('./r.js');",
      "const lazy = () => import('./lazy.js');",
      "type Q = typeof import('./q.js');",
      "import 'side-effect';",
    ].join('\n');
    expect(specifiersOf('a.ts', text)).toEqual([
      './x.js',
      './t.js',
      './n.js',
      './y.js',
      './u.js',
      './all.js',
      './r.js',
      './lazy.js',
      './q.js',
      'side-effect',
    ]);
  });
});

describe('checkLayers', () => {
  it('passes a graph with no circle whose modules import only from their floor or lower', () => {
    const graph = importGraph(
      sources({
        'core/a.ts': "import 'ky';\nexport const a = 1;",
        'core/b.ts': "import { a } from './a.js';\nexport const b = a;",
        'core/c.ts': "import type { b } from './b.js';\nexport { a } from './a.js';",
        'index.ts': "export * from './core/c.js';",
      }),
    );
    expect(graph.get('core/c.ts')).toEqual(['core/a.ts', 'core/b.ts']);
    expect(checkLayers(graph, rules)).toEqual([]);
  });

  it('names a circle made of type-only imports and re-exports, outside the floored folder too', () => {
    const graph = importGraph(
      sources({
        'client.ts': "import type { R } from './resources/index.js';\nexport type C = R;",
        'resources/index.ts': "export type { C as R } from '../client.js';",
      }),
    );
    expect(checkLayers(graph, { ...rules, floors: [] })).toEqual([
      'import circle: client.ts → resources/index.ts → client.ts',
    ]);
  });

  it('names the shortest circle through a group of files, and the rest of the group', () => {
    const graph = importGraph(
      sources({
        'core/a.ts': "import './b.js';",
        'core/b.ts': "import './c.js';\nimport './a.js';",
        'core/c.ts': "import './b.js';",
      }),
    );
    expect(checkLayers(graph, { ...rules, floors: [['a', 'b', 'c']] })).toEqual([
      'import circle: core/a.ts → core/b.ts → core/a.ts (the files importing each other with them: core/c.ts)',
    ]);
  });

  it('refuses an import from a higher floor, even a type-only one', () => {
    const graph = importGraph(
      sources({
        'core/a.ts': "import type { C } from './c.js';",
        'core/b.ts': '',
        'core/c.ts': 'export type C = 1;',
      }),
    );
    expect(checkLayers(graph, rules)).toEqual([
      'core/a.ts (floor 1: a) imports core/c.ts, from a higher floor (floor 3: c)',
    ]);
  });

  it('refuses a floored module on no floor, and a floor naming no module', () => {
    const graph = importGraph(sources({ 'core/a.ts': '', 'core/b.ts': '', 'core/new.ts': '', 'core/deep/d.ts': '' }));
    expect(checkLayers(graph, rules)).toEqual([
      'core/new.ts is on no floor: add it to CORE_FLOORS in scripts/check-layers.ts',
      'CORE_FLOORS names core/c.ts, which does not exist',
    ]);
  });

  it('leaves an allowed import out of the graph, and fails once it is gone', () => {
    const allowed = [{ from: 'core/a.ts', to: 'core/b.ts', why: 'being rewritten' }];
    const upward = importGraph(sources({ 'core/a.ts': "import './b.js';", 'core/b.ts': '', 'core/c.ts': '' }));
    expect(checkLayers(upward, { ...rules, allowed })).toEqual([]);
    const fixed = importGraph(sources({ 'core/a.ts': '', 'core/b.ts': '', 'core/c.ts': '' }));
    expect(checkLayers(fixed, { ...rules, allowed })).toEqual([
      'core/a.ts no longer imports core/b.ts: take its entry out of ALLOWED_FOR_NOW in scripts/check-layers.ts',
    ]);
  });
});

describe('boundaryProblems', () => {
  it('refuses a sandbox import of an SDK module, and any import at all from src/shared', () => {
    const problems = boundaryProblems(
      sources({
        'testing/service/money.ts':
          "import { normalizeMoney } from '../../shared/money.js';\nimport { x } from '../../core/schemas.js';",
        'testing/index.ts': "import { VERSION } from '../version.js';\nimport { http } from 'node:http';",
        'shared/money.ts':
          "import { z } from 'zod/mini';\nimport { y } from '../core/errors.js';\nimport { n } from './names.js';",
        'core/schemas.ts':
          "import { normalizeMoney } from '../shared/money.js';\nimport { y } from '../testing/index.js';",
      }),
      BOUNDARIES,
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^testing\/service\/money\.ts imports core\/schemas\.ts: the sandbox never imports the SDK/,
      ),
      expect.stringMatching(/^shared\/money\.ts imports zod\/mini: /),
      expect.stringMatching(/^shared\/money\.ts imports core\/errors\.ts: /),
    ]);
  });
});

describe('src/', () => {
  it('has no import circle, and src/core imports from no higher floor', () => {
    expect(checkSource(fileURLToPath(new URL('../../src/', import.meta.url)))).toEqual([]);
  });
});
