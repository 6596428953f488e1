import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AuthenticationError,
  Client,
  getResponseInfo,
  LunasError,
  NotFoundError,
  RequestValidationError,
  type Charge,
  type ChargeCreateParams,
} from 'lunas-sdk';
import { start } from './helpers.js';
import { ISO_UTC, REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

describe('charges.create', () => {
  it('creates a qris charge from a number amount, with payment_url and qr_code_url', async () => {
    const { sandbox, client, requestIds } = await start();
    const charge = await client.charges.create({
      payment_method: 'qris',
      amount: 25_000,
      client_reference_id: 'order-1001',
      customer_details: { name: 'Siti Rahma', email: 'siti@example.com' },
      items: [{ name: 'Tea', price: 12_500, quantity: 2 }],
      description: 'Two teas',
    });

    expect(charge).toMatchObject({
      payment_method: 'qris',
      status: 'pending',
      currency: 'idr',
      amount: '25000.00',
      fee: '175.00',
      client_reference_id: 'order-1001',
      customer_details: { name: 'Siti Rahma', email: 'siti@example.com' },
      items: [{ name: 'Tea', price: '12500.00', quantity: 2 }],
      description: 'Two teas',
      paid_at: null,
    });
    expect(charge.id).toMatch(/^ch_/);
    expect(charge.created_at).toMatch(ISO_UTC);
    expect(charge.expires_at).toMatch(ISO_UTC);
    expect(new URL(charge.payment_url).origin).toBe(sandbox.url);
    expect(charge.qr_code_url).toEqual(expect.any(String));
    expect(new URL(charge.qr_code_url ?? '').origin).toBe(sandbox.url);

    // One request, carrying a generated UUID v4 Idempotency-Key, reported by getResponseInfo.
    const info = getResponseInfo(charge);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path: '/v1/payments/charges', authorized: true });
    expect(info?.idempotencyKey).toMatch(UUID_V4);
    expect(sandbox.requests[0]?.idempotencyKey).toBe(info?.idempotencyKey);
    expect(info?.status).toBe(200);
    expect(info?.attempts).toBe(1);
    expect(info?.requestId).toMatch(REQUEST_ID);
    expect(info?.requestId).toBe(requestIds[0]);
  });

  it('creates a virtual_account charge from a string amount: payment_url, no qr_code_url, customer name on the account', async () => {
    const { client } = await start();
    const charge = await client.charges.create({
      payment_method: 'virtual_account',
      channel: 'mandiri',
      amount: '150000.5',
      customer_details: { name: 'Budi Santoso' },
    });

    expect(charge).toMatchObject({
      payment_method: 'virtual_account',
      channel: 'mandiri',
      status: 'pending',
      amount: '150000.50',
      paid_at: null,
    });
    expect(charge.payment_url).toEqual(expect.any(String));
    expect(charge).not.toHaveProperty('qr_code_url');
    expect(charge.payment_method_options?.virtual_account?.account_name).toBe('Budi Santoso');
    expect(charge.payment_method_options?.virtual_account?.account_number).toMatch(/^\d{16}$/);
  });

  it("gives the virtual account's number a buyer needs in the create response, typed: no `in`, no cast", async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 150_000 });

    const accountNumber = charge.payment_method_options?.virtual_account?.account_number;
    expectTypeOf(accountNumber).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(charge.payment_method_options?.qris).toBeUnknown();
    // The number the sandbox keeps for the charge (its payment page shows it), not just any string.
    const [stored] = sandbox.charges();
    expect(stored?.payment_method_options?.virtual_account.account_number).toMatch(/^\d{16}$/);
    expect(accountNumber).toBe(stored?.payment_method_options?.virtual_account.account_number);

    // A qris charge has none: the field stays optional, and the response parses without it.
    const qris = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    expect(qris).not.toHaveProperty('payment_method_options');
    expect(qris.payment_method_options?.virtual_account?.account_number).toBeUndefined();
  });

  it('uses an explicit account name and number, and a default name without a customer', async () => {
    const { client } = await start();
    const named = await client.charges.create({
      payment_method: 'virtual_account',
      amount: 50_000,
      customer_details: { name: 'Budi Santoso' },
      payment_method_options: { virtual_account: { account_name: 'Toko Budi', account_number: '8808123456789012' } },
    });
    expect(named.payment_method_options?.virtual_account).toEqual({
      account_name: 'Toko Budi',
      account_number: '8808123456789012',
    });

    const anonymous = await client.charges.create({ payment_method: 'virtual_account', amount: 50_000 });
    const name = anonymous.payment_method_options?.virtual_account?.account_name;
    expect(name).toEqual(expect.any(String));
    expect(name).not.toBe('');
  });

  it('keeps a field the types of a retrieved charge do not list (payment_method_options), read with `in` as the Charges guide shows', async () => {
    const { client } = await start();
    const created = await client.charges.create({
      payment_method: 'virtual_account',
      amount: 50_000,
      payment_method_options: { virtual_account: { account_name: 'Toko Budi' } },
    });
    const charge = await client.charges.retrieve(created.id);
    expectTypeOf<Charge>().not.toHaveProperty('payment_method_options');
    const options = 'payment_method_options' in charge ? charge.payment_method_options : undefined;
    expect(options).toMatchObject({ virtual_account: { account_name: 'Toko Budi' } });
  });

  it('normalises money whether sent as a number or a string, and sends it as a JSON number', async () => {
    const { client } = await start();
    const cases: [ChargeCreateParams['amount'], string][] = [
      [10_000, '10000.00'],
      [10_000.5, '10000.50'],
      ['10000', '10000.00'],
      ['0.01', '0.01'],
      ['99999999.99', '99999999.99'],
    ];
    for (const [amount, expected] of cases) {
      const charge = await client.charges.create({ payment_method: 'qris', amount });
      expect(charge.amount, String(amount)).toBe(expected);
    }
  });

  it('sends expires_at given as a Date as ISO 8601 UTC', async () => {
    const { client } = await start();
    const expiresAt = new Date(Date.now() + 2 * 60 * 60_000);
    expiresAt.setUTCMilliseconds(250);
    const fromDate = await client.charges.create({ payment_method: 'qris', amount: 1_000, expires_at: expiresAt });
    expect(fromDate.expires_at).toBe(expiresAt.toISOString());

    const fromOffset = await client.charges.create({
      payment_method: 'qris',
      amount: 1_000,
      expires_at: '2099-06-01T17:00:00+07:00',
    });
    expect(fromOffset.expires_at).toBe('2099-06-01T10:00:00.000Z');
  });

  it('sends the caller’s idempotencyKey', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create(
      { payment_method: 'qris', amount: 5_000 },
      { idempotencyKey: 'order-77' },
    );
    expect(sandbox.requests.map((request) => request.idempotencyKey)).toEqual(['order-77']);
    expect(getResponseInfo(charge)?.idempotencyKey).toBe('order-77');
  });
});

describe('charges.retrieve', () => {
  it('returns the stored charge without payment_url or qr_code_url', async () => {
    const { sandbox, client, requestIds } = await start();
    const created = await client.charges.create({ payment_method: 'qris', amount: 10_000, client_reference_id: 'r-1' });
    const charge = await client.charges.retrieve(created.id);

    const { payment_url: _url, qr_code_url: _qr, ...stored } = created;
    expect(charge).toEqual(stored);
    expect(charge).not.toHaveProperty('payment_url');
    expect(charge).not.toHaveProperty('qr_code_url');
    expect(sandbox.requests[1]).toMatchObject({ method: 'GET', path: `/v1/payments/charges/${created.id}` });
    expect(sandbox.requests[1]?.idempotencyKey).toBeUndefined();
    const info = getResponseInfo(charge);
    expect(info?.requestId).toBe(requestIds[1]);
    expect(info?.idempotencyKey).toBeUndefined();
  });

  it('throws NotFoundError for an unknown id, without retrying', async () => {
    const { sandbox, client, requestIds } = await start();
    const error = await rejection(client.charges.retrieve('ch_000000000000000000000000'), NotFoundError);
    expect(error.status).toBe(404);
    expect(error.message).toContain('Charge not found');
    expect(error.body).toEqual({ status: 'fail', data: { message: 'Charge not found' } });
    expect(error.requestId).toMatch(REQUEST_ID);
    expect(error.requestId).toBe(requestIds[0]);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('percent-encodes the id so it stays one path segment', async () => {
    const { sandbox, client } = await start();
    await rejection(client.charges.retrieve('../x'), NotFoundError);
    await rejection(client.charges.retrieve('a/b?c#d'), NotFoundError);
    expect(sandbox.requests.map((request) => request.path)).toEqual([
      '/v1/payments/charges/..%2Fx',
      '/v1/payments/charges/a%2Fb%3Fc%23d',
    ]);
  });

  it.each(['', '.', '..'])('refuses the id %j before sending', async (id) => {
    const { sandbox, client } = await start();
    const error = await rejection(client.charges.retrieve(id), RequestValidationError);
    expect(Object.keys(error.fields)).toEqual(['id']);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('charges.list', () => {
  it('returns a page newest first with the list envelope’s fields', async () => {
    const { sandbox, client, requestIds } = await start();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await client.charges.create({ payment_method: 'qris', amount: 1_000 + i })).id);

    const page = await client.charges.list();
    expect(page.data.map((charge) => charge.id)).toEqual([...ids].reverse());
    expect(page.data.map((charge) => charge.amount)).toEqual(['1002.00', '1001.00', '1000.00']);
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(10);
    expect(page.total_items).toBe(3);
    expect(page.hasNextPage()).toBe(false);
    expect(page.data[0]).not.toHaveProperty('payment_url');
    expect(getResponseInfo(page)?.requestId).toBe(requestIds[3]);

    const second = await client.charges.list({ page: 2, pagesize: 2 });
    expect(second.data.map((charge) => charge.id)).toEqual([ids[0]]);
    expect(second.page).toBe(2);
    expect(second.page_size).toBe(2);
    expect(sandbox.requests.at(-1)?.query).toEqual({ page: '2', pagesize: '2' });
  });

  it('returns an empty page when there are no charges', async () => {
    const { client } = await start();
    const page = await client.charges.list({ pagesize: 5 });
    expect(page.data).toEqual([]);
    expect(page.total_items).toBe(0);
    expect(page.hasNextPage()).toBe(false);
    await expect(page.getNextPage()).rejects.toBeInstanceOf(LunasError);
  });
});

describe('authentication', () => {
  it('throws AuthenticationError for a wrong key, without retrying and without echoing the key', async () => {
    const { sandbox } = await start();
    const client = new Client({ apiKey: 'sk_test_wrong_key_123', baseURL: sandbox.url, logLevel: 'off' });
    const error = await rejection(
      client.charges.create({ payment_method: 'qris', amount: 1_000 }),
      AuthenticationError,
    );
    expect(error.status).toBe(401);
    expect(error.body).toEqual({ status: 'error', message: 'Invalid or missing API key' });
    expect(error.message).not.toContain('sk_test_wrong_key_123');
    expect(JSON.stringify(error)).not.toContain('sk_test_wrong_key_123');
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]?.authorized).toBe(false);

    await rejection(client.charges.list(), AuthenticationError);
    await rejection(client.transfers.list(), AuthenticationError);
    await rejection(client.payouts.list(), AuthenticationError);
    await rejection(client.paymentMethods.list(), AuthenticationError);
    await rejection(client.charges.retrieve('ch_x'), AuthenticationError);
    await rejection(
      client.transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' }),
      AuthenticationError,
    );
    expect(sandbox.requests).toHaveLength(7);
    expect(sandbox.requests.every((request) => !request.authorized)).toBe(true);
    expect(sandbox.balance('acc_partner')).toBe('0.00');
  });
});

describe('request validation sends nothing', () => {
  // The SDK's messages (with hints); the sandbox's own checks have their table in test/sandbox/charges.test.ts.
  const cases: [string, ChargeCreateParams, string, string][] = [
    ['amount 0', { payment_method: 'qris', amount: 0 }, 'amount', 'Amount must be greater than 0'],
    ['a negative amount', { payment_method: 'qris', amount: -5 }, 'amount', 'Amount must be greater than 0'],
    ['a string amount of 0', { payment_method: 'qris', amount: '0.00' }, 'amount', 'Amount must be greater than 0'],
    [
      'three decimals',
      { payment_method: 'qris', amount: 1.234 },
      'amount',
      'Amount must be a number with at most two decimal places (got 1.234; round it to cents, e.g. Math.round(amount * 100) / 100)',
    ],
    [
      'a non-decimal string',
      { payment_method: 'qris', amount: '12abc' },
      'amount',
      'Amount must be a number with at most two decimal places (got "12abc"; write digits with an optional dot and two decimals, e.g. 10000 or "10000.00")',
    ],
    [
      'an infinite amount',
      { payment_method: 'qris', amount: Number.POSITIVE_INFINITY },
      'amount',
      'Amount must be a number with at most two decimal places (got Infinity)',
    ],
    [
      'no payment method',
      { amount: 1_000 } as unknown as ChargeCreateParams,
      'payment_method',
      'Payment method is required',
    ],
    [
      'an unknown payment method',
      { payment_method: 'card', amount: 1_000 } as unknown as ChargeCreateParams,
      'payment_method',
      'Payment method must be qris or virtual_account (got "card")',
    ],
    [
      'a bad email',
      { payment_method: 'qris', amount: 1_000, customer_details: { email: 'not-an-email' } },
      'customer_details.email',
      'Invalid email format',
    ],
    [
      'a 51-character reference',
      { payment_method: 'qris', amount: 1_000, client_reference_id: 'r'.repeat(51) },
      'client_reference_id',
      'Client reference ID must be at most 50 characters (got 51); shorten it',
    ],
    [
      'a 256-character description',
      { payment_method: 'qris', amount: 1_000, description: 'd'.repeat(256) },
      'description',
      'Description must be at most 255 characters (got 256); shorten it',
    ],
    [
      'an item price of 0',
      { payment_method: 'qris', amount: 1_000, items: [{ name: 'Tea', price: 0, quantity: 1 }] },
      'items.0.price',
      'Price must be greater than 0',
    ],
  ];

  it.each(cases)('charges.create with %s', async (_name, params, field, message) => {
    const { sandbox, client } = await start();
    const error = await rejection(client.charges.create(params), RequestValidationError);
    expect(error.fields[field]).toContain(message);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('collects every bad field at once', async () => {
    const { sandbox, client } = await start();
    const error = await rejection(
      client.charges.create({
        amount: 0,
        customer_details: { email: 'x' },
      } as unknown as ChargeCreateParams),
      RequestValidationError,
    );
    expect(error.fields).toMatchObject({
      payment_method: ['Payment method is required'],
      amount: ['Amount must be greater than 0'],
      'customer_details.email': ['Invalid email format'],
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses bad request options before sending', async () => {
    const { sandbox, client } = await start();
    const params = { payment_method: 'qris', amount: 1_000 } as const;
    await rejection(client.charges.create(params, { idempotencyKey: 'has space' }), RequestValidationError);
    await rejection(client.charges.create(params, { timeout: -1 }), RequestValidationError);
    await rejection(client.charges.create(params, { maxRetries: 1.5 }), RequestValidationError);
    await rejection(client.charges.create(params, { headers: { 'x-evil': 'a\r\nb' } }), RequestValidationError);
    expect(sandbox.requests).toHaveLength(0);
  });
});
