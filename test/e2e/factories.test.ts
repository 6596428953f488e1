/**
 * The factories against the sandbox over real HTTP: a fake charge (qris and
 * virtual_account) and a fake transfer have the fields the sandbox serves,
 * each of the same kind, so a mock built from them stays true to the wire;
 * and a response that is not one names each field that is wrong.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from 'lunas-sdk';
import { fakeCharge, fakeTransfer, successEnvelope } from 'lunas-sdk/testing';
import { start } from './helpers.js';

/** Each field's kind, nested objects and array items included: the shape without the values. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as object).map(([name, field]) => [name, shape(field)]));
  }
  return typeof value;
}

describe('factories over HTTP', () => {
  it.each(['qris', 'virtual_account'] as const)('a fake %s charge has the shape of the sandbox’s', async (method) => {
    const { client } = await start();
    const created = await client.charges.create({
      payment_method: method,
      amount: 10_000,
      client_reference_id: 'order-1001',
      customer_details: { name: 'Siti Rahayu', email: 'siti@example.com', phone_number: '+6281234567890' },
      items: [{ name: 'Kopi susu', price: 10_000, quantity: 1 }],
    });
    const served = await client.get(`/v1/payments/charges/${created.id}`);
    expect(shape(fakeCharge({ payment_method: method }))).toEqual(shape(served));
  });

  it('a fake transfer has the shape of the sandbox’s', async () => {
    const { client } = await start();
    await client.transfers.create({ destination_account_id: 'acc_partner', amount: 25_000, currency: 'idr' });
    const [served] = (await client.get('/v1/transfers')) as unknown[];
    expect(shape(fakeTransfer())).toEqual(shape(served));
  });
});

describe('a response mismatch over HTTP names what is wrong', () => {
  it('an absent field is "missing", a field of another kind says what came: from a real socket', async () => {
    const { client, sandbox } = await start();
    const { payment_method: _absent, ...withoutMethod } = fakeCharge({ id: 'ch_mismatch' });
    sandbox.inject({
      kind: 'status',
      status: 200,
      method: 'GET',
      path: '/v1/payments/charges/ch_mismatch',
      body: successEnvelope({ ...withoutMethod, status: 7 }),
    });
    const error = await client.charges.retrieve('ch_mismatch').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: 'data.payment_method', message: 'missing (expected string)' },
      { path: 'data.status', message: 'expected string (got a number)' },
    ]);
  });
});
