/**
 * Plug-ins, property-based: whatever event listeners, logger methods, a
 * custom `fetch` or a caller's Standard Schema do (return or throw anything
 * fast-check makes, null-prototype objects, symbols, throwing getters,
 * revoked Proxies; reject with any of them; never settle), every call
 * settles with a value or a `LunasError`, each `request` event is paired
 * with its `response` event, exactly one event says `willRetry: false` and
 * it is the last, and nothing ends as an unhandled rejection.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, LunasError, type Logger, RequestValidationError, type StandardSchema } from '../../src/index.js';
import {
  expectPairedEvents,
  recordEvents,
  type UnhandledRejections,
  watchUnhandledRejections,
} from '../helpers/recorders.js';
import { TRANSFER_PARAMS } from '../helpers/requests.js';
import { successResponse } from '../helpers/wire.js';
import { API_KEY, BASE_URL, transferJson } from '../helpers/fixtures.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 150);

function fail(): never {
  throw new TypeError('a plug-in’s own bug');
}

/** Values that break `String()`, template literals, property reads or `instanceof`, made fresh per use. */
const oddValue: fc.Arbitrary<() => unknown> = fc.constantFrom(
  () => Object.create(null),
  () => Symbol('odd'),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  () => new Proxy({}, { get: fail, has: fail, getPrototypeOf: fail, ownKeys: fail }),
  () => ({ toString: fail, valueOf: fail }),
  () => Object.defineProperty(new Error('x'), 'message', { get: fail }),
  () => ({
    get then() {
      return fail();
    },
  }),
);

/** Anything a plug-in may hand back or throw. */
const foreign: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.anything({ withNullPrototype: true, withBigInt: true }).map((value) => () => value),
  oddValue,
);

/** What a plug-in does when called: returns, throws, rejects, resolves, never settles, or a broken thenable. */
type Act = () => unknown;
const behaviour: fc.Arbitrary<Act> = fc.oneof(
  foreign.map((value) => value),
  foreign.map((value) => () => {
    throw value();
  }),
  foreign.map((value) => () => Promise.reject(value())),
  foreign.map((value) => () => Promise.resolve(value())),
  fc.constant(() => new Promise(() => undefined)),
  foreign.map((value) => () => ({
    then() {
      throw value();
    },
  })),
);

let unhandled: UnhandledRejections;
beforeAll(() => {
  unhandled = watchUnhandledRejections();
});
afterAll(() => unhandled.stop());

/**
 * Runs `call` and checks the rules: a value or a LunasError, paired events
 * with one final event last, and no unhandled rejection once the event loop
 * has turned (Node reports one after the microtasks drain).
 */
async function expectSettles(client: Client, call: (client: Client) => Promise<unknown>): Promise<void> {
  const seen = recordEvents(client);
  const before = unhandled.reasons.length;
  const outcome = await call(client).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome !== undefined) expect(outcome).toBeInstanceOf(LunasError);
  // Refused before sending: no attempt, so no event.
  if (outcome instanceof RequestValidationError) expect(seen).toEqual([]);
  else expectPairedEvents(seen);
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled.reasons.length - before).toBe(0);
}

/** A fetch answering 503 (retry at once) `busy` times, then `last` for the final attempt. */
function busyThen(busy: number, last: () => unknown): typeof fetch {
  let attempts = 0;
  // Not async: a `last` that throws throws from fetch itself, as a plain function's would.
  return (() =>
    ++attempts <= busy
      ? Promise.resolve(new Response('busy', { status: 503, headers: { 'retry-after-ms': '0' } }))
      : last()) as unknown as typeof fetch;
}

const base = { apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'off' as const, timeout: 50 };
const retries = fc.nat({ max: 2 });
const finalAnswer = fc.constantFrom(
  () => successResponse(transferJson()),
  () => new Response('gone', { status: 404 }),
  () => Promise.reject(new TypeError('fetch failed')),
);

/** A Response whose body breaks off with anything, at any status. */
const brokenBody: fc.Arbitrary<Act> = fc.tuple(foreign, fc.constantFrom(200, 404, 503)).map(([value, status]) => () => {
  const body = new ReadableStream({
    pull(controller) {
      controller.error(value());
    },
  });
  return new Response(body, { status });
});

describe('whatever a plug-in does, the call settles and its events pair up', () => {
  it('event listeners, with an abort at any point of the call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(behaviour, { minLength: 1, maxLength: 3 }),
        fc.array(behaviour, { minLength: 1, maxLength: 3 }),
        retries,
        finalAnswer,
        fc.option(fc.nat({ max: 2 }), { nil: undefined }),
        async (onRequest, onResponse, busy, last, abortAfter) => {
          const controller = new AbortController();
          const client = new Client({ ...base, maxRetries: busy, fetch: busyThen(busy, last) });
          for (const act of onRequest) client.on('request', () => act());
          for (const act of onResponse) client.on('response', () => act());
          // Aborting from a listener lands in the attempt or in the wait before the next one.
          client.on('response', (event) => {
            if (event.attempt - 1 === abortAfter) controller.abort();
          });
          await expectSettles(client, (c) => c.transfers.create(TRANSFER_PARAMS, { signal: controller.signal }));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('logger methods, present or not, at any level', async () => {
    const method = fc.option(behaviour, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({ debug: method, info: method, warn: method, error: method }),
        fc.constantFrom('debug', 'info', 'warn', 'error', 'off') as fc.Arbitrary<'debug'>,
        retries,
        finalAnswer,
        async (acts, logLevel, busy, last) => {
          const logger = Object.fromEntries(
            Object.entries(acts).map(([level, act]) => [level, act && ((_line: string) => act())]),
          ) as unknown as Logger;
          const build = () => new Client({ ...base, logger, logLevel, maxRetries: busy, fetch: busyThen(busy, last) });
          if (Object.values(acts).every((act) => act === undefined)) {
            expect(build).toThrow(LunasError);
            return;
          }
          const client = build();
          // A failing listener makes lunas write a warn line too.
          client.on('request', fail);
          await expectSettles(client, (c) => c.transfers.create(TRANSFER_PARAMS));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a custom fetch that answers anything, after any number of retried 503s', async () => {
    await fc.assert(
      fc.asyncProperty(retries, fc.oneof(behaviour, brokenBody), async (busy, act) => {
        const client = new Client({ ...base, maxRetries: busy, fetch: busyThen(busy, act) });
        await expectSettles(client, (c) => c.transfers.create(TRANSFER_PARAMS));
      }),
      { numRuns: RUNS },
    );
  });

  it('a Standard Schema that answers anything, a result-shaped value or not, or is itself anything', async () => {
    const result = fc.oneof(
      foreign,
      foreign.map((value) => () => ({ value: value() })),
      foreign.map((value) => () => ({ issues: value() })),
      fc.array(foreign, { maxLength: 3 }).map((issues) => () => ({ issues: issues.map((issue) => issue()) })),
      fc
        .array(fc.record({ message: foreign, path: foreign }), { maxLength: 3 })
        .map((issues) => () => ({ issues: issues.map(({ message, path }) => ({ message: message(), path: path() })) })),
    );
    const validate = fc.oneof(
      behaviour,
      result,
      result.map((answer) => () => Promise.resolve(answer())),
    );
    // Now and then the schema object itself is anything: refused before sending, or read safely.
    const schemaOf = fc.oneof(
      {
        weight: 9,
        arbitrary: validate.map((act) => () => ({ '~standard': { version: 1, vendor: 'p', validate: act } })),
      },
      { weight: 1, arbitrary: foreign },
    );
    await fc.assert(
      fc.asyncProperty(retries, schemaOf, async (busy, make) => {
        const schema = make() as StandardSchema<unknown>;
        const fetch = busyThen(busy, () => successResponse({ id: 'po_1' }));
        const client = new Client({ ...base, maxRetries: busy, fetch });
        await expectSettles(client, (c) => c.get('/v1/payouts/po_1', { schema }));
      }),
      { numRuns: RUNS },
    );
  });
});
