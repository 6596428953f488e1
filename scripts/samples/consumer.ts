// A merchant's project with the packed package installed: `npm pack` of this
// repository (as `npm publish` would upload it) installed into a fresh
// directory, as scripts/check-consumer-types.sh does. The install needs no
// network when npm's cache holds the package's dependencies (`npm ci` put
// them there). Needs a build first: packing does not rebuild.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The consumer project: its temporary directory (the caller removes it) and where sources go. */
export interface Consumer {
  directory: string;
  sources: string;
  /** Its node_modules, where the tarball is installed. */
  modules: string;
}

/** Packs `root` and installs the tarball into a new project whose files are ES modules. */
export function installedConsumer(root: string): Consumer {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run npm run build first');
  const directory = mkdtempSync(join(tmpdir(), 'lunas-samples-'));
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', directory], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const tarball = join(directory, packed.trim().split('\n').at(-1)!);
  const project = join(directory, 'consumer');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'lunas-samples-consumer', private: true, type: 'module' }),
  );
  try {
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', '--ignore-scripts', tarball],
      { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install of ${tarball} failed:\n${stdout}${stderr}`);
  }
  const sources = join(project, 'samples');
  mkdirSync(sources);
  return { directory, sources, modules: join(project, 'node_modules') };
}
