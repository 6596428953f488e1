/**
 * core/checks/options.ts: a client's options resolved into settings, the hand-over in
 * withOptions() (listeners shared only with a derived client), and a call's
 * options checked (one shared result for a call given none).
 */
import { describe, expect, it } from 'vitest';
import { checkRequestOptions, readClientOptions, resolveClientSettings } from '../../../../src/core/checks/options.js';
import { Client, type ClientOptions, LunasError, RequestValidationError } from '../../../../src/index.js';
import { API_KEY, BASE_URL, chargeJson, CHARGE_ID, success } from '../../../helpers/fixtures.js';
import { thrown } from '../../../helpers/rejection.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';
import { makeClient } from '../../../helpers/msw.js';
import { CHARGE_PATH, jsonReply, route } from '../../../helpers/requests.js';

/** The LunasError that constructing with `options` throws. */
function constructionError(options: ClientOptions): LunasError {
  return thrown(() => new Client(options), LunasError);
}

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

describe('timeout and maxRetries', () => {
  it('default to 30 s and 2', () => {
    const client = makeClient();
    expect(client.timeout).toBe(30_000);
    expect(client.maxRetries).toBe(2);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000'])('refuses timeout %s', (timeout) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, timeout: timeout as number });
    expect(error.message).toContain('timeout');
  });

  it('accepts timeouts from 1 ms to 2^31 - 1 ms', () => {
    expect(makeClient({ timeout: 1 }).timeout).toBe(1);
    expect(makeClient({ timeout: 2 ** 31 - 1 }).timeout).toBe(2 ** 31 - 1);
  });

  it.each([-1, 1.5, 11, Number.NaN, Number.POSITIVE_INFINITY, '2'])('refuses maxRetries %s', (maxRetries) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, maxRetries: maxRetries as number });
    expect(error.message).toContain('maxRetries');
  });

  it('accepts maxRetries from 0 to 10', () => {
    expect(makeClient({ maxRetries: 0 }).maxRetries).toBe(0);
    expect(makeClient({ maxRetries: 10 }).maxRetries).toBe(10);
  });

  it('refuses a fetch that is not a function', () => {
    expect(
      constructionError({ apiKey: API_KEY, baseURL: BASE_URL, fetch: 'fetch' as unknown as typeof fetch }).message,
    ).toContain('fetch');
  });

  it('refuses an unknown logLevel', () => {
    expect(constructionError({ apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'verbose' as 'debug' }).message).toContain(
      'logLevel',
    );
  });
});

describe('defaultHeaders', () => {
  it.each([
    ['CRLF in a value', { 'x-tenant': 'a\r\nInjected: yes' }],
    ['LF in a value', { 'x-tenant': 'a\nb' }],
    ['CR in a value', { 'x-tenant': 'a\rb' }],
    ['NUL in a value', { 'x-tenant': 'a\0b' }],
    ['a name with a space', { 'x tenant': 'a' }],
    ['a name with a colon', { 'x-tenant:': 'a' }],
    ['Authorization', { Authorization: 'Bearer other' }],
    ['idempotency-key', { 'idempotency-key': 'fixed' }],
    ['a value that is not a string', { 'x-count': 3 as unknown as string }],
  ])('refuses %s', (_name, defaultHeaders) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, defaultHeaders });
    expect(error.message).toContain('defaultHeaders.');
  });

  it('sends accepted default headers on every request', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient({ defaultHeaders: { 'X-Tenant': 'acme', 'x-trace': 'a b\tc' } });
    await client.charges.retrieve(CHARGE_ID);
    await client.charges.retrieve(CHARGE_ID);
    for (const request of seen) {
      expect(request.headers.get('x-tenant')).toBe('acme');
      expect(request.headers.get('x-trace')).toBe('a b\tc');
    }
    expect(seen).toHaveLength(2);
  });
});
