/**
 * core/checks/options.ts: a client's options resolved into settings (with
 * their defaults and the checks of their values: timeout, maxRetries,
 * defaultHeaders), the hand-over in withOptions() (listeners shared only with
 * a derived client), a call's options checked (one shared result for a call
 * given none; per-call headers and idempotencyKey refused when they could
 * smuggle in a header), and every options object checked by name: an unknown
 * client option throws, an unknown request or raw-call option rejects before
 * anything is sent; only own enumerable string keys are read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkRequestOptions, readClientOptions, resolveClientSettings } from '../../../../src/core/checks/options.js';
import {
  Client,
  type ClientOptions,
  LunasError,
  RequestValidationError,
  InternalServerError,
} from '../../../../src/index.js';
import { API_KEY, BASE_URL, chargeJson, CHARGE_ID, success, transferJson } from '../../../helpers/fixtures.js';
import { thrown, rejection } from '../../../helpers/rejection.js';
import { successResponse, wireClient, answering, refused } from '../../../helpers/wire.js';
import { makeClient } from '../../../helpers/msw.js';
import {
  CHARGE_PATH,
  jsonReply,
  route,
  CHARGES_PATH,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import { sleep } from '../../../helpers/waiting.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

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

const TRANSFER = { destination_account_id: 'acc_partner', amount: 10, currency: 'idr' } as const;
const EVENT = { id: 'evt_1', type: 'payment_charge.succeeded', created_at: '2026-11-23T03:00:00Z', data: chargeJson() };
const PAYOUT_EVENT = { id: 'evt_2', type: 'payout.paid', created_at: '2026-11-23T03:00:00Z', data: { id: 'po_1' } };

const base = { apiKey: API_KEY, baseURL: BASE_URL };

describe('client options', () => {
  it.each([
    ['apikey', 'apiKey'],
    ['baseUrl', 'baseURL'],
    ['maxRetry', 'maxRetries'],
    ['timeOut', 'timeout'],
    ['log_level', 'logLevel'],
    ['default-headers', 'defaultHeaders'],
    ['dangerouslyAllowBrowsr', 'dangerouslyAllowBrowser'],
  ])('%s throws at construction, naming %s', (given, known) => {
    const error = thrown(() => new Client({ ...base, [given]: 1 } as ClientOptions), LunasError);
    expect(error.message).toBe(`Unknown option "${given}": did you mean "${known}"?`);
  });

  it('baseUrl is refused even when LUNAS_BASE_URL would have been used instead', () => {
    vi.stubEnv('LUNAS_BASE_URL', 'https://env.lunas.test');
    const options = { apiKey: API_KEY, baseUrl: 'https://api.lunas.test' } as ClientOptions;
    expect(thrown(() => new Client(options), LunasError).message).toContain('did you mean "baseURL"?');
  });

  it('a name near nothing known lists the known names; several unknown names are all named', () => {
    const error = thrown(() => new Client({ ...base, verbose: true, proxy: 'x' } as ClientOptions), LunasError);
    expect(error.message).toBe(
      'Unknown option "verbose"; known options: apiKey, baseURL, timeout, maxRetries, maxConcurrentRequests, ' +
        'fetch, defaultHeaders, logger, logLevel, dangerouslyAllowBrowser; Unknown option "proxy"; known ' +
        'options: apiKey, baseURL, timeout, maxRetries, maxConcurrentRequests, fetch, defaultHeaders, logger, ' +
        'logLevel, dangerouslyAllowBrowser',
    );
  });

  it('a long name or one with control characters is quoted with JSON escapes and cut short', () => {
    const name = `x\n\u0007${'y'.repeat(500)}`;
    const message = thrown(() => new Client({ ...base, [name]: 1 } as ClientOptions), LunasError).message;
    expect(message).toContain(`"x\\n\\u0007${'y'.repeat(37)}…"`);
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(300);
  });

  it('withOptions refuses an unknown name and leaves the client as it was', () => {
    const { client } = answering();
    const error = thrown(() => client.withOptions({ maxRetry: 0 } as ClientOptions), LunasError);
    expect(error.message).toBe('Unknown option "maxRetry": did you mean "maxRetries"?');
    expect(client.maxRetries).toBe(0);
    expect(client.withOptions({ maxRetries: 4, timeout: undefined }).maxRetries).toBe(4);
  });

  it('logger is known by name (its value is checked elsewhere); undefined values of known names are allowed', () => {
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const client = new Client({ ...base, logger, timeout: undefined, maxRetries: undefined, fetch: undefined });
    expect(client.timeout).toBe(30_000);
    expect(client.maxRetries).toBe(2);
  });

  it('a null-prototype object is read; inherited, symbol and non-enumerable properties are neither refused nor read', () => {
    const bare = Object.assign(Object.create(null) as ClientOptions, { ...base, timeout: 1_234, maxRetries: 1 });
    expect(new Client(bare).timeout).toBe(1_234);

    const inherited = Object.assign(Object.create({ timeOut: 5, maxRetries: 9 }) as ClientOptions, base);
    expect(new Client(inherited).maxRetries).toBe(2);

    const tagged = { ...base, [Symbol('tag')]: 'kept', timeout: 2_000 };
    Object.defineProperty(tagged, 'maxRetry', { value: 0, enumerable: false });
    Object.defineProperty(tagged, 'maxRetries', { value: 7, enumerable: false });
    const client = new Client(tagged);
    expect(client.timeout).toBe(2_000);
    expect(client.maxRetries).toBe(2);
  });

  it('properties added to Object.prototype are neither refused nor read', () => {
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.timeOut = 1;
    polluted.maxRetries = 9;
    polluted.apiKey = 'sk_polluted';
    try {
      const client = new Client({ ...base });
      expect(client.maxRetries).toBe(2);
      expect(client.withOptions({ timeout: 5_000 }).maxRetries).toBe(2);
    } finally {
      delete polluted.timeOut;
      delete polluted.maxRetries;
      delete polluted.apiKey;
    }
  });
});

describe('request options', () => {
  it('idempotency_key is refused, keyed by its name, and never replaced by a generated key', async () => {
    const { client, sent } = answering();
    const options = { idempotency_key: 'settle-INV-9' } as never;
    const error = await refused(() => client.transfers.create(TRANSFER, options));
    expect(error.fields).toEqual({
      idempotency_key: ['Unknown option "idempotency_key": did you mean "idempotencyKey"?'],
    });
    expect(error.message).not.toContain('settle-INV-9');
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['maxRetry', 'maxRetries'],
    ['timeOut', 'timeout'],
    ['IdempotencyKey', 'idempotencyKey'],
    ['idempotencykey', 'idempotencyKey'],
    ['header', 'headers'],
    ['signl', 'signal'],
  ])('%s is refused on every method, naming %s', async (given, known) => {
    const { client, sent } = answering();
    const options = { [given]: 0 } as never;
    const expected = { [given]: [`Unknown option "${given}": did you mean "${known}"?`] };
    for (const call of [
      () => client.charges.retrieve('ch_1', options),
      () => client.charges.create({ payment_method: 'qris', amount: 1000 }, options),
      () => client.transfers.create(TRANSFER, options),
      () => client.charges.list({}, options),
      () => client.transfers.list(undefined, options),
      () => client.payouts.list(undefined, options),
      () => client.paymentMethods.list(undefined, options),
      () => client.webhooks.confirm(EVENT, options),
    ]) {
      expect((await refused(call)).fields).toEqual(expected);
    }
    expect(sent).toHaveLength(0);
  });

  it('a resource method accepts request options only: query, body and schema are refused there', async () => {
    const { client, sent } = answering();
    for (const name of ['query', 'body', 'schema']) {
      const error = await refused(() => client.charges.retrieve('ch_1', { [name]: {} } as never));
      expect(Object.keys(error.fields)).toEqual([name]);
      expect(error.fields[name]![0]).toMatch(new RegExp(`^Unknown option "${name}"`));
    }
    expect(sent).toHaveLength(0);
  });

  it('an unknown name and a bad value are reported together', async () => {
    const { client } = answering();
    const error = await refused(() => client.charges.retrieve('ch_1', { timeout: -1, retries: 1 } as never));
    expect(Object.keys(error.fields).sort()).toEqual(['retries', 'timeout']);
    expect(error.fields.retries).toEqual(['Unknown option "retries": did you mean "maxRetries"?']);
  });

  it('webhooks.confirm checks its options even for an event that reads no charge', async () => {
    const { client, sent } = answering();
    await expect(client.webhooks.confirm(PAYOUT_EVENT)).resolves.toMatchObject({ charge: undefined });
    const error = await refused(() => client.webhooks.confirm(PAYOUT_EVENT, { maxRetry: 0 } as never));
    expect(error.fields).toEqual({ maxRetry: ['Unknown option "maxRetry": did you mean "maxRetries"?'] });
    expect(sent).toHaveLength(0);
  });

  it('a name that is a header or __proto__ is keyed safely', async () => {
    const { client } = answering();
    const options = JSON.parse('{"__proto__": {"timeout": 1}}') as never;
    const error = await refused(() => client.charges.retrieve('ch_1', options));
    expect(Object.keys(error.fields)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(error.fields)).toBe(Object.prototype);
  });

  it('honours options from a null-prototype object, and ignores inherited and Object.prototype ones', async () => {
    const { client, sent } = answering((attempt) => (attempt === 1 ? 503 : 200));
    const bare = Object.assign(Object.create(null) as object, { idempotencyKey: 'settle-INV-9', maxRetries: 1 });
    await client.transfers.create(TRANSFER, bare);
    expect(sent.map((request) => request.headers.get('idempotency-key'))).toEqual(['settle-INV-9', 'settle-INV-9']);

    sent.length = 0;
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.idempotencyKey = 'polluted-key';
    polluted.idempotency_key = 'polluted-key';
    try {
      const inherited = Object.create({ maxRetries: 5, maxRetry: 5 }) as object;
      // A raw POST: the params' own schema is not what is under test here. The
      // first attempt answers 503: an inherited maxRetries of 5 would retry it.
      const options = Object.assign(inherited, { body: TRANSFER });
      await expect(client.post('/v1/transfers', options)).rejects.toBeInstanceOf(InternalServerError);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers.get('idempotency-key')).not.toBe('polluted-key');
    } finally {
      delete polluted.idempotencyKey;
      delete polluted.idempotency_key;
    }
  });
});

describe('raw-call options', () => {
  it('querry and bdy are refused instead of dropping the query and body', async () => {
    const { client, sent } = answering();
    const get = await refused(() => client.get('/v1/payouts', { querry: { page: 2 } } as never));
    expect(get.fields).toEqual({ querry: ['Unknown option "querry": did you mean "query"?'] });
    const post = await refused(() => client.post('/v1/transfers', { bdy: TRANSFER } as never));
    expect(post.fields).toEqual({ bdy: ['Unknown option "bdy": did you mean "body"?'] });
    expect(sent).toHaveLength(0);
  });

  it('a GET takes no body and a POST no query', async () => {
    const { client, sent } = answering();
    const get = await refused(() => client.get('/v1/payouts', { body: {} } as never));
    expect(get.fields.body![0]).toMatch(/^Unknown option "body"; known options: idempotencyKey, .*query, schema$/);
    const post = await refused(() => client.post('/v1/transfers', { query: {} } as never));
    expect(Object.keys(post.fields)).toEqual(['query']);
    expect(sent).toHaveLength(0);
  });

  it('raw options from a null-prototype object are honoured', async () => {
    const { client, sent } = answering();
    const bare = Object.assign(Object.create(null) as object, { query: { page: 2 }, idempotencyKey: undefined });
    await client.get('/v1/payments/charges', bare);
    expect(sent[0]!.url.searchParams.get('page')).toBe('2');
    const body = Object.assign(Object.create(null) as object, { body: TRANSFER, idempotencyKey: 'k-1' });
    await client.post('/v1/transfers', body);
    expect(JSON.parse(sent[1]!.body)).toEqual(TRANSFER);
    expect(sent[1]!.headers.get('idempotency-key')).toBe('k-1');
  });
});

describe('per-call headers', () => {
  it.each([
    ['CRLF', { 'x-note': 'a\r\nX-Injected: yes' }],
    ['LF', { 'x-note': 'a\nb' }],
    ['CR', { 'x-note': 'a\rb' }],
    ['NUL', { 'x-note': 'a\0b' }],
    ['a bad name', { 'x note': 'a' }],
    ['a name with CRLF', { 'x-note\r\nX-Injected': 'a' }],
    ['a value that is not a string', { 'x-note': 7 as unknown as string }],
  ])('with %s are refused with RequestValidationError and nothing is sent', async (_name, headers) => {
    const get = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const post = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const list = route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [], page: 1, page_size: 10, total_items: 0 }),
    );
    const client = makeClient();
    for (const call of [
      client.charges.retrieve(CHARGE_ID, { headers }),
      client.transfers.create(TRANSFER_PARAMS, { headers }),
      client.charges.list({}, { headers }),
    ]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(RequestValidationError);
      const name = Object.keys(headers)[0]!;
      expect((error as RequestValidationError).fields).toHaveProperty([`headers.${name}`]);
    }
    await sleep(10);
    expect([get.length, post.length, list.length]).toEqual([0, 0, 0]);
  });

  it.each([
    'authorization',
    'Authorization',
    'AUTHORIZATION',
    'idempotency-key',
    'Idempotency-Key',
    'host',
    'content-length',
  ])('may not set the reserved header %s', async (name) => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const error = await rejection(
      makeClient().transfers.create(TRANSFER_PARAMS, { headers: { [name]: 'Bearer sk_attacker' } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual([`headers.${name}`]);
    expect(seen).toHaveLength(0);
  });
});

describe('idempotencyKey option', () => {
  it.each([
    ['CRLF', 'key\r\nX-Injected: yes'],
    ['LF', 'key\n'],
    ['a space', 'order 1'],
    ['an empty string', ''],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'заказ-1'],
  ])('with %s is refused and nothing is sent', async (_name, idempotencyKey) => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual(['idempotencyKey']);
    expect(seen).toHaveLength(0);
  });

  it('of 255 visible ASCII characters is accepted', async () => {
    const key = `${'k'.repeat(250)}-!~:/`;
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    await makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey: key });
    expect(seen[0]!.headers.get('idempotency-key')).toBe(key);
  });
});
