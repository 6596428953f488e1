import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { LunasError, Page, RequestValidationError, ResponseValidationError } from '../../../src/index.js';
import { makeClient, server } from '../../helpers/msw.js';
import { ISO_UTC } from '../../helpers/formats.js';
import { API_KEY, BASE_URL, chargeJson, success } from '../../helpers/fixtures.js';
import { capture, countRequests } from '../../helpers/requests.js';
import { successResponse, wireClient } from '../../helpers/wire.js';

const CHARGES = `${BASE_URL}/v1/payments/charges`;

/** Responds with the raw text, as JSON. */
function rawResponse(text: string) {
  return new HttpResponse(text, { status: 200, headers: { 'content-type': 'application/json' } });
}

describe('charges.create', () => {
  it('POSTs /v1/payments/charges with the JSON body in wire form and resolves to the unwrapped data', async () => {
    const created = chargeJson({
      payment_url: 'https://pay.lunas.test/ch_123',
      qr_code_url: 'https://pay.lunas.test/ch_123/qr.png',
    });
    const seen = capture(success(created));
    const charge = await makeClient().charges.create({ payment_method: 'qris', amount: 10000 });

    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe('POST');
    expect(request!.url.pathname).toBe('/v1/payments/charges');
    expect(request!.url.search).toBe('');
    expect(request!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(request!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(request!.body)).toEqual({ payment_method: 'qris', amount: 10000 });

    expect(charge).toEqual(created);
    expect(charge).not.toHaveProperty('data');
    expect(charge.payment_url).toBe('https://pay.lunas.test/ch_123');
    expect(charge.qr_code_url).toBe('https://pay.lunas.test/ch_123/qr.png');
  });

  it('sends every field transformed to the wire form', async () => {
    const seen = capture(
      success(chargeJson({ payment_url: 'https://pay.lunas.test/x', payment_method: 'virtual_account' })),
    );
    await makeClient().charges.create({
      payment_method: 'virtual_account',
      channel: 'mandiri',
      amount: '10000.50',
      currency: 'IDR',
      customer_details: { name: 'Siti', email: 'siti@example.com', phone_number: '+628123' },
      client_reference_id: 'order-1',
      expires_at: new Date(Date.UTC(2026, 10, 23, 4, 0, 0)),
      items: [
        { name: 'Tea', price: '5000.25', quantity: 2 },
        { name: 'Cake', price: 0.5, quantity: 1 },
      ],
      description: 'Two teas and a cake',
      payment_method_options: { virtual_account: { account_name: 'Siti', account_number: null } },
    });
    const body = JSON.parse(seen[0]!.body);
    expect(body).toEqual({
      payment_method: 'virtual_account',
      channel: 'mandiri',
      amount: 10000.5,
      currency: 'idr',
      customer_details: { name: 'Siti', email: 'siti@example.com', phone_number: '+628123' },
      client_reference_id: 'order-1',
      expires_at: expect.stringMatching(ISO_UTC),
      items: [
        { name: 'Tea', price: 5000.25, quantity: 2 },
        { name: 'Cake', price: 0.5, quantity: 1 },
      ],
      description: 'Two teas and a cake',
      payment_method_options: { virtual_account: { account_name: 'Siti', account_number: null } },
    });
    expect(Date.parse(body.expires_at)).toBe(Date.UTC(2026, 10, 23, 4, 0, 0));
    // Money is a JSON number on the wire, not a string.
    expect(seen[0]!.body).toContain('"amount":10000.5');
    expect(seen[0]!.body).toContain('"price":5000.25');
  });

  it('sends an expires_at string with an offset as ISO 8601 UTC', async () => {
    const seen = capture(success(chargeJson({ payment_url: 'https://pay.lunas.test/x' })));
    await makeClient().charges.create({ payment_method: 'qris', amount: 1, expires_at: '2026-11-23T10:00:00+07:00' });
    const { expires_at } = JSON.parse(seen[0]!.body);
    expect(expires_at).toMatch(ISO_UTC);
    expect(Date.parse(expires_at)).toBe(Date.UTC(2026, 10, 23, 3, 0, 0));
  });

  it('passes payment_method_options.virtual_account through unchanged', async () => {
    const seen = capture(
      success(chargeJson({ payment_url: 'https://pay.lunas.test/x', payment_method: 'virtual_account' })),
    );
    await makeClient().charges.create({
      payment_method: 'virtual_account',
      amount: 25000,
      payment_method_options: { virtual_account: { account_name: 'Toko Siti', account_number: '8808123456' } },
    });
    expect(JSON.parse(seen[0]!.body).payment_method_options).toEqual({
      virtual_account: { account_name: 'Toko Siti', account_number: '8808123456' },
    });
  });

  it('does not change the caller params object', async () => {
    capture(success(chargeJson({ payment_url: 'https://pay.lunas.test/x' })));
    const expires = new Date(Date.UTC(2026, 10, 23, 4));
    const params = { payment_method: 'qris' as const, amount: '10000.50', currency: 'IDR', expires_at: expires };
    await makeClient().charges.create(params);
    expect(params).toEqual({ payment_method: 'qris', amount: '10000.50', currency: 'IDR', expires_at: expires });
    expect(params.expires_at.getTime()).toBe(Date.UTC(2026, 10, 23, 4));
  });

  it('returns payment_url and qr_code_url for qris, and accepts a virtual_account charge without qr_code_url', async () => {
    capture(success(chargeJson({ payment_method: 'virtual_account', payment_url: 'https://pay.lunas.test/va' })));
    const va = await makeClient().charges.create({ payment_method: 'virtual_account', amount: 1 });
    expect(va.payment_url).toBe('https://pay.lunas.test/va');
    expect(va.qr_code_url).toBeUndefined();
    expect(va.payment_method).toBe('virtual_account');
  });

  it("reads the virtual account's number from payment_method_options, typed, and parses a response without it", async () => {
    const account = { account_name: 'Toko Siti', account_number: '8808123456789012' };
    capture(
      success(
        chargeJson({
          payment_method: 'virtual_account',
          payment_url: 'https://pay.lunas.test/va',
          payment_method_options: { virtual_account: account },
        }),
      ),
    );
    const va = await makeClient().charges.create({ payment_method: 'virtual_account', amount: 25000 });
    expect(va.payment_method_options?.virtual_account?.account_number).toBe('8808123456789012');
    expect(va.payment_method_options).toEqual({ virtual_account: account });

    // Nothing in the spec promises the field in a response: absent, null or partial, it still parses.
    const answers: [string, Record<string, unknown>][] = [
      ['absent', {}],
      ['null', { payment_method_options: null }],
      ['virtual_account null', { payment_method_options: { virtual_account: null } }],
      ['account_number null', { payment_method_options: { virtual_account: { account_number: null } } }],
      ['an empty object', { payment_method_options: {} }],
    ];
    for (const [what, overrides] of answers) {
      capture(success(chargeJson({ payment_url: 'https://pay.lunas.test/x', ...overrides })));
      const charge = await makeClient().charges.create({ payment_method: 'virtual_account', amount: 1 });
      expect(charge.payment_method_options, what).toEqual(overrides.payment_method_options);
    }
  });

  it("keeps a qris charge's undocumented options and any method's extra fields as they came", async () => {
    const options = {
      qris: { merchant_name: 'Toko Siti', tip: [1, 2] },
      virtual_account: { account_number: '8808', bank_code: '008' },
      ewallet: { phone: '+628123' },
    };
    capture(success(chargeJson({ payment_url: 'https://pay.lunas.test/x', payment_method_options: options })));
    const charge = await makeClient().charges.create({ payment_method: 'qris', amount: 1 });
    expect(charge.payment_method_options).toEqual(options);
  });

  it('refuses a create response whose account_number is not a string, naming the field', async () => {
    capture(
      success(
        chargeJson({
          payment_url: 'https://pay.lunas.test/x',
          payment_method_options: { virtual_account: { account_number: 8808123456789012 } },
        }),
      ),
    );
    const error = await makeClient()
      .charges.create({ payment_method: 'virtual_account', amount: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.payment_method_options.virtual_account.account_number');
  });

  it('normalises money in the create response', async () => {
    capture(success(chargeJson({ amount: 10000.5, fee: 70, payment_url: 'https://pay.lunas.test/x' })));
    const charge = await makeClient().charges.create({ payment_method: 'qris', amount: '10000.50' });
    expect(charge.amount).toBe('10000.50');
    expect(charge.fee).toBe('70.00');
  });

  it('refuses a create response without payment_url', async () => {
    capture(success(chargeJson()));
    const error = await makeClient()
      .charges.create({ payment_method: 'qris', amount: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.payment_url');
  });
});

describe('charges.retrieve', () => {
  it('GETs /v1/payments/charges/{id} without a body and resolves to the unwrapped charge', async () => {
    const seen = capture(success(chargeJson({ id: 'ch_abc' })));
    const charge = await makeClient().charges.retrieve('ch_abc');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url.pathname).toBe('/v1/payments/charges/ch_abc');
    expect(seen[0]!.url.search).toBe('');
    expect(seen[0]!.body).toBe('');
    expect(charge).toEqual(chargeJson({ id: 'ch_abc' }));
  });

  it.each([
    ['../x', '/v1/payments/charges/..%2Fx'],
    ['a/b', '/v1/payments/charges/a%2Fb'],
    ['a?b=1', '/v1/payments/charges/a%3Fb%3D1'],
    ['a#b', '/v1/payments/charges/a%23b'],
    ['%2F', '/v1/payments/charges/%252F'],
    ['%2E%2E', '/v1/payments/charges/%252E%252E'],
    ['a b', '/v1/payments/charges/a%20b'],
    ['../../v1/transfers', '/v1/payments/charges/..%2F..%2Fv1%2Ftransfers'],
    ['...', '/v1/payments/charges/...'],
    ['ch_ü', '/v1/payments/charges/ch_%C3%BC'],
  ])('percent-encodes the id %j into one path segment', async (id, pathname) => {
    const seen = capture(success(chargeJson({ id })));
    const charge = await makeClient().charges.retrieve(id);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.pathname).toBe(pathname);
    expect(seen[0]!.url.search).toBe('');
    expect(seen[0]!.url.hash).toBe('');
    expect(charge.id).toBe(id);
  });

  it.each(['', '.', '..'])('refuses the id %j before sending', async (id) => {
    const counter = countRequests();
    const error = await makeClient()
      .charges.retrieve(id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys((error as RequestValidationError).fields)).toEqual(['id']);
    expect(counter.count()).toBe(0);
  });

  it('refuses a non-string id before sending', async () => {
    const counter = countRequests();
    const error = await makeClient()
      .charges.retrieve(42 as unknown as string)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(counter.count()).toBe(0);
  });
});

describe('a polluted Object.prototype', () => {
  // A custom fetch, not msw, and only `query`: msw and fetch read inherited members themselves.
  it('is never read as what a resource method sends', async () => {
    const wire = wireClient(() => successResponse(chargeJson({ id: 'ch_abc' })));
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.query = 'none';
    try {
      expect((await wire.client.charges.retrieve('ch_abc')).id).toBe('ch_abc');
    } finally {
      delete polluted.query;
    }
    expect(wire.sent[0]!.url.search).toBe('');
  });

  it('is never read as the page a call asked for: a retrieve or a raw call is no list', async () => {
    const wire = wireClient(() => successResponse(chargeJson({ id: 'ch_abc' })));
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.page = 1;
    try {
      expect((await wire.client.charges.retrieve('ch_abc')).id).toBe('ch_abc');
      expect(await wire.client.post('/v1/payments/charges', { body: {} })).toMatchObject({ id: 'ch_abc' });
      expect(await wire.client.get('/v1/payments/charges/ch_abc')).toMatchObject({ id: 'ch_abc' });
    } finally {
      delete polluted.page;
    }
  });
});

describe('charges.list', () => {
  it('GETs /v1/payments/charges with page and pagesize and resolves to a Page of charges', async () => {
    const items = [chargeJson({ id: 'ch_2' }), chargeJson({ id: 'ch_1', amount: 5 })];
    const seen = capture({ status: 'success', data: items, page: 2, page_size: 2, total_items: 9 });
    const page = await makeClient().charges.list({ page: 2, pagesize: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url.pathname).toBe('/v1/payments/charges');
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ page: '2', pagesize: '2' });
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([chargeJson({ id: 'ch_2' }), chargeJson({ id: 'ch_1', amount: '5.00' })]);
    expect(page.page).toBe(2);
    expect(page.page_size).toBe(2);
    expect(page.total_items).toBe(9);
  });

  it('without params asks for the first page and sends no invalid paging values', async () => {
    const seen = capture({ status: 'success', data: [], page: 1, page_size: 10, total_items: 0 });
    const page = await makeClient().charges.list();
    expect(seen[0]!.url.pathname).toBe('/v1/payments/charges');
    expect([null, '1']).toContain(seen[0]!.url.searchParams.get('page'));
    expect([...seen[0]!.url.searchParams.keys()].every((key) => key === 'page' || key === 'pagesize')).toBe(true);
    expect(page.data).toEqual([]);
  });

  it('refuses a list item with a bad amount, naming its path', async () => {
    const text = JSON.stringify({
      status: 'success',
      data: [chargeJson({ id: 'ch_ok' }), chargeJson({ id: 'ch_bad', amount: '1.001' })],
      page: 1,
      page_size: 10,
      total_items: 2,
    });
    server.use(http.get(CHARGES, () => rawResponse(text)));
    const error = await makeClient()
      .charges.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.1.amount');
    expect((error as ResponseValidationError).body).toBe(text);
  });
});

describe('charge responses', () => {
  async function retrieveWith(data: unknown) {
    server.use(http.get(`${CHARGES}/:id`, () => HttpResponse.json({ status: 'success', data })));
    return makeClient().charges.retrieve('ch_123');
  }

  async function retrieveRaw(text: string): Promise<unknown> {
    server.use(http.get(`${CHARGES}/:id`, () => rawResponse(text)));
    return makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e);
  }

  it('keeps unknown fields at every level: top, customer_details, items[], envelope data', async () => {
    const charge = await retrieveWith(
      chargeJson({
        risk_score: 0.2,
        metadata: { order: { id: 7 } },
        customer_details: { name: 'Siti', email: 'siti@example.com', phone_number: '+62', loyalty_tier: 'gold' },
        items: [{ name: 'Tea', price: '5000.00', quantity: 2, sku: 'TEA-1', tags: ['hot'] }],
      }),
    );
    expect(charge).toMatchObject({ risk_score: 0.2, metadata: { order: { id: 7 } } });
    expect(charge.customer_details).toEqual({
      name: 'Siti',
      email: 'siti@example.com',
      phone_number: '+62',
      loyalty_tier: 'gold',
    });
    expect(charge.items).toEqual([{ name: 'Tea', price: '5000.00', quantity: 2, sku: 'TEA-1', tags: ['hot'] }]);
  });

  it('accepts unknown enum values for status and payment_method', async () => {
    const charge = await retrieveWith(chargeJson({ status: 'refunded', payment_method: 'card', channel: 'visa' }));
    expect(charge.status).toBe('refunded');
    expect(charge.payment_method).toBe('card');
    expect(charge.channel).toBe('visa');
  });

  it('reads a status and a field the closed types do not know, as the Charges guide shows', async () => {
    const charge = await retrieveWith(chargeJson({ status: 'refunded', refund_id: 'rf_1' }));
    const steps: string[] = [];
    switch (charge.status) {
      case 'success':
        steps.push('fulfil');
        break;
      case 'failed':
        steps.push('cancel');
        break;
      case 'pending':
        steps.push('wait');
        break;
      default: {
        // `never` to the compiler; the service's new value at run time.
        const unknownStatus: never = charge.status;
        steps.push(`not paid: ${String(unknownStatus)}`);
      }
    }
    expect(steps).toEqual(['not paid: refunded']);
    const refundId = 'refund_id' in charge && typeof charge.refund_id === 'string' ? charge.refund_id : undefined;
    expect(refundId).toBe('rf_1');
    const record: Record<string, unknown> = { ...charge };
    expect(record.refund_id).toBe('rf_1');
  });

  it('accepts a charge missing the optional merchant fields', async () => {
    const full = chargeJson();
    for (const key of ['description', 'items', 'customer_details', 'client_reference_id', 'channel']) delete full[key];
    const charge = await retrieveWith(full);
    expect(charge.id).toBe('ch_123');
    expect(charge.description).toBeUndefined();
    expect(charge.items).toBeUndefined();
    expect(charge.customer_details).toBeUndefined();
  });

  it('accepts the optional merchant fields as null', async () => {
    const charge = await retrieveWith(
      chargeJson({ description: null, items: null, customer_details: null, client_reference_id: null }),
    );
    expect(charge.description).toBeNull();
    expect(charge.items).toBeNull();
    expect(charge.customer_details).toBeNull();
    expect(charge.client_reference_id).toBeNull();
  });

  it('accepts customer_details with only some fields', async () => {
    const charge = await retrieveWith(chargeJson({ customer_details: { email: 'a@b.co' } }));
    expect(charge.customer_details).toEqual({ email: 'a@b.co' });
  });

  it('reads a missing paid_at as null, and keeps a set paid_at', async () => {
    const unpaid = chargeJson();
    delete unpaid.paid_at;
    expect((await retrieveWith(unpaid)).paid_at).toBeNull();
    const paid = await retrieveWith(chargeJson({ status: 'success', paid_at: '2026-11-23T03:10:00Z' }));
    expect(paid.paid_at).toBe('2026-11-23T03:10:00Z');
  });

  it('keeps timestamps as the service sent them', async () => {
    const charge = await retrieveWith(chargeJson({ created_at: '2026-11-23T03:00:00.123Z' }));
    expect(charge.created_at).toBe('2026-11-23T03:00:00.123Z');
    expect(charge.expires_at).toBe('2026-11-23T04:00:00Z');
  });

  it.each([
    ['id', 5, 'data.id'],
    ['created_at', 5, 'data.created_at'],
    ['status', 1, 'data.status'],
    ['currency', false, 'data.currency'],
    ['customer_details', 'Siti', 'data.customer_details'],
    ['items', { name: 'Tea' }, 'data.items'],
    ['paid_at', 17, 'data.paid_at'],
  ])('refuses %s of the wrong type (%j) with ResponseValidationError at %s', async (key, value, path) => {
    const text = JSON.stringify(success(chargeJson({ [key]: value })));
    const error = await retrieveRaw(text);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toBeInstanceOf(LunasError);
    expect((error as ResponseValidationError).path).toBe(path);
    expect((error as ResponseValidationError).body).toBe(text);
  });

  it('refuses a charge missing a required field (id)', async () => {
    const data = chargeJson();
    delete data.id;
    const error = await retrieveRaw(JSON.stringify(success(data)));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.id');
  });

  it('refuses an item of the wrong type inside items[]', async () => {
    const text = JSON.stringify(success(chargeJson({ items: [{ name: 'Tea', price: '1.00', quantity: 'two' }] })));
    const error = await retrieveRaw(text);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.items.0.quantity');
  });

  it('never returns a body whose data is missing', async () => {
    const error = await retrieveRaw(JSON.stringify({ status: 'success' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data');
  });
});
