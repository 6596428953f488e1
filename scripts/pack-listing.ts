// What `npm pack` would ship, as `npm pack --dry-run --json` lists it (read from the
// working tree it packs). Shared by the pack-contents and the shipped-links checks.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackListing {
  filename: string;
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

/** The repository root, which `npm pack` packs. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** Lists the tarball `npm pack` would write, without writing it or running scripts. */
export function packListing(): PackListing {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [listing] = JSON.parse(output) as [PackListing];
  return listing;
}
