/**
 * The API key in no error, however it is rendered (message, stack, JSON,
 * `util.inspect`, fields, body, headers, causes): echoed by the service in a
 * body, a header or a Location, in any form (literal, percent-encoded,
 * JSON-escaped); in a connection failure or a timeout; in a custom fetch's own
 * error, never attached; and quoted masked wherever lunas refuses a name or a
 * value before sending. test/security/key-leaks/ holds every channel the key
 * could leak through, one file each; over-http.test.ts, against the sandbox.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Client,
  type ClientOptions,
  InternalServerError,
  LunasError,
  RequestValidationError,
  ResponseValidationError,
  APIError,
  getResponseInfo,
} from '../../../src/index.js';
import {
  B64_KEY,
  expectNoKey,
  keyForms,
  keyLeaks,
  observedClient,
  renderings as everyRendering,
  shown,
  leaksOf,
} from '../../helpers/key-forms.js';
import { makeClient } from '../../helpers/msw.js';
import { collect } from '../../helpers/pages.js';
import { recordingLogger } from '../../helpers/recorders.js';
import { CHARGE_PATH, jsonReply, route, textReply, TRANSFER_PARAMS, TRANSFERS_PATH } from '../../helpers/requests.js';
import { API_KEY, BASE_URL, CHARGE_ID, chargeJson, success, transferJson } from '../../helpers/fixtures.js';
import { rejection, thrown } from '../../helpers/rejection.js';
import { successResponse, wireClient } from '../../helpers/wire.js';

const unmockedFetch = globalThis.fetch;
const ELSEWHERE = 'https://elsewhere.lunas.test';

afterEach(() => {
  vi.useRealTimers();
});

describe('the API key never appears in an error', () => {
  it('when a 401 body echoes it', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(401, { status: 'error', message: `Invalid API key ${API_KEY}` }));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(AuthenticationError);
    // The service's message is kept, with the key masked.
    expect((error as Error).message).toContain('Invalid API key [REDACTED]');
    expectNoKey(error, API_KEY);
  });

  it('when a 400 field map echoes it', async () => {
    route('POST', TRANSFERS_PATH, () =>
      jsonReply(400, { status: 'fail', data: { authorization: [`Bearer ${API_KEY} is not allowed here`] } }),
    );
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fields.authorization).toEqual(['Bearer [REDACTED] is not allowed here']);
    expectNoKey(error, API_KEY);
  });

  it('when an HTML 5xx page echoes it', async () => {
    route('GET', CHARGE_PATH, () => textReply(502, `<html><pre>Authorization: Bearer ${API_KEY}</pre></html>`));
    const error = await rejection(makeClient({ maxRetries: 0 }).charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).body).toContain('Bearer [REDACTED]');
    expectNoKey(error, API_KEY);
  });

  it('when a 2xx body that is not JSON echoes it', async () => {
    route('GET', CHARGE_PATH, () => textReply(200, `debug: key=${API_KEY}`));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('debug: key=[REDACTED]');
    expectNoKey(error, API_KEY);
  });

  it('when a 2xx body of the wrong shape echoes it', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ amount: { key: API_KEY } }))));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error, API_KEY);
  });

  it('when the connection fails, after retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    route('POST', TRANSFERS_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoKey(error, API_KEY);
  });

  it('when an attempt times out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    route('GET', CHARGE_PATH, async () => {
      await delay(5000);
      return jsonReply(200, success(chargeJson()));
    });
    const outcome = rejection(makeClient({ timeout: 100, maxRetries: 0 }).charges.retrieve(CHARGE_ID));
    await vi.advanceTimersByTimeAsync(200);
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expectNoKey(error, API_KEY);
  });

  it('when the caller aborts', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expectNoKey(error, API_KEY);
  });

  it('when a header is refused', async () => {
    const error = await rejection(
      makeClient().charges.retrieve(CHARGE_ID, { headers: { 'x-debug': `key ${API_KEY}\r\n` } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expectNoKey(error, API_KEY);
  });

  it('when a refused connection reports its cause (a real socket, no msw)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = makeClient({ baseURL: `http://127.0.0.1:${port}`, fetch: unmockedFetch, maxRetries: 0 });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoKey(error, API_KEY);
  });

  it('when the server echoes it JSON-escaped (a key with "/", as PHP json_encode writes it)', async () => {
    const key = 'sk_live/Zm9v+YmFy';
    const escaped = JSON.stringify(`Invalid API key ${key}`).replaceAll('/', '\\/');
    const body = `{"status":"error","message":${escaped}}`;
    route('GET', CHARGE_PATH, (attempt) =>
      textReply(attempt === 1 ? 503 : 401, body, { 'content-type': 'application/json', 'retry-after-ms': '0' }),
    );
    const { lines, logger } = recordingLogger();
    const client = new Client({ apiKey: key, baseURL: BASE_URL, logger, logLevel: 'debug' });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('Invalid API key');
    expectNoKey(error, key);
    // The retry after the 503 is logged at info with the service's message.
    expect(lines.some((line) => line.includes('retrying') && line.includes('Invalid API key'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(key);
  });
});

/** Runs `make` with LUNAS_API_KEY set to the base64-style key. */
function withEnvKey<T>(make: () => T): T {
  vi.stubEnv('LUNAS_API_KEY', B64_KEY);
  try {
    return make();
  } finally {
    vi.unstubAllEnvs();
  }
}

describe('the API key never appears in any form: literal, percent-encoded or JSON-escaped', () => {
  it('passed as an id (percent-encoded in the path): refused as `id` before sending, in no message, event or line', async () => {
    const { client, lines, events } = observedClient(B64_KEY, () => {
      throw new Error('sent');
    });
    const error = await rejection(client.charges.retrieve(B64_KEY));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual(['id']);
    expect(events).toEqual([]);
    expect(keyLeaks(shown(error, events, lines), B64_KEY)).toEqual([]);
  });

  it('in a raw call’s query, as a name and as a value, also encoded by the caller: refused before sending', async () => {
    const { client, lines, events } = observedClient(B64_KEY, () => {
      throw new Error('sent');
    });
    const query = { [B64_KEY]: 'x', value: B64_KEY, pre: encodeURIComponent(B64_KEY), twice: 'a' };
    query.twice = encodeURIComponent(query.pre);
    const error = await rejection(client.get('/v1/things', { query }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual([
      'query.[REDACTED]',
      'query.value',
      'query.pre',
      'query.twice',
    ]);
    expect(events).toEqual([]);
    expect(keyLeaks(shown(error, events, lines), B64_KEY)).toEqual([]);
  });

  it('in a raw call’s path, where the URL serialiser would encode some characters and not others: refused', async () => {
    const key = 'sk_live_"quoted"{braced}<angled>`ticked`+/=';
    const { client, lines, events } = observedClient(key, () => {
      throw new Error('sent');
    });
    for (const path of [`/v1/things/${key}`, `/v1/things/${encodeURIComponent(key)}`]) {
      const error = await rejection(client.get(path));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['path']);
      expect(keyLeaks(shown(error, events, lines), key)).toEqual([]);
    }
    expect(events).toEqual([]);
  });

  it('in a raw path refused before sending: the path quoted in the message is masked before it is cut short', async () => {
    const { client, lines, events } = observedClient(B64_KEY, () => successResponse({}));
    const short = await rejection(client.get(`/v1/things/${B64_KEY}?page=2`));
    expect(short).toBeInstanceOf(RequestValidationError);
    expect((short as Error).message).toContain('(got "/v1/things/[REDACTED]?page=2")');
    // 45 characters before the key: cut at 60, an unmasked path would show the key's first 15.
    const long = await rejection(client.get(`/v1/${'a'.repeat(40)}/${B64_KEY}#top`));
    expect(long).toBeInstanceOf(RequestValidationError);
    expect((long as Error).message).toContain(`/[REDACTED]#top`);
    expect((long as Error).message).not.toContain(B64_KEY.slice(0, 8));
    expect(events).toEqual([]);
    expect(keyLeaks([...shown(short, [], lines), ...shown(long, [], lines)], B64_KEY)).toEqual([]);
  });

  it('in what a caller passed and lunas refuses before sending: a query name, a body whose toJSON names it', async () => {
    const { client, lines, events } = observedClient(B64_KEY, () => successResponse({}));
    const query = await rejection(client.get('/v1/things', { query: { [B64_KEY]: Number.NaN } }));
    expect(query).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((query as RequestValidationError).fields)).toEqual(['query.[REDACTED]']);
    const body = await rejection(
      client.post('/v1/things', {
        body: {
          toJSON: () => {
            throw new Error(`cannot send ${encodeURIComponent(B64_KEY)}`);
          },
        },
      }),
    );
    expect(body).toBeInstanceOf(RequestValidationError);
    expect((body as Error).message).toContain('Body must be JSON-serialisable: cannot send [REDACTED]');
    expect(events).toEqual([]);
    expect(keyLeaks([...shown(query, [], lines), ...shown(body, [], lines)], B64_KEY)).toEqual([]);
  });

  it('used as a name (or a value) in whatever lunas refuses by name before sending: each refusal quotes it masked', async () => {
    const { client, lines, events } = observedClient(B64_KEY, () => successResponse({}));
    // Typed as no option at all: what a JavaScript caller can pass.
    const named: object = { [B64_KEY]: 1 };
    const refusals: [string, unknown][] = [
      ['a client option', thrown(() => new Client({ apiKey: B64_KEY, baseURL: BASE_URL, ...named }))],
      ['a client option, the key from the environment', thrown(() => withEnvKey(() => new Client({ ...named })))],
      [
        'a default header',
        thrown(() => new Client({ apiKey: B64_KEY, baseURL: BASE_URL, defaultHeaders: { [`x${B64_KEY}`]: 'v' } })),
      ],
      ['a withOptions option', thrown(() => client.withOptions(named))],
      ['a request option', await rejection(client.charges.retrieve(CHARGE_ID, named))],
      ['a header', await rejection(client.charges.retrieve(CHARGE_ID, { headers: { [`x${B64_KEY}`]: 'v' } }))],
      ['a raw call option', await rejection(client.get('/v1/things', named))],
      ['a raw call query value', await rejection(client.get('/v1/things', { query: { q: `${B64_KEY}\uD800` } }))],
      ['a charge field', await rejection(client.charges.create({ payment_method: 'qris', amount: 10_000, ...named }))],
      ['a transfer field', await rejection(client.transfers.create({ ...named } as never))],
      ['a list parameter', await rejection(client.payouts.list(named as never))],
      ['a toArray option', await rejection(client.payouts.list().toArray({ limit: 5, ...named }))],
      ['a since time', await rejection(collect(client.charges.list().since(B64_KEY)))],
      [
        'a since toArray option',
        await rejection(
          client.charges
            .list()
            .since(new Date())
            .toArray({ limit: 5, ...named }),
        ),
      ],
      ['a confirm option', await rejection(client.webhooks.confirm('{"type":"other"}', named))],
    ];
    for (const [where, refusal] of refusals) {
      expect(refusal, where).toBeInstanceOf(LunasError);
      expect((refusal as Error).message, where).toContain('[REDACTED]');
      expect(keyLeaks(everyRendering(refusal), B64_KEY), where).toEqual([]);
    }
    expect(events).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a key longer than a quote shows, used as a name: the quote cut short after 40 characters is masked too', async () => {
    const longKey = `sk_live_${'Zm9v+YmFy/cXV4'.repeat(4)}`;
    const { client } = observedClient(longKey, () => successResponse({}));
    const named: object = { [longKey]: 1 };
    const refusals = [
      thrown(() => new Client({ apiKey: longKey, baseURL: BASE_URL, ...named })),
      await rejection(client.charges.retrieve(CHARGE_ID, named)),
      await rejection(client.payouts.list().toArray({ limit: 5, ...named })),
    ];
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(LunasError);
      expect((refusal as Error).message).toContain('[REDACTED]…');
      for (const text of everyRendering(refusal)) expect(text).not.toContain(longKey.slice(0, 12));
    }
  });

  it.each([
    [
      'percent-encoded, lower-case hex',
      (key: string) => encodeURIComponent(key).replace(/%../g, (e) => e.toLowerCase()),
    ],
    ['percent-encoded twice', (key: string) => encodeURIComponent(encodeURIComponent(key))],
    ['JSON-escaped in a text body', (key: string) => JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/')],
    ['as \\u escapes in upper-case hex', (key: string) => keyForms(key).at(-1)!],
  ])('echoed by the service %s: masked in the message and the body', async (_form, write) => {
    const echo = write(B64_KEY);
    expect(echo).not.toContain(B64_KEY);
    const { client, lines, events } = observedClient(
      B64_KEY,
      () => new Response(`<pre>Unauthorized: Bearer ${echo}</pre>`, { status: 401, headers: { 'x-echo': echo } }),
    );
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).body).toBe('<pre>Unauthorized: Bearer [REDACTED]</pre>');
    expect((error as AuthenticationError).headers.get('x-echo')).toBe('[REDACTED]');
    expect(keyLeaks(shown(error, events, lines), B64_KEY)).toEqual([]);
  });
});

describe('a custom fetch’s own error', () => {
  /** A fetch that throws what `make` builds from the request it was given. */
  function throwingClient(make: (request: Request) => unknown) {
    return observedClient(API_KEY, (request) => {
      throw make(request);
    });
  }

  it.each([
    ['the Request', (request: Request) => ({ request })],
    ['its Headers', (request: Request) => ({ headers: request.headers })],
    ['a Map of its headers', (request: Request) => ({ headers: new Map(request.headers) })],
    [
      'an axios-style config, deeper than any scan',
      (request: Request) => ({
        response: {
          request: { config: { transport: { headers: { Authorization: request.headers.get('authorization') } } } },
        },
      }),
    ],
    [
      'a hidden getter',
      (request: Request) =>
        Object.defineProperty({}, 'auth', { get: () => request.headers.get('authorization'), enumerable: false }),
    ],
  ])('carrying %s is not attached: its name, message, code and causes are', async (_carrier, carry) => {
    let thrown: unknown;
    const { client, lines, events } = throwingClient((request) => {
      const inner = Object.assign(
        new Error('connect ECONNREFUSED 10.0.0.1:443'),
        { code: 'ECONNREFUSED' },
        carry(request),
      );
      thrown = Object.assign(new TypeError('fetch failed', { cause: inner }), { code: 'E_FETCH' }, carry(request));
      return thrown;
    });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      `GET ${BASE_URL}/v1/payments/charges/${CHARGE_ID} got no response: fetch failed: connect ECONNREFUSED 10.0.0.1:443`,
    );
    const cause = (error as Error).cause as Error & { code?: unknown };
    expect(cause).not.toBe(thrown);
    expect([cause.name, cause.message, cause.code, Object.keys(cause)]).toEqual([
      'TypeError',
      'fetch failed',
      'E_FETCH',
      ['code'],
    ]);
    const inner = cause.cause as Error & { code?: unknown };
    expect([inner.name, inner.message, inner.code, Object.keys(inner)]).toEqual([
      'Error',
      'connect ECONNREFUSED 10.0.0.1:443',
      'ECONNREFUSED',
      ['code'],
    ]);
    expect(inner.cause).toBeUndefined();
    const [response] = events.filter(({ name }) => name === 'response');
    expect((response!.event as { error?: unknown }).error).toBe(error);
    expect(keyLeaks(shown(error, events, lines), API_KEY)).toEqual([]);
  });

  it('naming the key in its message, name or code: each is masked', async () => {
    const { client, lines, events } = throwingClient((request) => {
      const authorization = request.headers.get('authorization')!;
      return Object.assign(new Error(`refused ${authorization}`), { name: `Err ${API_KEY}`, code: `E_${API_KEY}` });
    });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionError);
    const cause = (error as Error).cause as Error & { code?: unknown };
    expect([cause.name, cause.message, cause.code]).toEqual([
      'Err [REDACTED]',
      'refused Bearer [REDACTED]',
      'E_[REDACTED]',
    ]);
    expect(keyLeaks(shown(error, events, lines), API_KEY)).toEqual([]);
  });

  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const trap = () => {
    throw new Error(`trap ${API_KEY}`);
  };
  const cycle: Error = new Error('a cycle');
  cycle.cause = new Error('back', { cause: cycle });
  let deep: unknown = 'the bottom';
  for (let depth = 0; depth < 100; depth++) deep = new Error(`level ${depth}`, { cause: deep });

  it.each<[string, unknown, RegExp]>([
    ['a string', `no route to ${API_KEY}`, /got no response: no route to \[REDACTED\]$/],
    ['a number', 42, /got no response: 42$/],
    ['null', null, /got no response: null$/],
    ['undefined', undefined, /got no response: undefined$/],
    ['a symbol', Symbol(API_KEY), /got no response: Symbol\(\[REDACTED\]\)$/],
    ['a null-prototype object', Object.create(null), /got no response: a thrown object without a message$/],
    [
      'an object whose getters throw',
      Object.defineProperties(
        {},
        { message: { get: trap }, name: { get: trap }, cause: { get: trap }, code: { get: trap } },
      ),
      /got no response: a thrown object without a message$/,
    ],
    [
      'a Proxy whose every trap throws',
      new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap }),
      /without a message$/,
    ],
    ['a revoked Proxy', revoked.proxy, /without a message$/],
    [
      'an error whose message is an object',
      Object.assign(new Error(), { message: { toString: () => API_KEY } }),
      /without a message$/,
    ],
    ['an error whose cause is itself, two levels up', cycle, /got no response: a cycle: back$/],
    ['a cause chain 100 deep', deep, /got no response: level 99: level 98: level 97: level 96: level 95$/],
  ])('thrown as %s rejects with APIConnectionError', async (_kind, value, message) => {
    const { client, lines, events } = throwingClient(() => value);
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(message);
    expect(events.map(({ name }) => name)).toEqual(['request', 'response']);
    expect(keyLeaks(shown(error, events, lines), API_KEY)).toEqual([]);
  });
});

describe('channels a body echo does not reach', () => {
  it('a response header echoing the key appears in no error and no response info', async () => {
    const echo = { 'x-debug-authorization': `Bearer ${API_KEY}`, 'x-request-id': `req_${API_KEY}` };
    const { client } = wireClient((request) =>
      request.url.pathname === '/v1/transfers'
        ? Response.json({ status: 'error', message: 'busy' }, { status: 503, headers: echo })
        : successResponse(transferJson(), 200),
    );
    const error = await client.transfers
      .create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIError);

    const { client: succeeding } = wireClient(() =>
      Response.json({ status: 'success', data: transferJson() }, { headers: echo }),
    );
    const transfer = await succeeding.transfers.create({
      destination_account_id: 'acc_partner',
      amount: 1,
      currency: 'idr',
    });
    expect(leaksOf([error, transfer, getResponseInfo(transfer)], API_KEY)).toEqual([]);
  });

  it('a custom fetch whose failure carries the request’s headers (as HTTP-client wrappers do) leaks nothing', async () => {
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const authorization = request.headers.get('authorization');
      throw Object.assign(new TypeError(`request to ${request.url} failed (Authorization: ${authorization})`), {
        config: { url: request.url, headers: { Authorization: authorization } },
      });
    };
    const client = new Client({
      apiKey: API_KEY,
      baseURL: 'https://api.lunas.test',
      fetch,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await client.charges.retrieve('ch_1').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(leaksOf([error], API_KEY)).toEqual([]);
  });
});

describe('a 3xx from the service', () => {
  /** The other origin's routes, answering every method with a valid transfer or charge. */
  function elsewhere() {
    const transfers = route('ALL', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())), ELSEWHERE);
    const charges = route('ALL', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), ELSEWHERE);
    const raw = route('ALL', '/v1/payouts', () => jsonReply(200, success({ id: 'po_1' })), ELSEWHERE);
    return { count: () => transfers.length + charges.length + raw.length };
  }

  it('a Location holding the API key is masked in the message and the headers', async () => {
    elsewhere();
    route(
      'POST',
      TRANSFERS_PATH,
      () => new Response(null, { status: 302, headers: { location: `/x?key=${API_KEY}` } }),
    );
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS), APIError);
    expect(error.message).toContain('redirect to /x?key=[REDACTED]');
    expect(error.headers.get('location')).toBe('/x?key=[REDACTED]');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });
});

describe('client options', () => {
  const base = { apiKey: API_KEY, baseURL: BASE_URL };

  it('never echoes the value, which may be the key itself', () => {
    const secret = 'sk_live_value_never_echoed_4b1e';
    const error = thrown(() => new Client({ ...base, apikey: secret } as ClientOptions), LunasError);
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
  });
});
