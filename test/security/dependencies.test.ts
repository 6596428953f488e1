/**
 * What ships to merchants' production installs: exactly the contract's two
 * runtime dependencies, and no known vulnerability in them.
 *
 * - Offline, from package-lock.json: the production closure is `ky` and
 *   `zod` alone (no transitive packages, no install scripts), at the versions
 *   package.json allows.
 * - `npm audit --omit=dev`: no vulnerability of any severity. The audit needs
 *   the registry's advisory service; where that service does not answer (a
 *   mirror without it, no network), the test says so on stderr and checks only
 *   that the failure was the service's, so the offline checks above still
 *   guard the closure.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { dependencies: Record<string, string> };
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

  it('is locked at versions package.json allows (the patch ranges it pins)', () => {
    for (const [name, entry] of productionClosure()) {
      const range = manifest.dependencies[name]!;
      const match = /^~(\d+)\.(\d+)\.(\d+)$/.exec(range);
      expect(match, `${name}: ${range} is not a ~ range`).not.toBeNull();
      const [major, minor, patch] = entry.version!.split('.').map(Number) as [number, number, number];
      expect([major, minor], name).toEqual([Number(match![1]), Number(match![2])]);
      expect(patch, name).toBeGreaterThanOrEqual(Number(match![3]));
    }
  });
});

describe('npm audit --omit=dev', () => {
  it('reports no vulnerability, when the registry’s advisory service answers', async () => {
    const output = await new Promise<string>((resolve) => {
      execFile(
        'npm',
        ['audit', '--omit=dev', '--json'],
        { cwd: ROOT, timeout: 30_000, env: { ...process.env, npm_config_update_notifier: 'false' } },
        (_error, stdout) => resolve(stdout),
      );
    });
    let report: {
      metadata?: { vulnerabilities?: Record<string, number> };
      vulnerabilities?: object;
      error?: unknown;
      statusCode?: number;
      code?: string;
      message?: string;
    };
    try {
      report = JSON.parse(output) as typeof report;
    } catch {
      report = { message: `npm audit printed no JSON: ${output.slice(0, 200)}` };
    }
    if (report.metadata?.vulnerabilities) {
      expect(report.vulnerabilities, 'npm audit --omit=dev found vulnerabilities').toEqual({});
      expect(report.metadata.vulnerabilities.total).toBe(0);
      return;
    }
    // No report: the advisory service did not answer. Say so, and make sure that is all it was.
    process.stderr.write(
      `npm audit --omit=dev could not run: ${report.message ?? JSON.stringify(report).slice(0, 200)}\n`,
    );
    expect(report.vulnerabilities).toBeUndefined();
    expect(
      report.statusCode !== undefined ||
        report.code !== undefined ||
        report.error !== undefined ||
        report.message !== undefined,
    ).toBe(true);
  });
});
