import { describe, expect, it } from 'vitest';
import { getResponseInfo, PermissionDeniedError, type Transfer } from 'lunas-sdk';
import { cents, start, transferTo } from './helpers.js';

const OPENING = 100_000_000n; // 1,000,000.00 in cents

describe('concurrent transfers', () => {
  it('200 at once from 1,000,000.00: exactly the ones that fit succeed, to the cent, with no overdraft', async () => {
    const { sandbox, client } = await start();
    const amount = '7777.77';
    const fits = Number(OPENING / cents(amount)); // 128

    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        client.transfers.create({ ...transferTo(amount), client_reference_id: `batch-${i}` }),
      ),
    );
    const succeeded = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));

    expect(fits).toBe(128);
    expect(succeeded).toHaveLength(fits);
    expect(failed).toHaveLength(200 - fits);
    for (const error of failed) {
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect((error as PermissionDeniedError).status).toBe(403);
    }
    expect(succeeded.every((transfer) => transfer.status === 'succeeded' && transfer.amount === amount)).toBe(true);
    expect(new Set(succeeded.map((transfer) => transfer.id)).size).toBe(fits);

    const remaining = OPENING - BigInt(fits) * cents(amount);
    expect(cents(sandbox.balance('acc_merchant'))).toBe(remaining);
    expect(sandbox.balance('acc_merchant')).toBe('4445.44');
    expect(sandbox.balance('acc_partner')).toBe('995554.56');
    expect(cents(sandbox.balance('acc_merchant'))).toBeGreaterThanOrEqual(0n);

    const stored = sandbox.transfers();
    expect(stored).toHaveLength(fits);
    expect(new Set(stored.map((transfer) => transfer.id))).toEqual(new Set(succeeded.map((transfer) => transfer.id)));
    // No call was retried: a 403 is final, and every success came first time.
    expect(sandbox.requests).toHaveLength(200);
    expect(succeeded.every((transfer) => getResponseInfo(transfer)?.attempts === 1)).toBe(true);

    // The listing agrees with the ledger.
    const listed: Transfer[] = [];
    for await (const transfer of client.transfers.list({ pagesize: 100 })) listed.push(transfer);
    expect(listed).toHaveLength(fits);
    expect(listed.reduce((sum, transfer) => sum + cents(transfer.amount), 0n)).toBe(OPENING - remaining);
  });

  it('50 at once sharing one idempotency key and body make exactly one transfer', async () => {
    const { sandbox, client } = await start();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        client.transfers.create(transferTo('12345.67'), { idempotencyKey: 'invoice-2024-0042' }),
      ),
    );
    expect(new Set(results.map((transfer) => transfer.id)).size).toBe(1);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.transfers()[0]?.id).toBe(results[0]?.id);
    expect(sandbox.balance('acc_merchant')).toBe('987654.33');
    expect(sandbox.balance('acc_partner')).toBe('12345.67');
    expect(sandbox.requests).toHaveLength(50);
    expect(sandbox.requests.every((request) => request.idempotencyKey === 'invoice-2024-0042')).toBe(true);
  });

  it('30 at once through lost responses each make exactly one transfer', async () => {
    const { sandbox, client } = await start(undefined, { timeout: 2_000, maxRetries: 3 });
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: 15 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => client.transfers.create(transferTo(100), { idempotencyKey: `op-${i}` })),
    );
    expect(new Set(results.map((transfer) => transfer.id)).size).toBe(30);
    expect(sandbox.transfers()).toHaveLength(30);
    expect(sandbox.balance('acc_partner')).toBe('3000.00');
    expect(sandbox.requests).toHaveLength(45);
    expect(results.filter((transfer) => getResponseInfo(transfer)?.attempts === 2)).toHaveLength(15);
  });
});

describe('concurrent charges', () => {
  it('100 at once are all stored with distinct ids', async () => {
    const { sandbox, client } = await start();
    const charges = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        client.charges.create({ payment_method: i % 2 ? 'qris' : 'virtual_account', amount: 1_000 + i }),
      ),
    );
    expect(new Set(charges.map((charge) => charge.id)).size).toBe(100);
    const page = await client.charges.list({ pagesize: 100 });
    expect(page.total_items).toBe(100);
    expect(new Set(page.data.map((charge) => charge.id))).toEqual(new Set(charges.map((charge) => charge.id)));
    expect(sandbox.events.filter((event) => event.type === 'payment_charge.created')).toHaveLength(100);
  });
});
