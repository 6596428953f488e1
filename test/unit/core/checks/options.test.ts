/**
 * core/checks/options.ts: a client's options resolved into settings, the hand-over in
 * withOptions() (listeners shared only with a derived client), and a call's
 * options checked (one shared result for a call given none).
 */
import { describe, expect, it } from 'vitest';
import { checkRequestOptions, readClientOptions, resolveClientSettings } from '../../../../src/core/checks/options.js';
import { Client, LunasError, RequestValidationError } from '../../../../src/index.js';
import { API_KEY, BASE_URL, chargeJson } from '../../../helpers/fixtures.js';
import { thrown } from '../../../helpers/rejection.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';

describe('resolveClientSettings', () => {
  it('applies the defaults and drops a final /v1 from the base URL', () => {
    const settings = resolveClientSettings({ apiKey: API_KEY, baseURL: `${BASE_URL}/v1/`, logLevel: 'off' });
    expect(settings).toMatchObject({
      baseURL: BASE_URL,
      timeout: 30_000,
      maxRetries: 2,
      maxConcurrentRequests: 64,
      defaultHeaders: {},
    });
    expect(settings.secret.mask(`key ${API_KEY}`)).toBe('key [REDACTED]');
  });

  it('reports the first bad value the way the constructor always has', () => {
    const options = { apiKey: API_KEY, baseURL: BASE_URL, timeout: 0, defaultHeaders: { host: 'x' } };
    expect(() => resolveClientSettings(options)).toThrow(/^Invalid timeout: Timeout must be/);
    expect(() => resolveClientSettings({ ...options, timeout: 1 })).toThrow(/^Invalid defaultHeaders\.host: /);
  });

  it.each([0, -1, 1.5, Number.NaN, '8'])('refuses maxConcurrentRequests %s', (value) => {
    const options = { apiKey: API_KEY, baseURL: BASE_URL, maxConcurrentRequests: value as number };
    expect(() => resolveClientSettings(options)).toThrow(
      'Invalid maxConcurrentRequests: Max concurrent requests must be an integer of at least 1, or Infinity',
    );
  });

  it.each([1, 500, Infinity])('takes maxConcurrentRequests %s', (value) => {
    const settings = resolveClientSettings({ apiKey: API_KEY, baseURL: BASE_URL, maxConcurrentRequests: value });
    expect(settings.maxConcurrentRequests).toBe(value);
  });
});

describe('readClientOptions', () => {
  it('keeps every known name as an own key and refuses others by name', () => {
    expect(Object.keys(readClientOptions(null))).toContain('dangerouslyAllowBrowser');
    expect(() => readClientOptions({ baseUrl: BASE_URL })).toThrow('did you mean "baseURL"?');
  });
});

describe('listeners reach a new client only through withOptions()', () => {
  it('an options object shaped like the hand-over is refused by name, not read', () => {
    const forged = { options: { apiKey: API_KEY, baseURL: BASE_URL }, events: {} };
    expect(() => new Client(forged as never)).toThrow(LunasError);
    expect(() => new Client(forged as never)).toThrow(/Unknown option "options"/);
  });
});

describe('checkRequestOptions', () => {
  const REQUEST_NAMES = ['idempotencyKey', 'timeout', 'maxRetries', 'signal', 'headers'];

  it('gives every call without options one shared frozen result, holding every name as an own key', () => {
    const none = checkRequestOptions(undefined);
    expect(checkRequestOptions(null)).toBe(none);
    expect(checkRequestOptions(undefined)).toBe(none);
    expect(Object.isFrozen(none)).toBe(true);
    expect(Object.keys(none)).toEqual(REQUEST_NAMES);
    expect(Object.values(none).every((value) => value === undefined)).toBe(true);
  });

  it('gives a raw call without options its own names too, each an own key holding undefined', () => {
    const none = checkRequestOptions(undefined);
    const raw = checkRequestOptions(undefined, ['query', 'schema']);
    expect(raw).not.toBe(none);
    expect(Object.keys(raw)).toEqual([...REQUEST_NAMES, 'query', 'schema']);
    expect(Object.values(raw).every((value) => value === undefined)).toBe(true);
    expect(Object.keys(checkRequestOptions(null, ['body', 'schema']))).toEqual([...REQUEST_NAMES, 'body', 'schema']);
  });

  it('a call given none reads nothing from a polluted Object.prototype, raw calls included', async () => {
    const polluted = Object.prototype as Record<string, unknown>;
    const { client, sent } = wireClient(() => successResponse(chargeJson()));
    // Names only lunas reads: fetch itself reads `body` and `headers` from any init object.
    const pollution = { idempotencyKey: 'polluted-key', query: { polluted: 1 }, schema: 'not a schema' };
    Object.assign(polluted, pollution);
    try {
      await client.charges.retrieve('ch_1');
      await client.get('v1/balance');
      await client.post('v1/ping');
    } finally {
      for (const name of Object.keys(pollution)) delete polluted[name];
    }
    expect(sent.map(({ url, headers }) => [url.search, headers.get('idempotency-key')])).toEqual([
      ['', null],
      ['', null],
      ['', expect.stringMatching(/^[0-9a-f-]{36}$/)],
    ]);
  });

  it('reads options given into a result of its own, refusing bad ones by name and value', () => {
    const checked = checkRequestOptions({ timeout: 5_000 });
    expect(checked).not.toBe(checkRequestOptions(undefined));
    expect(Object.keys(checked)).toEqual(REQUEST_NAMES);
    expect(checked.timeout).toBe(5_000);
    expect(Object.keys(checkRequestOptions({ query: {} }, ['query', 'schema']))).toEqual([
      ...REQUEST_NAMES,
      'query',
      'schema',
    ]);
    const refusal = thrown(
      () => checkRequestOptions({ maxRetry: 1, timeout: 0, headers: { host: 'x' } }),
      RequestValidationError,
    );
    expect(Object.keys(refusal.fields)).toEqual(['maxRetry', 'headers.host', 'timeout']);
  });
});
