/**
 * Error names survive a merchant's minifier: the SDK (and the sandbox) are
 * bundled with esbuild --minify, as a merchant's build would, and every
 * exported error class is constructed from that bundle in a separate Node
 * process. Logs and `error.name` checks must still read `NotFoundError`,
 * not the one-letter name the minifier gave the class.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'lunas-minified-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function minify(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile: join(workDir, outfile),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
}

/** Builds every exported error class of the bundles and reports its names. */
const RUNNER = `
import * as sdk from './sdk.mjs';
import * as testing from './testing.mjs';
const headers = new Headers();
const apiInit = { status: 400, message: 'm', body: null, headers, fields: {} };
const argumentsFor = {
  RequestValidationError: [{ amount: ['m'] }],
  ResponseValidationError: [{ summary: 'm', issues: [], body: '', status: 200, headers }],
  ResponseBodyError: [{ message: 'm', reason: 'too-large', status: 200, headers, limit: 1 }],
  EventValidationError: [[{ path: 'id', message: 'm' }]],
};
const report = [];
for (const [module, exports] of [['sdk', sdk], ['testing', testing]]) {
  for (const [exported, value] of Object.entries(exports)) {
    if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
    const args = argumentsFor[exported] ?? (value.prototype instanceof sdk.APIError || value === sdk.APIError ? [apiInit] : ['m']);
    const error = new value(...args);
    report.push({ exported, name: error.name, className: value.name, stackHead: error.stack.split('\\n')[0] });
  }
}
console.log(JSON.stringify(report));
`;

interface Named {
  exported: string;
  name: string;
  className: string;
  stackHead: string;
}

describe('error names in a minified bundle', () => {
  it('every exported error class reports its own name, in error.name and in the stack', async () => {
    await minify(source('index.ts'), 'sdk.mjs');
    await minify(source('testing/index.ts'), 'testing.mjs');
    writeFileSync(join(workDir, 'run.mjs'), RUNNER);
    const report = JSON.parse(
      execFileSync(process.execPath, [join(workDir, 'run.mjs')], { encoding: 'utf8' }),
    ) as Named[];

    const exported = report.map((entry) => entry.exported).sort();
    expect(exported).toEqual(
      [
        'APIConnectionError',
        'APIConnectionTimeoutError',
        'APIError',
        'APIUserAbortError',
        'AuthenticationError',
        'BadRequestError',
        'ConflictError',
        'EventValidationError',
        'InternalServerError',
        'LunasError',
        'NotFoundError',
        'PermissionDeniedError',
        'RateLimitError',
        'RequestValidationError',
        'ResponseBodyError',
        'ResponseValidationError',
        'SandboxError',
        'UnprocessableEntityError',
      ].sort(),
    );
    // The minifier did rename the classes: the names below cannot come from them.
    expect(report.filter((entry) => entry.className === entry.exported)).toEqual([]);
    for (const entry of report) {
      expect(entry.name, entry.exported).toBe(entry.exported);
      expect(entry.stackHead, entry.exported).toMatch(new RegExp(`^${entry.exported}: `));
    }
  });
});
