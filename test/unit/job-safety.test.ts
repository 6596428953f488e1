/**
 * What a job engine's worker needs from an error and a key (docs/payouts-at-scale.md):
 * `idempotencyKeyFor` (the key of an operation from its id), `APIError.retryAfterMs`
 * (the wait the service asked for, for a queue-wide pause) and `LunasError.outcomeUnknown`
 * (whether a request may have been carried out without an answer saying so).
 */
import { createHash } from 'node:crypto';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  idempotencyKeyFor,
  InternalServerError,
  LunasError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { countRequests, jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../helpers/requests.js';
import { success, transferJson } from '../helpers/fixtures.js';
import { rejection } from '../helpers/rejection.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A name-based UUID (version 5) made with node:crypto, apart from the SDK's Web Crypto path. */
function uuidV5(namespace: string, name: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

const NAMESPACE = 'a4c86fa1-251b-4344-8bec-91899ffc4f8a';

describe('idempotencyKeyFor', () => {
  it('is the version 5 UUID of the parts as JSON, the same on every call', async () => {
    for (const parts of [
      ['settlement:2026-05-04:acc_kopi'],
      ['wf-7', 'payout'],
      ['Toko Kopi ☕'],
      ['x'.repeat(5000)],
    ]) {
      const key = await idempotencyKeyFor(...(parts as [string, ...string[]]));
      expect(key).toBe(uuidV5(NAMESPACE, JSON.stringify(parts)));
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await idempotencyKeyFor(...(parts as [string, ...string[]]))).toBe(key);
    }
  });

  it("is what Python's uuid.uuid5 gives for the documented name, so another language's worker finds the same key", async () => {
    // uuid.uuid5(uuid.UUID(NAMESPACE), json.dumps(['settlement:2026-05-04:acc_kopi'], separators=(',', ':')))
    expect(await idempotencyKeyFor('settlement:2026-05-04:acc_kopi')).toBe('4d57a236-9ccc-5fe1-a941-b2c835e60f8a');
  });

  it('gives different keys to parts that would join into the same text', async () => {
    const keys = await Promise.all([
      idempotencyKeyFor('a:b', 'c'),
      idempotencyKeyFor('a', 'b:c'),
      idempotencyKeyFor('a:b:c'),
      idempotencyKeyFor('job-1'),
      idempotencyKeyFor('job-10'),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is sent as the Idempotency-Key of a transfer, on every attempt', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1 ? jsonReply(503, { status: 'error', message: 'busy' }) : jsonReply(200, success(transferJson())),
    );
    const key = await idempotencyKeyFor('payout-job-42');
    await makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey: key });
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual([key, key]);
  });

  it.each<[string, unknown[], Record<string, string[]>]>([
    ['no part', [], { parts: ['Give at least one part: the id of the operation'] }],
    ['an empty part', ['job', ''], { 'parts.1': ['Part must be a non-empty string'] }],
    ['a number (a job id not turned into text)', [42], { 'parts.0': ['Part must be a non-empty string'] }],
    ['undefined (a job without an id)', [undefined], { 'parts.0': ['Part must be a non-empty string'] }],
    [
      'a lone surrogate',
      ['ok', 'bad\uD800'],
      { 'parts.1': ['Part must be well-formed Unicode (it holds a lone surrogate)'] },
    ],
  ])(
    'plain JavaScript: %s rejects with RequestValidationError, and no transfer is sent',
    async (_name, parts, fields) => {
      const requests = countRequests();
      const client = makeClient();
      const making = (idempotencyKeyFor as (...given: unknown[]) => Promise<string>)(...parts).then((idempotencyKey) =>
        client.transfers.create(TRANSFER_PARAMS, { idempotencyKey }),
      );
      const error = await rejection(making, RequestValidationError);
      expect(error.fields).toEqual(fields);
      expect(error.outcomeUnknown).toBe(false);
      expect(requests.count()).toBe(0);
    },
  );
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
