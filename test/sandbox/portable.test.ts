/**
 * `lunas-sdk/testing` must import on runtimes without Node.js (workerd, a
 * browser) for createSandbox: the modules it loads when imported may use no
 * `node:` module and no `Buffer`. Only startSandbox's transport (transport/server.ts,
 * imported when it is called) and the command (cli/) may. The runtime
 * matrix proves it on the built package; this finds the culprit in seconds.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const TESTING = new URL('../../src/testing/', import.meta.url);

/**
 * The relative modules `file` imports for their values (type-only imports are
 * erased), as paths relative to src/testing/ (`transport/gateway.ts`); the
 * shared module (`../shared/`) as `../shared/…`.
 */
function valueImports(file: string): string[] {
  const source = readFileSync(new URL(file, TESTING), 'utf8');
  const statements = source.match(/^(?:import|export)(?! type)[^;]*? from '\.{1,2}\/[^']+';/gms) ?? [];
  return statements.map((statement) => {
    const specifier = /from '(\.{1,2}\/[^']+)\.js'/.exec(statement)![1]!;
    return `${posix.normalize(posix.join(posix.dirname(file), specifier))}.ts`;
  });
}

/** Every module loaded when `entry` is imported. */
function loadedBy(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    valueImports(file).forEach(visit);
  };
  visit(entry);
  return [...seen].sort();
}

describe('lunas-sdk/testing on runtimes without Node.js', () => {
  it('loads no node: module and no Buffer when imported; server.ts only when startSandbox runs', () => {
    const loaded = loadedBy('index.ts');
    expect(loaded).toEqual(
      expect.arrayContaining(['assemble.ts', 'transport/gateway.ts', 'transport/in-process.ts', 'service/routes.ts']),
    );
    expect(loaded).not.toContain('transport/server.ts');
    for (const file of loaded) {
      const source = readFileSync(new URL(file, TESTING), 'utf8');
      expect(source, file).not.toMatch(/['"]node:|\bBuffer\b/);
    }
    expect(readFileSync(new URL('index.ts', TESTING), 'utf8')).toContain("await import('./transport/server.js')");
  });
});
