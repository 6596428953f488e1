/**
 * core/call/request.ts, the request primitive. Raw calls, `client.get` and
 * `client.post`: the same rules as the resource methods (retries, timeout,
 * signal, Idempotency-Key, envelopes, typed errors), results checked by any
 * Standard Schema, and paths, bodies and queries refused before sending when
 * they could leave the base URL or be lost on the way. Also the `path` tag's
 * ids, getResponseInfo, and a resource built outside Client.
 */
import { http, HttpResponse } from 'msw';
import * as zm from 'zod/mini';
import { z as zc } from 'zod';
import { describe, expect, it } from 'vitest';
import { successResponse } from '../../../helpers/wire.js';
import { B64_KEY, observedClient } from '../../../helpers/key-forms.js';
import {
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  getResponseInfo,
  InternalServerError,
  NotFoundError,
  RequestValidationError,
  ResponseValidationError,
  type StandardSchema,
  Charges,
  Client,
  LunasError,
  PaymentMethods,
  Payouts,
  Transfers,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import {
  countRequests,
  jsonReply,
  route,
  textReply,
  CHARGE_PATH,
  CHARGES_PATH,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import { API_KEY, BASE_URL, success, CHARGE_ID, chargeJson, transferJson } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { sleep } from '../../../helpers/waiting.js';
import { UUID_V4 } from '../../../helpers/formats.js';
import { expectRefused } from '../../../helpers/refusals.js';

const PAYOUTS = '/v1/payouts';
const NO_WAIT = { 'retry-after-ms': '0' };
const PAYOUT = { id: 'po_1', amount: '5000.00', status: 'paid', bank: { code: 'bca' } };

describe('client.get', () => {
  it('resolves to the envelope’s data, sends the query, and carries no Idempotency-Key', async () => {
    const seen = route('GET', PAYOUTS, () => jsonReply(200, success([PAYOUT]), { 'x-request-id': 'req_raw' }));
    const client = makeClient();
    const data = await client.get(PAYOUTS, { query: { page: 2, pagesize: 100, expand: true, skip: undefined } });

    expect(data).toEqual([PAYOUT]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.search).toBe('?page=2&pagesize=100&expand=true');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(seen[0]!.headers.get('idempotency-key')).toBeNull();
    expect(seen[0]!.headers.get('content-type')).toBeNull();
    expect(getResponseInfo(data as object)).toMatchObject({ status: 200, requestId: 'req_raw', attempts: 1 });
  });

  it('takes the path with or without its leading slash, under a base URL with a path', async () => {
    const base = 'https://gateway.lunas.test/lunas';
    const seen = route('GET', PAYOUTS, () => jsonReply(200, success([])), base);
    const client = makeClient({ baseURL: base });
    await client.get('/v1/payouts');
    await client.get('v1/payouts');
    expect(seen.map((request) => request.url.pathname)).toEqual(['/lunas/v1/payouts', '/lunas/v1/payouts']);
  });

  it('returns data that is not an object as it came, without response info', async () => {
    route('GET', '/v1/count', () => jsonReply(200, success(42)));
    route('GET', '/v1/nothing', () => jsonReply(200, success(null)));
    const client = makeClient();
    expect(await client.get('/v1/count')).toBe(42);
    expect(await client.get('/v1/nothing')).toBeNull();
  });

  it('retries a 503 and resolves with the second answer', async () => {
    const seen = route('GET', PAYOUTS, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0' })
        : jsonReply(200, success([PAYOUT])),
    );
    const data = await makeClient().get(PAYOUTS);
    expect(seen).toHaveLength(2);
    expect(getResponseInfo(data as object)?.attempts).toBe(2);
  });

  it('honours maxRetries, timeout and signal per call', async () => {
    const seen = route('GET', PAYOUTS, async () => {
      await sleep(1_000);
      return jsonReply(200, success([]));
    });
    const client = makeClient();
    expect(await rejection(client.get(PAYOUTS, { timeout: 50, maxRetries: 0 }))).toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    expect(seen).toHaveLength(1);

    const controller = new AbortController();
    const call = rejection(client.get(PAYOUTS, { signal: controller.signal }));
    await sleep(30);
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
  });

  it('sends per-call headers', async () => {
    const seen = route('GET', PAYOUTS, () => jsonReply(200, success([])));
    await makeClient().get(PAYOUTS, { headers: { 'x-trace-id': 't-1' } });
    expect(seen[0]!.headers.get('x-trace-id')).toBe('t-1');
  });
});

describe('client.post', () => {
  it('sends the body as JSON with a generated Idempotency-Key, the same on every attempt', async () => {
    const body = { destination_account_id: 'acc_partner', amount: 1500, currency: 'idr', tags: ['a', 'ü'] };
    const seen = route('POST', '/v1/transfers', (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0' })
        : jsonReply(200, success({ id: 'tr_1' })),
    );
    const data = await makeClient().post('/v1/transfers', { body });

    expect(data).toEqual({ id: 'tr_1' });
    expect(seen).toHaveLength(2);
    const key = seen[0]!.headers.get('idempotency-key');
    expect(key).toMatch(UUID_V4);
    expect(seen[1]!.headers.get('idempotency-key')).toBe(key);
    expect(getResponseInfo(data as object)).toMatchObject({ idempotencyKey: key, attempts: 2 });
    for (const request of seen) {
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(request.body)).toEqual(body);
    }
  });

  it('uses the caller’s idempotencyKey', async () => {
    const seen = route('POST', '/v1/transfers', () => jsonReply(200, success({ id: 'tr_1' })));
    await makeClient().post('/v1/transfers', { body: {}, idempotencyKey: 'settle-inv-7' });
    expect(seen[0]!.headers.get('idempotency-key')).toBe('settle-inv-7');
  });

  it('without a body: an empty request, no content-type, and still an Idempotency-Key', async () => {
    const seen = route('POST', '/v1/payouts/po_1/cancel', () => jsonReply(200, success({ id: 'po_1' })));
    await makeClient().post('/v1/payouts/po_1/cancel');
    expect(seen[0]!.body).toBe('');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
    expect(seen[0]!.headers.get('idempotency-key')).toMatch(UUID_V4);
  });

  it('a final failure names the key to retry the operation with', async () => {
    route('POST', '/v1/transfers', () => jsonReply(500, { status: 'error', message: 'down' }));
    const error = await rejection(makeClient({ maxRetries: 0 }).post('/v1/transfers', { body: {} }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).idempotencyKey).toMatch(UUID_V4);
  });
});

describe('envelopes and typed errors, as for resource methods', () => {
  it.each<[string, number, unknown, abstract new (...args: never[]) => Error]>([
    [
      'a fail envelope with fields',
      400,
      { status: 'fail', data: { amount: ['Amount must be greater than 0'] } },
      BadRequestError,
    ],
    ['a 404 fail envelope', 404, { status: 'fail', data: { message: 'Not found' } }, NotFoundError],
    ['an error envelope', 500, { status: 'error', message: 'Internal error' }, InternalServerError],
    ['a 2xx carrying a fail envelope', 200, { status: 'fail', data: { message: 'refused' } }, APIError],
    ['a 2xx carrying an error envelope', 200, { status: 'error', message: 'refused' }, APIError],
  ])('%s rejects with its class', async (_label, status, body, Class) => {
    route('GET', PAYOUTS, () => jsonReply(status, body));
    const error = await rejection(makeClient({ maxRetries: 0 }).get(PAYOUTS));
    expect(error).toBeInstanceOf(Class);
    expect((error as APIError).status).toBe(status);
    if (error instanceof BadRequestError) expect(error.fields).toEqual({ amount: ['Amount must be greater than 0'] });
  });

  it.each<[string, () => Response, string]>([
    ['a 2xx that is not JSON', () => textReply(200, '<html>ok</html>', { 'content-type': 'text/html' }), ''],
    ['an empty 2xx', () => textReply(200, ''), ''],
    ['a 2xx JSON array', () => jsonReply(200, [1, 2]), ''],
    ['a 2xx with an unknown status', () => jsonReply(200, { status: 'ok', data: {} }), 'status'],
    ['a success envelope without data', () => jsonReply(200, { status: 'success' }), 'data'],
  ])('%s rejects with ResponseValidationError', async (_label, reply, path) => {
    route('GET', PAYOUTS, reply);
    const error = await rejection(makeClient().get(PAYOUTS));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe(path);
  });
});

describe('schema: any Standard Schema', () => {
  const body = JSON.stringify(success(PAYOUT));

  function serveRaw(text: string = body) {
    return route('GET', '/v1/payouts/po_1', () => textReply(200, text, { 'content-type': 'application/json' }));
  }

  it('zod/mini: the result is the parsed output, unknown fields handled by the schema', async () => {
    serveRaw();
    const schema = zm.object({ id: zm.string(), amount: zm.string(), bank: zm.object({ code: zm.string() }) });
    const payout = await makeClient().get('/v1/payouts/po_1', { schema });
    expect(payout).toEqual({ id: 'po_1', amount: '5000.00', bank: { code: 'bca' } });
    expect(getResponseInfo(payout)?.status).toBe(200);
  });

  it('classic zod, with a transform: the output is what the schema returns', async () => {
    serveRaw();
    const schema = zc.object({ id: zc.string(), amount: zc.string().transform((value) => Number(value)) });
    const payout = await makeClient().get('/v1/payouts/po_1', { schema });
    expect(payout).toEqual({ id: 'po_1', amount: 5000 });
  });

  it.each([
    ['zod/mini', zm.object({ id: zm.string(), bank: zm.object({ code: zm.number() }) })],
    ['classic zod', zc.object({ id: zc.string(), bank: zc.object({ code: zc.number() }) })],
  ])('%s mismatch: ResponseValidationError at data.<field>, with the raw body', async (_label, schema) => {
    serveRaw();
    const error = await rejection(makeClient().get('/v1/payouts/po_1', { schema }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const invalid = error as ResponseValidationError;
    expect(invalid.path).toBe('data.bank.code');
    expect(invalid.body).toBe(body);
    expect(invalid.status).toBe(200);
    expect(invalid.message).toContain('data.bank.code');
  });

  /** A hand-written Standard Schema, as another library would ship it. */
  function idSchema(mode: 'sync' | 'async'): StandardSchema<{ id: string }> {
    const check = (value: unknown) => {
      const id = (value as { id?: unknown } | null)?.id;
      return typeof id === 'string'
        ? { value: { id } }
        : { issues: [{ message: 'id must be a string', path: [{ key: 'id' }] }] };
    };
    return {
      '~standard': {
        version: 1,
        vendor: 'acme-schema',
        validate: (value) => (mode === 'sync' ? check(value) : sleep(5).then(() => check(value))),
      },
    };
  }

  it.each(['sync', 'async'] as const)('a hand-written %s Standard Schema types and checks the result', async (mode) => {
    serveRaw();
    const payout = await makeClient().get('/v1/payouts/po_1', { schema: idSchema(mode) });
    expect(payout).toEqual({ id: 'po_1' });
  });

  it.each(['sync', 'async'] as const)('a hand-written %s Standard Schema’s issues become the error’s', async (mode) => {
    serveRaw(JSON.stringify(success({ id: 7 })));
    const error = await rejection(makeClient().get('/v1/payouts/po_1', { schema: idSchema(mode) }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([{ path: 'data.id', message: 'id must be a string' }]);
  });

  it('a schema that throws (sync or async) rejects with ResponseValidationError, not its own error', async () => {
    const throwing = (validate: () => never | Promise<never>): StandardSchema<unknown> => ({
      '~standard': { version: 1, vendor: 'acme', validate },
    });
    for (const schema of [
      throwing(() => {
        throw new TypeError('boom');
      }),
      throwing(() => Promise.reject(new Error('later boom'))),
    ]) {
      route('GET', PAYOUTS, () => jsonReply(200, success({ id: 'po_1' })));
      const error = await rejection(makeClient().get(PAYOUTS, { schema }));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe('data');
      expect((error as Error).message).toMatch(/the schema threw: (TypeError: boom|Error: later boom)/);
    }
  });

  it('post takes a schema too', async () => {
    route('POST', '/v1/transfers', () => jsonReply(200, success({ id: 'tr_1', amount: 1500 })));
    const schema = zm.object({ id: zm.string() });
    const transfer = await makeClient().post('/v1/transfers', { body: {}, schema });
    expect(transfer).toEqual({ id: 'tr_1' });
  });

  it.each<[string, unknown]>([
    ['an object without ~standard', {}],
    ['a function', () => true],
    ['~standard without validate', { '~standard': { version: 1, vendor: 'x' } }],
    ['a string', 'PayoutSchema'],
  ])('a schema that is not a Standard Schema (%s) is refused before sending', async (_label, schema) => {
    const requests = countRequests();
    for (const call of [
      (client: Client) => client.get(PAYOUTS, { schema: schema as StandardSchema }),
      (client: Client) => client.post('/v1/transfers', { body: {}, schema: schema as StandardSchema }),
    ]) {
      const error = await rejection(call(makeClient()));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['schema']);
    }
    expect(requests.count()).toBe(0);
  });
});

describe('refused before sending: paths', () => {
  /** Records any request, to the base URL or elsewhere, and the Authorization it carried. */
  function everyRequest() {
    const seen: { url: string; authorization: string | null }[] = [];
    server.use(
      http.all('*', ({ request }) => {
        seen.push({ url: request.url, authorization: request.headers.get('authorization') });
        return HttpResponse.json(success({ leaked: true }));
      }),
    );
    return seen;
  }

  it.each<[string, unknown]>([
    ['an absolute URL', 'https://evil.example/x'],
    ['an absolute URL in upper case', 'HTTPS://EVIL.EXAMPLE/x'],
    ['an http URL', 'http://127.0.0.1:9/x'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a host and port', 'evil.example:443/x'],
    ['another scheme', 'javascript:alert(1)'],
    ['a leading ..', '../x'],
    ['a leading .', './v1/payouts'],
    ['.. inside', '/v1/../x'],
    ['.. at the end', '/v1/payouts/..'],
    ['percent-encoded ..', '/v1/%2e%2e/x'],
    ['percent-encoded .. in upper case', '/v1/%2E%2E/x'],
    ['half-encoded ..', '/v1/.%2e/x'],
    ['an empty segment', '/v1//payouts'],
    ['a trailing slash', '/v1/payouts/'],
    ['a query', '/v1/payouts?page=2'],
    ['a fragment', '/v1/payouts#top'],
    ['an empty path', ''],
    ['a lone slash', '/'],
    ['a space', '/v1/pay outs'],
    ['a tab', '/v1/payouts\t'],
    ['a newline', '/v1/payouts\nHost: evil.example'],
    ['a NUL', '/v1/payouts\u0000'],
    ['a DEL', '/v1/payouts\u007f'],
    ['a C1 control', '/v1/payouts\u0085'],
    ['a backslash', '\\\\evil.example\\x'],
    ['a lone surrogate', '/v1/\uD800'],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a URL object', new URL('https://evil.example/x')],
  ])('%s: RequestValidationError on path, nothing sent, the key goes nowhere', async (_label, path) => {
    const seen = everyRequest();
    for (const call of [
      (client: Client) => client.get(path as string),
      (client: Client) => client.post(path as string, { body: { amount: 1 } }),
    ]) {
      const error = await rejection(call(makeClient()));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['path']);
    }
    expect(seen).toEqual([]);
  });

  it('the key goes nowhere with a custom fetch either, and to the base URL for a good path', async () => {
    const calls: { url: string; authorization: string | null }[] = [];
    const client = makeClient({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        calls.push({ url: request.url, authorization: request.headers.get('authorization') });
        return Response.json(success({}));
      },
    });
    for (const path of ['https://evil.example/x', '//evil.example/x', '/v1/../../evil', 'evil.example:80/x']) {
      await expect(client.get(path)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(calls).toEqual([]);
    await client.get('/v1/payouts/@evil.example');
    expect(calls).toEqual([{ url: `${BASE_URL}/v1/payouts/@evil.example`, authorization: `Bearer ${API_KEY}` }]);
  });

  it('the refusal says what was wrong and what to pass instead', async () => {
    const query = (await rejection(makeClient().get('/v1/payouts?page=2'))) as RequestValidationError;
    expect(query.fields.path![0]).toMatch(/query option/);
    const absolute = (await rejection(makeClient().get('https://evil.example/x'))) as RequestValidationError;
    expect(absolute.fields.path![0]).toMatch(/relative to the base URL/);
  });
});

describe('refused before sending: bodies and queries', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;

  it.each<[string, unknown]>([
    ['a BigInt', { amount: 10n }],
    ['a cyclic object', cyclic],
    ['a function', () => ({ amount: 1 })],
    ['a symbol', Symbol('body')],
    [
      'an object whose toJSON throws',
      {
        toJSON: () => {
          throw new Error('no');
        },
      },
    ],
  ])('a body JSON cannot carry (%s): RequestValidationError on body', async (_label, body) => {
    const requests = countRequests();
    const error = await rejection(makeClient().post('/v1/transfers', { body }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual(['body']);
    expect(requests.count()).toBe(0);
  });

  it.each<[string, unknown, string]>([
    ['an object value', { filter: { status: 'paid' } }, 'query.filter'],
    ['an array value', { ids: ['a', 'b'] }, 'query.ids'],
    ['NaN', { page: Number.NaN }, 'query.page'],
    ['Infinity', { page: Number.POSITIVE_INFINITY }, 'query.page'],
    ['null', { page: null }, 'query.page'],
    ['a BigInt', { page: 2n }, 'query.page'],
    ['a lone surrogate value', { q: 'a\uDC00' }, 'query.q'],
    ['a lone surrogate name', { ['q\uD800']: 'a' }, 'query.q\uD800'],
    ['a string query', 'page=2', 'query'],
    ['an array query', [['page', '2']], 'query'],
    ['URLSearchParams', new URLSearchParams({ page: '2' }), 'query'],
    ['a Map', new Map([['page', 2]]), 'query'],
  ])('a bad query (%s): RequestValidationError naming it', async (_label, query, field) => {
    const requests = countRequests();
    const error = await rejection(makeClient().get(PAYOUTS, { query: query as never }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual([field]);
    expect(requests.count()).toBe(0);
  });

  it('a query without a prototype is a plain object and is sent', async () => {
    const seen = route('GET', PAYOUTS, () => jsonReply(200, success([])));
    const query = Object.assign(Object.create(null) as Record<string, number>, { page: 3 });
    await makeClient().get(PAYOUTS, { query });
    expect(seen[0]!.url.search).toBe('?page=3');
  });

  it('a bad request option is refused before sending', async () => {
    const requests = countRequests();
    for (const options of [
      { timeout: 0 },
      { maxRetries: 11 },
      { idempotencyKey: 'has space' },
      { headers: { authorization: 'x' } },
    ]) {
      await expect(makeClient().post('/v1/transfers', { body: {}, ...options })).rejects.toBeInstanceOf(
        RequestValidationError,
      );
    }
    expect(requests.count()).toBe(0);
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
});

describe('getResponseInfo', () => {
  it('reports status, headers, request id, attempts and the key of a POST', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { ...NO_WAIT, 'x-request-id': 'req_first' })
        : jsonReply(200, success(transferJson()), { 'x-request-id': 'req_final', 'x-extra': 'yes' }),
    );
    const transfer = await makeClient().transfers.create(TRANSFER_PARAMS);
    const info = getResponseInfo(transfer);

    expect(info).toBeDefined();
    expect(info!.status).toBe(200);
    expect(info!.requestId).toBe('req_final');
    expect(info!.attempts).toBe(2);
    expect(info!.idempotencyKey).toBe(seen[0]!.headers.get('idempotency-key'));
    expect(info!.headers.get('x-extra')).toBe('yes');
  });

  it('reports one attempt and no request id when none was sent', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const charge = await makeClient().charges.retrieve(CHARGE_ID);
    const info = getResponseInfo(charge);
    expect(info?.attempts).toBe(1);
    expect(info?.status).toBe(200);
    expect(info?.requestId).toBeUndefined();
  });

  it('works on a page', async () => {
    route('GET', CHARGES_PATH, () =>
      jsonReply(
        200,
        { status: 'success', data: [chargeJson()], page: 1, page_size: 10, total_items: 1 },
        { 'x-request-id': 'req_list' },
      ),
    );
    const page = await makeClient().charges.list();
    expect(getResponseInfo(page)?.requestId).toBe('req_list');
    expect(getResponseInfo(page)?.status).toBe(200);
  });

  it('is undefined for values lunas did not return', () => {
    expect(getResponseInfo({})).toBeUndefined();
    expect(getResponseInfo(chargeJson())).toBeUndefined();
  });
});

describe('path ids', () => {
  it.each([
    ['', 'empty'],
    ['.', 'dot'],
    ['..', 'dot-dot'],
  ])('retrieve(%j) is refused before sending (%s)', async (id) => {
    await expectRefused((c) => c.charges.retrieve(id), { id: 'any' });
  });
});

describe('path ids that are not valid Unicode text', () => {
  it.each([
    ['a lone high surrogate', '\ud83d'],
    ['a lone low surrogate', '\ude00'],
    ['an emoji cut in half', `ch_${'😀'.slice(0, 1)}`],
  ])('retrieve with %s is refused as id, not a URIError, and nothing is sent', async (_name, id) => {
    await expectRefused((c) => c.charges.retrieve(id), {
      id: 'ID must be valid Unicode text: it holds half of a UTF-16 surrogate pair, often text cut inside an emoji',
    });
  });

  it('a whole emoji is fine and percent-encoded', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${BASE_URL}/v1/payments/charges/:id`, ({ request }) => {
        urls.push(new URL(request.url).pathname);
        return HttpResponse.json(success(chargeJson()));
      }),
    );
    await makeClient().charges.retrieve('ch_😀');
    expect(urls).toEqual(['/v1/payments/charges/ch_%F0%9F%98%80']);
  });
});

describe('a resource built outside Client', () => {
  it.each([
    [Charges, 'client.charges'],
    [Transfers, 'client.transfers'],
    [Payouts, 'client.payouts'],
    [PaymentMethods, 'client.paymentMethods'],
  ] as const)('%o throws a LunasError naming %s', (Resource, property) => {
    const build = Resource as unknown as new (api?: unknown) => unknown;
    expect(() => new build()).toThrow(LunasError);
    expect(() => new build({ get: () => undefined })).toThrow(`is created by Client: use ${property}`);
  });

  it('is what Client builds, of the named class', () => {
    const client = new Client({ apiKey: 'sk_test_resource', baseURL: 'http://127.0.0.1:9' });
    expect(client.charges).toBeInstanceOf(Charges);
    expect(client.paymentMethods).toBeInstanceOf(PaymentMethods);
  });
});
