/**
 * core/report/tracing.ts: the tracing channels (`lunas:operation`,
 * `lunas:attempt`): one operation per SDK call (a list's every page fetch, a
 * raw call) and one attempt per HTTP attempt inside it, their contexts and
 * the order of their events, retries, timeouts, calls refused before sending
 * (nothing published), headers a subscriber adds, and a subscriber's
 * `bindStore`. No context holds the key: test/security/key-leaks/traces.test.ts.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { AsyncLocalStorage } from 'node:async_hooks';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type AttemptContext,
  ATTEMPT_CHANNEL,
  type Client,
  InternalServerError,
  NotFoundError,
  OPERATION_CHANNEL,
  type OperationContext,
  RequestValidationError,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { makeItems, serveList } from '../../../helpers/pages.js';
import {
  CHARGE_PATH,
  CHARGES_PATH,
  countRequests,
  jsonReply,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import {
  API_KEY,
  BASE_URL,
  CHARGE_ID,
  chargeJson,
  createdChargeJson,
  listPage,
  success,
  transferJson,
} from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { recordTracing } from '../../../helpers/tracing.js';
import { UUID_V4 } from '../../../helpers/formats.js';

/** Answered at once when a retry is asked for. */
const NO_WAIT = { 'retry-after-ms': '0' };

describe('one operation per call, one attempt per HTTP attempt', () => {
  it('a retrieve: the contexts the contract lists, in order, both channels settled', async () => {
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson()), { 'x-request-id': 'req_1' }));
    const trace = recordTracing();

    await client.charges.retrieve(CHARGE_ID);

    const [operation] = trace.contexts('operation');
    const [attempt] = trace.contexts('attempt');
    expect(trace.contexts('operation')).toHaveLength(1);
    expect(trace.contexts('attempt')).toHaveLength(1);
    const url = `${BASE_URL}${CHARGE_PATH}`;
    const started = { operation: 'charges.retrieve', method: 'GET', route: '/v1/payments/charges/{id}', url };
    expect(trace.records[0]!.seen).toEqual({
      ...started,
      idempotencyKey: undefined,
      status: undefined,
      requestId: undefined,
      error: undefined,
    });
    expect(operation).toEqual({
      ...started,
      idempotencyKey: undefined,
      status: 200,
      requestId: 'req_1',
      error: undefined,
      result: undefined,
    });
    expect(attempt).toEqual({
      ...started,
      idempotencyKey: undefined,
      attempt: 1,
      headers: {},
      operationContext: operation,
      status: 200,
      requestId: 'req_1',
      willRetry: false,
      error: undefined,
      result: undefined,
    });
    // Each channel's events in their order; the attempt inside its operation.
    const names = trace.names();
    expect(names.filter((name) => name.startsWith('operation:'))).toEqual([
      'operation:start',
      'operation:end',
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    expect(names.filter((name) => name.startsWith('attempt:'))).toEqual([
      'attempt:start',
      'attempt:end',
      'attempt:asyncStart',
      'attempt:asyncEnd',
    ]);
    expect(names.indexOf('operation:start')).toBeLessThan(names.indexOf('attempt:start'));
    expect(names.indexOf('attempt:asyncEnd')).toBeLessThan(names.indexOf('operation:asyncStart'));
  });

  it('the attempt is still open when the request reaches the service, its status set only at its end', async () => {
    const client = makeClient();
    let namesWhenServed: string[] = [];
    const trace = recordTracing();
    route('GET', CHARGE_PATH, () => {
      namesWhenServed = trace.names();
      return jsonReply(200, success(chargeJson()));
    });

    await client.charges.retrieve(CHARGE_ID);

    expect(namesWhenServed).toContain('attempt:start');
    expect(namesWhenServed).not.toContain('attempt:asyncStart');
    const attemptStart = trace.records.find((r) => r.channel === 'attempt' && r.event === 'start')!;
    expect(attemptStart.seen).toMatchObject({ status: undefined, requestId: undefined, willRetry: undefined });
  });

  it('a POST: the same Idempotency-Key on the operation, every attempt and the wire', async () => {
    const client = makeClient();
    const seen = route('POST', TRANSFERS_PATH, (n) =>
      n === 1 ? jsonReply(503, { status: 'error', message: 'busy' }, NO_WAIT) : jsonReply(200, success(transferJson())),
    );
    const trace = recordTracing();

    await client.transfers.create(TRANSFER_PARAMS);

    const [operation] = trace.contexts('operation');
    const attempts = trace.contexts('attempt');
    expect(operation!.idempotencyKey).toMatch(UUID_V4);
    expect(attempts.map((a) => a.idempotencyKey)).toEqual([operation!.idempotencyKey, operation!.idempotencyKey]);
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual([
      operation!.idempotencyKey,
      operation!.idempotencyKey,
    ]);
  });

  it("the caller's idempotencyKey is the one published", async () => {
    const client = makeClient();
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const trace = recordTracing();

    await client.transfers.create(TRANSFER_PARAMS, { idempotencyKey: 'invoice-118' });

    expect(trace.contexts('operation')[0]!.idempotencyKey).toBe('invoice-118');
    expect(trace.contexts('attempt')[0]!.idempotencyKey).toBe('invoice-118');
  });

  it('a 503 then a 200: two attempts, the first failed with willRetry, the operation a success', async () => {
    const client = makeClient();
    route('POST', TRANSFERS_PATH, (n) =>
      n === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { ...NO_WAIT, 'x-request-id': 'req_a' })
        : jsonReply(200, success(transferJson()), { 'x-request-id': 'req_b' }),
    );
    const trace = recordTracing();

    await client.transfers.create(TRANSFER_PARAMS);

    const [first, second] = trace.contexts('attempt');
    expect(first).toMatchObject({ attempt: 1, status: 503, requestId: 'req_a', willRetry: true });
    expect(first!.error).toBeInstanceOf(InternalServerError);
    expect(second).toMatchObject({ attempt: 2, status: 200, requestId: 'req_b', willRetry: false, error: undefined });
    expect(trace.contexts('operation')[0]).toMatchObject({ status: 200, requestId: 'req_b', error: undefined });
    // The first attempt ends (with its error event) before the second starts; the operation publishes no error.
    expect(trace.names().filter((name) => !name.endsWith(':end'))).toEqual([
      'operation:start',
      'attempt:start',
      'attempt:error',
      'attempt:asyncStart',
      'attempt:asyncEnd',
      'attempt:start',
      'attempt:asyncStart',
      'attempt:asyncEnd',
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
  });

  it('a call that fails: the final status, request id and error on the operation, after every attempt', async () => {
    const client = makeClient({ maxRetries: 1 });
    route('GET', CHARGE_PATH, () =>
      jsonReply(500, { status: 'error', message: 'down' }, { ...NO_WAIT, 'x-request-id': 'req_500' }),
    );
    const trace = recordTracing();

    const error = await rejection(client.charges.retrieve(CHARGE_ID), InternalServerError);

    const [operation] = trace.contexts('operation');
    expect(operation).toMatchObject({ status: 500, requestId: 'req_500' });
    expect(operation!.error).toBe(error);
    expect(trace.contexts('attempt').map((a) => [a.attempt, a.status, a.willRetry])).toEqual([
      [1, 500, true],
      [2, 500, false],
    ]);
    expect(trace.names().filter((name) => name === 'operation:error')).toHaveLength(1);
    expect(trace.names().at(-1)).toBe('operation:asyncEnd');
  });

  it('a 404 is published with its status and NotFoundError, never retried', async () => {
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(404, { status: 'fail', data: { message: 'no such charge' } }));
    const trace = recordTracing();

    await rejection(client.charges.retrieve(CHARGE_ID), NotFoundError);

    expect(trace.contexts('attempt')).toHaveLength(1);
    expect(trace.contexts('attempt')[0]).toMatchObject({ status: 404, willRetry: false });
    expect(trace.contexts('operation')[0]!.error).toBeInstanceOf(NotFoundError);
  });

  it('a timeout: the attempt has no status and an APIConnectionTimeoutError', async () => {
    const client = makeClient({ timeout: 50, maxRetries: 0 });
    server.use(
      http.get(`${BASE_URL}${CHARGE_PATH}`, async () => {
        await delay(1_000);
        return HttpResponse.json(success(chargeJson()));
      }),
    );
    const trace = recordTracing();

    await rejection(client.charges.retrieve(CHARGE_ID), APIConnectionTimeoutError);

    const [attempt] = trace.contexts('attempt');
    expect(attempt).toMatchObject({ status: undefined, requestId: undefined, willRetry: false });
    expect(attempt!.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(trace.contexts('operation')[0]).toMatchObject({ status: undefined });
    expect(trace.contexts('operation')[0]!.error).toBe(attempt!.error);
  });
});

describe('the wait for a turn on the wire (maxConcurrentRequests)', () => {
  it("is in no attempt: a queued call's attempt starts with its turn, and lasts as long as its exchange", async () => {
    // The first call holds the client's one turn for 400 ms; the second answers at once.
    route('GET', CHARGE_PATH, async (attempt) => {
      if (attempt === 1) await delay(400);
      return jsonReply(200, success(chargeJson()));
    });
    const client = makeClient({ maxConcurrentRequests: 1 });
    const trace = recordTracing();
    const startedAt = new Map<AttemptContext, number>();
    const lasted: number[] = [];
    const channel = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
    const timing = {
      start: (context: AttemptContext) => void startedAt.set(context, performance.now()),
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: (context: AttemptContext) => void lasted.push(performance.now() - startedAt.get(context)!),
      error: () => undefined,
    };
    channel.subscribe(timing);
    onTestFinished(() => channel.unsubscribe(timing));
    const started = performance.now();
    const first = client.charges.retrieve(CHARGE_ID);
    const second = client.charges.retrieve(CHARGE_ID).then(() => performance.now() - started);
    await first;
    const wall = await second;

    expect(lasted[0]).toBeGreaterThanOrEqual(350);
    expect(wall).toBeGreaterThan(350);
    expect(lasted[1]).toBeLessThan(300);
    // The second attempt starts only once the first has ended.
    expect(trace.names().filter((name) => name.startsWith('attempt:'))).toEqual([
      ...['attempt:start', 'attempt:end', 'attempt:asyncStart', 'attempt:asyncEnd'],
      ...['attempt:start', 'attempt:end', 'attempt:asyncStart', 'attempt:asyncEnd'],
    ]);
  });
});

describe('what each call is published as', () => {
  it("every resource method is its operation, as merchants write it, with its route's template", async () => {
    const client = makeClient();
    route('POST', CHARGES_PATH, () => jsonReply(200, success(createdChargeJson())));
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    for (const path of [CHARGES_PATH, TRANSFERS_PATH, '/v1/payouts', '/v1/payments/methods']) {
      route('GET', path, () => jsonReply(200, listPage([])));
    }
    const trace = recordTracing();
    const calls: [string, (c: Client) => PromiseLike<unknown>][] = [
      ['charges.create', (c) => c.charges.create({ payment_method: 'qris', amount: 25_000 })],
      ['charges.retrieve', (c) => c.charges.retrieve(CHARGE_ID)],
      ['charges.list', (c) => c.charges.list()],
      ['transfers.create', (c) => c.transfers.create(TRANSFER_PARAMS)],
      ['transfers.list', (c) => c.transfers.list()],
      ['payouts.list', (c) => c.payouts.list()],
      ['paymentMethods.list', (c) => c.paymentMethods.list()],
    ];

    for (const [, call] of calls) await call(client);

    expect(trace.contexts('operation').map((c) => `${c.operation} ${c.method} ${c.route}`)).toEqual([
      'charges.create POST /v1/payments/charges',
      'charges.retrieve GET /v1/payments/charges/{id}',
      'charges.list GET /v1/payments/charges',
      'transfers.create POST /v1/transfers',
      'transfers.list GET /v1/transfers',
      'payouts.list GET /v1/payouts',
      'paymentMethods.list GET /v1/payments/methods',
    ]);
    // Each name is the method's own: the client's namespace and the method called.
    for (const [name] of calls) {
      const [namespace, method] = name.split('.') as [keyof Client, string];
      expect(typeof (client[namespace] as unknown as Record<string, unknown>)[method], name).toBe('function');
    }
    expect(trace.contexts('attempt').map((c) => c.operation)).toEqual(calls.map(([name]) => name));
  });

  it('the route keeps the template whatever the id, and the URL has the id encoded', async () => {
    const client = makeClient();
    route('GET', '/v1/payments/charges/*', () => jsonReply(200, success(chargeJson())));
    const trace = recordTracing();

    await client.charges.retrieve('ch/../{id}?x');

    const [operation] = trace.contexts('operation');
    expect(operation!.route).toBe('/v1/payments/charges/{id}');
    expect(operation!.url).toBe(`${BASE_URL}/v1/payments/charges/ch%2F..%2F%7Bid%7D%3Fx`);
  });

  it('a list publishes one operation per page fetched, look-ahead included, each with its page in the URL', async () => {
    const client = makeClient();
    serveList(CHARGES_PATH, { items: makeItems(5).map((item) => chargeJson({ id: item.id })) });
    const trace = recordTracing();

    const walked = [];
    for await (const charge of client.charges.list({ pagesize: 2 })) walked.push(charge.id);

    expect(walked).toHaveLength(5);
    const operations = trace.contexts('operation');
    expect(operations.map((o) => o.url)).toEqual(
      [1, 2, 3].map((page) => `${BASE_URL}${CHARGES_PATH}?page=${page}&pagesize=2`),
    );
    expect(new Set(operations.map((o) => `${o.operation} ${o.route}`))).toEqual(
      new Set(['charges.list /v1/payments/charges']),
    );
  });

  it("raw calls are 'get' and 'post', routed by the path as given", async () => {
    const client = makeClient();
    route('GET', '/v1/payouts', () => jsonReply(200, success([])));
    route('POST', '/v1/refunds', () => jsonReply(200, success({ id: 'rf_1' })));
    const trace = recordTracing();

    await client.get('/v1/payouts', { query: { page: 2 } });
    await client.post('v1/refunds', { body: { charge_id: CHARGE_ID }, idempotencyKey: 'rf-1' });

    expect(
      trace.contexts('operation').map(({ operation, method, route, url, idempotencyKey }) => ({
        operation,
        method,
        route,
        url,
        idempotencyKey,
      })),
    ).toEqual([
      {
        operation: 'get',
        method: 'GET',
        route: '/v1/payouts',
        url: `${BASE_URL}/v1/payouts?page=2`,
        idempotencyKey: undefined,
      },
      {
        operation: 'post',
        method: 'POST',
        route: '/v1/refunds',
        url: `${BASE_URL}/v1/refunds`,
        idempotencyKey: 'rf-1',
      },
    ]);
  });

  it('webhooks.confirm reads the charge back as charges.retrieve', async () => {
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'success' }))));
    const trace = recordTracing();

    await client.webhooks.confirm({ type: 'payment_charge.succeeded', data: { id: CHARGE_ID } });

    expect(trace.contexts('operation').map((o) => o.operation)).toEqual(['charges.retrieve']);
  });
});

describe('calls refused or ended before sending', () => {
  it('a call refused before sending publishes nothing on either channel', async () => {
    const client = makeClient();
    const requests = countRequests();
    const trace = recordTracing();

    await rejection(client.transfers.create({ ...TRANSFER_PARAMS, amount: -1 }), RequestValidationError);
    await rejection(client.charges.retrieve(''), RequestValidationError);
    await rejection(client.charges.retrieve(CHARGE_ID, { maxRetry: 1 } as never), RequestValidationError);
    await rejection(client.charges.list({ pagesize: 0 }), RequestValidationError);
    await rejection(client.get('https://elsewhere.test/v1/payouts'), RequestValidationError);
    await rejection(client.post('/v1/transfers', { body: { n: 1n } }), RequestValidationError);

    expect(trace.records).toEqual([]);
    expect(requests.count()).toBe(0);
  });

  it('a call aborted before sending publishes its operation, failed, with no attempt', async () => {
    const client = makeClient();
    const requests = countRequests();
    const trace = recordTracing();

    const error = await rejection(
      client.charges.retrieve(CHARGE_ID, { signal: AbortSignal.abort() }),
      APIUserAbortError,
    );

    expect(trace.names()).toEqual([
      'operation:start',
      'operation:end',
      'operation:error',
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    expect(trace.contexts('operation')[0]).toMatchObject({ status: undefined, error });
    expect(requests.count()).toBe(0);
  });

  it('an abort in the wait before a retry: that retry is published, failed unsent', async () => {
    const client = makeClient();
    const controller = new AbortController();
    route('GET', CHARGE_PATH, () => {
      setTimeout(() => controller.abort(), 20);
      return jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '5000' });
    });
    const trace = recordTracing();

    await rejection(client.charges.retrieve(CHARGE_ID, { signal: controller.signal }), APIUserAbortError);

    const attempts = trace.contexts('attempt');
    expect(attempts.map((a) => [a.attempt, a.status, a.willRetry])).toEqual([
      [1, 503, true],
      [2, undefined, false],
    ]);
    expect(attempts[1]!.error).toBeInstanceOf(APIUserAbortError);
  });
});

describe('headers a subscriber adds', () => {
  it('are sent with that attempt only, lower-cased, beside the call’s own', async () => {
    const client = makeClient();
    const seen = route('POST', TRANSFERS_PATH, (n) =>
      n === 1 ? jsonReply(503, { status: 'error', message: 'busy' }, NO_WAIT) : jsonReply(200, success(transferJson())),
    );
    recordTracing((context) => {
      context.headers.Traceparent = `00-${'a'.repeat(32)}-${String(context.attempt).repeat(16)}-01`;
      context.headers.tracestate = 'vendor=1';
    });

    await client.transfers.create(TRANSFER_PARAMS, { headers: { 'x-merchant': 'm' } });

    expect(seen.map((r) => r.headers.get('traceparent'))).toEqual([
      `00-${'a'.repeat(32)}-${'1'.repeat(16)}-01`,
      `00-${'a'.repeat(32)}-${'2'.repeat(16)}-01`,
    ]);
    expect(seen.map((r) => r.headers.get('tracestate'))).toEqual(['vendor=1', 'vendor=1']);
    expect(seen[0]!.headers.get('x-merchant')).toBe('m');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it("never replace the SDK's, the client's or the call's headers, and invalid ones are left out", async () => {
    const client = makeClient({ defaultHeaders: { 'x-team': 'payments' } });
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    recordTracing((context) => {
      Object.assign(context.headers, {
        Authorization: 'Bearer stolen',
        'idempotency-key': 'other',
        'content-type': 'text/plain',
        'x-team': 'other',
        'x-call': 'other',
        'x-split': 'a\r\nx-injected: 1',
        'bad name': 'v',
        connection: 'close',
        'x-number': 1,
        'x-kept': 'yes',
      });
    });

    await client.transfers.create(TRANSFER_PARAMS, { idempotencyKey: 'mine', headers: { 'x-call': 'mine' } });

    const headers = Object.fromEntries(seen[0]!.headers);
    expect(headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'idempotency-key': 'mine',
      'content-type': 'application/json',
      'x-team': 'payments',
      'x-call': 'mine',
      'x-kept': 'yes',
    });
    for (const name of ['x-split', 'x-injected', 'bad name', 'x-number']) expect(headers).not.toHaveProperty(name);
  });

  it("a subscriber's headers object that throws adds what it gave before, and the call goes on", async () => {
    const client = makeClient();
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const channel = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
    const hostile = (context: AttemptContext) => {
      (context as { headers: unknown }).headers = new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('no keys');
          },
        },
      );
    };
    channel.start.subscribe(hostile as (message: unknown) => void);
    try {
      await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
    } finally {
      channel.start.unsubscribe(hostile as (message: unknown) => void);
    }
    expect(seen).toHaveLength(1);
  });
});

describe("a subscriber's runExchange", () => {
  /** A runner the test sets in the attempt's `start`, by assignment or (for a getter) by definition. */
  type Setter = (context: AttemptContext, calls: unknown[]) => void;
  const setTo =
    (runner: (send: () => unknown, calls: unknown[]) => unknown): Setter =>
    (context, calls) => {
      context.runExchange = ((send: () => unknown) => runner(send, calls)) as AttemptContext['runExchange'];
    };

  it('sends the request inside it: what the HTTP client sees is the async context it runs send in', async () => {
    const store = new AsyncLocalStorage<string>();
    const seenByFetch: (string | undefined)[] = [];
    const client = makeClient({
      fetch: (input, init) => {
        seenByFetch.push(store.getStore());
        return globalThis.fetch(input, init);
      },
    });
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    recordTracing((context) => {
      expect(context.runExchange).toBeUndefined();
      context.runExchange = (send) => store.run(`attempt ${context.attempt}`, send);
    });

    await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });

    expect(seen).toHaveLength(1);
    expect(seenByFetch).toEqual(['attempt 1']);
  });

  const misbehaving: [string, Setter][] = [
    ['a string, not a function', (context) => void ((context as { runExchange: unknown }).runExchange = 'yes')],
    ['an object, not a function', (context) => void ((context as { runExchange: unknown }).runExchange = {})],
    [
      'a getter that throws',
      (context) =>
        void Object.defineProperty(context, 'runExchange', {
          // Not enumerable, so that the recorder's copy of the context does not read it.
          enumerable: false,
          get: () => {
            throw new Error('no runner');
          },
        }),
    ],
    [
      'a function that throws before calling send',
      setTo(() => {
        throw new Error('broken runner');
      }),
    ],
    [
      'a function that throws after calling send',
      setTo((send) => {
        send();
        throw new Error('broken after');
      }),
    ],
    ['a function that never calls send', setTo(() => 'nothing sent')],
    [
      'a function that calls send twice',
      setTo((send, calls) => {
        calls.push(send(), send());
      }),
    ],
    [
      'a function that calls send later, after lunas sent',
      setTo((send, calls) => {
        setTimeout(() => calls.push(send()), 0);
      }),
    ],
    ['an async function', setTo(async (send) => send())],
  ];

  it.each(misbehaving)('%s: exactly one request, and the call succeeds', async (_, setRunner) => {
    const client = makeClient({ maxRetries: 0 });
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const calls: unknown[] = [];
    recordTracing((context) => setRunner(context, calls));

    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    // A late call comes after the response: wait for it, then see it sent nothing more.
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(seen).toHaveLength(1);
    // Each of the runner's calls of send got the one request's promise.
    if (calls.length > 0) expect(new Set(calls).size).toBe(1);
  });

  it("a connection failure inside an async runner: the call's APIConnectionError, one request, nothing unhandled", async () => {
    const client = makeClient({ maxRetries: 0 });
    const seen = route('POST', TRANSFERS_PATH, () => HttpResponse.error());
    recordTracing((context) => {
      context.runExchange = (async (send: () => unknown) => send()) as AttemptContext['runExchange'];
    });

    await rejection(client.transfers.create(TRANSFER_PARAMS), APIConnectionError);

    expect(seen).toHaveLength(1);
  });
});

describe('subscribers as diagnostics_channel allows them', () => {
  it("a store bound to the operation's start is the store of its attempts (tracePromise runs the stores)", async () => {
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const store = new AsyncLocalStorage<string>();
    const operation = tracingChannel<string, OperationContext>(OPERATION_CHANNEL);
    const attempt = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
    operation.start.bindStore(store, (context) => `inside ${context.operation}`);
    const seenInAttempt: (string | undefined)[] = [];
    const onAttempt = () => seenInAttempt.push(store.getStore());
    attempt.start.subscribe(onAttempt);
    try {
      await client.charges.retrieve(CHARGE_ID);
    } finally {
      operation.start.unbindStore(store);
      attempt.start.unsubscribe(onAttempt);
    }

    expect(seenInAttempt).toEqual(['inside charges.retrieve']);
  });

  it('a subscriber that freezes the contexts breaks no call: a success resolves, a failure keeps its key', async () => {
    const client = makeClient({ maxRetries: 1 });
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    route('POST', TRANSFERS_PATH, () =>
      jsonReply(500, { status: 'error', message: 'down' }, { 'retry-after-ms': '0' }),
    );
    const operation = tracingChannel<OperationContext>(OPERATION_CHANNEL);
    const attempt = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
    // Frozen at start, as a subscriber that keeps what it saw immutable may do: lunas's later writes must not throw.
    const freeze = (context: unknown) => void Object.freeze(context);
    operation.start.subscribe(freeze);
    attempt.start.subscribe(freeze);
    try {
      await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
      const failure = await rejection(client.transfers.create(TRANSFER_PARAMS, { idempotencyKey: 'order-frozen' }));
      expect(failure).toBeInstanceOf(InternalServerError);
      expect(failure).toMatchObject({ idempotencyKey: 'order-frozen', status: 500 });
    } finally {
      operation.start.unsubscribe(freeze);
      attempt.start.unsubscribe(freeze);
    }
  });

  it('subscribing to one channel only publishes that one, and no operation is linked', async () => {
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const attempts: AttemptContext[] = [];
    const channel = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
    const onStart = (context: AttemptContext) => attempts.push(context);
    channel.start.subscribe(onStart as (message: unknown) => void);
    try {
      await client.charges.retrieve(CHARGE_ID);
    } finally {
      channel.start.unsubscribe(onStart as (message: unknown) => void);
    }

    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      operation: 'charges.retrieve',
      route: '/v1/payments/charges/{id}',
      url: `${BASE_URL}${CHARGE_PATH}`,
      operationContext: undefined,
      status: 200,
    });
  });
});
