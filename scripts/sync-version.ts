// After `changeset version` has written the new version into package.json: carries it
// into src/version.ts (VERSION, sent in the User-Agent) and package-lock.json's two
// copies, which changesets does not touch. `npm run version-packages` runs both.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = (name: string): string => path.join(root, name);
const readJson = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file(name), 'utf8')) as Record<string, unknown>;

const { version } = readJson('package.json');
if (typeof version !== 'string') throw new Error('package.json has no version');

const versionModule = readFileSync(file('src/version.ts'), 'utf8');
const VERSION_LINE = /^export const VERSION = '[^']*';$/m;
if (!VERSION_LINE.test(versionModule)) throw new Error("src/version.ts has no `export const VERSION = '…';` line");
writeFileSync(file('src/version.ts'), versionModule.replace(VERSION_LINE, `export const VERSION = '${version}';`));

// npm writes the lock file with two-space indentation and a final newline.
const lock = readJson('package-lock.json') as { version?: string; packages?: Record<string, { version?: string }> };
lock.version = version;
const rootPackage = lock.packages?.[''];
if (rootPackage !== undefined) rootPackage.version = version;
writeFileSync(file('package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);

console.log(`version ${version}: src/version.ts and package-lock.json updated`);
