import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, createCharge, createTransfer, sandbox, type Json } from './helpers.js';

const TOTAL = 25;

/** Each list endpoint, with a way to fill it with TOTAL items numbered 0..24 in creation order. */
const LISTS: [string, () => Promise<Sandbox>][] = [
  [
    '/v1/payments/charges',
    async () => {
      const box = await sandbox();
      for (let i = 0; i < TOTAL; i++) box.seedCharges(1, { client_reference_id: String(i) });
      return box;
    },
  ],
  [
    '/v1/transfers',
    async () => {
      const box = await sandbox();
      for (let i = 0; i < TOTAL; i++) {
        await createTransfer(box, {
          destination_account_id: 'acc_partner',
          amount: 1,
          currency: 'idr',
          client_reference_id: String(i),
        });
      }
      return box;
    },
  ],
  [
    '/v1/payouts',
    () =>
      sandbox({
        payouts: Array.from({ length: TOTAL }, (_, i) => ({
          id: `po_${TOTAL - 1 - i}`,
          client_reference_id: String(TOTAL - 1 - i),
        })),
      }),
  ],
  [
    '/v1/payments/methods',
    () =>
      sandbox({
        paymentMethods: Array.from({ length: TOTAL }, (_, i) => ({
          id: `pm_${TOTAL - 1 - i}`,
          client_reference_id: String(TOTAL - 1 - i),
        })),
      }),
  ],
];

const refs = (body: Json): number[] =>
  body.data.map((item: { client_reference_id: string }) => Number(item.client_reference_id));
const newestFirst = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from - i);

describe.each(LISTS)('GET %s pagination (spec 4.6)', (path, filled) => {
  it('defaults to page 1 of 10, newest first, with total_items', async () => {
    const box = await filled();
    const { status, body } = await call(box, 'GET', path);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'success', page: 1, page_size: 10, total_items: TOTAL });
    expect(refs(body)).toEqual(newestFirst(24, 10));
  });

  it('serves later pages, the last one partial, and an empty page beyond the last', async () => {
    const box = await filled();
    const second = (await call(box, 'GET', `${path}?page=2`)).body;
    expect(refs(second)).toEqual(newestFirst(14, 10));
    const third = (await call(box, 'GET', `${path}?page=3`)).body;
    expect(refs(third)).toEqual(newestFirst(4, 5));
    expect(third).toMatchObject({ page: 3, page_size: 10, total_items: TOTAL });
    const beyond = (await call(box, 'GET', `${path}?page=4`)).body;
    expect(beyond).toEqual({ status: 'success', data: [], page: 4, page_size: 10, total_items: TOTAL });
    const far = (await call(box, 'GET', `${path}?page=99999999999999999999`)).body;
    expect(far.data).toEqual([]);
  });

  it.each([['0'], ['-1'], ['abc'], ['1.5'], ['']])('answers page 1 for page=%j', async (page) => {
    const box = await filled();
    const { body } = await call(box, 'GET', `${path}?page=${page}&pagesize=5`);
    expect(body.page).toBe(1);
    expect(refs(body)).toEqual(newestFirst(24, 5));
  });

  it.each([['0'], ['-3'], ['abc'], ['2.5'], ['']])('uses the default page size for pagesize=%j', async (pagesize) => {
    const box = await filled();
    const { body } = await call(box, 'GET', `${path}?pagesize=${pagesize}`);
    expect(body.page_size).toBe(10);
    expect(body.data).toHaveLength(10);
  });

  it('caps pagesize at 100', async () => {
    const box = await filled();
    for (const pagesize of ['101', '1000']) {
      const { body } = await call(box, 'GET', `${path}?pagesize=${pagesize}`);
      expect(body.page_size).toBe(100);
      expect(body.data).toHaveLength(TOTAL);
    }
  });

  it('ignores the response spelling page_size as a request parameter', async () => {
    const box = await filled();
    expect((await call(box, 'GET', `${path}?page_size=3`)).body.page_size).toBe(10);
  });

  it('walks every item exactly once with page + 1 until an empty page', async () => {
    const box = await filled();
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const { body } = await call(box, 'GET', `${path}?page=${page}&pagesize=7`);
      if (body.data.length === 0) break;
      seen.push(...refs(body));
    }
    expect(seen).toEqual(newestFirst(24, TOTAL));
  });
});

describe('lists without items', () => {
  it.each([['/v1/payments/charges'], ['/v1/transfers'], ['/v1/payouts'], ['/v1/payments/methods']])(
    '%s answers empty data and total_items 0',
    async (path) => {
      const box = await sandbox({ payouts: [], paymentMethods: [] });
      expect((await call(box, 'GET', `${path}?page=1&pagesize=5`)).body).toEqual({
        status: 'success',
        data: [],
        page: 1,
        page_size: 5,
        total_items: 0,
      });
    },
  );
});

describe('ordering and volume', () => {
  it('orders charges created in the same millisecond by creation, newest first', async () => {
    const frozen = new Date('2025-01-01T00:00:00.000Z');
    const box = await sandbox({ now: () => frozen });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createCharge(box)).body.data.id);
    const first = (await call(box, 'GET', '/v1/payments/charges?pagesize=100')).body;
    expect(first.data.map((charge: { id: string }) => charge.id)).toEqual(ids.reverse());
  });

  it('serves the default payouts and payment methods in their given order', async () => {
    const box = await sandbox();
    const payouts = (await call(box, 'GET', '/v1/payouts')).body;
    expect(payouts.total_items).toBe(3);
    const times = payouts.data.map((payout: { created_at: string }) => payout.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const methods = (await call(box, 'GET', '/v1/payments/methods')).body;
    expect(methods.data.map((method: { type: string; channel: string }) => `${method.type}:${method.channel}`)).toEqual(
      [
        'qris:qris',
        'virtual_account:bca',
        'virtual_account:bni',
        'virtual_account:bri',
        'virtual_account:mandiri',
        'virtual_account:permata',
      ],
    );
  });

  it('addPayouts puts copies of the payouts at the head of the list, in the order given', async () => {
    const box = await sandbox({ payouts: [{ id: 'po_old' }] });
    const nested = { n: 1 };
    box.addPayouts([{ id: 'po_new_1', nested }, { id: 'po_new_2' }]);
    nested.n = 99;
    const body = (await call(box, 'GET', '/v1/payouts')).body;
    expect(body.data).toEqual([{ id: 'po_new_1', nested: { n: 1 } }, { id: 'po_new_2' }, { id: 'po_old' }]);
    expect(body.total_items).toBe(3);
  });

  it.each([[[5]], [[null]], [[[{ id: 'po_in_array' }]]], ['po_1']])(
    'addPayouts(%j) throws a TypeError',
    async (payouts) => {
      const box = await sandbox();
      expect(() => box.addPayouts(payouts as never)).toThrow(new TypeError('payouts must be an array of objects'));
      expect((await call(box, 'GET', '/v1/payouts')).body.total_items).toBe(3);
    },
  );

  it('walks 1,050 seeded charges in 11 pages of at most 100 quickly', async () => {
    const box = await sandbox();
    box.seedCharges(1_050);
    const started = Date.now();
    const ids = new Set<string>();
    let pages = 0;
    for (let page = 1; ; page++) {
      const { body } = await call(box, 'GET', `/v1/payments/charges?page=${page}&pagesize=100`);
      expect(body.total_items).toBe(1_050);
      if (body.data.length === 0) break;
      pages++;
      for (const charge of body.data) ids.add(charge.id);
    }
    expect(pages).toBe(11);
    expect(ids.size).toBe(1_050);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('serves page 1 of a 100,000-charge store without scanning it', async () => {
    const box = await sandbox();
    box.seedCharges(100_000);
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      expect((await call(box, 'GET', '/v1/payments/charges?pagesize=1')).body.total_items).toBe(100_000);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
