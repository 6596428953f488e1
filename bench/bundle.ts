// Measurement 7, bundled as `npm run size` (.size-limit.js) bundles it: what `import { Client }
// from 'lunas-sdk'` adds to a merchant's bundle, minified and gzipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The performance issue's budget for lunas's own gzip bytes: the bundle less ky and the zod parts it uses. */
export const OWN_BYTES_BUDGET = 6_000;
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run build` when dist/ is missing or older than src/, so a fresh clone works and a stale build never gets measured. */
export function ensureBuilt(root = repoRoot): void {
  const entry = join(root, 'dist/index.js');
  const srcDir = join(root, 'src');
  const newestSource = Math.max(
    ...readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).map((f) => statSync(join(srcDir, f)).mtimeMs),
  );
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestSource) return;
  console.error('bench: dist/ is missing or older than src/, running npm run build');
  // Build output goes to stderr: stdout carries the report.
  const built = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
}

export interface BundleSize {
  minifiedBytes: number;
  gzipBytes: number;
  /** Minified bytes each package contributes (gzip does not split by source): `lunas`, `ky`, `zod`. */
  minifiedByPackage: Record<string, number>;
  /** Node built-ins the bundle still imports (kept external); empty means fetch-only runtimes get everything. */
  nodeBuiltins: string[];
}

/** Bundles `contents` (an ES module re-exporting what is measured) as a merchant's bundler would. */
function bundle(contents: string, root: string) {
  return build({
    // Re-exports rather than bare imports: an unused import would be
    // tree-shaken away, a merchant's code uses what it imports.
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    // Neutral, not node: the SDK also targets Bun, Deno and edge runtimes.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: [...builtinModules, 'node:*'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

export async function bundleClient(root = repoRoot): Promise<BundleSize> {
  const entry = join(root, 'dist/index.js');
  const result = await bundle(`export { Client } from ${JSON.stringify(entry)};`, root);
  const code = result.outputFiles[0]!.contents;
  const nodeBuiltins = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) if (imported.external) nodeBuiltins.add(imported.path);
  }
  const minifiedByPackage: Record<string, number> = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'lunas';
      minifiedByPackage[name] = (minifiedByPackage[name] ?? 0) + bytesInOutput;
    }
  }
  return {
    minifiedBytes: code.byteLength,
    minifiedByPackage,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    nodeBuiltins: [...nodeBuiltins].sort(),
  };
}

/**
 * The gzip bytes of ky and of the zod functions lunas calls, bundled without
 * lunas: the part of the bundle figure that is the contract's two libraries.
 * The zod names are the values `src/` uses as `z.<name>` or `core.<name>`.
 */
export async function bundleLibraries(root = repoRoot): Promise<number> {
  const srcDir = join(root, 'src');
  const source = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(srcDir, file), 'utf8'))
    .join('\n');
  const used = (prefix: string, module: object) =>
    // A name followed by `<` is a type (`z.output<...>`), not a value.
    [...new Set([...source.matchAll(new RegExp(`\\b${prefix}\\.([\\w$]+)\\b(?!<)`, 'g'))].map((m) => m[1]!))]
      // Runtime exports only, and not the `core` namespace, which would pull in all of zod's core.
      .filter((name) => name in module && name !== 'core')
      .sort();
  const mini = used('z', await import('zod/mini'));
  const core = used('core', await import('zod/v4/core'));
  const contents = [
    "export { default as ky } from 'ky';",
    `export { ${mini.join(', ')} } from 'zod/mini';`,
    `export { ${core.join(', ')} } from 'zod/v4/core';`,
  ].join('\n');
  const result = await bundle(contents, root);
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).byteLength;
}
