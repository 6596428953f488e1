/**
 * The optional entry points cost nothing to merchants who do not use them:
 * `@opentelemetry/api` is an optional peer dependency (never installed by
 * `npm install lunas-sdk`), and no module `lunas-sdk` or `lunas-sdk/testing`
 * loads reaches it, however indirectly: only `lunas-sdk/otel` imports it.
 * Read from package.json and the source's import graph (the one
 * scripts/check-layers.ts reads), so it fails without a build.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, readSources, specifiersOf } from '../../scripts/check-layers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** Every package (not a relative file) the modules reachable from `entry` import, with who imports it. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const sources = readSources(`${ROOT}src`);
  const graph = importGraph(sources);
  const reached = new Map<string, string>();
  const pending = [entry];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(file, sources.get(file)!)) {
      if (!specifier.startsWith('.')) reached.set(specifier, file);
    }
    pending.push(...(graph.get(file) ?? []));
  }
  return reached;
}

describe('@opentelemetry/api', () => {
  it('is an optional peer dependency from its lowest working 1.x, and no dependency', () => {
    expect(manifest.peerDependencies?.['@opentelemetry/api']).toMatch(/^\^1\.\d+\.\d+$/);
    expect(manifest.peerDependenciesMeta?.['@opentelemetry/api']).toEqual({ optional: true });
    expect(Object.keys(manifest.dependencies)).not.toContain('@opentelemetry/api');
  });

  it.each(['index.ts', 'testing/index.ts'])('is reached by nothing %s loads', (entry) => {
    const reached = packagesReachedFrom(entry);
    expect(reached.size).toBeGreaterThan(0);
    for (const [name, by] of reached) expect(name, `imported by ${by}`).not.toMatch(/^@opentelemetry\//);
  });

  it('is imported by lunas-sdk/otel, the entry that uses it', () => {
    expect(packagesReachedFrom('otel/index.ts').get('@opentelemetry/api')).toBe('otel/index.ts');
  });
});
