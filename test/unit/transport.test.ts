/**
 * The transport as a caller sees it: Idempotency-Keys, per-attempt timeouts,
 * cancellation (a call's wait for its turn on the wire included), how the URL and headers are built, and what getResponseInfo
 * reports about the exchange.
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  getResponseInfo,
  InternalServerError,
  LunasError,
  RequestValidationError,
  type ClientOptions,
} from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { CHARGE_PATH, CHARGES_PATH, jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../helpers/requests.js';
import {
  API_KEY,
  BASE_URL,
  CHARGE_ID,
  chargeJson,
  createdChargeJson,
  success,
  transferJson,
} from '../helpers/fixtures.js';
import { recordEvents, responseEvents } from '../helpers/recorders.js';
import { rejection } from '../helpers/rejection.js';
import { recordTracing } from '../helpers/tracing.js';
import { sleep } from '../helpers/waiting.js';
import { UUID_V4 } from '../helpers/formats.js';

const NO_WAIT = { 'retry-after-ms': '0' };
const unavailable = () => jsonReply(503, { status: 'error', message: 'try later' }, NO_WAIT);
const CHARGE_PARAMS = { payment_method: 'qris', amount: 25_000 } as const;
const createdCharge = () => success(createdChargeJson());

/** The real fetch: msw patches the global one only when its server starts listening, in beforeAll. */
const unmockedFetch = globalThis.fetch;

function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

/** Tracks whether a promise has settled, without leaving a rejection unhandled. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  const done = promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return { state, done };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Idempotency-Key', () => {
  it('every POST carries a generated UUID v4', async () => {
    const transfers = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const charges = route('POST', CHARGES_PATH, () => jsonReply(200, createdCharge()));
    const client = makeClient();
    await client.transfers.create(TRANSFER_PARAMS);
    await client.charges.create(CHARGE_PARAMS);

    expect(transfers[0]!.headers.get('idempotency-key')).toMatch(UUID_V4);
    expect(charges[0]!.headers.get('idempotency-key')).toMatch(UUID_V4);
  });

  it('is the same on every attempt of one call', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt < 3 ? unavailable() : jsonReply(200, success(transferJson())),
    );
    const transfer = await makeClient().transfers.create(TRANSFER_PARAMS);

    expect(seen).toHaveLength(3);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(getResponseInfo(transfer)?.idempotencyKey).toBe(keys[0]);
  });

  it('differs between two calls, even with identical parameters', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const client = makeClient();
    await client.transfers.create(TRANSFER_PARAMS);
    await client.transfers.create(TRANSFER_PARAMS);
    const [first, second] = seen.map((request) => request.headers.get('idempotency-key'));
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(first).not.toBe(second);
  });

  it("sends the caller's idempotencyKey verbatim, on every attempt", async () => {
    const key = 'payout-invoice-2024-118_Ab:9';
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1 ? unavailable() : jsonReply(200, success(transferJson())),
    );
    const transfer = await makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey: key });

    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual([key, key]);
    expect(getResponseInfo(transfer)?.idempotencyKey).toBe(key);
  });

  it('GET requests carry none', async () => {
    const one = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? unavailable() : jsonReply(200, success(chargeJson())),
    );
    const list = route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [chargeJson()], page: 1, page_size: 10, total_items: 1 }),
    );
    const client = makeClient();
    const charge = await client.charges.retrieve(CHARGE_ID);
    const page = await client.charges.list();

    expect(one).toHaveLength(2);
    for (const request of [...one, ...list]) expect(request.headers.has('idempotency-key')).toBe(false);
    expect(getResponseInfo(charge)?.idempotencyKey).toBeUndefined();
    expect(getResponseInfo(page)?.idempotencyKey).toBeUndefined();
  });

  it('the error after exhausted retries carries the key and says how to retry safely', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(500, { status: 'error', message: 'boom' }, NO_WAIT));
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS));

    const key = seen[0]!.headers.get('idempotency-key')!;
    expect(key).toMatch(UUID_V4);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as LunasError).idempotencyKey).toBe(key);
    expect((error as Error).message).toContain(`idempotencyKey "${key}"`);
    expect((error as Error).message).toMatch(/duplicate/);
  });

  it("the error carries the caller's own key", async () => {
    route('POST', TRANSFERS_PATH, () => jsonReply(503, { status: 'error', message: 'boom' }, NO_WAIT));
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey: 'order-77' }));
    expect((error as LunasError).idempotencyKey).toBe('order-77');
    expect((error as Error).message).toContain('idempotencyKey "order-77"');
  });

  it('the error of a final status carries the key too', async () => {
    const seen = route('POST', TRANSFERS_PATH, () =>
      jsonReply(400, { status: 'fail', data: { amount: ['Amount must be greater than 0'] } }),
    );
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as LunasError).idempotencyKey).toBe(seen[0]!.headers.get('idempotency-key'));
  });

  it('a connection failure after retries carries the key and the advice', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient({ maxRetries: 1 }).transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(5000);
    const error = await outcome;

    const key = seen[0]!.headers.get('idempotency-key')!;
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual([key, key]);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as LunasError).idempotencyKey).toBe(key);
    expect((error as Error).message).toContain(`idempotencyKey "${key}"`);
  });

  it('a GET error carries no key', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(500, { status: 'error', message: 'boom' }, NO_WAIT));
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as LunasError).idempotencyKey).toBeUndefined();
    expect((error as Error).message).not.toContain('idempotencyKey');
  });
});

/**
 * A real loopback server that never answers, or stops after the headers and
 * the start of a body (msw has no sockets and does not propagate an abort into
 * a mocked body), with a promise per connection that settles when it closes.
 */
async function stallingServer(sendHeaders: boolean, options: ClientOptions = {}) {
  const closed: Promise<void>[] = [];
  const server = createServer((_request, response) => {
    if (!sendHeaders) return; // never answers
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"status":"success","data":'); // the rest never comes
  });
  // Each connection as it is accepted, not as its request is read: on a loaded machine a deadline
  // may pass between the two, and the connection must close all the same.
  server.on('connection', (socket) => closed.push(new Promise((resolve) => socket.once('close', () => resolve()))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = makeClient({ baseURL: `http://127.0.0.1:${port}`, fetch: unmockedFetch, maxRetries: 0, ...options });
  const stop = () => {
    server.closeAllConnections();
    server.close();
  };
  return { client, closed, stop };
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return settled;
}

describe('timeouts', () => {
  it('an attempt slower than timeout is retried, and the next attempt can succeed', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, async (attempt) => {
      if (attempt === 1) await delay(5000);
      return jsonReply(200, success(transferJson()));
    });
    const call = track(makeClient({ timeout: 1000 }).transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    await call.done;

    expect(call.state.error).toBeUndefined();
    expect(call.state.value?.id).toBe('tr_123');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers.get('idempotency-key')).toBe(seen[0]!.headers.get('idempotency-key'));
    // The timeout fired at 1 s, then the first backoff (0.375 to 0.5 s).
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1375);
    expect(seen[1]!.at - seen[0]!.at).toBeLessThanOrEqual(1500);
    expect(getResponseInfo(call.state.value!)?.attempts).toBe(2);
  });

  it('always too slow: APIConnectionTimeoutError after maxRetries + 1 attempts', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, async () => {
      await delay(10_000);
      return jsonReply(200, success(chargeJson()));
    });
    const outcome = rejection(makeClient({ timeout: 1000, maxRetries: 2 }).charges.retrieve(CHARGE_ID));
    await vi.advanceTimersByTimeAsync(20_000);
    const error = await outcome;

    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toContain('1000 ms');
    expect((error as Error).message).toContain('3 attempts');
  });

  it('a per-call timeout overrides the client timeout', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, async () => {
      await delay(1000);
      return jsonReply(200, success(chargeJson()));
    });
    const call = track(makeClient({ timeout: 30_000, maxRetries: 0 }).charges.retrieve(CHARGE_ID, { timeout: 200 }));
    await vi.advanceTimersByTimeAsync(199);
    expect(call.state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await call.done;
    expect(call.state.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((call.state.error as Error).message).toContain('200 ms');
    expect(seen).toHaveLength(1);
  });

  it('a longer per-call timeout lets a slow answer through', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, async () => {
      await delay(500);
      return jsonReply(200, success(chargeJson()));
    });
    const call = track(makeClient({ timeout: 100, maxRetries: 0 }).charges.retrieve(CHARGE_ID, { timeout: 2000 }));
    await vi.advanceTimersByTimeAsync(600);
    await call.done;
    expect(call.state.error).toBeUndefined();
    expect(call.state.value?.id).toBe('ch_123');
    expect(seen).toHaveLength(1);
  });

  it('the timeout is per attempt, not per call', async () => {
    useFakeClock();
    // Each attempt takes 800 ms against a 1 s timeout: three of them exceed 1 s in total but none times out.
    const seen = route('GET', CHARGE_PATH, async (attempt) => {
      await delay(800);
      return attempt < 3 ? unavailable() : jsonReply(200, success(chargeJson()));
    });
    const call = track(makeClient({ timeout: 1000 }).charges.retrieve(CHARGE_ID));
    await vi.advanceTimersByTimeAsync(5000);
    await call.done;
    expect(call.state.error).toBeUndefined();
    expect(seen).toHaveLength(3);
  });

  it('a malformed per-call timeout is refused before sending', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    for (const timeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      const error = await rejection(makeClient().charges.retrieve(CHARGE_ID, { timeout }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['timeout']);
    }
    expect(seen).toHaveLength(0);
  });

  it('times out with real timers too', async () => {
    const seen = route('GET', CHARGE_PATH, async () => {
      await delay(3000);
      return jsonReply(200, success(chargeJson()));
    });
    const started = Date.now();
    const error = await rejection(makeClient({ timeout: 50, maxRetries: 0 }).charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(seen).toHaveLength(1);
  });

  it('a custom fetch is handed, in its options, the signal that the timeout and the caller abort', async () => {
    const signals: AbortSignal[] = [];
    // Answers only when its options' signal aborts, as a fetch honouring it does.
    const fetchUntilAborted = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const signal = init!.signal!;
      signals.push(signal);
      return new Promise<Response>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
    }) as typeof fetch;
    const client = makeClient({ fetch: fetchUntilAborted, timeout: 50, maxRetries: 0 });

    const timedOut = await rejection(client.charges.retrieve(CHARGE_ID));
    const controller = new AbortController();
    const call = rejection(client.charges.retrieve(CHARGE_ID, { signal: controller.signal, timeout: 60_000 }));
    await sleep(20);
    controller.abort();
    const aborted = await call;

    expect(timedOut).toBeInstanceOf(APIConnectionTimeoutError);
    expect(aborted).toBeInstanceOf(APIUserAbortError);
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it('covers reading the body: a body that stalls after the headers times out', async () => {
    const { client, stop } = await stallingServer(true, { timeout: 200 });
    try {
      const started = Date.now();
      const error = await rejection(client.charges.retrieve(CHARGE_ID));
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      stop();
    }
  });
});

describe('what a timeout or an abort leaves open', () => {
  for (const [phase, sendHeaders] of [
    ['waiting for the headers', false],
    ['reading the body', true],
  ] as const) {
    for (const withSignal of [false, true]) {
      it(`a timeout while ${phase} closes the connection${withSignal ? ', with a caller signal that never aborts' : ''}`, async () => {
        const { client, closed, stop } = await stallingServer(sendHeaders);
        try {
          const signal = withSignal ? new AbortController().signal : undefined;
          // Long enough for the connection to be accepted on a loaded machine: what is tested is its close.
          const error = await rejection(client.charges.retrieve(CHARGE_ID, { timeout: 1_000, signal }));
          expect(error).toBeInstanceOf(APIConnectionTimeoutError);
          expect(closed).toHaveLength(1);
          expect(await settlesWithin(closed[0]!, 1000)).toBe(true);
        } finally {
          stop();
        }
      });
    }

    it(`the caller's abort while ${phase} closes the connection`, async () => {
      const { client, closed, stop } = await stallingServer(sendHeaders);
      try {
        const controller = new AbortController();
        const call = rejection(client.charges.retrieve(CHARGE_ID, { signal: controller.signal }));
        // Aborted once the server holds the connection (and, on the body's turn, has had time to start it).
        await expect.poll(() => closed.length).toBe(1);
        await sleep(150);
        controller.abort();
        const error = await call;
        expect(error).toBeInstanceOf(APIUserAbortError);
        expect(closed).toHaveLength(1);
        expect(await settlesWithin(closed[0]!, 1000)).toBe(true);
      } finally {
        stop();
      }
    });
  }
});

describe('abort', () => {
  it('a signal aborted before the call rejects with APIUserAbortError and sends nothing', async () => {
    const one = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const post = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const list = route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [], page: 1, page_size: 10, total_items: 0 }),
    );
    const signal = AbortSignal.abort();
    const client = makeClient();

    for (const call of [
      client.charges.retrieve(CHARGE_ID, { signal }),
      client.transfers.create(TRANSFER_PARAMS, { signal }),
      client.charges.list({}, { signal }),
    ]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(error).toBeInstanceOf(LunasError);
      expect(error).not.toBeInstanceOf(APIConnectionError);
    }
    await sleep(20);
    expect([one.length, post.length, list.length]).toEqual([0, 0, 0]);
  });

  it('aborting during a request rejects at once and is not retried', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, async () => {
      await delay(10_000);
      return jsonReply(200, success(transferJson()));
    });
    const controller = new AbortController();
    const call = track(makeClient({ maxRetries: 3 }).transfers.create(TRANSFER_PARAMS, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(50);
    expect(seen).toHaveLength(1);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    await call.done;

    expect(call.state.error).toBeInstanceOf(APIUserAbortError);
    expect(call.state.error).not.toBeInstanceOf(APIConnectionError);
    expect((call.state.error as LunasError).idempotencyKey).toBe(seen[0]!.headers.get('idempotency-key'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(1);
  });

  it('aborting during a request, with real timers, rejects quickly', async () => {
    const seen = route('GET', CHARGE_PATH, async () => {
      await delay(3000);
      return jsonReply(200, success(chargeJson()));
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await rejection(makeClient().charges.retrieve(CHARGE_ID, { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen).toHaveLength(1);
  });

  it('aborting during the wait between retries rejects quickly, with no further attempt', async () => {
    const seen = route('POST', TRANSFERS_PATH, () =>
      jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '5000' }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS, { signal: controller.signal }));

    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as LunasError).idempotencyKey).toBe(seen[0]!.headers.get('idempotency-key'));
    expect(seen).toHaveLength(1);
  });

  it('after an abort during the wait, the retry never happens', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, () =>
      jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '5000' }),
    );
    const controller = new AbortController();
    const call = track(makeClient().charges.retrieve(CHARGE_ID, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(50);
    expect(seen).toHaveLength(1);
    expect(call.state.settled).toBe(false);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(call.state.error).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(1);
  });

  it('a signal that never aborts changes nothing', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const charge = await makeClient().charges.retrieve(CHARGE_ID, { signal: new AbortController().signal });
    expect(charge.id).toBe('ch_123');
    expect(seen).toHaveLength(1);
  });

  it('a signal that is not an AbortSignal is refused before sending', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const error = await rejection(
      makeClient().charges.retrieve(CHARGE_ID, { signal: { aborted: false } as unknown as AbortSignal }),
    );
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(seen).toHaveLength(0);
  });
});

describe('a call aborted while waiting for its turn on the wire (maxConcurrentRequests)', () => {
  /** A GET of the charge that holds the client's one turn until `finish` is called. */
  function heldTurn() {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const seen = route('GET', CHARGE_PATH, async () => {
      await finished;
      return jsonReply(200, success(chargeJson()));
    });
    return { seen, finish };
  }

  it('before its first attempt: nothing sent, so no key on the error, no events, no attempt published', async () => {
    const holder = heldTurn();
    const transfers = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const client = makeClient({ maxConcurrentRequests: 1 });
    const seen = recordEvents(client);
    const trace = recordTracing();
    const first = client.charges.retrieve(CHARGE_ID);
    await vi.waitFor(() => expect(holder.seen).toHaveLength(1));
    const controller = new AbortController();
    const queued = client.transfers.create(TRANSFER_PARAMS, { signal: controller.signal, idempotencyKey: 'order-7' });
    await sleep(20);
    controller.abort();

    const error = await rejection(queued, APIUserAbortError);
    expect(error.idempotencyKey).toBeUndefined();
    expect(error.message).toBe(`POST ${BASE_URL}/v1/transfers was aborted by the caller before it was sent`);
    holder.finish();
    await first;
    expect(transfers).toHaveLength(0);
    expect(seen.map((entry) => `${entry.name} ${entry.event.method}`)).toEqual(['request GET', 'response GET']);
    expect(trace.contexts('attempt').map((attempt) => attempt.method)).toEqual(['GET']);
  });

  it('before a retry: the key the first attempt carried stays, and that retry ends unsent with its events', async () => {
    const holder = heldTurn();
    const transfers = route('POST', TRANSFERS_PATH, unavailable);
    const client = makeClient({ maxConcurrentRequests: 1, maxRetries: 2 });
    const seen = recordEvents(client);
    const trace = recordTracing();
    const controller = new AbortController();
    const post = rejection(client.transfers.create(TRANSFER_PARAMS, { signal: controller.signal }), APIUserAbortError);
    // The POST's first attempt has the turn and fails; the GET takes it next, so the retry waits behind the GET.
    const get = client.charges.retrieve(CHARGE_ID);
    await vi.waitFor(() => expect(holder.seen).toHaveLength(1));
    await sleep(20);
    controller.abort();

    const error = await post;
    holder.finish();
    await get;
    expect(transfers).toHaveLength(1);
    expect(error.idempotencyKey).toMatch(UUID_V4);
    expect(error.idempotencyKey).toBe(transfers[0]!.headers.get('idempotency-key'));
    expect(error.message).toContain('was aborted by the caller while waiting to retry');
    const posts = seen.filter((entry) => entry.event.method === 'POST');
    expect(posts.map((entry) => `${entry.name} ${entry.event.attempt}`)).toEqual([
      'request 1',
      'response 1',
      'request 2',
      'response 2',
    ]);
    const last = responseEvents(posts).at(-1)!;
    expect([last.status, last.willRetry, last.error]).toEqual([undefined, false, error]);
    const attempts = trace.contexts('attempt').filter((attempt) => attempt.method === 'POST');
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.willRetry])).toEqual([
      [1, 503, true],
      [2, undefined, false],
    ]);
  });
});

describe('one AbortSignal shared by many calls', () => {
  /** Process warnings emitted while `run` runs; Node emits them on a later tick, so this waits a little after. */
  async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      await run();
      await sleep(20);
    } finally {
      process.off('warning', onWarning);
    }
    return warnings;
  }

  /** Answers only when the attempt is aborted: every call stays in flight until then. */
  function hangUntilAborted(method: 'GET' | 'POST', path: string) {
    return route(
      method,
      path,
      (_attempt, request) =>
        new Promise<Response>((resolve) =>
          request.signal.addEventListener('abort', () => resolve(HttpResponse.error()), { once: true }),
        ),
    );
  }

  it('50 parallel calls print no MaxListenersExceededWarning, hold one listener, and all abort', async () => {
    const seen = hangUntilAborted('GET', CHARGE_PATH);
    const controller = new AbortController();
    const client = makeClient();
    let errors: unknown[] = [];
    const warnings = await warningsDuring(async () => {
      const calls = Array.from({ length: 50 }, () =>
        rejection(client.charges.retrieve(CHARGE_ID, { signal: controller.signal })),
      );
      await vi.waitFor(() => expect(seen).toHaveLength(50));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      errors = await Promise.all(calls);
    });
    expect(warnings).toEqual([]);
    expect(errors).toHaveLength(50);
    for (const error of errors) expect(error).toBeInstanceOf(APIUserAbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('calls waiting to retry share the listener too, and an abort ends every wait', async () => {
    const seen = route('POST', TRANSFERS_PATH, () =>
      jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '30000' }),
    );
    const controller = new AbortController();
    const client = makeClient();
    let errors: unknown[] = [];
    const warnings = await warningsDuring(async () => {
      const calls = Array.from({ length: 20 }, () =>
        rejection(client.transfers.create(TRANSFER_PARAMS, { signal: controller.signal })),
      );
      await vi.waitFor(() => expect(seen).toHaveLength(20));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      errors = await Promise.all(calls);
    });
    expect(warnings).toEqual([]);
    for (const error of errors) expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(20);
  });

  it('leaves no listener on the signal after 1,000 calls, 100 at a time', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const signal = new AbortController().signal;
    const client = makeClient();
    const warnings = await warningsDuring(async () => {
      for (let batch = 0; batch < 10; batch++) {
        const charges = await Promise.all(
          Array.from({ length: 100 }, () => client.charges.retrieve(CHARGE_ID, { signal })),
        );
        expect(charges).toHaveLength(100);
      }
    });
    expect(warnings).toEqual([]);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('the request on the wire', () => {
  it('joins the path onto a base URL with a path prefix', async () => {
    for (const baseURL of [`${BASE_URL}/base/`, `${BASE_URL}/base`, `${BASE_URL}/base///`]) {
      const seen = route('GET', `/base${CHARGE_PATH}`, () => jsonReply(200, success(chargeJson())));
      await makeClient({ baseURL }).charges.retrieve(CHARGE_ID);
      expect(seen.map((request) => request.url.pathname)).toEqual([`/base${CHARGE_PATH}`]);
    }
  });

  it.each([
    ['ending in /v1', `${BASE_URL}/v1`, ''],
    ['ending in /v1/', `${BASE_URL}/v1/`, ''],
    ['with a prefix before /v1', `${BASE_URL}/lunas/v1`, '/lunas'],
  ])('a base URL %s reaches /v1 once: the paths carry the version', async (_name, baseURL, prefix) => {
    const seen = route('GET', `${prefix}${CHARGE_PATH}`, () => jsonReply(200, success(chargeJson())));
    const charge = await makeClient({ baseURL }).charges.retrieve(CHARGE_ID);
    expect(charge.id).toBe(CHARGE_ID);
    expect(seen.map((request) => request.url.pathname)).toEqual([`${prefix}${CHARGE_PATH}`]);
  });

  it('joins onto a bare origin, with or without a trailing slash', async () => {
    for (const baseURL of [BASE_URL, `${BASE_URL}/`]) {
      const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
      await makeClient({ baseURL }).charges.retrieve(CHARGE_ID);
      expect(seen.map((request) => request.url.href)).toEqual([`${BASE_URL}${CHARGE_PATH}`]);
    }
  });

  it('sends a POST body as JSON with the Bearer key', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    await makeClient().transfers.create(TRANSFER_PARAMS);
    const [request] = seen;
    expect(request!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(request!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers.get('accept')).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({
      destination_account_id: 'acc_partner',
      amount: 150000,
      currency: 'idr',
    });
  });

  it('a GET has no body', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await makeClient().charges.retrieve(CHARGE_ID);
    expect(seen[0]!.body).toBe('');
    expect(seen[0]!.url.search).toBe('');
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

describe('loading ky', () => {
  afterEach(() => {
    vi.doUnmock('ky');
    vi.resetModules();
  });

  it('a failed import rejects the call with a LunasError, and a later call imports ky again', async () => {
    let failing = true;
    vi.resetModules();
    vi.doMock('ky', async (importOriginal) => {
      if (failing) throw new Error('Cannot find package ky');
      return importOriginal();
    });
    // A fresh copy of the SDK, whose first request imports the mocked ky.
    const sdk = await import('../../src/index.js');
    const sent: string[] = [];
    const client = new sdk.Client({
      apiKey: API_KEY,
      baseURL: BASE_URL,
      logLevel: 'off',
      fetch: async (request) => {
        sent.push((request as Request).url);
        return Response.json(success(chargeJson()));
      },
    });
    const failure = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(failure).toBeInstanceOf(sdk.LunasError);
    expect((failure as Error).message).toMatch(/^lunas could not load ky, the HTTP client it sends requests with: /);
    expect(sent).toEqual([]);
    failing = false;
    await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
    expect(sent).toEqual([`${BASE_URL}${CHARGE_PATH}`]);
  });
});
