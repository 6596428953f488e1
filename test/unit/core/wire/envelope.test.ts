/**
 * core/wire/envelope.ts: what each kind of response body becomes (envelopes
 * `success`, `fail` and `error`, and bodies that are none), which class is
 * thrown and what the error carries (status, message, body, headers,
 * requestId, fields); a caller's Standard Schema run on the data, whatever it
 * does; and redirects, never followed: a 3xx is an APIError carrying its
 * status and Location, nothing reaches the origin it points to, and a custom
 * fetch that follows one anyway has its answer refused.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_THROWS, revoked, fail } from '../../../helpers/hostile.js';
import {
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
  type StandardSchema,
  type Client,
  type ResponseEvent,
} from '../../../../src/index.js';
import { makeClient } from '../../../helpers/msw.js';
import {
  CHARGE_PATH,
  CHARGES_PATH,
  jsonReply,
  route,
  textReply,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import { BASE_URL, CHARGE_ID, chargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { getEventListeners } from 'node:events';
import {
  expectPairedEvents,
  recordEvents,
  responseEvents,
  failOnUnhandledRejections,
} from '../../../helpers/recorders.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';

/** A client that never retries, so each test sees one response. */
const client = () => makeClient({ maxRetries: 0 });

async function retrieveError(reply: () => Response): Promise<unknown> {
  route('GET', CHARGE_PATH, reply);
  return rejection(client().charges.retrieve(CHARGE_ID));
}

async function transferError(reply: () => Response): Promise<unknown> {
  route('POST', TRANSFERS_PATH, reply);
  return rejection(client().transfers.create(TRANSFER_PARAMS));
}

describe('fail envelopes', () => {
  it('400 with a field map gives BadRequestError.fields and a message naming the fields', async () => {
    const data = {
      amount: ['Amount must be greater than 0'],
      currency: ['Currency is required'],
      'customer_details.email': ['Invalid email format'],
    };
    const error = await transferError(() => jsonReply(400, { status: 'fail', data }));

    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect(bad.status).toBe(400);
    expect(bad.fields).toEqual(data);
    expect(bad.body).toEqual({ status: 'fail', data });
    expect(bad.message).toContain('Amount must be greater than 0');
    expect(bad.message).toContain('customer_details.email');
    expect(bad.message).toContain('400');
  });

  it('400 with only data.message gives empty fields and the message', async () => {
    const error = await transferError(() =>
      jsonReply(400, { status: 'fail', data: { message: 'Destination account is not active' } }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fields).toEqual({});
    expect((error as BadRequestError).message).toContain('Destination account is not active');
  });

  it('404 with only data.message gives NotFoundError with the message', async () => {
    const error = await retrieveError(() => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
    expect((error as NotFoundError).message).toContain('Charge not found');
    expect((error as NotFoundError).body).toEqual({ status: 'fail', data: { message: 'Charge not found' } });
  });

  it('a 400 field map with a single string message still lands in fields', async () => {
    const error = await transferError(() =>
      jsonReply(400, { status: 'fail', data: { destination_account_id: 'Destination account not found' } }),
    );
    expect((error as BadRequestError).fields).toEqual({ destination_account_id: ['Destination account not found'] });
    expect((error as BadRequestError).message).toContain('Destination account not found');
  });
});

describe('error envelopes', () => {
  it('401 gives AuthenticationError whose message points at apiKey and LUNAS_API_KEY', async () => {
    const error = await retrieveError(() => jsonReply(401, { status: 'error', message: 'Invalid or missing API key' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    const auth = error as AuthenticationError;
    expect(auth.status).toBe(401);
    expect(auth.message).toContain('Invalid or missing API key');
    expect(auth.message).toContain('apiKey');
    expect(auth.message).toContain('LUNAS_API_KEY');
  });

  it('403 gives PermissionDeniedError with the service message', async () => {
    const error = await transferError(() =>
      jsonReply(403, { status: 'error', message: 'Insufficient balance for transfer' }),
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).status).toBe(403);
    expect((error as PermissionDeniedError).message).toContain('Insufficient balance for transfer');
  });

  it('the error message names the method and the full URL', async () => {
    const error = await transferError(() => jsonReply(403, { status: 'error', message: 'Insufficient balance' }));
    expect((error as Error).message).toContain(`POST ${BASE_URL}/v1/transfers failed with 403`);
  });

  it('BadRequestError from an error envelope has empty fields', async () => {
    const error = await transferError(() => jsonReply(400, { status: 'error', message: 'Malformed JSON' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fields).toEqual({});
    expect((error as BadRequestError).message).toContain('Malformed JSON');
  });
});

describe('bodies that are not envelopes', () => {
  it('an HTML 502 page gives InternalServerError with the text as body', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>';
    const error = await retrieveError(() => textReply(502, html, { 'content-type': 'text/html' }));
    expect(error).toBeInstanceOf(InternalServerError);
    const server = error as InternalServerError;
    expect(server.status).toBe(502);
    expect(server.body).toBe(html);
    expect(server.message).toContain('502 Bad Gateway');
    expect(server.headers.get('content-type')).toBe('text/html');
  });

  it('a plain-text 429 gives RateLimitError with the text as body', async () => {
    const error = await retrieveError(() => textReply(429, 'Too Many Requests'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).body).toBe('Too Many Requests');
  });

  it('an empty error body still gives the class for the status', async () => {
    for (const [status, ErrorClass] of [
      [500, InternalServerError],
      [404, NotFoundError],
      [409, ConflictError],
    ] as const) {
      const error = await retrieveError(() => textReply(status, ''));
      expect((error as Error).constructor).toBe(ErrorClass);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).body).toBe('');
      expect((error as APIError).message).toContain(String(status));
    }
  });

  it('a JSON error body of another shape is kept as body', async () => {
    const body = { error: { code: 'rate_limited' } };
    const error = await retrieveError(() => jsonReply(422, body));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as APIError).body).toEqual(body);
  });
});

describe('a 2xx is never returned as data unless it is a success envelope', () => {
  it.each([
    ['non-JSON text', '<html>ok</html>'],
    ['an empty body', ''],
    ['a truncated JSON body', '{"status":"success","data":{'],
    ['JSON null', 'null'],
    ['a JSON array', JSON.stringify([chargeJson()])],
    ['a JSON string', '"success"'],
    ['a JSON number', '200'],
  ])('%s gives ResponseValidationError with the raw body', async (_name, text) => {
    const error = await retrieveError(() => textReply(200, text, { 'content-type': 'application/json' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const invalid = error as ResponseValidationError;
    expect(invalid.body).toBe(text);
    expect(invalid.status).toBe(200);
    expect(invalid.path).toBe('');
    expect(invalid.issues.length).toBeGreaterThan(0);
    expect(invalid.message).toContain(`GET ${BASE_URL}/v1/payments/charges/ch_123`);
  });

  it('says when the body is empty', async () => {
    const error = await retrieveError(() => textReply(200, ''));
    expect((error as Error).message).toContain('empty');
  });

  it.each([
    ['missing', { data: chargeJson() }],
    ['"ok"', { status: 'ok', data: chargeJson() }],
    ['"SUCCESS"', { status: 'SUCCESS', data: chargeJson() }],
    ['true', { status: true, data: chargeJson() }],
  ])('an envelope with status %s gives ResponseValidationError at status', async (_name, body) => {
    const error = await retrieveError(() => jsonReply(200, body));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('status');
    expect(JSON.parse((error as ResponseValidationError).body)).toEqual(body);
  });

  it('a 200 fail envelope is an APIError with its fields, never data', async () => {
    const data = { amount: ['Amount must be greater than 0'] };
    const error = await transferError(() => jsonReply(200, { status: 'fail', data }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
    expect((error as APIError).message).toContain('Amount must be greater than 0');
    expect((error as APIError).body).toEqual({ status: 'fail', data });
  });

  it('a 200 error envelope is an APIError with its message, never data', async () => {
    const error = await retrieveError(() =>
      jsonReply(200, { status: 'error', message: 'Something broke', data: chargeJson() }),
    );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('Something broke');
  });

  it('a 201 or 204 is held to the same rule', async () => {
    expect(await retrieveError(() => textReply(204, ''))).toBeInstanceOf(ResponseValidationError);
    const created = await retrieveError(() => jsonReply(201, { status: 'fail', data: { message: 'nope' } }));
    expect(created).toBeInstanceOf(APIError);
    expect((created as APIError).status).toBe(201);
  });

  it('a known field of the wrong type gives ResponseValidationError with its path', async () => {
    const error = await retrieveError(() => jsonReply(200, success(chargeJson({ amount: true }))));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.amount');
    expect((error as ResponseValidationError).message).toContain('data.amount');
  });

  it('a list envelope without its paging fields gives ResponseValidationError', async () => {
    route('GET', CHARGES_PATH, () => jsonReply(200, { status: 'success', data: [chargeJson()] }));
    const error = await rejection(client().charges.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'total_items']),
    );
  });
});

describe('what an error carries', () => {
  it('APIError has status, headers, body and requestId from x-request-id', async () => {
    const error = await retrieveError(() =>
      jsonReply(500, { status: 'error', message: 'boom' }, { 'x-request-id': 'req_abc123', 'x-trace': 't-1' }),
    );
    const server = error as InternalServerError;
    expect(server.requestId).toBe('req_abc123');
    expect(server.status).toBe(500);
    expect(server.headers).toBeInstanceOf(Headers);
    expect(server.headers.get('x-trace')).toBe('t-1');
    expect(server.body).toEqual({ status: 'error', message: 'boom' });
  });

  it('requestId is undefined when the service sent none', async () => {
    const error = await retrieveError(() => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    expect((error as NotFoundError).requestId).toBeUndefined();
  });

  it('ResponseValidationError has requestId and status too', async () => {
    const error = await retrieveError(() => textReply(200, 'not json', { 'x-request-id': 'req_rve' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).requestId).toBe('req_rve');
    expect((error as ResponseValidationError).status).toBe(200);
  });

  it('the requestId is the final attempt’s', async () => {
    route('GET', CHARGE_PATH, (attempt) =>
      jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0', 'x-request-id': `req_${attempt}` }),
    );
    const error = await rejection(makeClient({ maxRetries: 2 }).charges.retrieve(CHARGE_ID));
    expect((error as APIError).requestId).toBe('req_3');
  });

  it('errors serialise to JSON with their name, message and status', async () => {
    const error = await retrieveError(() =>
      jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }, { 'x-request-id': 'req_json' }),
    );
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json.name).toBe('NotFoundError');
    expect(json.message).toContain('Charge not found');
    expect(json.status).toBe(404);
    expect(json.requestId).toBe('req_json');
  });

  it('a 404 names the full URL reached, so a wrong baseURL shows in the message', async () => {
    const error = await retrieveError(() => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    expect((error as NotFoundError).message).toBe(`GET ${BASE_URL}${CHARGE_PATH} failed with 404: Charge not found`);
    route('GET', '/v1/payouts', () => jsonReply(404, { status: 'fail', data: { message: 'Not found' } }));
    const listError = await rejection(client().payouts.list({ pagesize: 5 }));
    expect((listError as NotFoundError).message).toBe(
      `GET ${BASE_URL}/v1/payouts?page=1&pagesize=5 failed with 404: Not found`,
    );
  });

  it('JSON.stringify gives APIError headers as a plain lower-cased record; headers stays a Headers', async () => {
    const error = (await retrieveError(() =>
      jsonReply(429, { status: 'error', message: 'slow down' }, { 'Retry-After': '3', 'X-Request-Id': 'req_h' }),
    )) as RateLimitError;
    expect(error.headers).toBeInstanceOf(Headers);
    const json = JSON.parse(JSON.stringify(error)) as { headers: unknown };
    const body = JSON.stringify({ status: 'error', message: 'slow down' });
    expect(json.headers).toEqual({
      'content-length': String(body.length),
      'content-type': 'application/json',
      'retry-after': '3',
      'x-request-id': 'req_h',
    });
  });

  it('JSON.stringify gives ResponseValidationError headers as a plain record too', async () => {
    const error = (await retrieveError(() =>
      textReply(200, 'not json', { 'Content-Type': 'text/plain', 'X-Request-Id': 'req_rv' }),
    )) as ResponseValidationError;
    expect(error.headers).toBeInstanceOf(Headers);
    const json = JSON.parse(JSON.stringify(error)) as { headers: unknown; name: unknown };
    expect(json.name).toBe('ResponseValidationError');
    expect(json.headers).toEqual({ 'content-type': 'text/plain', 'x-request-id': 'req_rv' });
  });

  it('a header sent twice keeps both values in the JSON record', () => {
    const headers = new Headers([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    const error = new APIError({ status: 500, message: 'm', body: null, headers });
    expect((JSON.parse(JSON.stringify(error)) as { headers: unknown }).headers).toEqual({ 'set-cookie': 'a=1, b=2' });
  });

  it('every error a call can throw is a LunasError', async () => {
    const replies: (() => Response)[] = [
      () => jsonReply(400, { status: 'fail', data: { amount: ['x'] } }),
      () => jsonReply(401, { status: 'error', message: 'x' }),
      () => jsonReply(403, { status: 'error', message: 'x' }),
      () => jsonReply(404, { status: 'fail', data: { message: 'x' } }),
      () => jsonReply(409, { status: 'error', message: 'x' }),
      () => jsonReply(418, { status: 'error', message: 'x' }),
      () => jsonReply(422, { status: 'error', message: 'x' }),
      () => jsonReply(429, { status: 'error', message: 'x' }),
      () => textReply(503, '<html/>'),
      () => textReply(200, 'nope'),
      () => jsonReply(200, { status: 'fail', data: { message: 'x' } }),
      () => jsonReply(200, success(transferJson({ amount: 'lots' }))),
    ];
    for (const reply of replies) {
      const error = await transferError(reply);
      expect(error).toBeInstanceOf(LunasError);
    }
    const invalid = await rejection(client().transfers.create({ ...TRANSFER_PARAMS, amount: -1 }));
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expect(invalid).toBeInstanceOf(LunasError);
  });
});

/** A Standard Schema whose `validate` does `validate`. */
function schemaOf(validate: (value: unknown) => unknown): StandardSchema<unknown> {
  return { '~standard': { version: 1, vendor: 'test', validate } } as StandardSchema<unknown>;
}

describe('a caller’s Standard Schema', () => {
  failOnUnhandledRejections();

  const answers: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 7],
    ['an object with neither value nor issues', {}],
    ['issues that are not a list', { issues: 'bad' }],
    ['a null-prototype object', Object.create(null)],
    ['a revoked Proxy', revoked()],
  ];

  it.each(answers)(
    'answering %s: a ResponseValidationError with the body, and the attempt’s response event',
    async (_, answer) => {
      for (const async of [false, true]) {
        const { client } = wireClient(() => successResponse({ id: 'po_1' }));
        const seen = recordEvents(client);
        const error = await client
          .get('/v1/payouts/po_1', { schema: schemaOf(() => (async ? Promise.resolve(answer) : answer)) })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ResponseValidationError);
        expect((error as ResponseValidationError).body).toBe(
          JSON.stringify({ status: 'success', data: { id: 'po_1' } }),
        );
        expect((error as ResponseValidationError).path).toBe('data');
        expectPairedEvents(seen);
        expect(responseEvents(seen)[0]!.error).toBe(error);
      }
    },
  );

  it('issues it cannot describe still refuse the value, each at the path it can read', async () => {
    const { client } = wireClient(() => successResponse({ id: 'po_1' }));
    const issues = [
      null,
      7,
      { message: 5 },
      { message: 'bad id', path: ['id'] },
      { message: 'odd path', path: [{ key: {} }, Object.create(null)] },
      { message: 'deep', path: [{ key: 'items' }, 0, Symbol.for('s')] },
      { message: 'bad code', code: 'invalid_type', expected: Object.create(null) },
    ];
    const error = await client.get('/v1/payouts/po_1', { schema: schemaOf(() => ({ issues })) }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: 'data', message: 'refused by the schema' },
      { path: 'data', message: 'refused by the schema' },
      { path: 'data', message: 'refused by the schema' },
      { path: 'data.id', message: 'bad id' },
      { path: 'data', message: 'odd path' },
      { path: 'data.items.0.Symbol(s)', message: 'missing (deep)' },
      { path: 'data', message: 'bad code' },
    ]);
  });

  it.each<[string, () => unknown]>([
    ['a revoked Proxy', revoked],
    [
      'an object whose ~standard getter throws',
      () => ({
        get '~standard'() {
          throw Object.create(null);
        },
      }),
    ],
    ['a Proxy whose every read throws', () => new Proxy({}, { get: fail })],
  ])('given as the schema, %s is refused before sending', async (_, make) => {
    const { client, sent } = wireClient(() => successResponse({ id: 'po_1' }));
    const error = await client.get('/v1/payouts/po_1', { schema: make() as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).fields).toHaveProperty('schema');
    expect(sent).toHaveLength(0);
  });

  it('an empty list of issues is a refusal too', async () => {
    const { client } = wireClient(() => successResponse({ id: 'po_1' }));
    const error = await client.get('/v1/payouts/po_1', { schema: schemaOf(() => ({ issues: [] })) }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it.each(HOSTILE_THROWS)('throwing or rejecting with %s: a ResponseValidationError naming it', async (_, make) => {
    for (const async of [false, true]) {
      const { client } = wireClient(() => successResponse({ id: 'po_1' }));
      const seen = recordEvents(client);
      const validate = () => {
        if (async) return Promise.reject(make());
        throw make();
      };
      const error = await client.get('/v1/payouts/po_1', { schema: schemaOf(validate) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message).toMatch(/the schema threw: (an? \w+|undefined)$/);
      expectPairedEvents(seen);
    }
  });

  it('one that never answers ends the call at the attempt’s timeout, with its response event', async () => {
    const { client } = wireClient(() => successResponse({ id: 'po_1' }), { timeout: 200 });
    const seen = recordEvents(client);
    const started = performance.now();
    const error = await client
      .get('/v1/payouts/po_1', { schema: schemaOf(() => new Promise(() => undefined)) })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('the schema did not answer in time');
    expectPairedEvents(seen);
  });

  it('leaves nothing on the caller’s signal, whether it answers or runs out of time', async () => {
    const { client } = wireClient(() => successResponse({ id: 'po_1' }), { timeout: 100 });
    const signal = new AbortController().signal;
    const answers = schemaOf(async (value) => ({ value }));
    await expect(client.get('/v1/payouts/po_1', { schema: answers, signal })).resolves.toEqual({ id: 'po_1' });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    const hangs = schemaOf(() => new Promise(() => undefined));
    await expect(client.get('/v1/payouts/po_1', { schema: hangs, signal })).rejects.toThrow(ResponseValidationError);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('the caller’s abort while it has not answered ends the call with APIUserAbortError', async () => {
    const { client } = wireClient(() => successResponse({ id: 'po_1' }));
    const seen = recordEvents(client);
    const controller = new AbortController();
    const call = client.get('/v1/payouts/po_1', {
      schema: schemaOf(() => {
        setTimeout(() => controller.abort(), 10);
        return new Promise(() => undefined);
      }),
      signal: controller.signal,
    });
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expectPairedEvents(seen);
  });
});

/** Another origin, which would happily answer: it must never be asked. */
const ELSEWHERE = 'https://elsewhere.lunas.test';
const STATUSES = [301, 302, 303, 307, 308] as const;

/** The other origin's routes, answering every method with a valid transfer or charge. */
function elsewhere() {
  const transfers = route('ALL', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())), ELSEWHERE);
  const charges = route('ALL', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), ELSEWHERE);
  const raw = route('ALL', '/v1/payouts', () => jsonReply(200, success({ id: 'po_1' })), ELSEWHERE);
  return { count: () => transfers.length + charges.length + raw.length };
}

/** The service answering `path` with `status` and a Location on the other origin. */
function redirecting(status: number, path: string) {
  return route('ALL', path, () => new Response(null, { status, headers: { location: `${ELSEWHERE}${path}` } }));
}

const calls: { name: string; path: string; call: (client: Client) => Promise<unknown> }[] = [
  { name: 'transfers.create (POST)', path: TRANSFERS_PATH, call: (c) => c.transfers.create(TRANSFER_PARAMS) },
  { name: 'charges.retrieve (GET)', path: CHARGE_PATH, call: (c) => c.charges.retrieve('ch_123') },
  { name: 'client.get (raw GET)', path: '/v1/payouts', call: (c) => c.get('/v1/payouts') },
  { name: 'client.post (raw POST)', path: '/v1/payouts', call: (c) => c.post('/v1/payouts', { body: { a: 1 } }) },
];

describe('a 3xx from the service', () => {
  for (const status of STATUSES) {
    for (const { name, path, call } of calls) {
      it(`${status} on ${name}: APIError with status and Location, not retried, nothing sent elsewhere`, async () => {
        const other = elsewhere();
        const seen = redirecting(status, path);
        const client = makeClient({ maxRetries: 2 });
        const error = await rejection(call(client), APIError);
        expect(error.status).toBe(status);
        expect(error.headers.get('location')).toBe(`${ELSEWHERE}${path}`);
        expect(error.message).toContain(`failed with ${status}`);
        expect(error.message).toContain(`redirect to ${ELSEWHERE}${path}`);
        expect(seen).toHaveLength(1);
        expect(other.count()).toBe(0);
      });
    }
  }

  it('a 3xx without a Location says so', async () => {
    route('GET', CHARGE_PATH, () => new Response('choose', { status: 300 }));
    const error = await rejection(makeClient().charges.retrieve('ch_123'), APIError);
    expect(error.status).toBe(300);
    expect(error.message).toContain('a redirect with no Location');
  });

  it('the response event carries the status and the error, with willRetry false', async () => {
    elsewhere();
    redirecting(307, TRANSFERS_PATH);
    const client = makeClient();
    const events: ResponseEvent[] = [];
    client.on('response', (event) => events.push(event));
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 307, error, willRetry: false });
  });

  it("asks fetch for redirect 'manual', on the Request and in its options", async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const seen: { request: RequestRedirect; init: RequestRedirect | undefined }[] = [];
    const client = makeClient({
      fetch: (input, init) => {
        seen.push({ request: (input as Request).redirect, init: init?.redirect });
        return globalThis.fetch(input, init);
      },
    });
    await client.charges.retrieve('ch_123');
    expect(seen).toEqual([{ request: 'manual', init: 'manual' }]);
  });
});

describe('a custom fetch that follows a redirect anyway', () => {
  it('an answer that says it was redirected is refused, for a POST (303) and a GET (301)', async () => {
    const other = elsewhere();
    redirecting(303, TRANSFERS_PATH);
    // Sends the request again with another client's defaults, as a wrapper built on one may.
    const following: typeof fetch = async (input) => {
      const request = input as Request;
      const { method, headers } = request;
      return globalThis.fetch(request.url, { method, headers, body: await request.text(), redirect: 'follow' });
    };
    const client = makeClient({ fetch: following, maxRetries: 2 });
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(other.count()).toBe(1); // The custom fetch went there; lunas cannot stop that...
    expect(error.message).toContain(`answered from ${ELSEWHERE}${TRANSFERS_PATH}`); // ...but believes none of it.
    expect(error.message).toContain('lunas never follows redirects');
    expect(error.status).toBe(200);

    redirecting(301, CHARGE_PATH);
    const refused = await rejection(client.charges.retrieve('ch_123'), APIError);
    expect(refused.message).toContain(`answered from ${ELSEWHERE}${CHARGE_PATH}`);
    expect(other.count()).toBe(2);
  });

  it('an answer from a URL other than the one asked for is refused, even unflagged', async () => {
    const fromElsewhere: typeof fetch = async () => {
      const response = new Response(JSON.stringify(success(chargeJson())), { status: 200 });
      Object.defineProperty(response, 'url', { value: `${ELSEWHERE}${CHARGE_PATH}` });
      return response;
    };
    const error = await rejection(makeClient({ fetch: fromElsewhere }).charges.retrieve('ch_123'), APIError);
    expect(error.message).toContain(`answered from ${ELSEWHERE}${CHARGE_PATH}`);
  });

  it('an answer whose url is the one asked for, or empty, is believed', async () => {
    const echo =
      (url: string): typeof fetch =>
      async () => {
        const response = new Response(JSON.stringify(success(chargeJson())), { status: 200 });
        if (url !== '') Object.defineProperty(response, 'url', { value: url });
        return response;
      };
    for (const url of ['', `${BASE_URL}${CHARGE_PATH}`]) {
      const charge = await makeClient({ fetch: echo(url) }).charges.retrieve('ch_123');
      expect(charge.id).toBe('ch_123');
    }
  });

  it("a browser's opaque redirect (type opaqueredirect, status 0) is a redirect too", async () => {
    const opaque: typeof fetch = async () => {
      const response = new Response(null);
      Object.defineProperties(response, { type: { value: 'opaqueredirect' }, status: { value: 0 } });
      return response;
    };
    const client = makeClient({ fetch: opaque, maxRetries: 2 });
    let attempts = 0;
    client.on('request', () => attempts++);
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(error.status).toBe(0);
    expect(error.message).toContain('an opaque redirect');
    expect(attempts).toBe(1);
  });
});
