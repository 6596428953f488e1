import { describe, expect, it } from 'vitest';
import { getResponseInfo, type PaymentMethod, type Payout } from 'lunas-sdk';
import { start } from './helpers.js';

describe('payouts.list', () => {
  it('returns the sandbox’s payouts with every field kept', async () => {
    const { sandbox, client, requestIds } = await start();
    const page = await client.payouts.list();
    expect(page.total_items).toBe(3);
    expect(page.page).toBe(1);
    expect(page.data).toHaveLength(3);
    for (const payout of page.data) {
      expect(payout).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^po_/),
          amount: expect.any(String),
          status: expect.any(String),
        }),
      );
    }
    expect(page.data[0]).toHaveProperty('bank_code');
    expect(sandbox.requests).toMatchObject([{ method: 'GET', path: '/v1/payouts' }]);
    expect(getResponseInfo(page)?.requestId).toBe(requestIds[0]);
  });

  it('serves configured payouts in order and walks them page by page', async () => {
    const payouts = Array.from({ length: 7 }, (_, i) => ({ id: `po_${i}`, amount: `${i + 1}.00`, nested: { n: i } }));
    const { sandbox, client } = await start({ payouts });
    const seen: Payout[] = [];
    for await (const payout of client.payouts.list({ pagesize: 3 })) seen.push(payout);
    expect(seen).toEqual(payouts);
    expect(sandbox.requests.map((request) => request.query)).toEqual([
      { page: '1', pagesize: '3' },
      { page: '2', pagesize: '3' },
      { page: '3', pagesize: '3' },
    ]);
  });

  it('is empty when there are no payouts', async () => {
    const { client } = await start({ payouts: [] });
    const page = await client.payouts.list();
    expect(page.data).toEqual([]);
    expect(page.total_items).toBe(0);
    expect(page.hasNextPage()).toBe(false);
  });
});

describe('paymentMethods.list', () => {
  it('lists QRIS and the virtual-account banks', async () => {
    const { sandbox, client } = await start();
    const page = await client.paymentMethods.list();
    expect(page.total_items).toBe(6);
    expect(page.data.map((method) => method.id)).toEqual([
      'pm_qris',
      'pm_va_bca',
      'pm_va_bni',
      'pm_va_bri',
      'pm_va_mandiri',
      'pm_va_permata',
    ]);
    expect(page.data[0]).toMatchObject({ type: 'qris', name: 'QRIS', active: true });
    expect(sandbox.requests).toMatchObject([{ method: 'GET', path: '/v1/payments/methods' }]);
  });

  it('walks pages of 2: three full pages, then one empty page ends the walk', async () => {
    const { sandbox, client } = await start();
    const seen: PaymentMethod[] = [];
    for await (const method of client.paymentMethods.list({ pagesize: 2 })) seen.push(method);
    expect(seen.map((method) => method.id)).toHaveLength(6);
    expect(new Set(seen.map((method) => method.id)).size).toBe(6);
    expect(sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '3', '4']);
  });

  it('keeps configured fields of any JSON type', async () => {
    const methods = [{ id: 'pm_x', fees: [1, 2], limits: { min: '1.00' }, enabled: null }];
    const { client } = await start({ paymentMethods: methods });
    const page = await client.paymentMethods.list();
    expect(page.data).toEqual(methods);
  });
});
