/**
 * Options checked by name: an unknown option throws `LunasError` at
 * construction (and from withOptions); an unknown request, raw-call, toArray
 * or webhooks.confirm option rejects with `RequestValidationError` keyed by
 * the name, before anything is sent. Only own enumerable string keys are
 * checked and read: null-prototype objects work, and inherited or
 * `Object.prototype` properties are neither refused nor used.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Client,
  type ClientOptions,
  InternalServerError,
  LunasError,
  RequestValidationError,
} from '../../src/index.js';
import { unknownOptionMessage } from '../../src/core/checks/closest-names.js';
import { closestNames } from '../../src/shared/closest-names.js';
import { listResponse, successResponse, wireClient } from '../helpers/wire.js';
import { API_KEY, BASE_URL, chargeJson, createdChargeJson, transferJson } from '../helpers/fixtures.js';
import { thrown } from '../helpers/rejection.js';

const TRANSFER = { destination_account_id: 'acc_partner', amount: 10, currency: 'idr' } as const;
const EVENT = { id: 'evt_1', type: 'payment_charge.succeeded', created_at: '2026-11-23T03:00:00Z', data: chargeJson() };
const PAYOUT_EVENT = { id: 'evt_2', type: 'payout.paid', created_at: '2026-11-23T03:00:00Z', data: { id: 'po_1' } };

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A wire client answering every call; `status` per attempt (503 forces a retry). */
function answering(status: (attempt: number) => number = () => 200) {
  return wireClient((request, attempt) => {
    if (status(attempt) !== 200)
      return new Response('{}', { status: status(attempt), headers: { 'retry-after-ms': '0' } });
    if (request.method === 'GET' && request.url.pathname.endsWith('/charges')) return listResponse([chargeJson()]);
    if (request.method === 'GET') return successResponse(chargeJson());
    return successResponse(request.url.pathname === '/v1/transfers' ? transferJson() : createdChargeJson());
  });
}

/** The RequestValidationError a call rejects with; it must not throw synchronously. */
async function refused(call: () => Promise<unknown>): Promise<RequestValidationError> {
  let pending: Promise<unknown> | undefined;
  expect(() => (pending = call())).not.toThrow();
  const error = await pending!.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

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

  it('never echoes the value, which may be the key itself', () => {
    const secret = 'sk_live_value_never_echoed_4b1e';
    const error = thrown(() => new Client({ ...base, apikey: secret } as ClientOptions), LunasError);
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
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

describe('toArray options', () => {
  it('refuses another name than limit, with the closest one', async () => {
    const { client, sent } = answering();
    const error = await refused(() => client.charges.list().toArray({ limit: 5, limt: 5 } as never));
    expect(error.fields).toEqual({ limt: ['Unknown option "limt": did you mean "limit"?'] });
    const missing = await refused(() => client.charges.list().toArray({ max: 5 } as never));
    expect(Object.keys(missing.fields).sort()).toEqual(['limit', 'max']);
    expect(sent).toHaveLength(0);
  });

  it('reads limit from a null-prototype object, not from Object.prototype', async () => {
    const { client } = answering();
    const bare = Object.assign(Object.create(null) as { limit: number }, { limit: 1 });
    expect(await client.charges.list().toArray(bare)).toHaveLength(1);
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.limit = 1;
    try {
      const error = await refused(() => client.charges.list().toArray({} as never));
      expect(error.fields.limit![0]).toContain('missing');
    } finally {
      delete polluted.limit;
    }
  });
});

describe('closest names', () => {
  it('normalises case, _ and -; ties give every nearest name; far names give none', () => {
    expect(closestNames('IDEMPOTENCY-KEY', ['idempotencyKey', 'timeout'])).toEqual(['idempotencyKey']);
    expect(closestNames('tmeout', ['timeout', 'maxRetries'])).toEqual(['timeout']);
    expect(closestNames('timoeut', ['timeout'])).toEqual(['timeout']);
    expect(closestNames('bod', ['body', 'bot'])).toEqual(['body', 'bot']);
    expect(closestNames('zzz', ['body'])).toEqual([]);
    expect(closestNames('x'.repeat(100_000), ['body'])).toEqual([]);
    expect(unknownOptionMessage('bod', ['body', 'bot'])).toBe('Unknown option "bod": did you mean "body" or "bot"?');
  });
});
