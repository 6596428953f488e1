/**
 * Request and response events against the sandbox over real HTTP: one pair
 * per attempt through retries, timeouts and lost responses, the request ids
 * the sandbox sent. That no event carries the API key is held in
 * test/security/key-leaks/over-http.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, InternalServerError, RequestValidationError } from 'lunas-sdk';
import { start, transferTo } from './helpers.js';
import { recordEvents, responseEvents } from '../helpers/recorders.js';
import { REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

describe('request and response events over HTTP', () => {
  it('a GET: the full URL, the status and the x-request-id the sandbox sent', async () => {
    const { sandbox, client, requestIds } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const seen = recordEvents(client);

    await client.charges.retrieve(charge.id);

    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response']);
    expect(seen[0]!.event).toEqual({
      method: 'GET',
      url: `${sandbox.url}/v1/payments/charges/${charge.id}`,
      attempt: 1,
      idempotencyKey: undefined,
    });
    const [response] = responseEvents(seen);
    expect(response!.status).toBe(200);
    expect(response!.requestId).toMatch(REQUEST_ID);
    expect(response!.requestId).toBe(requestIds.at(-1));
    expect(response!.error).toBeUndefined();
    expect(response!.willRetry).toBe(false);
    expect(response!.durationMs).toBeGreaterThan(0);
  });

  it('a POST retried after a 503: two pairs, willRetry true then false, the key the sandbox received', async () => {
    const { sandbox, client, requestIds } = await start(undefined, { maxRetries: 2 });
    sandbox.inject({
      kind: 'status',
      status: 503,
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'retry-after-ms': '0' },
    });
    const seen = recordEvents(client);

    const transfer = await client.transfers.create(transferTo(1_000));

    expect(seen.map((entry) => `${entry.name} ${entry.event.attempt}`)).toEqual([
      'request 1',
      'response 1',
      'request 2',
      'response 2',
    ]);
    const keys = sandbox.requests.filter((request) => request.method === 'POST').map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe(keys[0]);
    for (const { event } of seen) {
      expect(event.idempotencyKey).toBe(keys[0]);
      expect(event.url).toBe(`${sandbox.url}/v1/transfers`);
    }
    const [first, second] = responseEvents(seen);
    expect([first!.status, first!.willRetry]).toEqual([503, true]);
    expect(first!.error).toBeInstanceOf(InternalServerError);
    expect([second!.status, second!.willRetry, second!.error]).toEqual([200, false, undefined]);
    expect(responseEvents(seen).map((event) => event.requestId ?? '')).toEqual(requestIds.slice(-2));
    expect(sandbox.transfers().map((stored) => stored.id)).toEqual([transfer.id]);
  });

  it('a call queued behind a slow one (maxConcurrentRequests 1): its request comes with its turn, its durationMs is its own', async () => {
    const { sandbox, client } = await start(undefined, { maxConcurrentRequests: 1 });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const seen = recordEvents(client);
    // The first retrieve holds the client's one turn for 400 ms; the second is answered at once.
    sandbox.inject({ kind: 'delay', ms: 400, method: 'GET' });
    const started = performance.now();
    const first = client.charges.retrieve(charge.id);
    const second = client.charges.retrieve(charge.id).then(() => performance.now() - started);
    await first;
    const wall = await second;

    const [slow, queued] = responseEvents(seen);
    expect(slow!.durationMs).toBeGreaterThanOrEqual(350);
    expect(wall).toBeGreaterThan(350);
    expect(queued!.durationMs).toBeLessThan(300);
    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response', 'request', 'response']);
  });

  it('a hung attempt: a response event with status undefined and an APIConnectionTimeoutError', async () => {
    const { sandbox, client } = await start(undefined, { timeout: 200, maxRetries: 0 });
    sandbox.inject({ kind: 'hang' });
    const seen = recordEvents(client);
    const error = await rejection(client.charges.list(), APIConnectionTimeoutError);
    const [response] = responseEvents(seen);
    expect(response!.status).toBeUndefined();
    expect(response!.requestId).toBeUndefined();
    expect(response!.error).toBe(error);
    expect(response!.willRetry).toBe(false);
    expect(response!.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('a lost response, then a success: an APIConnectionError event, then the replayed transfer', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    const seen = recordEvents(client);
    await client.transfers.create(transferTo(2_000));
    const [lost, replayed] = responseEvents(seen);
    expect(lost!.status).toBeUndefined();
    expect(lost!.error).toBeInstanceOf(APIConnectionError);
    expect(lost!.willRetry).toBe(true);
    expect(replayed!.status).toBe(200);
    expect(replayed!.idempotencyKey).toBe(lost!.idempotencyKey);
    expect(sandbox.transfers()).toHaveLength(1);
  });

  it('a walk over pages: one pair per page, with the page in the url', async () => {
    const { sandbox, client } = await start();
    sandbox.seedCharges(25);
    const seen = recordEvents(client);
    const all = await client.charges.list({ pagesize: 10 }).toArray({ limit: 100 });
    expect(all).toHaveLength(25);
    expect(seen.filter((entry) => entry.name === 'request').map((entry) => entry.event.url)).toEqual(
      [1, 2, 3].map((page) => `${sandbox.url}/v1/payments/charges?page=${page}&pagesize=10`),
    );
  });

  it('a request refused before sending: no event, nothing reaches the sandbox', async () => {
    const { sandbox, client } = await start();
    const seen = recordEvents(client);
    await rejection(client.transfers.create(transferTo(0)), RequestValidationError);
    await rejection(client.get(`${sandbox.url}/v1/payouts`), RequestValidationError);
    expect(seen).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });

  it('a withOptions() client reports to the parent’s listeners', async () => {
    const { client } = await start();
    const seen = recordEvents(client);
    await client.withOptions({ timeout: 5_000 }).payouts.list();
    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response']);
  });
});
