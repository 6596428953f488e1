/**
 * `lunas-sdk/testing`'s factories: what they build passes the SDK's own
 * response checks (through msw, as merchants use them), overrides reach
 * nested objects, and a misspelt or mistyped override throws.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BadRequestError, InternalServerError, NotFoundError } from '../../src/index.js';
import {
  errorEnvelope,
  failEnvelope,
  fakeCharge,
  fakeTransfer,
  pageEnvelope,
  successEnvelope,
} from '../../src/testing/index.js';
import { BASE_URL } from '../helpers/fixtures.js';
import { makeClient, server } from '../helpers/msw.js';
import { rejection } from '../helpers/rejection.js';

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
    ['a status that is not a string', { status: 1 }, /status override must be a string/],
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
