// Measurement 7, also used by scripts/check-size.ts: what `import { Client }
// from 'lunas'` adds to a merchant's bundle, minified and gzipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const GZIP_BUDGET_BYTES = 16_384;
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

export async function bundleClient(root = repoRoot): Promise<BundleSize> {
  const entry = join(root, 'dist/index.js');
  const result = await build({
    // A re-export rather than a bare import: an unused import would be
    // tree-shaken away, a merchant's code uses Client.
    stdin: { contents: `export { Client } from ${JSON.stringify(entry)};`, resolveDir: root, loader: 'js' },
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
