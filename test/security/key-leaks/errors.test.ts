/**
 * Security: the API key never leaks (errors, JSON, util.inspect, logs), it is
 * sent only as `Authorization: Bearer`, and per-call headers and keys cannot
 * smuggle in other headers or override the SDK's own.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Client,
  InternalServerError,
  LunasError,
  RequestValidationError,
  ResponseValidationError,
} from '../../../src/index.js';
import { keyForms, keyLeaks, renderings as everyRendering } from '../../helpers/key-forms.js';
import { makeClient } from '../../helpers/msw.js';
import { collect } from '../../helpers/pages.js';
import { recordEvents, recordingLogger } from '../../helpers/recorders.js';
import {
  CHARGE_PATH,
  CHARGES_PATH,
  countRequests,
  jsonReply,
  route,
  textReply,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../helpers/requests.js';
import {
  API_KEY,
  BASE_URL,
  CHARGE_ID,
  chargeJson,
  createdChargeJson,
  success,
  transferJson,
} from '../../helpers/fixtures.js';
import { rejection, thrown } from '../../helpers/rejection.js';
import { sleep } from '../../helpers/waiting.js';
import { successResponse } from '../../helpers/wire.js';

const unmockedFetch = globalThis.fetch;
const deep = { depth: 10, showHidden: true } as const;

afterEach(() => {
  vi.useRealTimers();
});

/** Every rendering of `value` a merchant might log or ship to an error tracker. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, deep), JSON.stringify(value) ?? '', String(value)];
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

function expectNoKey(value: unknown, key: string = API_KEY): void {
  for (const text of renderings(value)) expect(text).not.toContain(key);
}

describe('the API key never appears in an error', () => {
  it('when a 401 body echoes it', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(401, { status: 'error', message: `Invalid API key ${API_KEY}` }));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(AuthenticationError);
    // The service's message is kept, with the key masked.
    expect((error as Error).message).toContain('Invalid API key [REDACTED]');
    expectNoKey(error);
  });

  it('when a 400 field map echoes it', async () => {
    route('POST', TRANSFERS_PATH, () =>
      jsonReply(400, { status: 'fail', data: { authorization: [`Bearer ${API_KEY} is not allowed here`] } }),
    );
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fields.authorization).toEqual(['Bearer [REDACTED] is not allowed here']);
    expectNoKey(error);
  });

  it('when an HTML 5xx page echoes it', async () => {
    route('GET', CHARGE_PATH, () => textReply(502, `<html><pre>Authorization: Bearer ${API_KEY}</pre></html>`));
    const error = await rejection(makeClient({ maxRetries: 0 }).charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).body).toContain('Bearer [REDACTED]');
    expectNoKey(error);
  });

  it('when a 2xx body that is not JSON echoes it', async () => {
    route('GET', CHARGE_PATH, () => textReply(200, `debug: key=${API_KEY}`));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('debug: key=[REDACTED]');
    expectNoKey(error);
  });

  it('when a 2xx body of the wrong shape echoes it', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ amount: { key: API_KEY } }))));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
  });

  it('when the connection fails, after retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    route('POST', TRANSFERS_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoKey(error);
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
    expectNoKey(error);
  });

  it('when the caller aborts', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expectNoKey(error);
  });

  it('when a header is refused', async () => {
    const error = await rejection(
      makeClient().charges.retrieve(CHARGE_ID, { headers: { 'x-debug': `key ${API_KEY}\r\n` } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expectNoKey(error);
  });

  it('when a refused connection reports its cause (a real socket, no msw)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = makeClient({ baseURL: `http://127.0.0.1:${port}`, fetch: unmockedFetch, maxRetries: 0 });
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoKey(error);
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

/** A base64-style key: `+`, `/` and `=` are percent-encoded in a query or an id. */
const B64_KEY = 'sk_live_Zm9v+YmFy/cXV4==';

/** A client with `key` whose requests go to `respond`, its events and debug lines recorded. */
function observedClient(key: string, respond: (request: Request) => Response | Promise<Response>) {
  const { lines, logger } = recordingLogger();
  const client = new Client({
    apiKey: key,
    baseURL: BASE_URL,
    maxRetries: 0,
    logger,
    logLevel: 'debug',
    fetch: async (input, init) => respond(new Request(input, init)),
  });
  return { client, lines, events: recordEvents(client) };
}

/** Runs `make` with LUNAS_API_KEY set to the base64-style key. */
function withEnvKey<T>(make: () => T): T {
  vi.stubEnv('LUNAS_API_KEY', B64_KEY);
  try {
    return make();
  } finally {
    vi.unstubAllEnvs();
  }
}

/** What a call handed back or showed anywhere: the error's renderings, every event, every log line. */
function shown(error: unknown, events: unknown[], lines: string[]): string[] {
  return [...everyRendering(error), ...events.flatMap(everyRendering), ...lines];
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

  it('a body whose toJSON throws a value that is not an error is refused with RequestValidationError', async () => {
    const { client } = observedClient(B64_KEY, () => successResponse({}));
    for (const thrown of [
      Object.create(null),
      Symbol('x'),
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
    ]) {
      const error = await rejection(
        client.post('/v1/things', {
          body: {
            toJSON: () => {
              throw thrown;
            },
          },
        }),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['body']);
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

describe('the API key is never sent in a request’s parameters', () => {
  /** A client with the base64-style key on msw, every request it sends counted, its events and debug lines recorded. */
  function guarded() {
    const { lines, logger } = recordingLogger();
    const client = makeClient({ apiKey: B64_KEY, logger, logLevel: 'debug' });
    return { client, lines, events: recordEvents(client), sent: countRequests() };
  }

  /**
   * `error` refuses exactly `fields` for holding the key, each message naming
   * its field; nothing was sent, and no rendering of the error (message,
   * stack, `fields`, JSON, `util.inspect`), event or line holds any form of
   * the key or its first or last 12 characters.
   */
  function expectKeyRefused(error: unknown, fields: string[], seen: ReturnType<typeof guarded>): void {
    expect(error).toBeInstanceOf(RequestValidationError);
    const refused = (error as RequestValidationError).fields;
    expect(Object.keys(refused)).toEqual(fields);
    for (const field of fields)
      expect(refused[field]).toEqual([expect.stringContaining(`The client's API key is in ${field}: `)]);
    expect(seen.sent.count()).toBe(0);
    expect(seen.events).toEqual([]);
    expect(seen.lines).toEqual([]);
    const texts = [...everyRendering(error), ...everyRendering(refused)];
    expect(keyLeaks(texts, B64_KEY)).toEqual([]);
    for (const text of texts) {
      expect(text).not.toContain(B64_KEY.slice(0, 12));
      expect(text).not.toContain(B64_KEY.slice(-12));
    }
  }

  const charge = { payment_method: 'qris', amount: 10_000 } as const;
  const tea = { name: 'Tea', price: 5_000, quantity: 1 };

  it.each<[string, (client: Client) => Promise<unknown>, string[]]>([
    [
      'charges.create, the key as the description',
      (c) => c.charges.create({ ...charge, description: B64_KEY }),
      ['description'],
    ],
    [
      'charges.create, the key inside a longer description',
      (c) => c.charges.create({ ...charge, description: `Support: use key ${B64_KEY} for refunds` }),
      ['description'],
    ],
    [
      'charges.create, a customer’s name',
      (c) => c.charges.create({ ...charge, customer_details: { name: `Siti ${B64_KEY}` } }),
      ['customer_details.name'],
    ],
    [
      'charges.create, an item’s name',
      (c) => c.charges.create({ ...charge, items: [tea, { ...tea, name: B64_KEY }] }),
      ['items.1.name'],
    ],
    [
      'charges.create, a reference and a channel',
      (c) => c.charges.create({ ...charge, channel: B64_KEY, client_reference_id: `ref-${B64_KEY}` }),
      ['channel', 'client_reference_id'],
    ],
    [
      'charges.create, a virtual account’s name',
      (c) =>
        c.charges.create({
          payment_method: 'virtual_account',
          amount: 10_000,
          payment_method_options: { virtual_account: { account_name: B64_KEY } },
        }),
      ['payment_method_options.virtual_account.account_name'],
    ],
    [
      'charges.create, a name in payment_method_options (masked in the field)',
      (c) => c.charges.create({ ...charge, payment_method_options: { qris: { [B64_KEY]: true } } }),
      ['payment_method_options.qris.[REDACTED]'],
    ],
    ['charges.retrieve, the id', (c) => c.charges.retrieve(B64_KEY), ['id']],
    [
      'transfers.create, the description and the reference',
      (c) => c.transfers.create({ ...TRANSFER_PARAMS, description: `for ${B64_KEY}`, client_reference_id: B64_KEY }),
      ['client_reference_id', 'description'],
    ],
    [
      'transfers.create, the destination',
      (c) => c.transfers.create({ ...TRANSFER_PARAMS, destination_account_id: B64_KEY }),
      ['destination_account_id'],
    ],
    [
      'raw post, a nested field',
      (c) => c.post('/v1/things', { body: { metadata: { note: `key=${B64_KEY}` } } }),
      ['body.metadata.note'],
    ],
    [
      'raw post, an array’s item',
      (c) => c.post('/v1/things', { body: { items: [{ name: 'Tea' }, { name: B64_KEY }], tags: ['a', B64_KEY] } }),
      ['body.items.1.name', 'body.tags.1'],
    ],
    [
      'raw post, a name (masked in the field)',
      (c) => c.post('/v1/things', { body: { metadata: { [B64_KEY]: 'x' } } }),
      ['body.metadata.[REDACTED]'],
    ],
    ['raw post, the whole body', (c) => c.post('/v1/things', { body: B64_KEY }), ['body']],
    [
      'raw post, what a toJSON returns',
      (c) => c.post('/v1/things', { body: { when: { toJSON: () => `at ${B64_KEY}` } } }),
      ['body.when'],
    ],
    ['raw get, a query value', (c) => c.get('/v1/things', { query: { q: B64_KEY, page: 1 } }), ['query.q']],
    ['raw get, the path', (c) => c.get(`/v1/things/${B64_KEY}/items`), ['path']],
  ])('%s: refused before sending, naming the field, never the key', async (_where, call, fields) => {
    const seen = guarded();
    expectKeyRefused(await rejection(call(seen.client)), fields, seen);
  });

  it('refuses each form the key is masked in (encoded, escaped); sends a case variant or a part of it', async () => {
    const seen = guarded();
    const refused = [
      encodeURIComponent(B64_KEY),
      encodeURIComponent(B64_KEY).replace(/%../g, (escape) => escape.toLowerCase()),
      encodeURIComponent(encodeURIComponent(B64_KEY)),
      JSON.stringify(B64_KEY).slice(1, -1).replaceAll('/', '\\/'),
      keyForms(B64_KEY).at(-1)!,
    ];
    for (const form of refused) {
      expect(form).not.toContain(B64_KEY);
      const error = await rejection(seen.client.charges.create({ ...charge, description: `key: ${form}` }));
      expectKeyRefused(error, ['description'], seen);
    }
    // Not the key: what the service would refuse as a credential, and what every key shares.
    const created = route('POST', CHARGES_PATH, () => jsonReply(200, success(createdChargeJson())));
    for (const other of [B64_KEY.toUpperCase(), B64_KEY.slice(0, -1), B64_KEY.slice(1), 'sk_live_']) {
      await seen.client.charges.create({ ...charge, description: other });
    }
    expect(created.map((request) => (JSON.parse(request.body) as { description: string }).description)).toEqual([
      B64_KEY.toUpperCase(),
      B64_KEY.slice(0, -1),
      B64_KEY.slice(1),
      'sk_live_',
    ]);
  });

  it('the client’s own key only: another key in a parameter is sent as it is', async () => {
    const seen = guarded();
    const created = route('POST', CHARGES_PATH, () => jsonReply(200, success(createdChargeJson())));
    await seen.client.charges.create({ ...charge, description: API_KEY });
    expect(created).toHaveLength(1);
    const error = await rejection(makeClient().charges.create({ ...charge, description: API_KEY }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(created).toHaveLength(1);
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

describe('the API key never appears in the client or in results', () => {
  it('util.inspect and JSON.stringify of a client', () => {
    const client = makeClient({ defaultHeaders: { 'x-tenant': 'acme' } });
    expectNoKey(client);
    expectNoKey(client.withOptions({ timeout: 1000 }));
    expectNoKey(client.charges);
    expectNoKey(client.transfers);
  });

  it('of a client whose key came from the environment', () => {
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_secret_91');
    try {
      expectNoKey(new Client({ baseURL: BASE_URL, logLevel: 'off' }), 'sk_env_secret_91');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('util.inspect and JSON.stringify of a returned resource and of a page', async () => {
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [chargeJson()], page: 1, page_size: 1, total_items: 2 }),
    );
    const client = makeClient();
    const transfer = await client.transfers.create(TRANSFER_PARAMS);
    const page = await client.charges.list({ pagesize: 1 });
    expect(transfer.id).toBe('tr_123');
    expect(page.data).toHaveLength(1);
    expectNoKey(transfer);
    expectNoKey(page);
    expectNoKey(page.data[0]);
  });

  it('of a list promise before it is awaited', () => {
    const pending = makeClient().charges.list();
    expectNoKey(pending);
  });
});

describe('the API key never appears in a log line', () => {
  it('even when the server echoes it in an error body and debug logging is on', async () => {
    route('POST', TRANSFERS_PATH, (attempt) =>
      attempt < 3
        ? jsonReply(500, { status: 'error', message: `upstream rejected Bearer ${API_KEY}` }, { 'retry-after-ms': '0' })
        : jsonReply(200, success(transferJson())),
    );
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: 'debug' }).transfers.create(TRANSFER_PARAMS);

    expect(lines.length).toBeGreaterThanOrEqual(5); // 3 attempts, 2 retries
    expect(lines.some((line) => line.includes('upstream rejected Bearer [REDACTED]'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(API_KEY);
  });

  it('nor in the lines of a call that finally fails', async () => {
    route('GET', CHARGE_PATH, () => textReply(503, `<h1>${API_KEY}</h1>`, { 'retry-after-ms': '0' }));
    const { lines, logger } = recordingLogger();
    const error = await rejection(makeClient({ logger, logLevel: 'debug' }).charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(line).not.toContain(API_KEY);
  });
});

describe('Authorization', () => {
  it('is Bearer <key> on every request and every attempt', async () => {
    const one = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'x' }, { 'retry-after-ms': '0' })
        : jsonReply(200, success(chargeJson())),
    );
    const post = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const list = route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [], page: 1, page_size: 10, total_items: 0 }),
    );
    const client = makeClient();
    await client.charges.retrieve(CHARGE_ID);
    await client.transfers.create(TRANSFER_PARAMS);
    await client.charges.list();

    const all = [...one, ...post, ...list];
    expect(all).toHaveLength(4);
    for (const request of all) expect(request.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('the key travels only in the Authorization header', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    await makeClient().transfers.create(TRANSFER_PARAMS);
    const [request] = seen;
    expect(request!.url.href).not.toContain(API_KEY);
    expect(request!.body).not.toContain(API_KEY);
    const carrying = [...request!.headers].filter(([, value]) => value.includes(API_KEY)).map(([name]) => name);
    expect(carrying).toEqual(['authorization']);
  });

  it('never reaches another origin a redirect points to (real sockets, no msw)', async () => {
    const received: IncomingHttpHeaders[] = [];
    const other = createServer((request, response) => {
      received.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(success(chargeJson())));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: `http://localhost:${(other.address() as AddressInfo).port}/collect` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = redirecting.address() as AddressInfo;
      const client = makeClient({ baseURL: `http://127.0.0.1:${port}`, fetch: unmockedFetch, maxRetries: 0 });
      // The redirect is not followed: nothing at all, the key least of all, is sent there.
      const error = await rejection(client.charges.retrieve(CHARGE_ID), APIError);
      expect(error.status).toBe(307);
      expect(received).toEqual([]);
    } finally {
      redirecting.close();
      other.close();
    }
  });
});

describe('per-call headers', () => {
  it('are sent, and override default headers of the same name', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const client = makeClient({ defaultHeaders: { 'x-tenant': 'acme', 'x-default': 'kept' } });
    await client.transfers.create(TRANSFER_PARAMS, { headers: { 'x-tenant': 'globex', 'x-call': 'c-1' } });
    const [request] = seen;
    expect(request!.headers.get('x-tenant')).toBe('globex');
    expect(request!.headers.get('x-default')).toBe('kept');
    expect(request!.headers.get('x-call')).toBe('c-1');
    expect(request!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('override default headers whatever the case of their names, never joining both values', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient({ defaultHeaders: { 'X-Tenant': 'acme' } });
    await client.charges.retrieve(CHARGE_ID, { headers: { 'x-tenant': 'globex' } });
    // Header names are case-insensitive: 'acme, globex' would tell the service both tenants.
    expect(seen[0]!.headers.get('x-tenant')).toBe('globex');
  });

  it('apply to one call only', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient();
    await client.charges.retrieve(CHARGE_ID, { headers: { 'x-call': 'once' } });
    await client.charges.retrieve(CHARGE_ID);
    expect(seen.map((request) => request.headers.get('x-call'))).toEqual(['once', null]);
  });

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
