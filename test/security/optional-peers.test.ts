/**
 * The optional entry points cost nothing to merchants who do not use them:
 * `@opentelemetry/api` is an optional peer dependency (never installed by
 * `npm install lunas-sdk`), and no module `lunas-sdk` or `lunas-sdk/testing`
 * loads reaches it, however indirectly: only `lunas-sdk/otel` imports it.
 * Read from package.json and the source's import graph (dependency-cruiser's,
 * as .dependency-cruiser.js reads it: type-only imports included), so it
 * fails without a build.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/**
 * Every package the modules reachable from `entry` (relative to src/) import,
 * by name, with the first module found importing it.
 */
async function packagesReachedFrom(entry: string): Promise<Map<string, string>> {
  const { output } = await cruise(
    [`src/${entry}`],
    {
      baseDir: ROOT,
      doNotFollow: { path: 'node_modules' },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
    },
    { extensions: ['.ts', '.js', '.json'] },
    { tsConfig: extractTSConfig(`${ROOT}tsconfig.json`) },
  );
  const reached = new Map<string, string>();
  for (const module of (output as ICruiseResult).modules) {
    for (const dependency of module.dependencies) {
      if (dependency.dependencyTypes.some((type) => type.startsWith('npm') || type === 'core')) {
        if (!reached.has(dependency.module)) reached.set(dependency.module, module.source.replace(/^src\//, ''));
      }
    }
  }
  return reached;
}

describe('@opentelemetry/api', () => {
  it('is an optional peer dependency from its lowest working 1.x, and no dependency', () => {
    expect(manifest.peerDependencies?.['@opentelemetry/api']).toMatch(/^\^1\.\d+\.\d+$/);
    expect(manifest.peerDependenciesMeta?.['@opentelemetry/api']).toEqual({ optional: true });
    expect(Object.keys(manifest.dependencies)).not.toContain('@opentelemetry/api');
  });

  it.each(['index.ts', 'testing/index.ts'])('is reached by nothing %s loads', async (entry) => {
    const reached = await packagesReachedFrom(entry);
    expect(reached.size).toBeGreaterThan(0);
    for (const [name, by] of reached) expect(name, `imported by ${by}`).not.toMatch(/^@opentelemetry\//);
  });

  it('is imported by lunas-sdk/otel, the entry that uses it', async () => {
    expect((await packagesReachedFrom('otel/index.ts')).get('@opentelemetry/api')).toBe('otel/index.ts');
  });
});
