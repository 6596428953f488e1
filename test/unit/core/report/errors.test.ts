/**
 * core/report/errors.ts: the error hierarchy, every class a LunasError and an
 * Error; `instanceof` across two copies of lunas in one process (its ESM and
 * CommonJS builds, as bundlers and mixed applications load them), where
 * `vi.resetModules()` between two dynamic imports gives two module instances,
 * each with its own classes; and names that survive a merchant's minifier.
 */
import { beforeAll, describe, expect, it, vi, afterAll } from 'vitest';
import { CHARGE_PATH, jsonReply, route } from '../../../helpers/requests.js';
import { API_KEY, BASE_URL, CHARGE_ID } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  LunasError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../../../src/index.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

type Lunas = typeof import('../../../../src/index.js');

async function loadCopy(): Promise<Lunas> {
  vi.resetModules();
  return import('../../../../src/index.js');
}

let first: Lunas;
let second: Lunas;
beforeAll(async () => {
  first = await loadCopy();
  second = await loadCopy();
});

/** One instance of every exported error class of a copy, by class name. */
function instancesOf(copy: Lunas): Record<string, Error> {
  const headers = new Headers();
  const init = { status: 400, message: 'm', body: null, headers, fields: {} };
  return {
    LunasError: new copy.LunasError('x'),
    APIError: new copy.APIError(init),
    BadRequestError: new copy.BadRequestError(init),
    AuthenticationError: new copy.AuthenticationError(init),
    PermissionDeniedError: new copy.PermissionDeniedError(init),
    NotFoundError: new copy.NotFoundError(init),
    ConflictError: new copy.ConflictError(init),
    UnprocessableEntityError: new copy.UnprocessableEntityError(init),
    RateLimitError: new copy.RateLimitError(init),
    InternalServerError: new copy.InternalServerError(init),
    APIConnectionError: new copy.APIConnectionError('x'),
    APIConnectionTimeoutError: new copy.APIConnectionTimeoutError('x'),
    APIUserAbortError: new copy.APIUserAbortError('x'),
    RequestValidationError: new copy.RequestValidationError({}),
    ResponseValidationError: new copy.ResponseValidationError({
      summary: 's',
      issues: [],
      body: '',
      status: 200,
      headers,
    }),
    ResponseBodyError: new copy.ResponseBodyError({
      message: 'm',
      reason: 'unreadable',
      status: 200,
      headers,
      limit: 1,
    }),
    EventValidationError: new copy.EventValidationError([]),
  };
}

/** Every exported class that extends LunasError (LunasError included), by name. */
function errorClassesOf(copy: Lunas): Record<string, abstract new (...args: never[]) => unknown> {
  return Object.fromEntries(
    Object.entries(copy).filter(
      ([, value]) => typeof value === 'function' && (value === copy.LunasError || value.prototype instanceof Error),
    ),
  ) as Record<string, abstract new (...args: never[]) => unknown>;
}

describe('errors across two copies of lunas', () => {
  it('loads two distinct copies', () => {
    expect(first.NotFoundError).not.toBe(second.NotFoundError);
    expect(first.LunasError).not.toBe(second.LunasError);
  });

  it('every error class answers instanceof exactly as its twin in the other copy does', () => {
    const classes = errorClassesOf(first);
    const twins = errorClassesOf(second);
    expect(Object.keys(classes).sort()).toEqual(Object.keys(instancesOf(first)).sort());
    for (const [copy, other] of [
      [first, second],
      [second, first],
    ] as const) {
      const errors = instancesOf(copy);
      const otherClasses = errorClassesOf(other);
      for (const [errorName, error] of Object.entries(errors)) {
        for (const [className, otherClass] of Object.entries(otherClasses)) {
          const sameCopyClass = errorClassesOf(copy)[className]!;
          expect(error instanceof otherClass, `${errorName} instanceof other ${className}`).toBe(
            error instanceof sameCopyClass,
          );
        }
      }
    }
    // The comparison above is only as good as its reference: spot-check it.
    const notFound = instancesOf(second).NotFoundError;
    expect(notFound).toBeInstanceOf(twins.NotFoundError!);
    expect(notFound).toBeInstanceOf(classes.NotFoundError!);
    expect(notFound).toBeInstanceOf(classes.APIError!);
    expect(notFound).toBeInstanceOf(classes.LunasError!);
    expect(notFound).not.toBeInstanceOf(classes.BadRequestError!);
    expect(instancesOf(second).APIError).not.toBeInstanceOf(classes.NotFoundError!);
    expect(instancesOf(second).EventValidationError).toBeInstanceOf(first.EventValidationError);
    expect(instancesOf(second).EventValidationError).not.toBeInstanceOf(first.RequestValidationError);
  });

  it('a NotFoundError thrown by one copy’s client is an instance of the other copy’s classes', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    const client = new second.Client({
      apiKey: API_KEY,
      baseURL: BASE_URL,
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));

    expect(error).toBeInstanceOf(first.NotFoundError);
    expect(error).toBeInstanceOf(first.APIError);
    expect(error).toBeInstanceOf(first.LunasError);
    expect(error).not.toBeInstanceOf(first.AuthenticationError);
    expect(error).toBeInstanceOf(second.NotFoundError);
  });

  it('a plain Error, a look-alike object and primitives are instances of no lunas class', () => {
    const lookAlike = Object.assign(Object.create(Error.prototype) as Error, { name: 'NotFoundError', status: 404 });
    for (const value of [new Error('x'), lookAlike, { name: 'LunasError' }, null, undefined, 'NotFoundError', 404]) {
      expect(value instanceof first.LunasError).toBe(false);
      expect(value instanceof first.NotFoundError).toBe(false);
    }
  });

  it('a class a merchant derives keeps the ordinary instanceof, and its errors are lunas errors in either copy', () => {
    class PaymentFailed extends second.LunasError {}
    class CardDeclined extends PaymentFailed {}
    const declined = new CardDeclined('declined');

    expect(declined).toBeInstanceOf(CardDeclined);
    expect(declined).toBeInstanceOf(PaymentFailed);
    expect(declined).toBeInstanceOf(first.LunasError);
    expect(declined).not.toBeInstanceOf(first.APIError);
    expect(new PaymentFailed('x')).not.toBeInstanceOf(CardDeclined);
    // A lunas error from either copy is not an instance of the merchant's class.
    expect(new second.LunasError('x')).not.toBeInstanceOf(PaymentFailed);
    expect(new first.LunasError('x')).not.toBeInstanceOf(PaymentFailed);
  });

  it('a merchant class derived from a lunas subclass is an instance of that subclass in the other copy', () => {
    class ChargeMissing extends second.NotFoundError {}
    const headers = new Headers();
    const missing = new ChargeMissing({ status: 404, message: 'm', body: null, headers });

    expect(missing).toBeInstanceOf(first.NotFoundError);
    expect(missing).toBeInstanceOf(first.APIError);
    expect(missing).not.toBeInstanceOf(first.ConflictError);
  });
});

describe('the class hierarchy', () => {
  it('every error class extends LunasError and Error', () => {
    const headers = new Headers();
    const init = { status: 400, message: 'm', body: null, headers, fields: {} };
    const errors = [
      new LunasError('x'),
      new APIError(init),
      new BadRequestError(init),
      new AuthenticationError(init),
      new PermissionDeniedError(init),
      new NotFoundError(init),
      new ConflictError(init),
      new UnprocessableEntityError(init),
      new RateLimitError(init),
      new InternalServerError(init),
      new APIConnectionError('x'),
      new APIConnectionTimeoutError('x'),
      new APIUserAbortError('x'),
      new RequestValidationError({ amount: ['Amount must be greater than 0'] }),
      new ResponseValidationError({ summary: 's', issues: [], body: '', status: 200, headers }),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(LunasError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(error.constructor.name);
    }
    for (const error of errors.slice(1, 10)) expect(error).toBeInstanceOf(APIError);
    expect(new APIConnectionTimeoutError('x')).toBeInstanceOf(APIConnectionError);
    expect(new APIUserAbortError('x')).not.toBeInstanceOf(APIConnectionError);
    expect(new RequestValidationError({})).not.toBeInstanceOf(APIError);
    expect(
      new ResponseValidationError({ summary: 's', issues: [], body: '', status: 200, headers }),
    ).not.toBeInstanceOf(APIError);
  });
});

const source = (path: string) => fileURLToPath(new URL(`../../../../src/${path}`, import.meta.url));
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
