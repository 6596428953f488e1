/**
 * core/call/attempt.ts: one attempt under its deadline. What it reads of a
 * body (at most MAX_RESPONSE_BODY_BYTES, chunk by chunk, whatever shape the
 * body has; past it a ResponseBodyError, not retried; a body that breaks off
 * is a ResponseBodyError too, never a connection error); the per-attempt
 * timeout; the caller's signal, fanned in once however many calls share it,
 * and what a timeout or an abort leaves open; a custom fetch that answers no
 * Response.
 */
import { Readable } from 'node:stream';
import { HttpResponse, delay } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revoked } from '../../../helpers/hostile.js';
import {
  APIConnectionError,
  LunasError,
  ResponseBodyError,
  type ResponseEvent,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  getResponseInfo,
  RequestValidationError,
  type ClientOptions,
  Client,
} from '../../../../src/index.js';
import { MAX_RESPONSE_BODY_BYTES } from '../../../../src/core/call/attempt.js';
import { makeClient } from '../../../helpers/msw.js';
import {
  CHARGE_PATH,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
  CHARGES_PATH,
  jsonReply,
} from '../../../helpers/requests.js';
import { API_KEY, chargeJson, success, transferJson, CHARGE_ID, BASE_URL } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { sleep } from '../../../helpers/waiting.js';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  expectPairedEvents,
  recordEvents,
  responseEvents,
  failOnUnhandledRejections,
} from '../../../helpers/recorders.js';

const MiB = 1024 * 1024;
/** The real fetch: msw patches the global one only when its server starts listening, in beforeAll. */
const unmockedFetch = globalThis.fetch;
const unavailable = () => jsonReply(503, { status: 'error', message: 'try later' }, { 'retry-after-ms': '0' });

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
const NO_WAIT = { 'retry-after-ms': '0', 'x-request-id': 'req_big' };

/** An endless body of 64 KiB chunks; `pulled()` says how many bytes were asked for. */
function endless() {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('the cap', () => {
  it('is 8 MiB', () => {
    expect(MAX_RESPONSE_BODY_BYTES).toBe(8 * MiB);
  });

  it('a body past it: ResponseBodyError too-large with status, headers, requestId, limit; not retried', async () => {
    const bodies: ReturnType<typeof endless>[] = [];
    const seen = route('POST', TRANSFERS_PATH, () => {
      const body = endless();
      bodies.push(body);
      return new HttpResponse(body.stream, { status: 200, headers: NO_WAIT });
    });
    const client = makeClient({ maxRetries: 2 });
    const events: ResponseEvent[] = [];
    client.on('response', (event) => events.push(event));
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), ResponseBodyError);
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ reason: 'too-large', status: 200, requestId: 'req_big', limit: 8 * MiB });
    expect(error.headers.get('x-request-id')).toBe('req_big');
    expect(error.message).toMatch(
      /^POST https:\/\/api\.lunas\.test\/v1\/transfers answered 200 with a body over 8 MiB/,
    );
    expect(error.message).not.toContain('retry with idempotencyKey');
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(seen).toHaveLength(1);
    expect(events).toEqual([expect.objectContaining({ status: 200, requestId: 'req_big', error, willRetry: false })]);
    // Read no further than the cap (and the chunks a stream queues ahead), and no more after.
    const pulled = bodies[0]!.pulled();
    expect(pulled).toBeLessThan(8 * MiB + 1 * MiB);
    await sleep(50);
    expect(bodies[0]!.pulled()).toBe(pulled);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'ResponseBodyError',
      reason: 'too-large',
      headers: { 'x-request-id': 'req_big' },
    });
  });

  it('a body of exactly the cap is read; one byte more is refused', async () => {
    const padded = (size: number) => {
      const text = JSON.stringify(success(chargeJson({ metadata: { pad: '' } })));
      return text.replace('"pad":""', `"pad":"${' '.repeat(size - text.length)}"`);
    };
    route('GET', CHARGE_PATH, (attempt) => new HttpResponse(padded(8 * MiB + (attempt - 1)), { status: 200 }));
    const client = makeClient({ maxRetries: 0 });
    expect((await client.charges.retrieve('ch_123')).id).toBe('ch_123');
    const error = await rejection(client.charges.retrieve('ch_123'), ResponseBodyError);
    expect(error.reason).toBe('too-large');
  });

  it('an error status with a body past it is refused the same way', async () => {
    const seen = route('GET', CHARGE_PATH, () => new HttpResponse(endless().stream, { status: 503, headers: NO_WAIT }));
    const error = await rejection(makeClient({ maxRetries: 2 }).charges.retrieve('ch_123'), ResponseBodyError);
    expect(error).toMatchObject({ reason: 'too-large', status: 503 });
    expect(seen).toHaveLength(1);
  });
});

describe('a body that breaks off', () => {
  const broken = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"succ'));
        controller.error(new Error(`connection reset for ${API_KEY}`));
      },
    });

  it('is a ResponseBodyError unreadable, retried with the same key, then a good answer is used', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1
        ? new HttpResponse(broken(), { status: 200, headers: NO_WAIT })
        : HttpResponse.json(success(transferJson())),
    );
    const transfer = await makeClient({ maxRetries: 2 }).transfers.create(TRANSFER_PARAMS);
    expect(transfer.id).toBe(transferJson().id);
    expect(seen).toHaveLength(2);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });

  it('every attempt broken: ResponseBodyError unreadable, key masked, the advice to retry with the key', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => new HttpResponse(broken(), { status: 200, headers: NO_WAIT }));
    const error = await rejection(makeClient({ maxRetries: 1 }).transfers.create(TRANSFER_PARAMS), ResponseBodyError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 200, requestId: 'req_big' });
    expect(error.message).toContain('answered 200, but its body could not be read: connection reset for [REDACTED]');
    expect(error.message).toContain('(after 2 attempts); retry with idempotencyKey');
    expect(seen).toHaveLength(2);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });
});

describe('bodies that are not web streams (a custom fetch)', () => {
  /** A node-fetch-style response: `body` a Node.js stream, `text()` beside it. */
  function nodeStyle(body: Readable | undefined, text: () => Promise<string>, status = 200): typeof fetch {
    return (async () => ({
      status,
      ok: status < 300,
      headers: new Headers({ 'x-request-id': 'req_node' }),
      body,
      text,
      clone() {
        return this;
      },
    })) as unknown as typeof fetch;
  }

  it('a Node.js stream is read chunk by chunk and destroyed past the cap', async () => {
    let produced = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const body = Readable.from(
      (function* () {
        for (;;) {
          produced += chunk.byteLength;
          yield chunk;
        }
      })(),
    );
    const text = () => Promise.reject(new Error('text() must not be called on a stream lunas can read'));
    const error = await rejection(
      makeClient({ fetch: nodeStyle(body, text) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(error).toMatchObject({ reason: 'too-large', requestId: 'req_node' });
    expect(produced).toBeLessThan(8 * MiB + 1 * MiB);
    expect(body.destroyed).toBe(true);
  });

  it('a Node.js stream under the cap is the body', async () => {
    const json = JSON.stringify(success(chargeJson()));
    const body = Readable.from([Buffer.from(json.slice(0, 10)), Buffer.from(json.slice(10))]);
    const charge = await makeClient({ fetch: nodeStyle(body, () => Promise.reject(new Error('no'))) }).charges.retrieve(
      'ch_123',
    );
    expect(charge.id).toBe('ch_123');
  });

  it('with nothing but text(), the text is measured once read', async () => {
    const big = () => Promise.resolve(' '.repeat(8 * MiB + 1));
    const error = await rejection(
      makeClient({ fetch: nodeStyle(undefined, big) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(error.reason).toBe('too-large');
    // Multi-byte characters count as the bytes they take: 3 MiB of 'é' is 6 MiB, under the cap; 5 MiB is 10.
    const accented = (size: number) => () =>
      Promise.resolve(JSON.stringify(success(chargeJson({ metadata: { t: 'é'.repeat(size) } }))));
    expect((await makeClient({ fetch: nodeStyle(undefined, accented(3 * MiB)) }).charges.retrieve('ch_123')).id).toBe(
      'ch_123',
    );
    const over = await rejection(
      makeClient({ fetch: nodeStyle(undefined, accented(5 * MiB)) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(over.reason).toBe('too-large');
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

describe('a custom fetch that does not return a Response', () => {
  failOnUnhandledRejections();

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
