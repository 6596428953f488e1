/**
 * Plug-ins that misbehave (a logger, an event listener, a caller's Standard
 * Schema, a custom `fetch`) never break a call: it settles with a value or a
 * `LunasError`, every `request` event gets its `response` event, and nothing
 * ends as an unhandled rejection. Also the logger's check at construction,
 * the final event of a call aborted while waiting to retry, and the key of a
 * POST aborted before it was sent.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeThrown } from '../../src/core/report/describe-value.js';
import {
  APIUserAbortError,
  Client,
  type ClientOptions,
  LunasError,
  type Logger,
  RequestValidationError,
  ResponseValidationError,
  type StandardSchema,
} from '../../src/index.js';
import {
  expectPairedEvents,
  recordEvents,
  responseEvents,
  type UnhandledRejections,
  watchUnhandledRejections,
} from '../helpers/recorders.js';
import { TRANSFER_PARAMS } from '../helpers/requests.js';
import { successResponse, wireClient } from '../helpers/wire.js';
import { sleep } from '../helpers/waiting.js';
import { API_KEY, BASE_URL, transferJson } from '../helpers/fixtures.js';

/** Throws a TypeError, as a getter or method with a bug would. */
function fail(): never {
  throw new TypeError('a plug-in’s own bug');
}

/** A revoked Proxy: any operation on it throws a TypeError. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Values a plug-in may throw that `String()` or a template literal would choke on. */
const HOSTILE_THROWS: [string, () => unknown][] = [
  ['a null-prototype object', () => Object.create(null)],
  ['a symbol', () => Symbol('odd')],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
  ],
  ['an Error whose message getter throws', () => Object.defineProperty(new Error(), 'message', { get: () => fail() })],
  ['a revoked Proxy', revoked],
  ['undefined', () => undefined],
];

let unhandled: UnhandledRejections;
beforeEach(() => {
  unhandled = watchUnhandledRejections();
});
afterEach(async () => {
  // A rejection nobody handles is reported after a turn of the event loop.
  await sleep(10);
  unhandled.stop();
  vi.unstubAllEnvs();
  expect(unhandled.reasons).toEqual([]);
});

describe('describeThrown', () => {
  it.each(HOSTILE_THROWS)('never throws, and names %s by its kind', (_, make) => {
    const text = describeThrown(make());
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^(an? \w+|undefined|null)$/);
  });

  it('gives an Error’s name and message, and a string itself, cut short', () => {
    expect(describeThrown(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeThrown('plain')).toBe('plain');
    expect(describeThrown('x'.repeat(1_000))).toHaveLength(201);
    expect(describeThrown(null)).toBe('null');
    expect(describeThrown(42)).toBe('a number');
  });
});

describe('the logger option', () => {
  const base = { apiKey: API_KEY, baseURL: BASE_URL };
  const build = (logger: unknown) => () => new Client({ ...base, logger: logger as Logger });

  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['the string console', 'console'],
    ['a number', 42],
    ['an object with none of the four methods', { log: () => undefined }],
    ['a member that is not a function', { ...console, debug: 'yes' }],
  ])('refuses %s at construction, saying what a logger must have', (_, logger) => {
    expect(build(logger)).toThrow(LunasError);
    expect(build(logger)).toThrow(/logger option/);
  });

  it('refuses a logger whose members cannot be read, with a LunasError', () => {
    const throwing = new Proxy({}, { get: () => fail() });
    expect(build(throwing)).toThrow(LunasError);
    expect(build(revoked())).toThrow(LunasError);
  });

  it('accepts a logger with some of the methods, and a function carrying them', () => {
    expect(build({ error: () => undefined })).not.toThrow();
    expect(build({ warn: () => undefined, debug: null })).not.toThrow();
    expect(build(Object.assign(() => undefined, { info: () => undefined }))).not.toThrow();
  });

  it('LUNAS_LOG=debug with a logger that has no debug method: the calls succeed, other levels still written', async () => {
    vi.stubEnv('LUNAS_LOG', 'debug');
    const lines: string[] = [];
    const logger = { info: (line: string) => void lines.push(`info ${line}`), warn: () => undefined };
    let attempts = 0;
    const { client } = wireClient(
      () => (++attempts === 1 ? new Response('busy', { status: 503 }) : successResponse(transferJson())),
      { logger: logger as unknown as Logger, logLevel: undefined, maxRetries: 1 },
    );
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info lunas: POST .* retrying in/);
  });

  it.each<[string, (line: string) => unknown]>([
    [
      'throws',
      () => {
        throw Object.create(null);
      },
    ],
    ['returns a rejected promise', () => Promise.reject(Object.create(null))],
    ['returns a thenable whose then throws', () => ({ then: () => fail() })],
  ])('a logger method that %s loses its line and never affects the call', async (_, method) => {
    const logger: Logger = { debug: method, info: method, warn: method, error: method } as Logger;
    let attempts = 0;
    const { client } = wireClient(
      () => (++attempts === 1 ? new Response('busy', { status: 503 }) : successResponse(transferJson())),
      { logger, logLevel: 'debug', maxRetries: 1 },
    );
    client.on('request', () => {
      throw new Error('listener broke, so a warn line is written');
    });
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
  });
});

describe('listeners', () => {
  it.each(HOSTILE_THROWS)('one that throws %s: warned with its kind, and the call goes on', async (_, make) => {
    const warned: string[] = [];
    const { client } = wireClient(() => successResponse(transferJson()), {
      logger: { ...console, warn: (line: string) => void warned.push(line) },
      logLevel: 'warn',
    });
    const seen = recordEvents(client);
    client.on('request', () => {
      throw make();
    });
    client.on('response', async () => {
      await sleep(1);
      throw make();
    });
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    await sleep(20);
    expectPairedEvents(seen);
    expect(warned).toHaveLength(2);
    for (const line of warned) expect(line).toMatch(/event listener threw, and was ignored: (an? \w+|undefined)$/);
  });

  it('one that adds a new listener at every event does not keep the call from ending', async () => {
    const { client } = wireClient(() => successResponse(transferJson()));
    let added = 0;
    const grow = () => void client.on('request', () => void (added++ < 1_000_000 && grow()));
    grow();
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    expect(added).toBe(1);
  });
});

/** A Standard Schema whose `validate` does `validate`. */
function schemaOf(validate: (value: unknown) => unknown): StandardSchema<unknown> {
  return { '~standard': { version: 1, vendor: 'test', validate } } as StandardSchema<unknown>;
}

describe('a caller’s Standard Schema', () => {
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

describe('a custom fetch that does not return a Response', () => {
  it.each<[string, () => unknown]>([
    ['undefined', () => undefined],
    ['an empty object', () => ({})],
    ['a string', () => 'ok'],
    ['a rejection with a null-prototype object', () => Promise.reject(Object.create(null))],
    ['a rejection with a revoked Proxy', () => Promise.reject(revoked())],
    ['a rejection with a symbol', () => Promise.reject(Symbol('down'))],
  ])('%s: the call rejects with a LunasError, every attempt with its pair of events', async (_, answer) => {
    const options: ClientOptions = { apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'off', maxRetries: 1 };
    const client = new Client({ ...options, fetch: (async () => answer()) as unknown as typeof fetch });
    const seen = recordEvents(client);
    const error = await client.transfers.create(TRANSFER_PARAMS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LunasError);
    expectPairedEvents(seen);
    expect(responseEvents(seen).at(-1)!.error).toBe(error);
  });
});

describe('the caller aborts during the wait before a retry', () => {
  it('the retry ends unsent with its pair of events, the last one final, and nothing more is sent', async () => {
    const controller = new AbortController();
    const { client, sent } = wireClient(() => new Response('busy', { status: 503, headers: { 'retry-after': '30' } }), {
      maxRetries: 2,
    });
    const seen = recordEvents(client);
    client.on('response', (event) => {
      if (event.willRetry) setTimeout(() => controller.abort(), 5);
    });
    const started = performance.now();
    const error = await client.transfers
      .create(TRANSFER_PARAMS, { signal: controller.signal, idempotencyKey: 'settle-1' })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toMatch(/aborted by the caller while waiting to retry$/);
    // Sent once: the key was on the wire, so the error carries it.
    expect(sent).toHaveLength(1);
    expect((error as APIUserAbortError).idempotencyKey).toBe('settle-1');
    expectPairedEvents(seen);
    const last = responseEvents(seen).at(-1)!;
    expect(last).toMatchObject({ attempt: 2, status: undefined, willRetry: false, error });
    expect(last.durationMs).toBeLessThan(50);
  });
});

describe('a POST aborted before it is sent', () => {
  it.each([undefined, 'settle-2'])('carries no idempotencyKey (given: %s): no request carried one', async (key) => {
    const { client, sent } = wireClient(() => successResponse(transferJson()));
    const error = await client.transfers
      .create(TRANSFER_PARAMS, { signal: AbortSignal.abort(), idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).idempotencyKey).toBeUndefined();
    expect(sent).toHaveLength(0);
  });
});
