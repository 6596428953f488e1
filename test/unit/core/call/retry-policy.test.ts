/**
 * Retries: which failures are retried and how often, which error class the
 * last one throws, and how long the client waits between attempts (the pure
 * schedule in src/core/call/retry-policy.ts, then the same schedule seen on the wire).
 */
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  getResponseInfo,
  InternalServerError,
  LunasError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../../../src/index.js';
import {
  backoffDelay,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  retryDelay,
  serverRequestedDelay,
} from '../../../../src/core/call/retry-policy.js';
import { makeClient } from '../../../helpers/msw.js';
import {
  CHARGE_PATH,
  countRequests,
  jsonReply,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import { CHARGE_ID, chargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Retries wait 0 ms when the service asks for it: keeps status tests instant. */
const NO_WAIT = { 'retry-after-ms': '0' };

function errorBody(status: number) {
  return { status: 'error', message: `service said ${status}` };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('backoffDelay', () => {
  it('starts at 0.5 s and doubles up to a cap of 8 s without jitter', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((retry) => backoffDelay(retry, none))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000, 8000,
    ]);
  });

  it('takes off at most a quarter as jitter', () => {
    const most = () => 1;
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, most))).toEqual([375, 750, 1500, 3000, 6000, 6000]);
    expect(backoffDelay(2, () => 0.5)).toBe(875);
  });

  it('stays within [75 %, 100 %] of the base for any random value', () => {
    for (let retry = 1; retry <= 8; retry++) {
      const base = Math.min(500 * 2 ** (retry - 1), 8000);
      for (const r of [0, 0.01, 0.25, 0.5, 0.75, 0.99, 0.999999]) {
        const delay = backoffDelay(retry, () => r);
        expect(delay).toBeGreaterThanOrEqual(base * 0.75);
        expect(delay).toBeLessThanOrEqual(base);
      }
    }
  });

  it('uses Math.random by default', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.4);
    expect(backoffDelay(3)).toBe(2000 * (1 - 0.25 * 0.4));
    expect(random).toHaveBeenCalled();
  });
});

describe('serverRequestedDelay', () => {
  const now = Date.parse('2026-11-23T03:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads Retry-After in seconds, whole or fractional', () => {
    expect(serverRequestedDelay(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(serverRequestedDelay(headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(serverRequestedDelay(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });

  it('reads Retry-After as an HTTP date, relative to now', () => {
    expect(serverRequestedDelay(headers({ 'retry-after': new Date(now + 10_000).toUTCString() }), now)).toBe(10_000);
    expect(serverRequestedDelay(headers({ 'retry-after': 'Mon, 23 Nov 2026 03:00:42 GMT' }), now)).toBe(42_000);
  });

  it('treats an HTTP date in the past as no wait', () => {
    expect(serverRequestedDelay(headers({ 'retry-after': new Date(now - 5000).toUTCString() }), now)).toBe(0);
  });

  it('reads retry-after-ms, which takes precedence over Retry-After', () => {
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '250', 'retry-after': '5' }), now)).toBe(250);
    expect(
      serverRequestedDelay(headers({ 'retry-after-ms': '40', 'retry-after': new Date(now + 9000).toUTCString() }), now),
    ).toBe(40);
  });

  it('falls back to Retry-After when retry-after-ms is unreadable', () => {
    expect(serverRequestedDelay(headers({ 'retry-after-ms': 'soon', 'retry-after': '2' }), now)).toBe(2000);
  });

  it('honours up to 60 s and ignores anything longer', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(60_000);
    expect(serverRequestedDelay(headers({ 'retry-after': '60' }), now)).toBe(60_000);
    expect(serverRequestedDelay(headers({ 'retry-after': '61' }), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after': '86400' }), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '60000' }), now)).toBe(60_000);
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '60001' }), now)).toBeUndefined();
    expect(
      serverRequestedDelay(headers({ 'retry-after': new Date(now + 120_000).toUTCString() }), now),
    ).toBeUndefined();
  });

  it('ignores a Retry-After that is neither delay-seconds nor an HTTP date, instead of retrying at once', () => {
    // Date.parse is lenient: it reads '-1', '+3' and '3,5' as dates in 2001.
    for (const value of ['-1', '+3', '3,5', '1 2']) {
      expect(serverRequestedDelay(headers({ 'retry-after': value }), now), value).toBeUndefined();
    }
  });

  it('ignores absent, negative and unreadable values', () => {
    expect(serverRequestedDelay(headers({}), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after': '120s' }), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined();
    expect(serverRequestedDelay(headers({ 'retry-after-ms': '1e3' }), now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('uses the server-requested wait, including a wait of 0', () => {
    expect(retryDelay(1, new Headers({ 'retry-after-ms': '0' }))).toBe(0);
    expect(retryDelay(4, new Headers({ 'retry-after': '0' }))).toBe(0);
    expect(retryDelay(1, new Headers({ 'retry-after': '2' }))).toBe(2000);
  });

  it('falls back to backoff without headers, with irrelevant headers, or with a wait above 60 s', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryDelay(1, undefined)).toBe(500);
    expect(retryDelay(2, new Headers({ 'content-type': 'text/html' }))).toBe(1000);
    expect(retryDelay(3, new Headers({ 'retry-after': '120' }))).toBe(2000);
    expect(retryDelay(9, new Headers({ 'retry-after-ms': '90000' }))).toBe(8000);
  });
});

describe('isRetryable', () => {
  const init = (status: number) => ({ status, message: 'x', body: null, headers: new Headers() });

  it('retries connection failures and timeouts but not aborts or validation errors', () => {
    expect(isRetryable(new APIConnectionError('down'))).toBe(true);
    expect(isRetryable(new APIConnectionTimeoutError('slow'))).toBe(true);
    expect(isRetryable(new APIUserAbortError('stop'))).toBe(false);
    expect(isRetryable(new RequestValidationError({ amount: ['Amount must be greater than 0'] }))).toBe(false);
    expect(
      isRetryable(
        new ResponseValidationError({ summary: 'bad', issues: [], body: '', status: 200, headers: new Headers() }),
      ),
    ).toBe(false);
    expect(isRetryable(new LunasError('other'))).toBe(false);
    expect(isRetryable(new Error('not ours'))).toBe(false);
  });

  it('retries 408, 409, 429 and 500 and above only', () => {
    for (const status of [408, 409, 429, 500, 501, 502, 503, 504, 599]) {
      expect(isRetryable(new APIError(init(status))), String(status)).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 405, 410, 413, 418, 422, 499]) {
      expect(isRetryable(new APIError(init(status))), String(status)).toBe(false);
    }
  });
});

describe('retried statuses', () => {
  const retried: [number, ErrorClass][] = [
    [408, APIError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
    [599, InternalServerError],
  ];

  it.each(retried)(
    'POST answered %i is attempted maxRetries + 1 times, then throws its class',
    async (status, ErrorClass) => {
      const seen = route('POST', TRANSFERS_PATH, () => jsonReply(status, errorBody(status), NO_WAIT));
      const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS));

      expect(seen).toHaveLength(3);
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as Error).constructor).toBe(ErrorClass);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(LunasError);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).message).toContain(`service said ${status}`);
      expect((error as APIError).message).toContain('3 attempts');
    },
  );

  it.each(retried)('GET answered %i is retried too', async (status, ErrorClass) => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(status, errorBody(status), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 1 }).charges.retrieve(CHARGE_ID));

    expect(seen).toHaveLength(2);
    expect((error as Error).constructor).toBe(ErrorClass);
  });

  it('honours a larger maxRetries', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(500, errorBody(500), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 5 }).transfers.create(TRANSFER_PARAMS));
    expect(seen).toHaveLength(6);
    expect(error).toBeInstanceOf(InternalServerError);
  });

  it('resolves once an attempt succeeds, and reports the attempts', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt < 3
        ? jsonReply(attempt === 1 ? 503 : 429, errorBody(503), NO_WAIT)
        : jsonReply(200, success(transferJson())),
    );
    const transfer = await makeClient().transfers.create(TRANSFER_PARAMS);

    expect(transfer.id).toBe('tr_123');
    expect(seen).toHaveLength(3);
    expect(getResponseInfo(transfer)?.attempts).toBe(3);
    expect(getResponseInfo(transfer)?.status).toBe(200);
  });

  it('sends nothing more after success', async () => {
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? jsonReply(502, errorBody(502), NO_WAIT) : jsonReply(200, success(chargeJson())),
    );
    const charge = await makeClient({ maxRetries: 5 }).charges.retrieve(CHARGE_ID);
    expect(charge.id).toBe('ch_123');
    expect(seen).toHaveLength(2);
  });
});

describe('statuses that are never retried', () => {
  const final: [number, ErrorClass][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [422, UnprocessableEntityError],
    [418, APIError],
    [405, APIError],
  ];

  it.each(final)('POST answered %i is attempted exactly once', async (status, ErrorClass) => {
    // Even a Retry-After header must not turn a final status into a retry.
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(status, errorBody(status), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 5 }).transfers.create(TRANSFER_PARAMS));

    expect(seen).toHaveLength(1);
    expect((error as Error).constructor).toBe(ErrorClass);
    expect((error as APIError).status).toBe(status);
    expect((error as APIError).message).not.toContain('attempts');
  });

  it.each(final)('GET answered %i is attempted exactly once', async (status, ErrorClass) => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(status, errorBody(status), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 5 }).charges.retrieve(CHARGE_ID));
    expect(seen).toHaveLength(1);
    expect((error as Error).constructor).toBe(ErrorClass);
  });

  it('does not retry a 2xx body that fails validation', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ amount: true }))));
    const error = await rejection(makeClient({ maxRetries: 5 }).charges.retrieve(CHARGE_ID));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('maxRetries', () => {
  it('0 on the client means one attempt', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(503, errorBody(503), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 0 }).transfers.create(TRANSFER_PARAMS));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).not.toContain('attempts)');
  });

  it('a per-call maxRetries overrides a lower client setting', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(503, errorBody(503), NO_WAIT));
    const error = await rejection(makeClient({ maxRetries: 0 }).transfers.create(TRANSFER_PARAMS, { maxRetries: 3 }));
    expect(seen).toHaveLength(4);
    expect((error as Error).message).toContain('4 attempts');
  });

  it('a per-call maxRetries of 0 overrides a higher client setting', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(503, errorBody(503), NO_WAIT));
    await expect(makeClient({ maxRetries: 4 }).charges.retrieve(CHARGE_ID, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(1);
  });

  it('the per-call override applies to one call only', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(503, errorBody(503), NO_WAIT));
    const client = makeClient({ maxRetries: 1 });
    await expect(client.charges.retrieve(CHARGE_ID, { maxRetries: 3 })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(4);
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(6);
  });

  it('a malformed per-call maxRetries is refused before sending', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient();
    for (const maxRetries of [-1, 1.5, 11, Number.NaN]) {
      const error = await rejection(client.charges.retrieve(CHARGE_ID, { maxRetries }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields)).toEqual(['maxRetries']);
    }
    expect(seen).toHaveLength(0);
  });
});

describe('with fake timers', () => {
  function useFakeClock() {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.parse('2026-11-23T03:00:00Z') });
  }

  /** Gaps between consecutive attempts, in (fake) ms. */
  const gaps = (seen: { at: number }[]) => seen.slice(1).map((request, i) => request.at - seen[i]!.at);

  it('retries a connection failure, then throws APIConnectionError', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient().transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(20_000);
    const error = await outcome;

    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(LunasError);
    expect((error as Error).message).toContain('3 attempts');
  });

  it('recovers from a connection failure on the next attempt', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? HttpResponse.error() : jsonReply(200, success(chargeJson())),
    );
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(20_000);
    const charge = await call;
    expect(charge.id).toBe('ch_123');
    expect(seen).toHaveLength(2);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
  });

  it('a connection failure with maxRetries 0 is attempted once', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient({ maxRetries: 0 }).charges.retrieve(CHARGE_ID));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await outcome).toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(1);
  });

  it('backs off from 0.5 s, doubling, capped at 8 s, with at most 25 % jitter', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(503, errorBody(503)));
    const outcome = rejection(makeClient({ maxRetries: 6 }).transfers.create(TRANSFER_PARAMS));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toBeInstanceOf(InternalServerError);

    expect(seen).toHaveLength(7);
    const bases = [500, 1000, 2000, 4000, 8000, 8000];
    gaps(seen).forEach((gap, i) => {
      expect(gap, `wait before retry ${i + 1}`).toBeGreaterThanOrEqual(Math.floor(bases[i]! * 0.75));
      expect(gap, `wait before retry ${i + 1}`).toBeLessThanOrEqual(bases[i]!);
    });
  });

  it('backs off on connection failures too (no headers to read)', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, () => HttpResponse.error());
    const outcome = rejection(makeClient({ maxRetries: 2 }).charges.retrieve(CHARGE_ID));
    await vi.advanceTimersByTimeAsync(374);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20_000);
    await outcome;
    const [first, second] = gaps(seen);
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1000);
  });

  it('waits the Retry-After seconds of a 429', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? jsonReply(429, errorBody(429), { 'retry-after': '2' }) : jsonReply(200, success(chargeJson())),
    );
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(1999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    expect((await call).id).toBe('ch_123');
    expect(gaps(seen)).toEqual([2000]);
  });

  it('waits until the Retry-After HTTP date', async () => {
    useFakeClock();
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, errorBody(503), { 'retry-after': new Date(Date.now() + 3000).toUTCString() })
        : jsonReply(200, success(transferJson())),
    );
    const call = makeClient().transfers.create(TRANSFER_PARAMS);
    await vi.advanceTimersByTimeAsync(2999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await call;
    expect(gaps(seen)).toEqual([3000]);
  });

  it('honours a Retry-After of exactly 60 s', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? jsonReply(503, errorBody(503), { 'retry-after': '60' }) : jsonReply(200, success(chargeJson())),
    );
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(gaps(seen)).toEqual([60_000]);
  });

  it.each([
    ['Retry-After above 60 s', { 'retry-after': '61' }],
    ['Retry-After of a day', { 'retry-after': '86400' }],
    ['an HTTP date two minutes ahead', { 'retry-after': 'Mon, 23 Nov 2026 03:02:00 GMT' }],
    ['retry-after-ms above 60 s', { 'retry-after-ms': '60001' }],
  ])('ignores %s and backs off instead', async (_name, headers) => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1 ? jsonReply(503, errorBody(503), headers) : jsonReply(200, success(chargeJson())),
    );
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(374);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(126);
    expect(seen).toHaveLength(2);
    await call;
  });

  it('prefers retry-after-ms over Retry-After', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, errorBody(503), { 'retry-after-ms': '300', 'retry-after': '5' })
        : jsonReply(200, success(chargeJson())),
    );
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(299);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await call;
    expect(gaps(seen)).toEqual([300]);
  });

  it('reads the wait from each failed attempt afresh', async () => {
    useFakeClock();
    const seen = route('GET', CHARGE_PATH, (attempt) => {
      if (attempt === 1) return jsonReply(429, errorBody(429), { 'retry-after': '1' });
      if (attempt === 2) return jsonReply(503, errorBody(503), { 'retry-after-ms': '250' });
      return jsonReply(200, success(chargeJson()));
    });
    const call = makeClient().charges.retrieve(CHARGE_ID);
    await vi.advanceTimersByTimeAsync(5000);
    await call;
    expect(gaps(seen)).toEqual([1000, 250]);
  });
});

describe('with real timers', () => {
  it('the wait honours retry-after-ms', async () => {
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, errorBody(503), { 'retry-after-ms': '200' })
        : jsonReply(200, success(chargeJson())),
    );
    await makeClient().charges.retrieve(CHARGE_ID);
    expect(seen).toHaveLength(2);
    const gap = seen[1]!.at - seen[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(190);
    expect(gap).toBeLessThan(2000);
  });

  it('a wait of 0 ms does not fall back to backoff', async () => {
    const seen = route('GET', CHARGE_PATH, (attempt) =>
      attempt < 3 ? jsonReply(503, errorBody(503), NO_WAIT) : jsonReply(200, success(chargeJson())),
    );
    const started = Date.now();
    await makeClient().charges.retrieve(CHARGE_ID);
    expect(seen).toHaveLength(3);
    // Backoff would take at least 375 + 750 ms.
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('LunasError.outcomeUnknown', () => {
  const transferFailing = async (reply: () => Response, maxRetries = 0) => {
    route('POST', TRANSFERS_PATH, reply);
    return rejection(makeClient({ maxRetries, timeout: 200 }).transfers.create(TRANSFER_PARAMS), LunasError);
  };
  const envelope = (status: number) => jsonReply(status, { status: 'error', message: 'no' });

  it('is false when the service refused the request: 400, 401, 403, 404, 422', async () => {
    for (const status of [400, 401, 403, 404, 422]) {
      const error = await transferFailing(() =>
        status === 400 ? jsonReply(400, { status: 'fail', data: { amount: ['Bad'] } }) : envelope(status),
      );
      expect([status, error.outcomeUnknown]).toEqual([status, false]);
    }
  });

  it('is true after 408, 409, 429 and 5xx, retried or not', async () => {
    for (const status of [408, 409, 429, 500, 502, 503]) {
      const error = await transferFailing(() => envelope(status));
      expect([status, error.outcomeUnknown]).toEqual([status, true]);
    }
    const retried = await transferFailing(() => envelope(503), 1);
    expect([retried.message, retried.outcomeUnknown]).toEqual([expect.stringContaining('after 2 attempts'), true]);
  });

  it('is false when a retried request ends in a refusal: the same key would have met the transfer', async () => {
    let calls = 0;
    const error = await transferFailing(
      () => (++calls === 1 ? envelope(503) : jsonReply(403, { status: 'error', message: 'Insufficient balance' })),
      2,
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.outcomeUnknown).toBe(false);
  });

  it('is true when no answer came: a dropped connection, a timeout', async () => {
    const dropped = await transferFailing(() => HttpResponse.error());
    expect(dropped).toBeInstanceOf(APIConnectionError);
    expect(dropped.outcomeUnknown).toBe(true);
    const late = await transferFailing(() => new Promise<Response>(() => {}) as unknown as Response);
    expect(late).toBeInstanceOf(APIConnectionTimeoutError);
    expect(late.outcomeUnknown).toBe(true);
  });

  it('is true when a 2xx answer could not be used: the transfer may be made', async () => {
    const error = await transferFailing(() => jsonReply(200, success({ id: 42 })));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.outcomeUnknown).toBe(true);
  });

  it('is false when nothing was sent: a bad parameter, an abort before sending', async () => {
    const requests = countRequests();
    const client = makeClient();
    const refused = await rejection(client.transfers.create({ ...TRANSFER_PARAMS, amount: 0 }), RequestValidationError);
    expect(refused.outcomeUnknown).toBe(false);
    const aborted = await rejection(
      client.transfers.create(TRANSFER_PARAMS, { signal: AbortSignal.abort() }),
      APIUserAbortError,
    );
    expect(aborted.outcomeUnknown).toBe(false);
    expect(requests.count()).toBe(0);
  });

  it('is true when the caller aborts after a request was sent, while waiting to retry it', async () => {
    const controller = new AbortController();
    route('POST', TRANSFERS_PATH, () => {
      setTimeout(() => controller.abort(), 20);
      return envelope(503);
    });
    const error = await rejection(
      makeClient({ maxRetries: 3 }).transfers.create(TRANSFER_PARAMS, { signal: controller.signal }),
      APIUserAbortError,
    );
    expect(error.idempotencyKey).toBeDefined();
    expect(error.outcomeUnknown).toBe(true);
  });

  it('is false on an error made by hand, and on a BadRequestError the service sent', async () => {
    expect(new LunasError('x').outcomeUnknown).toBe(false);
    const error = await transferFailing(() => jsonReply(400, { status: 'fail', data: { currency: ['Required'] } }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.outcomeUnknown).toBe(false);
  });
});
