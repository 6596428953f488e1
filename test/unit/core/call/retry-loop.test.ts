/**
 * core/call/retry-loop.ts: one call as up to `maxRetries + 1` attempts. Its
 * Idempotency-Key, the same on every attempt; the headers every attempt sends
 * (Authorization, per-call and default headers); a call aborted while waiting
 * for its turn, before a retry, or before it is sent. And the client's Queue
 * (`maxConcurrentRequests`): turns granted in the order they were asked for,
 * a waiter whose signal aborts leaving the queue at once, the free count
 * right whatever mix of the two, and long queues with aborted waiters among
 * them. The scenarios that once looped forever run in a fresh Node.js process
 * with a time budget, so a regression fails its test instead of hanging the
 * runner at 100% CPU.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Queue } from '../../../../src/core/call/retry-loop.js';
import { HttpResponse } from 'msw';
import {
  APIConnectionError,
  APIUserAbortError,
  BadRequestError,
  getResponseInfo,
  InternalServerError,
  LunasError,
} from '../../../../src/index.js';
import { makeClient } from '../../../helpers/msw.js';
import {
  CHARGE_PATH,
  CHARGES_PATH,
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
  success,
  transferJson,
} from '../../../helpers/fixtures.js';
import {
  recordEvents,
  responseEvents,
  expectPairedEvents,
  failOnUnhandledRejections,
} from '../../../helpers/recorders.js';
import { rejection } from '../../../helpers/rejection.js';
import { recordTracing } from '../../../helpers/tracing.js';
import { sleep } from '../../../helpers/waiting.js';
import { UUID_V4 } from '../../../helpers/formats.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';

const run = promisify(execFile);
const NO_WAIT = { 'retry-after-ms': '0' };
const unavailable = () => jsonReply(503, { status: 'error', message: 'try later' }, NO_WAIT);
const CHARGE_PARAMS = { payment_method: 'qris', amount: 25_000 } as const;
const createdCharge = () => success(createdChargeJson());

function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * Runs `script` (ESM; `SDK` and `QUEUE` are the URLs of the SDK's source and
 * of retry-loop.ts, the Queue's module) in a fresh Node.js process, killed after `budgetMs`, and
 * returns its last line as JSON. A script that never ends rejects once killed.
 */
async function inFreshProcess(script: string, budgetMs: number): Promise<unknown> {
  const sdk = new URL('../../../../src/index.ts', import.meta.url).href;
  const queue = new URL('../../../../src/core/call/retry-loop.ts', import.meta.url).href;
  const prelude = `const SDK = ${JSON.stringify(sdk)};\nconst QUEUE = ${JSON.stringify(queue)};\n`;
  const args = ['--import', 'tsx', '--input-type=module', '-e', prelude + script];
  const { stdout } = await run(process.execPath, args, {
    encoding: 'utf8',
    timeout: budgetMs,
    killSignal: 'SIGKILL',
  }).catch((error: { killed?: boolean }) => {
    throw error.killed ? new Error(`the script was still running after ${budgetMs} ms, and was killed`) : error;
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** What a turn's promise settled with so far: `granted`, `aborted`, or `waiting`. */
function watch(turn: boolean | Promise<boolean>): { state: 'granted' | 'aborted' | 'waiting' } {
  const seen = { state: 'waiting' as 'granted' | 'aborted' | 'waiting' };
  void Promise.resolve(turn).then((granted) => (seen.state = granted ? 'granted' : 'aborted'));
  return seen;
}

/** Lets every settled turn's reaction run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * 3,000 waiters behind three held turns, the odd ones aborted: a third of
 * them by one shared signal and those in the first half each by its own,
 * before any turn comes back; the rest, each by its own, once 100 turns have
 * been granted (far ahead of them). Turns are given back one at a time until
 * every waiter has settled and every turn held is back. Prints how many were
 * granted and aborted, whether only the even ones were granted and in order,
 * and which of four more turns were free.
 */
const bigQueue = `
  const { Queue } = await import(QUEUE);
  const limit = 3;
  const total = 3000;
  const queue = new Queue(limit);
  for (let i = 0; i < limit; i++) if (queue.take(undefined) !== true) throw new Error('no free turn');
  const shared = new AbortController();
  const early = [];
  const late = [];
  const granted = [];
  let aborted = 0;
  const waits = [];
  for (let i = 0; i < total; i++) {
    let signal;
    if (i % 2 === 1) {
      if (i % 3 === 0) signal = shared.signal;
      else {
        const controller = new AbortController();
        (i < total / 2 ? early : late).push(controller);
        signal = controller.signal;
      }
    }
    waits.push(Promise.resolve(queue.take(signal)).then((ok) => (ok ? granted.push(i) : aborted++)));
  }
  shared.abort();
  for (const controller of early) controller.abort();
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  await tick();
  let held = limit;
  while (held > 0) {
    const before = granted.length;
    queue.release();
    held--;
    await tick();
    held += granted.length - before;
    if (before < 100 && granted.length >= 100) {
      for (const controller of late) controller.abort();
      await tick();
    }
  }
  await Promise.all(waits);
  const free = [];
  for (let i = 0; i <= limit; i++) free.push(queue.take(undefined) === true);
  const inOrder = granted.every((n, k) => n % 2 === 0 && (k === 0 || granted[k - 1] < n));
  console.log(JSON.stringify({ granted: granted.length, aborted, inOrder, free }));`;

describe('Queue', () => {
  it('hands out free turns at once, then grants them in the order they were asked for', async () => {
    const queue = new Queue(2);
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBe(true);
    const granted: number[] = [];
    const waits = [1, 2, 3].map((n) => {
      const turn = queue.take(undefined);
      expect(turn).toBeInstanceOf(Promise);
      return Promise.resolve(turn).then((ok) => ok && granted.push(n));
    });
    await settle();
    expect(granted).toEqual([]);
    queue.release();
    await settle();
    expect(granted).toEqual([1]);
    queue.release();
    queue.release();
    await Promise.all(waits);
    expect(granted).toEqual([1, 2, 3]);
    // Each release passed a turn on: 2 and 3 hold both now, and their releases free both, and no more.
    queue.release();
    queue.release();
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBeInstanceOf(Promise);
  });

  it('a waiter whose signal aborts gets no turn, and the turn given back goes to the next in line', async () => {
    const queue = new Queue(1);
    expect(queue.take(undefined)).toBe(true);
    const controller = new AbortController();
    const aborted = watch(queue.take(controller.signal));
    const next = watch(queue.take(undefined));
    controller.abort();
    await settle();
    expect(aborted.state).toBe('aborted');
    expect(next.state).toBe('waiting');
    // The one release goes to the waiter behind the aborted one.
    queue.release();
    await settle();
    expect(next.state).toBe('granted');
    // Its turn given back, the turn is free: the aborted waiter took none.
    queue.release();
    expect(queue.take(undefined)).toBe(true);
  });

  it('a signal aborted before asking takes no turn, even a free one', () => {
    const queue = new Queue(1);
    expect(queue.take(AbortSignal.abort())).toBe(false);
    expect(queue.take(undefined)).toBe(true);
  });

  it('an abort after the turn was granted changes nothing', async () => {
    const queue = new Queue(1);
    expect(queue.take(undefined)).toBe(true);
    const controller = new AbortController();
    const waiter = watch(queue.take(controller.signal));
    queue.release();
    controller.abort();
    await settle();
    expect(waiter.state).toBe('granted');
    queue.release();
    expect(queue.take(undefined)).toBe(true);
  });

  it('3,000 waiters, every other one aborted, some by one shared signal: the rest granted in order, every turn back', async () => {
    const result = await inFreshProcess(bigQueue, 15_000);
    expect(result).toEqual({ granted: 1500, aborted: 1500, inOrder: true, free: [true, true, true, false] });
  });
});

describe('maxConcurrentRequests with many aborted calls queued', () => {
  /**
   * A client whose `fetch` answers `{ pong: true }` (after 600 ms once the
   * first call has loaded ky, so every later call queues in the turn it is
   * made); `slow` calls without a signal take every turn, and 1,100 calls
   * queued behind them abort by `signal` before the first turn comes back.
   * Prints how many calls ended in each way.
   */
  const scenario = (options: string, slow: number, signal: string, before = '') => `
    const { Client } = await import(SDK);
    let ms = 0;
    const fetch = () =>
      new Promise((resolve) =>
        setTimeout(
          () => resolve(new Response(JSON.stringify({ status: 'success', data: { pong: true } }), { headers: { 'content-type': 'application/json' } })),
          ms,
        ),
      );
    const client = new Client({ apiKey: 'sk_test_send_slots', baseURL: 'https://api.lunas.example/v1', logLevel: 'off', maxRetries: 0, fetch, ${options} });
    await client.get('/v1/ping');
    ms = 600;
    ${before}
    const outcome = (call) => call.then(() => 'ok', (error) => error.name);
    const slow = Array.from({ length: ${slow} }, () => outcome(client.get('/v1/ping')));
    const queued = Array.from({ length: 1100 }, () => outcome(client.get('/v1/ping', { signal: ${signal} })));
    const count = {};
    for (const name of await Promise.all([...slow, ...queued])) count[name] = (count[name] ?? 0) + 1;
    console.log(JSON.stringify(count));`;

  it('1,100 calls with AbortSignal.timeout(250) behind two slow ones at 2 all settle', async () => {
    const result = await inFreshProcess(scenario('maxConcurrentRequests: 2', 2, 'AbortSignal.timeout(250)'), 15_000);
    expect(result).toEqual({ ok: 2, APIUserAbortError: 1100 });
  });

  it('1,100 calls sharing one signal, aborted behind 64 slow ones at the default, all settle', async () => {
    const before = 'const controller = new AbortController(); setTimeout(() => controller.abort(), 250);';
    const result = await inFreshProcess(scenario('', 64, 'controller.signal', before), 15_000);
    expect(result).toEqual({ ok: 64, APIUserAbortError: 1100 });
  });
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

describe('the caller aborts during the wait before a retry', () => {
  failOnUnhandledRejections();

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
  failOnUnhandledRejections();

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
});
