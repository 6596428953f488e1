/**
 * What ships to merchants' production installs: exactly the contract's
 * runtime dependencies (ky and zod), locked so that `npm ci` installs the bytes reviewed.
 * Every check reads package.json and package-lock.json only, so each can fail
 * offline: CI reaches nothing but the npm registry, and a test must not pass
 * or fail with a service's availability. (Known vulnerabilities need the
 * registry's advisory service: that is `npm audit --omit=dev`'s job, run by
 * hand or by a scheduled job, not by this suite.)
 *
 * - The production closure is `ky` and `zod` alone: no transitive packages,
 *   no install scripts, none marked dev.
 * - Each is locked at an exact version package.json's range allows, with a
 *   sha512 integrity hash `npm ci` verifies the tarball against.
 * - Each runs on every Node.js version package.json's `engines` promises.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface LockPackage {
  version?: string;
  integrity?: string;
  resolved?: string;
  engines?: Record<string, string>;
  dev?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as { packages: Record<string, LockPackage> };

/** Every package a production install brings, following dependencies from the root. */
function productionClosure(): Map<string, LockPackage> {
  const found = new Map<string, LockPackage>();
  const pending = Object.keys(manifest.dependencies);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (found.has(name)) continue;
    const entry = lock.packages[`node_modules/${name}`];
    expect(entry, `${name} is missing from package-lock.json`).toBeDefined();
    found.set(name, entry!);
    pending.push(...Object.keys(entry!.dependencies ?? {}));
  }
  return found;
}

describe('the production dependency closure', () => {
  it('is ky and zod alone: no transitive package, none marked dev, no install script', () => {
    const closure = productionClosure();
    expect([...closure.keys()].sort()).toEqual(['ky', 'zod']);
    for (const [name, entry] of closure) {
      expect(entry.dev, name).toBeUndefined();
      expect(entry.hasInstallScript, name).toBeUndefined();
      expect(Object.keys(entry.dependencies ?? {}), name).toEqual([]);
    }
  });

  it('is what package.json asks for, in the lock file npm ci installs from', () => {
    expect(lock.packages['']?.dependencies).toEqual(manifest.dependencies);
  });

  it('is locked at versions package.json allows (the caret ranges it takes, each from a 1.0.0 or later)', () => {
    for (const [name, entry] of productionClosure()) {
      const range = manifest.dependencies[name]!;
      // A caret on a 0.x version would pin its minor: every runtime dependency is past 1.0.0.
      const match = /^\^([1-9]\d*)\.(\d+)\.(\d+)$/.exec(range);
      expect(match, `${name}: ${range} is not a ^ range from a 1.0.0 or later`).not.toBeNull();
      const [major, minor, patch] = entry.version!.split('.').map(Number) as [number, number, number];
      const [floorMajor, floorMinor, floorPatch] = match!.slice(1).map(Number) as [number, number, number];
      expect(major, name).toBe(floorMajor);
      expect(
        minor > floorMinor || (minor === floorMinor && patch >= floorPatch),
        `${name}: ${entry.version} in ${range}`,
      ).toBe(true);
    }
  });

  it('is pinned to exact versions with a sha512 integrity hash npm ci checks the tarball against', () => {
    for (const [name, entry] of productionClosure()) {
      expect(entry.version, name).toMatch(/^\d+\.\d+\.\d+$/);
      // sha512 of a tarball: 64 bytes, 88 characters of base64.
      expect(entry.integrity, name).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
      if (entry.resolved !== undefined) expect(entry.resolved, name).toMatch(/^https:\/\//);
    }
  });

  it('runs on the oldest Node.js package.json promises (its engines floor)', () => {
    const floor = /^>=(\d+)$/.exec(manifest.engines.node);
    expect(floor, `engines.node ${manifest.engines.node} is not a >= floor`).not.toBeNull();
    for (const [name, entry] of productionClosure()) {
      const required = entry.engines?.node;
      if (required === undefined) continue;
      // Only plain floors are understood; anything else must be looked at by hand.
      const needed = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(required);
      expect(needed, `${name} engines.node ${required}`).not.toBeNull();
      expect(Number(needed![1]), name).toBeLessThanOrEqual(Number(floor![1]));
    }
  });
});
