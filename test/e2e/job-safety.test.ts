/**
 * A job engine's worker against the sandbox over real HTTP: a key made from a
 * job's id moves money once across reruns, a 429's `retryAfterMs` is what the
 * service asked, and `outcomeUnknown` tells a lost answer (retry with the same
 * key: one transfer) from a refusal (nothing made).
 */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  getResponseInfo,
  idempotencyKeyFor,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
} from 'lunas-sdk';
import { start, transferTo } from './helpers.js';
import { rejection } from '../helpers/rejection.js';

describe('a payout job against the sandbox', () => {
  it("a key made from the job's id moves the money once, however often the job runs", async () => {
    const { sandbox, client } = await start();
    const jobId = 'settlement:2026-05-04:acc_partner';
    const run = async () =>
      client.transfers.create(
        { ...transferTo('221400.00'), client_reference_id: jobId },
        { idempotencyKey: await idempotencyKeyFor(jobId) },
      );
    const first = await run();
    const again = await run();
    expect(again.id).toBe(first.id);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('221400.00');
    expect(sandbox.requests.map(({ idempotencyKey }) => idempotencyKey)).toEqual([
      await idempotencyKeyFor(jobId),
      await idempotencyKeyFor(jobId),
    ]);
    // Another job's key is another transfer.
    await client.transfers.create(transferTo('1.00'), { idempotencyKey: await idempotencyKeyFor(`${jobId}:2`) });
    expect(sandbox.transfers()).toHaveLength(2);
  });

  it("a 429's retryAfterMs is the service's Retry-After, and nothing was made", async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 0 });
    sandbox.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '2' }, path: '/v1/transfers' });
    const limited = await rejection(client.transfers.create(transferTo(100)), RateLimitError);
    expect(limited.retryAfterMs).toBe(2000);
    expect(limited.outcomeUnknown).toBe(true);
    sandbox.inject({ kind: 'status', status: 503, headers: { 'retry-after-ms': '150' }, path: '/v1/transfers' });
    const unavailable = await rejection(client.transfers.create(transferTo(100)), InternalServerError);
    expect(unavailable.retryAfterMs).toBe(150);
    expect(sandbox.transfers()).toEqual([]);
  });

  it('after a lost answer the outcome is unknown, and a retry with the same key makes one transfer', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 0 });
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    const idempotencyKey = await idempotencyKeyFor('payout-job-7');
    const lost = await rejection(client.transfers.create(transferTo(5000), { idempotencyKey }), APIConnectionError);
    expect(lost.outcomeUnknown).toBe(true);
    expect(lost.idempotencyKey).toBe(idempotencyKey);
    // The service made it; the retry with the same key answers that transfer.
    expect(sandbox.transfers()).toHaveLength(1);
    const transfer = await client.transfers.create(transferTo(5000), { idempotencyKey: lost.idempotencyKey });
    expect(transfer.id).toBe(sandbox.transfers()[0]!.id);
    expect(getResponseInfo(transfer)?.idempotencyKey).toBe(idempotencyKey);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('5000.00');
  });

  it('a refusal is a known outcome: nothing was made', async () => {
    const { sandbox, client } = await start();
    const refused = await rejection(
      client.transfers.create(transferTo('2000000.00'), { idempotencyKey: await idempotencyKeyFor('payout-job-8') }),
      PermissionDeniedError,
    );
    expect(refused.outcomeUnknown).toBe(false);
    expect(sandbox.transfers()).toEqual([]);
  });
});
