/**
 * The SDK against createSandbox: a Client on `sandbox.fetch`, under fake
 * timers (the sandbox's only timers are its `delay` faults, the client's its
 * timeouts and backoff, all moved by the test), and through an msw handler.
 */
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  Client,
  InternalServerError,
  NotFoundError,
  type ClientOptions,
} from 'lunas-sdk';
import { createSandbox, type InProcessSandbox } from 'lunas-sdk/testing';
import { server } from '../helpers/msw.js';
import { rejection } from '../helpers/rejection.js';

const sandboxes: InProcessSandbox[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

function setUp(options: ClientOptions = {}): { sandbox: InProcessSandbox; client: Client } {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  const client = new Client({
    fetch: sandbox.fetch,
    baseURL: sandbox.url,
    apiKey: sandbox.apiKey,
    logLevel: 'off',
    ...options,
  });
  return { sandbox, client };
}

/** Whether `promise` has settled yet, without waiting for it. */
function watch(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

describe('a Client on sandbox.fetch, under fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('creates, retrieves and lists with no timer moved', async () => {
    const { sandbox, client } = setUp();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    expect(charge.payment_url).toBe(`https://sandbox.lunas.invalid/pay/${charge.id}`);
    await sandbox.payCharge(charge.id);
    expect((await client.charges.retrieve(charge.id)).status).toBe('success');
    sandbox.seedCharges(120);
    const ids = await client.charges.list({ pagesize: 50 }).toArray({ limit: 200 });
    expect(ids).toHaveLength(121);
    expect(ids[120]?.id).toBe(charge.id);
    expect(await rejection(client.charges.retrieve('ch_missing'), NotFoundError)).toBeInstanceOf(NotFoundError);
  });

  it('answers after a delay fault once the clock is moved past it', async () => {
    const { sandbox, client } = setUp();
    sandbox.inject({ kind: 'delay', ms: 10_000 });
    const pending = client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const settled = watch(pending);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe('pending');
  });

  it('times out on a delay past the client timeout, then retries with the same key', async () => {
    const { sandbox, client } = setUp({ timeout: 1_000, maxRetries: 1 });
    sandbox.inject({ kind: 'delay', ms: 5_000 });
    const pending = client.transfers.create({
      destination_account_id: 'acc_partner',
      amount: '100.00',
      currency: 'idr',
    });
    await vi.advanceTimersByTimeAsync(60_000);
    const transfer = await pending;
    const keys = sandbox.requests.map(({ idempotencyKey }) => idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    // The delayed attempt was processed too: the replay moved no money twice.
    expect(sandbox.transfers()).toEqual([expect.objectContaining({ id: transfer.id })]);
    expect(sandbox.balance('acc_partner')).toBe('100.00');
  });

  it('retries a 503 after the backoff the test moves past', async () => {
    const { sandbox, client } = setUp({ maxRetries: 2 });
    sandbox.inject({ kind: 'status', status: 503 });
    const pending = client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const settled = watch(pending);
    await vi.advanceTimersByTimeAsync(0);
    expect(sandbox.requests).toHaveLength(1);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await pending).status).toBe('pending');
    expect(sandbox.requests).toHaveLength(2);
  });

  it('gives the error of the last attempt when every one fails', async () => {
    const { sandbox, client } = setUp({ maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 500, times: Infinity });
    const pending = rejection(client.payouts.list().toArray({ limit: 200 }), InternalServerError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await pending).status).toBe(500);
    expect(sandbox.requests).toHaveLength(2);
  });

  it('sees drop and lost-response as connection errors, and hang as a timeout', async () => {
    const { sandbox, client } = setUp({ maxRetries: 0, timeout: 2_000 });
    sandbox.inject({ kind: 'drop' });
    await rejection(client.charges.create({ payment_method: 'qris', amount: 10_000 }), APIConnectionError);
    sandbox.inject({ kind: 'lost-response' });
    await rejection(client.charges.create({ payment_method: 'qris', amount: 10_000 }), APIConnectionError);
    expect(sandbox.events.map(({ type }) => type)).toEqual(['payment_charge.created']);
    sandbox.inject({ kind: 'hang' });
    const hung = rejection(client.payouts.list().toArray({ limit: 200 }), APIConnectionTimeoutError);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await hung).toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe('createSandbox behind msw', () => {
  it('serves a client given global fetch through one handler (msw intercepts fetch, not undici)', async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    server.use(http.all('https://sandbox.lunas.invalid/*', ({ request }) => sandbox.fetch(request)));
    const client = new Client({
      baseURL: sandbox.url,
      apiKey: sandbox.apiKey,
      logLevel: 'off',
      fetch: (input, init) => fetch(input, init),
    });
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 50_000 });
    await sandbox.payCharge(charge.id);
    expect((await client.charges.retrieve(charge.id)).status).toBe('success');
    expect(sandbox.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /v1/payments/charges',
      `GET /v1/payments/charges/${charge.id}`,
    ]);
  });
});
