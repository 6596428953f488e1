/**
 * The API key never leaks, against the sandbox over real HTTP (no msw here):
 * not in a message, a stack, a log line, nor in `String`, `JSON.stringify`
 * or `util.inspect` (deep, hidden properties shown) of anything lunas hands
 * back — results, errors, pages, list promises before and after they load,
 * response info — whatever the service sends. A sweep of every method under
 * every fault the sandbox offers, with the key echoed wherever a service
 * could put it; a parameter holding the key refused before sending; and, end
 * to end, no event, tracing context, or OpenTelemetry span or metric holding
 * it. The files beside this one hold each channel on msw.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  Client,
  getResponseInfo,
  PagePromise,
  RequestValidationError,
} from 'lunas-sdk';
import { type Fault, type FaultKind, type Sandbox, startSandbox } from 'lunas-sdk/testing';
import { start } from '../../e2e/helpers.js';
import { keyForms, keyLeaks, leaksOf } from '../../helpers/key-forms.js';
import { useOpenTelemetry } from '../../helpers/otel.js';
import { recordEvents, recordingLogger, responseEvents } from '../../helpers/recorders.js';
import { rejection } from '../../helpers/rejection.js';
import { recordTracing } from '../../helpers/tracing.js';

/** Base64-style: `+`, `/` and `=` are percent-encoded in a URL, `/` JSON-escaped as `\/` by some encoders. */
const KEY = 'sk_live_sw+ep/4f1c9a7e2b==';

// -------------------------------------------------------------- the sweep

type Target = Pick<Fault, 'method' | 'path'>;

interface MethodUnderTest {
  name: string;
  target: (chargeId: string) => Target;
  /** Calls the method and collects every value it hands back: results, pages, promises, response info. */
  collect: (client: Client, chargeId: string, into: unknown[]) => Promise<void>;
}

async function single(call: Promise<object>, into: unknown[]): Promise<void> {
  const value = await call;
  into.push(value, getResponseInfo(value));
}

async function listed(promise: PagePromise<unknown>, into: unknown[]): Promise<void> {
  into.push(promise);
  const page = await promise;
  into.push(promise, page, getResponseInfo(page), page.data);
  for await (const each of page.iterPages()) into.push(each, getResponseInfo(each));
}

const METHODS: MethodUnderTest[] = [
  {
    name: 'charges.create',
    target: () => ({ method: 'POST', path: '/v1/payments/charges' }),
    collect: (client, _id, into) => single(client.charges.create({ payment_method: 'qris', amount: 10_000 }), into),
  },
  {
    name: 'charges.retrieve',
    target: (id) => ({ method: 'GET', path: `/v1/payments/charges/${id}` }),
    collect: (client, id, into) => single(client.charges.retrieve(id), into),
  },
  {
    name: 'charges.list',
    target: () => ({ method: 'GET', path: '/v1/payments/charges' }),
    collect: (c, _id, into) => listed(c.charges.list({ pagesize: 1 }), into),
  },
  {
    name: 'transfers.create',
    target: () => ({ method: 'POST', path: '/v1/transfers' }),
    collect: (client, _id, into) =>
      single(client.transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' }), into),
  },
  {
    name: 'transfers.list',
    target: () => ({ method: 'GET', path: '/v1/transfers' }),
    collect: (c, _id, into) => listed(c.transfers.list({ pagesize: 1 }), into),
  },
  {
    name: 'payouts.list',
    target: () => ({ method: 'GET', path: '/v1/payouts' }),
    collect: (c, _id, into) => listed(c.payouts.list({ pagesize: 2 }), into),
  },
  {
    name: 'paymentMethods.list',
    target: () => ({ method: 'GET', path: '/v1/payments/methods' }),
    collect: (c, _id, into) => listed(c.paymentMethods.list({ pagesize: 4 }), into),
  },
];

/** Every fault kind, with the key echoed wherever a body can carry it. */
const FAULTS: [string, FaultKind | undefined][] = [
  ['no fault', undefined],
  [
    '503 echoing the key',
    {
      kind: 'status',
      status: 503,
      body: { status: 'error', message: `upstream saw Bearer ${KEY}` },
      headers: { 'retry-after-ms': '0' },
    },
  ],
  [
    '401 echoing the key',
    { kind: 'status', status: 401, body: { status: 'error', message: `Invalid API key ${KEY}` } },
  ],
  [
    '400 fail echoing the key',
    { kind: 'status', status: 400, body: { status: 'fail', data: { authorization: [`Bearer ${KEY}`], [KEY]: 'x' } } },
  ],
  [
    '200 echoing the key, unicode-escaped',
    {
      kind: 'status',
      status: 200,
      body: `{"status":"success","data":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
    },
  ],
  [
    '500 echoing the key percent-encoded, lower-case hex, and JSON-escaped',
    {
      kind: 'status',
      status: 500,
      body: `{"status":"error","message":"saw ${keyForms(KEY)[2]} and ${KEY.replaceAll('/', '\\/')}"}`,
      headers: { 'retry-after-ms': '0' },
    },
  ],
  [
    '200 echoing the key in a wrong-typed field',
    { kind: 'status', status: 200, body: { status: 'success', data: { id: 5, note: KEY }, page: KEY } },
  ],
  [
    '429 in plain text echoing the key',
    {
      kind: 'status',
      status: 429,
      body: `slow down ${KEY}`,
      headers: { 'content-type': 'text/plain', 'retry-after': '0' },
    },
  ],
  ['html', { kind: 'html' }],
  ['delay past the timeout', { kind: 'delay', ms: 900 }],
  ['hang', { kind: 'hang' }],
  ['drop', { kind: 'drop' }],
  ['lost response', { kind: 'lost-response' }],
  ['malformed', { kind: 'malformed' }],
];

interface SweepResult {
  fault: string;
  values: unknown[];
  lines: string[];
  errors: number;
  successes: number;
}

const sweeps: SweepResult[] = [];
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  sweeps.push(
    ...(await Promise.all(
      FAULTS.map(async ([label, fault]) => {
        const sandbox = await startSandbox({ apiKey: KEY });
        sandboxes.push(sandbox);
        const { lines, logger } = recordingLogger();
        const client = new Client({
          apiKey: KEY,
          baseURL: sandbox.url,
          // Short enough that hangs cost little; long enough that no fault means no error.
          timeout: fault ? 500 : 10_000,
          maxRetries: 1,
          logger,
          logLevel: 'debug',
        });
        const charge = await client.charges.create({ payment_method: 'qris', amount: 5_000 });
        const values: unknown[] = [client, charge];
        let errors = 0;
        let successes = 0;
        // Once (a retry may recover), then twice (beyond maxRetries 1), every method side by side.
        for (const times of [1, 2]) {
          await Promise.all(
            METHODS.map(async (method) => {
              if (fault) sandbox.inject({ ...fault, ...method.target(charge.id), times });
              try {
                await method.collect(client, charge.id, values);
                successes++;
              } catch (error) {
                errors++;
                values.push(error);
              }
            }),
          );
          sandbox.clearFaults();
        }
        return { fault: label, values, lines, errors, successes };
      }),
    )),
  );
}, 30_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

describe('every method under every fault, the key echoed back', () => {
  it.each(FAULTS.map(([label]) => label))('%s: no value handed back renders the key', (label) => {
    const sweep = sweeps.find((each) => each.fault === label)!;
    expect(sweep.successes + sweep.errors).toBe(2 * METHODS.length);
    if (label === 'no fault') expect(sweep.errors).toBe(0);
    expect(leaksOf(sweep.values, KEY)).toEqual([]);
  });

  it.each(FAULTS.map(([label]) => label))('%s: no log line carries the key, even at debug', (label) => {
    const sweep = sweeps.find((each) => each.fault === label)!;
    expect(sweep.lines.length).toBeGreaterThan(0);
    expect(keyLeaks(sweep.lines, KEY)).toEqual([]);
  });

  it('the echoes did reach the SDK: the service’s own words are kept, with the key masked', () => {
    const messages = sweeps.flatMap((sweep) =>
      sweep.values.filter((value): value is Error => value instanceof APIError).map((error) => error.message),
    );
    expect(messages.some((message) => message.includes('Invalid API key [REDACTED]'))).toBe(true);
    expect(messages.some((message) => message.includes('upstream saw Bearer [REDACTED]'))).toBe(true);
    expect(messages.some((message) => message.includes('saw [REDACTED] and [REDACTED]'))).toBe(true);
  });
});

describe('the key where a caller put it, over real HTTP', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: KEY });
  });
  afterAll(() => sandbox.close());

  function observed() {
    const { lines, logger } = recordingLogger();
    const client = new Client({ apiKey: KEY, baseURL: sandbox.url, maxRetries: 0, logger, logLevel: 'debug' });
    return { client, lines, events: recordEvents(client) };
  }

  it.each<[string, (client: Client) => Promise<unknown>, string[]]>([
    [
      'a charge’s description (what the payment page shows)',
      (client) => client.charges.create({ payment_method: 'qris', amount: 10_000, description: `key: ${KEY}` }),
      ['description'],
    ],
    [
      'an item’s name and a customer’s name',
      (client) =>
        client.charges.create({
          payment_method: 'qris',
          amount: 10_000,
          customer_details: { name: encodeURIComponent(KEY) },
          items: [{ name: `Tea ${KEY}`, price: 10_000, quantity: 1 }],
        }),
      ['customer_details.name', 'items.0.name'],
    ],
    [
      'a transfer’s reference',
      (client) =>
        client.transfers.create({
          destination_account_id: 'acc_partner',
          amount: 10_000,
          currency: 'idr',
          client_reference_id: KEY,
        }),
      ['client_reference_id'],
    ],
    [
      'a raw post’s nested field',
      (client) =>
        client.post('/v1/payments/charges', {
          body: { payment_method: 'qris', amount: 10_000, metadata: { note: KEY } },
        }),
      ['body.metadata.note'],
    ],
    ['an id', (client) => client.charges.retrieve(KEY), ['id']],
    ['a raw path', (client) => client.get(`/v1/payments/charges/${KEY}`), ['path']],
    ['a query name and value', (client) => client.get('/v1/unknown', { query: { [KEY]: KEY } }), ['query.[REDACTED]']],
  ])('as %s: refused before sending, nothing reaches the service, nothing shows it', async (_where, call, fields) => {
    const { client, lines, events } = observed();
    const before = sandbox.requests.length;
    const error = await call(client).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual(fields);
    expect(sandbox.requests).toHaveLength(before);
    expect(sandbox.charges()).toEqual([]);
    expect(sandbox.transfers()).toEqual([]);
    expect(events).toEqual([]);
    expect(leaksOf([error], KEY)).toEqual([]);
    expect(keyLeaks(lines, KEY)).toEqual([]);
  });

  it('a fetch wrapper whose error carries the Request and an axios-style config, on a dropped connection', async () => {
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      try {
        return await globalThis.fetch(request);
      } catch (error) {
        throw Object.assign(new Error(`request to ${request.url} failed`, { cause: error }), {
          request,
          config: { headers: Object.fromEntries(request.headers) },
        });
      }
    };
    const { lines, logger } = recordingLogger();
    const client = new Client({ apiKey: KEY, baseURL: sandbox.url, fetch, maxRetries: 0, logger, logLevel: 'debug' });
    const events = recordEvents(client);
    sandbox.inject({ kind: 'drop', method: 'GET', path: '/v1/payments/charges/ch_dropped' });
    const error = await client.charges.retrieve('ch_dropped').catch((reason: unknown) => reason);
    sandbox.clearFaults();
    expect(error).toBeInstanceOf(APIConnectionError);
    const cause = (error as Error).cause as Error;
    expect(cause.message).toBe(`request to ${sandbox.url}/v1/payments/charges/ch_dropped failed`);
    expect(Object.keys(cause)).toEqual([]);
    expect((cause.cause as Error).message).toBe('fetch failed');
    const response = events.find(({ name }) => name === 'response')!.event as { error?: unknown };
    expect(response.error).toBe(error);
    expect(leaksOf([error, ...events.map(({ event }) => event)], KEY)).toEqual([]);
    expect(keyLeaks(lines, KEY)).toEqual([]);
  });
});

/** Three listings: a success, a 401 echoing the key in its body and a header, then a dropped connection. */
async function successEchoAndDrop(sandbox: Sandbox, client: Client): Promise<void> {
  await client.charges.list();
  sandbox.inject({
    kind: 'status',
    status: 401,
    body: { status: 'error', message: `Invalid key ${sandbox.apiKey}` },
    headers: { 'x-echo': `Bearer ${sandbox.apiKey}` },
  });
  await expect(client.charges.list()).rejects.toThrow(/401/);
  sandbox.inject({ kind: 'drop' });
  await rejection(client.charges.list(), APIConnectionError);
}

describe('request and response events over HTTP', () => {
  it('no event carries the key: not a success, a 401 echoing it, nor a connection failure', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 0 });
    const seen = recordEvents(client);
    await successEchoAndDrop(sandbox, client);

    expect(responseEvents(seen).map((event) => event.status)).toEqual([200, 401, undefined]);
    for (const { event } of seen) {
      for (const text of [JSON.stringify(event), inspect(event, { depth: 10, showHidden: true })]) {
        expect(text).not.toContain(sandbox.apiKey);
      }
    }
  });
});

describe('the tracing channels over HTTP', () => {
  it('no context carries the key: a success, a 401 echoing it, a connection failure', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 0 });
    const trace = recordTracing();
    await successEchoAndDrop(sandbox, client);

    expect(trace.contexts('operation').map((o) => o.status)).toEqual([200, 401, undefined]);
    for (const { seen, context } of trace.records) {
      for (const text of [JSON.stringify(seen), inspect(context, { depth: 10, showHidden: true })]) {
        expect(text).not.toContain(sandbox.apiKey);
      }
    }
  });
});

describe('the API key', () => {
  const { telemetry } = useOpenTelemetry();

  it('is in no span name, attribute, status, event or metric: a success, a 401 echoing it; a raw path holding it makes none', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 0 });
    const otel = telemetry();
    await client.charges.list();
    sandbox.inject({
      kind: 'status',
      status: 401,
      body: { status: 'error', message: `Invalid key ${sandbox.apiKey}` },
      headers: { 'x-echo': `Bearer ${sandbox.apiKey}`, 'x-request-id': sandbox.apiKey },
    });
    await rejection(client.charges.list(), AuthenticationError);
    // Refused before sending: no span, no metric.
    await rejection(client.get(`/v1/${sandbox.apiKey}`, { query: { key: sandbox.apiKey } }), RequestValidationError);

    const spans = otel.spans();
    expect(spans.length).toBe(4);
    const recorded = spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    }));
    const collected = await otel.collect();
    for (const text of [JSON.stringify(recorded), JSON.stringify(collected.scopeMetrics)]) {
      expect(text).not.toContain(sandbox.apiKey);
    }
    expect(JSON.stringify(recorded)).toContain('[REDACTED]');
  });
});
