/**
 * test/unit/ mirrors src/: a module's unit tests are in the file named for it
 * (src/core/call/attempt.ts → test/unit/core/call/attempt.test.ts). Every
 * src/core module has its file, but those allowed below, each with why; and
 * every other file here names a module that exists, so a renamed or removed
 * module takes its tests' name with it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The src/core modules without a unit test file of their own, and why. Keep it short. */
const WITHOUT_UNIT_FILE: Record<string, string> = {
  'core/types.ts': 'declarations only, nothing runs: index.test.ts compiles against the shapes it declares',
};

/** Paths under `dir` (relative to it, `/`-separated) of the files whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(`${ROOT}${dir}`, { recursive: true, encoding: 'utf8' })
    .map((path) => path.replaceAll('\\', '/'))
    .filter((path) => path.endsWith(suffix))
    .sort();
}

const coreModules = filesUnder('src/core', '.ts').map((path) => `core/${path}`);
const unitFiles = filesUnder('test/unit', '.test.ts').filter((path) => path !== 'mirror.test.ts');

describe('the unit tests mirror src/', () => {
  it('every src/core module has test/unit/<its path>.test.ts, but those allowed', () => {
    const missing = coreModules.filter(
      (module) =>
        !(module in WITHOUT_UNIT_FILE) && !existsSync(`${ROOT}test/unit/${module.replace(/\.ts$/, '.test.ts')}`),
    );
    expect(missing, 'src/core modules with no unit test file named for them').toEqual([]);
  });

  it('at least 80% of the src/core modules have their file', () => {
    const mirrored = coreModules.filter((module) => unitFiles.includes(module.replace(/\.ts$/, '.test.ts')));
    expect(coreModules.length).toBeGreaterThan(0);
    expect(mirrored.length / coreModules.length).toBeGreaterThanOrEqual(0.8);
  });

  it('every module allowed no file is still a src/core module, and still has none', () => {
    for (const module of Object.keys(WITHOUT_UNIT_FILE)) {
      expect(coreModules, `${module} is allowed no unit file but is not in src/`).toContain(module);
      expect(unitFiles, `${module} is allowed no unit file but has one: drop it from the list`).not.toContain(
        module.replace(/\.ts$/, '.test.ts'),
      );
    }
  });

  it('every file in test/unit/ is named for a module in src/', () => {
    const orphans = unitFiles.filter((path) => !existsSync(`${ROOT}src/${path.replace(/\.test\.ts$/, '.ts')}`));
    expect(orphans, 'unit test files named for no src/ module').toEqual([]);
  });
});
