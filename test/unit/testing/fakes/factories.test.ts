/**
 * `lunas-sdk/testing`'s factories: what they build passes the SDK's own
 * response checks (through msw, as merchants use them), overrides reach
 * nested objects, and a misspelt or mistyped override throws.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BadRequestError, InternalServerError, NotFoundError } from '../../../../src/index.js';
import {
  errorEnvelope,
  failEnvelope,
  fakeCharge,
  fakeTransfer,
  pageEnvelope,
  successEnvelope,
} from '../../../../src/testing/index.js';
import { BASE_URL } from '../../../helpers/fixtures.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { rejection } from '../../../helpers/rejection.js';

function serveCharge(body: unknown, status = 200): void {
  server.use(http.get(`${BASE_URL}/v1/payments/charges/:id`, () => HttpResponse.json(body as never, { status })));
}

describe('fakeCharge', () => {
  it('a default qris charge passes charges.retrieve, money and fields as the service sends them', async () => {
    const wire = fakeCharge();
    serveCharge(successEnvelope(wire));
    const charge = await makeClient().charges.retrieve(wire.id);
    expect(charge).toEqual(wire);
    expect(wire).toMatchObject({ payment_method: 'qris', status: 'pending', amount: '10000.00', fee: '70.00' });
    expect(wire.id).toMatch(/^ch_[0-9a-f]{24}$/);
    expect(wire.payment_method_options).toBeUndefined();
    expect(Date.parse(wire.expires_at) - Date.parse(wire.created_at)).toBe(15 * 60_000);
  });

  it('a virtual_account charge has its account and fee, and nested overrides merge into the defaults', async () => {
    const wire = fakeCharge({
      payment_method: 'virtual_account',
      status: 'success',
      amount: 2_500_000,
      customer_details: { email: 'budi@example.com' },
      payment_method_options: { virtual_account: { account_number: '8800123456789012' } },
    });
    serveCharge(successEnvelope(wire));
    const charge = await makeClient().charges.retrieve(wire.id);
    expect(charge).toEqual(wire);
    expect(wire.amount).toBe('2500000.00');
    expect(wire.fee).toBe('4000.00');
    expect(wire.paid_at).toBe(wire.created_at);
    expect(wire.customer_details).toEqual({
      name: 'Siti Rahayu',
      email: 'budi@example.com',
      phone_number: '+6281234567890',
    });
    expect(wire.payment_method_options?.virtual_account).toEqual({
      account_name: 'Siti Rahayu',
      account_number: '8800123456789012',
    });
  });

  it('fields may be null where the service sends null, and each call has its own id', () => {
    const wire = fakeCharge({ customer_details: null, client_reference_id: null, id: 'ch_fixed' });
    expect(wire.customer_details).toBeNull();
    expect(wire.client_reference_id).toBeNull();
    expect(wire.id).toBe('ch_fixed');
    expect(fakeCharge().id).not.toBe(fakeCharge().id);
  });

  it.each<[string, unknown, RegExp]>([
    ['a misspelt field', { stauts: 'success' }, /Unknown charge field "stauts": did you mean "status"\?/],
    ['a misspelt nested field', { customer_details: { emial: 'a@b.c' } }, /Unknown customer_details field "emial"/],
    ['an amount that is not money', { amount: '10,000' }, /amount override must be an amount/],
    ['a status that is not a string', { status: 1 }, /status override must be pending, success or failed \(got 1\)/],
    [
      'an unknown payment method',
      { payment_method: 'card' },
      /payment_method override must be qris or virtual_account/,
    ],
    ['a nested value of the wrong kind', { customer_details: { name: 7 } }, /customer_details\.name override/],
    ['overrides that are not an object', 'success', /overrides must be an object/],
  ])('%s throws a TypeError', (_label, overrides, message) => {
    expect(() => fakeCharge(overrides as never)).toThrow(TypeError);
    expect(() => fakeCharge(overrides as never)).toThrow(message);
  });
});

describe('fakeCharge: every override as strict as the sandbox is with a request', () => {
  it.each<[string, object, RegExp]>([
    ['status paid', { status: 'paid' }, /^The status override must be pending, success or failed \(got "paid"\)$/],
    [
      'currency rupiah',
      { currency: 'rupiah' },
      /^The currency override must be a three-letter currency code such as idr \(got "rupiah"\)$/,
    ],
    ['created_at yesterday', { created_at: 'yesterday' }, /^The created_at override must be an ISO 8601 datetime/],
    ['expires_at yesterday', { expires_at: 'yesterday' }, /^The expires_at override must be an ISO 8601 datetime/],
    ['updated_at 30 February', { updated_at: '2026-02-30T00:00:00Z' }, /^The updated_at override must be/],
    ['created_at without a zone', { created_at: '2026-11-23T10:00:00' }, /created_at override .* with a zone/],
    ['a paid_at that is no time', { status: 'success', paid_at: 'now' }, /^The paid_at override must be/],
    ['amount 0', { amount: 0 }, /^The amount override must be an amount greater than 0/],
    ['amount -5', { amount: -5 }, /^The amount override must be an amount greater than 0/],
    ['amount with three decimals', { amount: '1.234' }, /^The amount override must be an amount/],
    ['fee -1', { fee: -1 }, /^The fee override must be an amount of at least 0/],
    ['an empty id', { id: '' }, /^The id override must be a non-empty string/],
    ['a channel of the wrong kind', { channel: 5 }, /^The channel override must be a string or null \(got 5\)$/],
    ['client_reference_id of 51', { client_reference_id: 'r'.repeat(51) }, /client_reference_id .* at most 50/],
    ['description of 256', { description: 'd'.repeat(256) }, /^The description override .* at most 255 characters/],
    ['an invalid email', { customer_details: { email: 'nope' } }, /^The customer_details\.email override must be/],
    ['items not an array', { items: 'tea' }, /^The items override must be an array/],
    ['an item that is no object', { items: [null] }, /^The items\.0 override must be an object/],
    [
      'a misspelt item field',
      { items: [{ name: 'Teh', pric: 1 }] },
      /Unknown items\.0 field "pric": did you mean "price"\?/,
    ],
    ['an item price of 0', { items: [{ name: 'Teh', price: 0, quantity: 1 }] }, /^The items\.0\.price override/],
    [
      'an item quantity of 1.5',
      { items: [{ name: 'Teh', price: 1, quantity: 1.5 }] },
      /^The items\.0\.quantity override must be an integer of at least 1 \(got 1\.5\)$/,
    ],
    ['an item without a name', { items: [{ name: '', price: 1, quantity: 1 }] }, /^The items\.0\.name override/],
    ['a paid_at on a pending charge', { paid_at: '2026-11-23T03:00:00Z' }, /paid_at override must be null .* pending/],
    [
      'a paid charge without paid_at',
      { status: 'success', paid_at: null },
      /paid_at override must be a time .* success/,
    ],
    ['a payment_url that is no URL', { payment_url: 'pay here' }, /^The payment_url override must be an absolute URL/],
    [
      'an account number of the wrong kind',
      { payment_method: 'virtual_account', payment_method_options: { virtual_account: { account_number: 8800 } } },
      /^The payment_method_options\.virtual_account\.account_number override must be a non-empty string/,
    ],
  ])('%s throws a TypeError naming the field and what it takes', (_label, overrides, message) => {
    expect(() => fakeCharge(overrides as never)).toThrow(TypeError);
    expect(() => fakeCharge(overrides as never)).toThrow(message);
  });

  it('what the sandbox accepts is served as the sandbox serves it', () => {
    const wire = fakeCharge({
      currency: 'IDR',
      created_at: '2026-11-23T10:00:00+07:00',
      expires_at: '2026-11-23T03:15:00Z',
      fee: 0,
      items: [
        { name: 'Kopi susu', price: 12_500, quantity: 2 },
        { name: 'Roti', price: '5000.5', quantity: 1 },
      ],
    });
    expect(wire).toMatchObject({
      currency: 'idr',
      created_at: '2026-11-23T03:00:00.000Z',
      updated_at: '2026-11-23T03:00:00.000Z',
      expires_at: '2026-11-23T03:15:00.000Z',
      fee: '0.00',
      items: [
        { name: 'Kopi susu', price: '12500.00', quantity: 2 },
        { name: 'Roti', price: '5000.50', quantity: 1 },
      ],
    });
    const paid = fakeCharge({ status: 'success', paid_at: '2026-11-23T03:05:00.5Z' });
    expect(paid.paid_at).toBe('2026-11-23T03:05:00.500Z');
    expect(fakeCharge({ status: 'failed' }).paid_at).toBeNull();
  });
});

describe('fakeTransfer: every override as strict as the sandbox is with a request', () => {
  it.each<[string, object, RegExp]>([
    [
      'status success (a charge’s word)',
      { status: 'success' },
      /^The status override must be succeeded or failed \(got "success"\); pending and success are a charge's/,
    ],
    ['currency usd', { currency: 'usd' }, /^The currency override must be idr, the only currency transfers support/],
    ['amount 0', { amount: 0 }, /^The amount override must be an amount greater than 0/],
    ['created_at yesterday', { created_at: 'yesterday' }, /^The created_at override must be an ISO 8601 datetime/],
    [
      'an empty destination',
      { destination_account_id: '' },
      /^The destination_account_id override must be a non-empty/,
    ],
    ['description of 256', { description: 'd'.repeat(256) }, /^The description override .* at most 255 characters/],
  ])('%s throws a TypeError naming the field and what it takes', (_label, overrides, message) => {
    expect(() => fakeTransfer(overrides as never)).toThrow(TypeError);
    expect(() => fakeTransfer(overrides as never)).toThrow(message);
  });

  it('currency IDR is served as idr, a time with an offset in UTC', () => {
    expect(fakeTransfer({ currency: 'IDR', created_at: '2026-11-23T10:00:00+07:00' })).toMatchObject({
      currency: 'idr',
      status: 'succeeded',
      created_at: '2026-11-23T03:00:00.000Z',
    });
    expect(fakeTransfer({ status: 'failed' }).status).toBe('failed');
  });
});

describe('fakeTransfer and pageEnvelope', () => {
  it('a page of fake transfers passes transfers.list, newest first', async () => {
    const transfers = [
      fakeTransfer({ created_at: '2026-11-23T10:00:00.000Z' }),
      fakeTransfer({ amount: '150000.5', created_at: '2026-11-23T09:00:00.000Z' }),
    ];
    server.use(
      http.get(`${BASE_URL}/v1/transfers`, () => HttpResponse.json(pageEnvelope(transfers, { page_size: 10 }))),
    );
    const page = await makeClient().transfers.list({ pagesize: 10 });
    expect(page.data).toEqual(transfers);
    expect(transfers[1]!.amount).toBe('150000.50');
    expect([page.page, page.page_size, page.total_items]).toEqual([1, 10, 2]);
    expect(() => fakeTransfer({ destination: 'acc_x' } as never)).toThrow(/Unknown transfer field "destination"/);
  });
});

describe('fail and error envelopes', () => {
  it('a fail envelope with fields is a BadRequestError with those fields; with a message, a NotFoundError', async () => {
    serveCharge(failEnvelope({ amount: 'Amount must be greater than 0', currency: ['a', 'b'] }), 400);
    const bad = await rejection(makeClient().charges.retrieve('ch_1'), BadRequestError);
    expect(bad.fields).toEqual({ amount: ['Amount must be greater than 0'], currency: ['a', 'b'] });
    serveCharge(failEnvelope('Charge not found'), 404);
    const missing = await rejection(makeClient().charges.retrieve('ch_1'), NotFoundError);
    expect(missing.message).toContain('Charge not found');
  });

  it('an error envelope is an InternalServerError carrying its message', async () => {
    serveCharge(errorEnvelope('Database unavailable'), 500);
    const error = await rejection(makeClient({ maxRetries: 0 }).charges.retrieve('ch_1'), InternalServerError);
    expect(error.message).toContain('Database unavailable');
  });

  it('envelopes refuse what the service never sends', () => {
    expect(() => failEnvelope({ amount: 5 } as never)).toThrow(TypeError);
    expect(() => errorEnvelope(undefined as never)).toThrow(TypeError);
    expect(() => pageEnvelope([], { page: 1.5 })).toThrow(TypeError);
    expect(failEnvelope(JSON.parse('{"__proto__":"x"}')).data).toEqual(JSON.parse('{"__proto__":["x"]}'));
  });
});
