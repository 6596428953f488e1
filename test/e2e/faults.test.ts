/**
 * Retries against every fault the sandbox can inject. Clients facing delays and
 * hangs use a 1 s per-attempt timeout, quick yet far above a loaded machine's
 * answer time (a retry that succeeds must answer within it); status faults that only need to
 * be retried ask for a short `retry-after-ms` so the suite stays fast (the
 * default backoff is covered once below).
 */
import { describe, expect, it, type TestContext } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  getResponseInfo,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
} from 'lunas-sdk';
import type { SandboxOptions } from 'lunas-sdk/testing';
import { cents, start, transferTo } from './helpers.js';
import { eventually, sleep } from '../helpers/waiting.js';
import { REQUEST_ID } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

const FAST = { timeout: 1_000, maxRetries: 2 } as const;
const QUICK_RETRY = { 'retry-after-ms': '20' };

type OnTestFinished = TestContext['onTestFinished'];
const startFast = (onTestFinished: OnTestFinished, options?: SandboxOptions) => start(options, FAST, onTestFinished);
/**
 * For faults that need no timeout (statuses, bad bodies): a timeout far above any
 * answer's time, so a loaded machine (the suite runs files in parallel, and CI
 * shares its cores) never turns a slow answer into a timeout these tests did not ask for.
 */
const PATIENT = { timeout: 15_000, maxRetries: 2 } as const;
const startPatient = (onTestFinished: OnTestFinished, options?: SandboxOptions) =>
  start(options, PATIENT, onTestFinished);

const chargeParams = { payment_method: 'qris', amount: 10_000 } as const;

describe.concurrent('retried faults, then success', () => {
  it.for([500, 502, 503, 504])('status %i once on POST /v1/payments/charges', async (status, { onTestFinished }) => {
    const { sandbox, client, requestIds } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status, method: 'POST', path: '/v1/payments/charges', headers: QUICK_RETRY });
    const charge = await client.charges.create(chargeParams);

    const info = getResponseInfo(charge);
    expect(info?.attempts).toBe(2);
    expect(info?.status).toBe(200);
    expect(requestIds).toHaveLength(2);
    expect(requestIds[0]).toMatch(REQUEST_ID);
    expect(info?.requestId).toBe(requestIds[1]);
    expect(info?.requestId).not.toBe(requestIds[0]);
    const keys = sandbox.requests.map((request) => request.idempotencyKey);
    expect(keys).toEqual([info?.idempotencyKey, info?.idempotencyKey]);
    expect((await client.charges.list()).total_items).toBe(1);
  });

  it('status 503 once, with the default backoff of about half a second', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 503 });
    const charge = await client.charges.create(chargeParams);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
    expect(sandbox.requests).toHaveLength(2);
    const [first, second] = sandbox.requests;
    const gap = second!.at.getTime() - first!.at.getTime();
    expect(gap).toBeGreaterThanOrEqual(350); // 0.5 s less at most 25 % jitter
    expect(gap).toBeLessThan(2_000);
  });

  it('409 is retried', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 409, headers: QUICK_RETRY });
    const charge = await client.charges.create(chargeParams);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
  });

  it('429 with Retry-After: 1 waits about a second before the second attempt', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '1' } });
    const page = await client.charges.list();
    expect(getResponseInfo(page)?.attempts).toBe(2);
    expect(sandbox.requests).toHaveLength(2);
    const gap = sandbox.requests[1]!.at.getTime() - sandbox.requests[0]!.at.getTime();
    expect(gap).toBeGreaterThanOrEqual(990);
    expect(gap).toBeLessThan(3_000);
  });

  it('html 502 from a proxy once', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'html' });
    const page = await client.paymentMethods.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(getResponseInfo(page)?.attempts).toBe(2);
  });

  it('delay past the timeout once on a GET', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    const created = await client.charges.create(chargeParams);
    sandbox.inject({ kind: 'delay', ms: 2_500, method: 'GET' });
    const started = Date.now();
    const charge = await client.charges.retrieve(created.id);
    expect(charge.id).toBe(created.id);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('delay within the timeout is not a failure', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'delay', ms: 100 });
    const page = await client.payouts.list();
    expect(getResponseInfo(page)?.attempts).toBe(1);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('hang once', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'hang' });
    const charge = await client.charges.create(chargeParams);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
    expect(sandbox.requests).toHaveLength(2);
    expect((await client.charges.list()).total_items).toBe(1);
  });

  it('drop once', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'drop' });
    const charge = await client.charges.create(chargeParams);
    expect(getResponseInfo(charge)?.attempts).toBe(2);
    expect(sandbox.requests).toHaveLength(2);
    expect((await client.charges.list()).total_items).toBe(1);
  });

  it('malformed 503 once', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'malformed', status: 503 });
    const page = await client.transfers.list();
    expect(getResponseInfo(page)?.attempts).toBe(2);
  });

  it('each fault kind in turn on one call, with maxRetries raised for it', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'status', status: 500, headers: QUICK_RETRY });
    sandbox.inject({ kind: 'drop' });
    sandbox.inject({ kind: 'hang' });
    const transfer = await client.transfers.create(transferTo(1_000), { maxRetries: 3 });
    expect(getResponseInfo(transfer)?.attempts).toBe(4);
    expect(new Set(sandbox.requests.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('1000.00');
  });
});

describe.concurrent('faults that are not retried', () => {
  it('a malformed 200 body is a ResponseValidationError after one request', async ({ onTestFinished }) => {
    const { sandbox, client, requestIds } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'malformed' });
    const error = await rejection(client.charges.create(chargeParams), ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.body).toBe('{"status":"succ');
    expect(error.requestId).toBe(requestIds[0]);
    expect(error.idempotencyKey).toBe(sandbox.requests[0]?.idempotencyKey);
    expect(sandbox.requests).toHaveLength(1);
    expect((await client.charges.list()).total_items).toBe(0);
  });

  it('a 200 carrying a fail envelope is never data', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 200, body: { status: 'fail', data: { amount: ['Nope'] } } });
    const error = await rejection(client.charges.list(), APIError);
    expect(error.status).toBe(200);
    expect(error.body).toEqual({ status: 'fail', data: { amount: ['Nope'] } });
    expect(sandbox.requests).toHaveLength(1);
  });

  it('a 200 whose data has a wrong type is a ResponseValidationError naming the path', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({
      kind: 'status',
      status: 200,
      body: { status: 'success', data: [{ id: 7 }], page: 1, page_size: 10, total_items: 1 },
    });
    const error = await rejection(client.transfers.list(), ResponseValidationError);
    expect(error.path).toBe('data.0.id');
    expect(sandbox.requests).toHaveLength(1);
  });

  it.for([400, 404])('an injected %i is thrown at once', async (status, { onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status, headers: QUICK_RETRY });
    const error = await rejection(client.charges.list(), status === 400 ? BadRequestError : NotFoundError);
    expect(error.status).toBe(status);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('maxRetries: 0 makes one attempt', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 503, headers: QUICK_RETRY });
    const error = await rejection(client.charges.list({}, { maxRetries: 0 }), InternalServerError);
    expect(error.status).toBe(503);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('an aborted signal stops a hung call without retrying', async ({ onTestFinished }) => {
    const { sandbox, client } = await start(undefined, { timeout: 5_000, maxRetries: 2 }, onTestFinished);
    sandbox.inject({ kind: 'hang', times: Infinity });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(
      client.transfers.create(transferTo(100), { signal: controller.signal }),
      APIUserAbortError,
    );
    expect(error.idempotencyKey).toBe(sandbox.requests[0]?.idempotencyKey);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.transfers()).toHaveLength(0);
  });
});

describe.concurrent('waits and connections', () => {
  it('an abort while waiting to retry ends the call at once', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'status', status: 503, headers: { 'Retry-After': '5' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    await rejection(client.charges.list({}, { signal: controller.signal }), APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('a Retry-After above 60 s is not honoured: the default backoff applies', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '120' } });
    const page = await client.charges.list();
    expect(getResponseInfo(page)?.attempts).toBe(2);
    const gap = sandbox.requests[1]!.at.getTime() - sandbox.requests[0]!.at.getTime();
    expect(gap).toBeLessThan(5_000);
  });

  it('a refused connection is an APIConnectionError', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    await sandbox.close();
    const error = await rejection(client.charges.list({}, { maxRetries: 1 }), APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe.concurrent('lost responses on POST /v1/transfers', () => {
  it('resolves after a lost response, with one transfer and one Idempotency-Key', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    const transfer = await client.transfers.create(transferTo('100000.00'));

    expect(sandbox.transfers()).toEqual([transfer]);
    expect(sandbox.balance('acc_merchant')).toBe('900000.00');
    expect(sandbox.balance('acc_partner')).toBe('100000.00');
    const info = getResponseInfo(transfer);
    expect(info?.attempts).toBe(2);
    expect(sandbox.requests).toHaveLength(2);
    for (const request of sandbox.requests) {
      expect(request).toMatchObject({ method: 'POST', path: '/v1/transfers', idempotencyKey: info?.idempotencyKey });
    }
  });

  it('keeps the caller’s idempotencyKey on every attempt', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: 2 });
    const transfer = await client.transfers.create(transferTo(5), { idempotencyKey: 'settlement-2026-w47' });
    expect(getResponseInfo(transfer)?.attempts).toBe(3);
    expect(sandbox.requests.map((request) => request.idempotencyKey)).toEqual([
      'settlement-2026-w47',
      'settlement-2026-w47',
      'settlement-2026-w47',
    ]);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('5.00');
  });

  it('a response delayed past the timeout is processed once, not twice', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'delay', ms: 1_500, method: 'POST', path: '/v1/transfers' });
    const transfer = await client.transfers.create(transferTo(700));
    expect(getResponseInfo(transfer)?.attempts).toBe(2);
    await sleep(1_600); // let the delayed first attempt be processed too
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.transfers()[0]?.id).toBe(transfer.id);
    expect(sandbox.balance('acc_partner')).toBe('700.00');
  });
});

describe.concurrent('faults beyond maxRetries', () => {
  it('5xx every time: InternalServerError after maxRetries + 1 attempts, carrying the request id', async ({
    onTestFinished,
  }) => {
    const { sandbox, client, requestIds } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 503, times: Infinity, headers: QUICK_RETRY });
    const error = await rejection(client.charges.list(), InternalServerError);
    expect(error.status).toBe(503);
    expect(error.requestId).toBe(requestIds[2]);
    expect(error.body).toEqual({ status: 'error', message: 'Injected fault: HTTP 503' });
    expect(sandbox.requests).toHaveLength(3);
  });

  it('html 502 every time: InternalServerError with the page as body', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'html', times: Infinity });
    const error = await rejection(client.payouts.list({}, { maxRetries: 1 }), InternalServerError);
    expect(error.status).toBe(502);
    expect(typeof error.body).toBe('string');
    expect(error.body).toContain('<html>');
    expect(error.requestId).toBeUndefined();
    expect(sandbox.requests).toHaveLength(2);
  });

  it('429 every time: RateLimitError', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 429, times: Infinity, headers: QUICK_RETRY });
    const error = await rejection(client.charges.list(), RateLimitError);
    expect(error.status).toBe(429);
    expect(sandbox.requests).toHaveLength(3);
  });

  it('hang every time: APIConnectionTimeoutError', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'hang', times: Infinity });
    const error = await rejection(client.charges.list({}, { maxRetries: 1 }), APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(sandbox.requests).toHaveLength(2);
  });

  it('delay past the timeout every time: APIConnectionTimeoutError', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'delay', ms: 1_000, times: Infinity });
    const started = Date.now();
    await rejection(client.charges.list({}, { maxRetries: 1, timeout: 200 }), APIConnectionTimeoutError);
    expect(sandbox.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('drop every time: APIConnectionError, not a timeout', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'drop', times: Infinity });
    const error = await rejection(client.charges.list({}, { maxRetries: 1 }), APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(sandbox.requests).toHaveLength(2);
  });

  it('5xx every time on a transfer: no transfer made, and the error offers the key', async ({ onTestFinished }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'status', status: 500, times: Infinity, headers: QUICK_RETRY });
    const error = await rejection(client.transfers.create(transferTo(100)), InternalServerError);
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(error.message).toContain(error.idempotencyKey!);
    expect(sandbox.requests.map((request) => request.idempotencyKey)).toEqual([
      error.idempotencyKey,
      error.idempotencyKey,
      error.idempotencyKey,
    ]);
    expect(sandbox.transfers()).toHaveLength(0);
    expect(sandbox.balance('acc_merchant')).toBe('1000000.00');
  });

  it('hang every time on a transfer: timeout, no transfer made', async ({ onTestFinished }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'hang', method: 'POST', path: '/v1/transfers', times: Infinity });
    await rejection(client.transfers.create(transferTo(100), { maxRetries: 1 }), APIConnectionTimeoutError);
    expect(sandbox.requests).toHaveLength(2);
    expect(sandbox.transfers()).toHaveLength(0);
  });

  it('delay past the timeout every time on a transfer: timeout, and at most one transfer once processed', async ({
    onTestFinished,
  }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'delay', ms: 1_300, method: 'POST', path: '/v1/transfers', times: Infinity });
    const error = await rejection(
      client.transfers.create(transferTo(300), { maxRetries: 1 }),
      APIConnectionTimeoutError,
    );
    await eventually(() => sandbox.transfers().length > 0);
    await sleep(1_400); // the second attempt is processed by now too
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('300.00');

    // Retrying with the error's key replays the transfer that was made.
    sandbox.clearFaults();
    const retried = await client.transfers.create(transferTo(300), { idempotencyKey: error.idempotencyKey! });
    expect(retried).toEqual(sandbox.transfers()[0]);
    expect(sandbox.transfers()).toHaveLength(1);
  });

  it('lost responses every time: APIConnectionError, one transfer, and a retry with the error’s key pays nothing more', async ({
    onTestFinished,
  }) => {
    const { sandbox, client } = await startFast(onTestFinished);
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: Infinity });
    const error = await rejection(client.transfers.create(transferTo('2500.50')), APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(sandbox.requests).toHaveLength(3);
    expect(new Set(sandbox.requests.map((request) => request.idempotencyKey))).toEqual(new Set([error.idempotencyKey]));
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_merchant')).toBe('997499.50');

    sandbox.clearFaults();
    const transfer = await client.transfers.create(transferTo('2500.50'), { idempotencyKey: error.idempotencyKey! });
    expect(transfer).toEqual(sandbox.transfers()[0]);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_merchant')).toBe('997499.50');
    expect(cents(sandbox.balance('acc_merchant')) + cents(sandbox.balance('acc_partner'))).toBe(100_000_000n);
  });

  it('a fresh key after a lost response would pay again: the error’s key is what makes the retry safe', async ({
    onTestFinished,
  }) => {
    const { sandbox, client } = await startPatient(onTestFinished);
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: Infinity });
    const error = await rejection(client.transfers.create(transferTo(10), { maxRetries: 0 }), APIConnectionError);
    sandbox.clearFaults();
    await client.transfers.create(transferTo(10));
    expect(sandbox.transfers()).toHaveLength(2);
    await client.transfers.create(transferTo(10), { idempotencyKey: error.idempotencyKey! });
    expect(sandbox.transfers()).toHaveLength(2);
  });
});
