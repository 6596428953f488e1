/**
 * The factories against the sandbox over real HTTP: a fake charge (qris and
 * virtual_account) and a fake transfer have the fields the sandbox serves,
 * each of the same kind, so a mock built from them stays true to the wire;
 * and a response that is not one names each field that is wrong.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from 'lunas-sdk';
import { fakeCharge, fakeCreatedCharge, fakeTransfer, successEnvelope } from 'lunas-sdk/testing';
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

  it.each(['qris', 'virtual_account'] as const)(
    'a fake created %s charge has the shape of the sandbox’s create response',
    async (method) => {
      const { client } = await start();
      const created = await client.post('/v1/payments/charges', {
        body: {
          payment_method: method,
          amount: 10_000,
          client_reference_id: 'order-1001',
          customer_details: { name: 'Siti Rahayu', email: 'siti@example.com', phone_number: '+6281234567890' },
          items: [{ name: 'Kopi susu', price: 10_000, quantity: 1 }],
        },
      });
      const fake = fakeCreatedCharge({ payment_method: method });
      expect(shape(fake)).toEqual(shape(created));
    },
  );

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

/** A charge request sent as curl would, past the SDK's own checks: the sandbox's answer. */
async function sandboxAnswer(url: string, apiKey: string, body: object): Promise<{ status: number; data: unknown }> {
  const response = await fetch(`${url}/v1/payments/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ payment_method: 'qris', amount: 10_000, ...body }),
  });
  const envelope = (await response.json()) as { data: unknown };
  return { status: response.status, data: envelope.data };
}

describe('the factories are as strict as the sandbox, field by field', () => {
  it.each<[string, object]>([
    ['currency', { currency: 'rupiah' }],
    ['expires_at', { expires_at: 'yesterday' }],
    ['amount', { amount: 0 }],
    ['amount', { amount: '1.234' }],
    ['customer_details.email', { customer_details: { email: 'nope' } }],
    ['description', { description: 'd'.repeat(256) }],
    ['items.0.price', { items: [{ name: 'Teh', price: 0, quantity: 1 }] }],
    ['items.0.quantity', { items: [{ name: 'Teh', price: 1, quantity: 0 }] }],
  ])('%s: what the sandbox refuses in a request, the factory refuses naming the field', async (field, value) => {
    const { sandbox } = await start();
    const answer = await sandboxAnswer(sandbox.url, sandbox.apiKey, value);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.data as object)).toEqual([field]);
    expect(() => fakeCharge(value as never)).toThrow(TypeError);
    expect(() => fakeCharge(value as never)).toThrow(`The ${field} override must be`);
  });

  it('what the sandbox accepts, the factory serves in the same form', async () => {
    const { sandbox } = await start();
    const request = {
      currency: 'IDR',
      expires_at: '2031-11-23T10:00:00+07:00',
      items: [{ name: 'Kopi susu', price: '12500.5', quantity: 2 }],
    };
    const answer = await sandboxAnswer(sandbox.url, sandbox.apiKey, request);
    expect(answer.status).toBe(200);
    const served = answer.data as Record<string, unknown>;
    const fake = fakeCharge(request);
    for (const name of ['currency', 'expires_at', 'items'] as const) expect(fake[name]).toEqual(served[name]);
  });

  it('a transfer status is succeeded or failed, as the sandbox serves it; success (a charge’s) is refused', async () => {
    const { client } = await start();
    const created = await client.transfers.create({
      destination_account_id: 'acc_partner',
      amount: 1,
      currency: 'idr',
    });
    expect(fakeTransfer({ status: created.status }).status).toBe('succeeded');
    expect(() => fakeTransfer({ status: 'success' } as never)).toThrow(/status override must be succeeded or failed/);
  });
});
