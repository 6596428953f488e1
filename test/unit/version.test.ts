import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/index.js';

// `npm run version-packages` (changesets, then scripts/sync-version.ts) writes the new
// version into all three places; a hand edit of one of them fails here.
describe('VERSION', () => {
  const read = (name: string): { version: string; packages: Record<string, { version: string }> } =>
    JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8'));

  it('is the version in package.json', () => {
    expect(VERSION).toBe(read('package.json').version);
  });

  it('is the version package-lock.json records for the package itself', () => {
    const lock = read('package-lock.json');
    expect([lock.version, lock.packages['']?.version]).toEqual([VERSION, VERSION]);
  });
});
