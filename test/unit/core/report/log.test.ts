/**
 * core/report/log.ts: the logger option checked at construction (a level it
 * has no method for is dropped, so a logger that lacks one breaks no call),
 * the levels (the option, LUNAS_LOG, the default), console by default, and
 * what each level writes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnUnhandledRejections } from '../../../helpers/recorders.js';
import { revoked, fail } from '../../../helpers/hostile.js';
import { Client, LunasError, type Logger, type ClientOptions } from '../../../../src/index.js';
import { TRANSFER_PARAMS, CHARGE_PATH, jsonReply, route } from '../../../helpers/requests.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';
import { API_KEY, BASE_URL, transferJson, CHARGE_ID, chargeJson, success } from '../../../helpers/fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Clears the variables the client reads, so the host's environment cannot leak in. */
function clearEnv() {
  vi.stubEnv('LUNAS_API_KEY', undefined);
  vi.stubEnv('LUNAS_BASE_URL', undefined);
  vi.stubEnv('LUNAS_LOG', undefined);
}

describe('the logger option', () => {
  failOnUnhandledRejections();

  const base = { apiKey: API_KEY, baseURL: BASE_URL };
  const build = (logger: unknown) => () => new Client({ ...base, logger: logger as Logger });

  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['the string console', 'console'],
    ['a number', 42],
    ['an object with none of the four methods', { log: () => undefined }],
    ['a member that is not a function', { ...console, debug: 'yes' }],
  ])('refuses %s at construction, saying what a logger must have', (_, logger) => {
    expect(build(logger)).toThrow(LunasError);
    expect(build(logger)).toThrow(/logger option/);
  });

  it('refuses a logger whose members cannot be read, with a LunasError', () => {
    const throwing = new Proxy({}, { get: () => fail() });
    expect(build(throwing)).toThrow(LunasError);
    expect(build(revoked())).toThrow(LunasError);
  });

  it('accepts a logger with some of the methods, and a function carrying them', () => {
    expect(build({ error: () => undefined })).not.toThrow();
    expect(build({ warn: () => undefined, debug: null })).not.toThrow();
    expect(build(Object.assign(() => undefined, { info: () => undefined }))).not.toThrow();
  });

  it('LUNAS_LOG=debug with a logger that has no debug method: the calls succeed, other levels still written', async () => {
    vi.stubEnv('LUNAS_LOG', 'debug');
    const lines: string[] = [];
    const logger = { info: (line: string) => void lines.push(`info ${line}`), warn: () => undefined };
    let attempts = 0;
    const { client } = wireClient(
      () => (++attempts === 1 ? new Response('busy', { status: 503 }) : successResponse(transferJson())),
      { logger: logger as unknown as Logger, logLevel: undefined, maxRetries: 1 },
    );
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info lunas: POST .* retrying in/);
  });

  it.each<[string, (line: string) => unknown]>([
    [
      'throws',
      () => {
        throw Object.create(null);
      },
    ],
    ['returns a rejected promise', () => Promise.reject(Object.create(null))],
    ['returns a thenable whose then throws', () => ({ then: () => fail() })],
  ])('a logger method that %s loses its line and never affects the call', async (_, method) => {
    const logger: Logger = { debug: method, info: method, warn: method, error: method } as Logger;
    let attempts = 0;
    const { client } = wireClient(
      () => (++attempts === 1 ? new Response('busy', { status: 503 }) : successResponse(transferJson())),
      { logger, logLevel: 'debug', maxRetries: 1 },
    );
    client.on('request', () => {
      throw new Error('listener broke, so a warn line is written');
    });
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
  });
});

describe('logging', () => {
  function recordingLogger() {
    const lines: { level: string; args: unknown[] }[] = [];
    const logger: Logger = {
      debug: (...args) => lines.push({ level: 'debug', args }),
      info: (...args) => lines.push({ level: 'info', args }),
      warn: (...args) => lines.push({ level: 'warn', args }),
      error: (...args) => lines.push({ level: 'error', args }),
    };
    return { lines, logger };
  }

  /** One 503 (waiting 0 ms) then success: a retry that is logged at info, with attempts at debug. */
  function retryOnce() {
    return route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0' })
        : jsonReply(200, success(chargeJson())),
    );
  }

  const build = (options: ClientOptions) => new Client({ apiKey: API_KEY, baseURL: BASE_URL, ...options });

  it('defaults to warn: nothing is logged for a success or a retry', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    const charge = await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(charge.id).toBe('ch_123');
    expect(lines).toEqual([]);
  });

  it('says at debug that a trailing /v1 was dropped from the base URL', () => {
    clearEnv();
    const { lines, logger } = recordingLogger();
    new Client({ apiKey: API_KEY, baseURL: `${BASE_URL}/v1/`, logger, logLevel: 'debug' });
    expect(lines).toEqual([
      {
        level: 'debug',
        args: [`lunas: baseURL ${BASE_URL}/v1 ends in /v1, which lunas adds to every path: using ${BASE_URL}`],
      },
    ]);
    lines.length = 0;
    new Client({ apiKey: API_KEY, baseURL: BASE_URL, logger, logLevel: 'debug' });
    expect(lines).toEqual([]);
  });

  it('logs attempts at debug and the retry at info with logLevel debug', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'debug' }).charges.retrieve(CHARGE_ID);

    const debug = lines.filter((line) => line.level === 'debug').map((line) => String(line.args[0]));
    const info = lines.filter((line) => line.level === 'info').map((line) => String(line.args[0]));
    expect(debug).toHaveLength(2);
    expect(debug[0]).toContain(`GET ${BASE_URL}/v1/payments/charges/ch_123 attempt`);
    expect(debug[0]).toContain('attempt 1 of 3');
    expect(debug[1]).toContain('attempt 2 of 3');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(/retrying in 0 ms/);
    expect(info[0]).toContain('503');
    for (const line of lines) expect(String(line.args[0])).toMatch(/^lunas: /);
  });

  it('logLevel info logs the retry but not the attempts', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'info' }).charges.retrieve(CHARGE_ID);
    expect(lines.map((line) => line.level)).toEqual(['info']);
  });

  it('respects LUNAS_LOG, in any case', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'DEBUG');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(lines.filter((line) => line.level === 'debug')).toHaveLength(2);
    expect(lines.filter((line) => line.level === 'info')).toHaveLength(1);
  });

  it('ignores an invalid LUNAS_LOG and keeps the default', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'verbose');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(lines).toEqual([]);
  });

  it('the logLevel option wins over LUNAS_LOG', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'debug');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'off' }).charges.retrieve(CHARGE_ID);
    expect(lines).toEqual([]);
  });

  it('writes to console by default', async () => {
    clearEnv();
    retryOnce();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    await build({ logLevel: 'debug' }).charges.retrieve(CHARGE_ID);
    expect(debug).toHaveBeenCalledTimes(2);
    expect(info).toHaveBeenCalledTimes(1);
    expect(String(info.mock.calls[0]![0])).toContain('retrying');
  });

  it('a failed call does not log above the chosen level', async () => {
    clearEnv();
    route('GET', CHARGE_PATH, () => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    const { lines, logger } = recordingLogger();
    await expect(build({ logger, logLevel: 'error' }).charges.retrieve(CHARGE_ID)).rejects.toThrow('Charge not found');
    expect(lines).toEqual([]);
  });
});
