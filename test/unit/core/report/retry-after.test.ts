/**
 * The wait an answer asks for (src/core/report/retry-after.ts), as `APIError.retryAfterMs`
 * carries it: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalServerError, RateLimitError } from '../../../../src/index.js';
import { makeClient } from '../../../helpers/msw.js';
import { jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../../../helpers/requests.js';
import { rejection } from '../../../helpers/rejection.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('APIError.retryAfterMs', () => {
  const rateLimited = async (headers: Record<string, string>, status = 429) => {
    route('POST', TRANSFERS_PATH, () => jsonReply(status, { status: 'error', message: 'Slow down' }, headers));
    return rejection(makeClient({ maxRetries: 0 }).transfers.create(TRANSFER_PARAMS));
  };

  it('reads Retry-After in seconds, and retry-after-ms first', async () => {
    expect(((await rateLimited({ 'Retry-After': '3' })) as RateLimitError).retryAfterMs).toBe(3000);
    expect(((await rateLimited({ 'Retry-After': '0.5' })) as RateLimitError).retryAfterMs).toBe(500);
    const both = await rateLimited({ 'retry-after-ms': '250', 'Retry-After': '9' });
    expect(both).toBeInstanceOf(RateLimitError);
    expect((both as RateLimitError).retryAfterMs).toBe(250);
  });

  it('reads an HTTP date against the clock when the error is made; a past date is 0', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-23T03:00:00Z') });
    const later = await rateLimited({ 'Retry-After': 'Mon, 23 Nov 2026 03:00:42 GMT' });
    expect((later as RateLimitError).retryAfterMs).toBe(42_000);
    const past = await rateLimited({ 'Retry-After': 'Mon, 23 Nov 2026 02:59:00 GMT' });
    expect((past as RateLimitError).retryAfterMs).toBe(0);
  });

  it('reports a wait over 60 s as asked, which the SDK itself does not wait (it backs off instead)', async () => {
    const error = await rateLimited({ 'Retry-After': '300' });
    expect((error as RateLimitError).retryAfterMs).toBe(300_000);
  });

  it('is on a 503 too, and undefined when the answer asked for nothing readable', async () => {
    const unavailable = await rateLimited({ 'Retry-After': '2' }, 503);
    expect(unavailable).toBeInstanceOf(InternalServerError);
    expect((unavailable as InternalServerError).retryAfterMs).toBe(2000);
    for (const headers of [{}, { 'Retry-After': 'soon' }, { 'Retry-After': '-1' }, { 'retry-after-ms': 'x' }]) {
      expect(((await rateLimited(headers)) as RateLimitError).retryAfterMs, JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('is in the JSON of the error, beside the key and never the API key', async () => {
    const error = (await rateLimited({ 'Retry-After': '1' })) as RateLimitError;
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'RateLimitError', retryAfterMs: 1000, outcomeUnknown: true, status: 429 });
    expect(JSON.stringify(error)).not.toContain('sk_test');
  });
});
