/**
 * Retry scheduling, property-based: whatever a response says in
 * `retry-after-ms` and `Retry-After` (numbers, fractions, negatives, HTTP
 * dates of all three forms, garbage, thousand-digit numbers), the wait before
 * a retry is finite, never negative, never above 60 s, honours a readable
 * request of at most 60 s exactly, and otherwise stays inside the backoff's
 * bounds; and the transport really waits that long between two attempts.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  MAX_RETRY_AFTER_MS,
  retryDelay,
  serverRequestedDelay,
} from '../../src/core/call/retry-policy.js';
import { successResponse, wireClient } from '../helpers/wire.js';
import { transferJson } from '../helpers/fixtures.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 300);
const NOW = Date.parse('2026-11-23T04:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

/** Backoff bounds for retry number `retry`: 0.5 s doubling to 8 s, less at most 25 % jitter. */
function backoffBounds(retry: number): [number, number] {
  const base = Math.min(500 * 2 ** Math.max(0, retry - 1), 8_000);
  return [base * 0.75, base];
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** An HTTP date `offsetSeconds` from NOW, in one of RFC 9110's three forms. */
function httpDate(offsetSeconds: number, form: 0 | 1 | 2): string {
  const d = new Date(NOW + offsetSeconds * 1000);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  const month = MONTHS[d.getUTCMonth()]!;
  if (form === 0) return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${time} GMT`;
  if (form === 1)
    return `${LONG_DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())}-${month}-${String(d.getUTCFullYear()).slice(2)} ${time} GMT`;
  return `${DAYS[d.getUTCDay()]} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`;
}

const garbage = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '-0.5',
    '1e3',
    '1E2',
    'Infinity',
    'NaN',
    '0x10',
    '+5',
    '5s',
    '1,5',
    '²',
    '½',
    'soon',
    'null',
  ),
  fc.integer({ min: 20, max: 400 }).map((digits) => '9'.repeat(digits)),
  fc.tuple(fc.nat(), fc.nat()).map(([whole, fraction]) => `${whole}.${fraction}.${fraction}`),
);

/** Milliseconds as a service may write them in retry-after-ms. */
const msValue = fc.oneof(
  fc.nat({ max: 2 * MAX_RETRY_AFTER_MS }).map(String),
  fc.tuple(fc.nat({ max: 70_000 }), fc.nat({ max: 999 })).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.nat({ max: 1_000 }).map((n) => ` ${n} `),
  garbage,
);

/** Seconds or an HTTP date, as a service may write Retry-After. */
const retryAfterValue = fc.oneof(
  fc.nat({ max: 200 }).map(String),
  fc.tuple(fc.nat({ max: 90 }), fc.nat({ max: 99 })).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc
    .tuple(fc.integer({ min: -3_600, max: 3_600 }), fc.constantFrom<0 | 1 | 2>(0, 1, 2))
    .map(([offset, form]) => httpDate(offset, form)),
  garbage,
);

const headerPair = fc.record(
  { 'retry-after-ms': msValue, 'retry-after': retryAfterValue },
  { requiredKeys: [], noNullPrototype: true },
);

const retryNumber = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 30, 1_000, 1_100));

describe('serverRequestedDelay', () => {
  it('is undefined or a finite wait from 0 to 60 s, for any header values', () => {
    fc.assert(
      fc.property(headerPair, (values) => {
        const delay = serverRequestedDelay(new Headers(values), NOW);
        if (delay === undefined) return;
        expect(Number.isFinite(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
      }),
      { numRuns: RUNS },
    );
  });

  it('honours a whole number of milliseconds up to 60 000 exactly, whatever Retry-After says', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: MAX_RETRY_AFTER_MS }),
        fc.option(retryAfterValue, { nil: undefined }),
        (ms, retryAfter) => {
          const headers = new Headers({
            'retry-after-ms': String(ms),
            ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
          });
          expect(serverRequestedDelay(headers, NOW)).toBe(ms);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('honours Retry-After seconds up to 60 and an HTTP date up to 60 s ahead, to the millisecond', () => {
    const seconds = fc.nat({ max: 60 }).map((n) => ({ value: String(n), expected: n * 1000 }));
    const date = fc
      .tuple(fc.integer({ min: -3_600, max: 60 }), fc.constantFrom<0 | 1 | 2>(0, 1, 2))
      .map(([offset, form]) => ({ value: httpDate(offset, form), expected: Math.max(0, offset * 1000) }));
    fc.assert(
      fc.property(fc.oneof(seconds, date), ({ value, expected }) => {
        expect(serverRequestedDelay(new Headers({ 'retry-after': value }), NOW)).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('ignores a request above 60 s', () => {
    const tooLong = fc.oneof(
      fc.integer({ min: MAX_RETRY_AFTER_MS + 1, max: 10 ** 9 }).map((ms) => ({ 'retry-after-ms': String(ms) })),
      fc.integer({ min: 61, max: 10 ** 6 }).map((s) => ({ 'retry-after': String(s) })),
      fc
        .tuple(fc.integer({ min: 61, max: 86_400 }), fc.constantFrom<0 | 1 | 2>(0, 1, 2))
        .map(([offset, form]) => ({ 'retry-after': httpDate(offset, form) })),
    );
    fc.assert(
      fc.property(tooLong, (values) => {
        expect(serverRequestedDelay(new Headers(values), NOW)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });
});

describe('retryDelay', () => {
  it('is always finite, from 0 to 60 s, and within the backoff bounds when the service asked for nothing usable', () => {
    fc.assert(
      fc.property(retryNumber, fc.option(headerPair, { nil: undefined }), (retry, values) => {
        const headers = values === undefined ? undefined : new Headers(values);
        const delay = retryDelay(retry, headers);
        expect(Number.isFinite(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
        const requested = headers && serverRequestedDelay(headers);
        if (requested === undefined) {
          const [low, high] = backoffBounds(retry);
          expect(delay).toBeGreaterThanOrEqual(low);
          expect(delay).toBeLessThanOrEqual(high);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('backoff stays in its bounds for any retry number and any random draw in [0, 1)', () => {
    fc.assert(
      fc.property(retryNumber, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, draw) => {
        const [low, high] = backoffBounds(retry);
        const delay = backoffDelay(retry, () => draw);
        expect(delay).toBeGreaterThanOrEqual(low);
        expect(delay).toBeLessThanOrEqual(high);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the transport waits what retryDelay allows between two attempts', () => {
  /** Yields to the real event loop (setImmediate is not faked) until `done()` or 10 000 turns. */
  async function until(done: () => boolean): Promise<void> {
    for (let turn = 0; turn < 10_000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(done()).toBe(true);
  }

  it('for any header values on a 503, the second attempt comes after the wait, within its bounds', async () => {
    await fc.assert(
      fc.asyncProperty(headerPair, async (values) => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
        try {
          const lines: string[] = [];
          const write = (line: string) => void lines.push(line);
          const { client, sent } = wireClient(
            (_request, attempt) =>
              attempt === 1
                ? Response.json({ status: 'error', message: 'busy' }, { status: 503, headers: values })
                : successResponse(transferJson()),
            { maxRetries: 1, logLevel: 'info', logger: { debug: write, info: write, warn: write, error: write } },
          );
          let settled = false;
          const call = client.transfers
            .create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' })
            .finally(() => (settled = true));

          // The retry is logged just before its wait starts: from then on the only timer is the wait.
          await until(() => lines.some((line) => line.includes('retrying in')));
          const waitStarted = Date.now();
          expect(sent).toHaveLength(1);
          await vi.advanceTimersToNextTimerAsync();
          const waited = Date.now() - waitStarted;
          await until(() => settled);
          await call;
          expect(sent).toHaveLength(2);

          const requested = serverRequestedDelay(new Headers(values), waitStarted);
          if (requested === undefined) {
            const [low, high] = backoffBounds(1);
            expect(waited).toBeGreaterThanOrEqual(Math.floor(low));
            expect(waited).toBeLessThanOrEqual(Math.ceil(high));
          } else {
            expect(Math.abs(waited - requested)).toBeLessThanOrEqual(1);
          }
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 100 },
    );
  });
});
