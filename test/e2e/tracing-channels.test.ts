/**
 * The tracing channels against the sandbox over real HTTP: an operation per
 * call and an attempt per HTTP attempt through a 503 and its retry, a hung
 * attempt, a lost response and a walk over pages; the request ids and
 * Idempotency-Keys the sandbox saw; headers a subscriber adds reaching the
 * sandbox; and nothing published for a call refused before sending. That no
 * context carries the API key is held in test/security/key-leaks/over-http.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, InternalServerError, RequestValidationError } from 'lunas-sdk';
import { start, transferTo } from './helpers.js';
import { REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';
import { recordTracing } from '../helpers/tracing.js';

describe('the tracing channels over HTTP', () => {
  it('a retrieve: one operation, one attempt, the URL, the status and the request id the sandbox sent', async () => {
    const { sandbox, client, requestIds } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const trace = recordTracing();

    await client.charges.retrieve(charge.id);

    const [operation] = trace.contexts('operation');
    const [attempt] = trace.contexts('attempt');
    expect(trace.contexts('operation')).toHaveLength(1);
    expect(trace.contexts('attempt')).toHaveLength(1);
    expect(operation).toMatchObject({
      operation: 'charges.retrieve',
      method: 'GET',
      route: '/v1/payments/charges/{id}',
      url: `${sandbox.url}/v1/payments/charges/${charge.id}`,
      idempotencyKey: undefined,
      status: 200,
      error: undefined,
    });
    expect(operation!.requestId).toMatch(REQUEST_ID);
    expect(operation!.requestId).toBe(requestIds.at(-1));
    expect(attempt).toMatchObject({ attempt: 1, status: 200, willRetry: false, requestId: operation!.requestId });
    expect(attempt!.operationContext).toBe(operation);
  });

  it('a transfer after a 503: two attempts under one operation, the key the sandbox received on both', async () => {
    const { sandbox, client, requestIds } = await start(undefined, { maxRetries: 2 });
    sandbox.inject({
      kind: 'status',
      status: 503,
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'retry-after-ms': '0' },
    });
    const trace = recordTracing();

    await client.transfers.create(transferTo(1_000));

    const [operation] = trace.contexts('operation');
    const attempts = trace.contexts('attempt');
    const keys = sandbox.requests.filter((request) => request.method === 'POST').map((r) => r.idempotencyKey);
    expect(keys).toEqual([operation!.idempotencyKey, operation!.idempotencyKey]);
    expect(operation!.idempotencyKey).toMatch(UUID_V4);
    expect(operation).toMatchObject({ operation: 'transfers.create', route: '/v1/transfers', status: 200 });
    expect(attempts.map((a) => [a.attempt, a.status, a.willRetry, a.idempotencyKey])).toEqual([
      [1, 503, true, keys[0]],
      [2, 200, false, keys[0]],
    ]);
    expect(attempts[0]!.error).toBeInstanceOf(InternalServerError);
    expect(attempts.map((a) => a.requestId)).toEqual(requestIds.slice(-2));
    expect(attempts.every((a) => a.operationContext === operation)).toBe(true);
  });

  it('a hung attempt: no status, an APIConnectionTimeoutError on the attempt and the operation', async () => {
    const { sandbox, client } = await start(undefined, { timeout: 200, maxRetries: 0 });
    sandbox.inject({ kind: 'hang' });
    const trace = recordTracing();

    const error = await rejection(client.charges.list(), APIConnectionTimeoutError);

    expect(trace.contexts('attempt')[0]).toMatchObject({
      status: undefined,
      requestId: undefined,
      willRetry: false,
      error,
    });
    expect(trace.contexts('operation')[0]).toMatchObject({ operation: 'charges.list', status: undefined, error });
  });

  it('a lost response, then the replay: an APIConnectionError attempt, then a 200', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    const trace = recordTracing();

    await client.transfers.create(transferTo(2_000));

    const [lost, replayed] = trace.contexts('attempt');
    expect(lost).toMatchObject({ status: undefined, willRetry: true });
    expect(lost!.error).toBeInstanceOf(APIConnectionError);
    expect(replayed).toMatchObject({ status: 200, willRetry: false, idempotencyKey: lost!.idempotencyKey });
    expect(sandbox.transfers()).toHaveLength(1);
  });

  it('a walk: one charges.list operation per page, each with its page in the URL', async () => {
    const { sandbox, client } = await start();
    sandbox.seedCharges(25);
    const trace = recordTracing();

    const all = await client.charges.list({ pagesize: 10 }).toArray({ limit: 100 });

    expect(all).toHaveLength(25);
    expect(trace.contexts('operation').map((o) => `${o.operation} ${o.url}`)).toEqual(
      [1, 2, 3].map((page) => `charges.list ${sandbox.url}/v1/payments/charges?page=${page}&pagesize=10`),
    );
  });

  it('headers added at the start of each attempt reach the sandbox', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 503, method: 'GET', headers: { 'retry-after-ms': '0' } });
    recordTracing((context) => {
      context.headers.traceparent = `00-${'1'.repeat(32)}-${String(context.attempt).padStart(16, '0')}-01`;
      context.headers.tracestate = `attempt=${context.attempt}`;
    });

    await client.payouts.list();

    expect(sandbox.requests.map((r) => [r.traceparent, r.tracestate])).toEqual([
      [`00-${'1'.repeat(32)}-${'1'.padStart(16, '0')}-01`, 'attempt=1'],
      [`00-${'1'.repeat(32)}-${'2'.padStart(16, '0')}-01`, 'attempt=2'],
    ]);
  });

  it('a call refused before sending publishes nothing, and nothing reaches the sandbox', async () => {
    const { sandbox, client } = await start();
    const trace = recordTracing();

    await rejection(client.transfers.create(transferTo(0)), RequestValidationError);
    await rejection(client.get(`${sandbox.url}/v1/payouts`), RequestValidationError);

    expect(trace.records).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });
});
