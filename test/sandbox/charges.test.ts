import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, createCharge, sandbox, validCharge } from './helpers.js';
import { ISO_UTC } from '../helpers/formats.js';

/** A GET whose path is sent exactly as given. */
function rawGet(box: Sandbox, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(box.url);
    const req = request({ hostname, port, path, headers: { authorization: `Bearer ${box.apiKey}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const T0 = new Date('2025-06-01T08:00:00.000Z');
const fixedClock = () => new Date(T0);

describe('POST /v1/payments/charges', () => {
  it('creates a pending qris charge with every field, URLs included', async () => {
    const box = await sandbox({ now: fixedClock });
    const response = await createCharge(box, {
      payment_method: 'qris',
      amount: 10000,
      currency: 'IDR',
      channel: 'gudang_voucher',
      customer_details: { name: 'Budi', email: 'budi@example.com', phone_number: '+62811' },
      client_reference_id: 'order-1',
      description: 'Two coffees',
      items: [{ name: 'Coffee', price: 5000, quantity: 2 }],
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    const id: string = response.body.data.id;
    expect(id).toMatch(/^ch_[0-9a-f]{24}$/);
    // Written out, not chargeJson(): it pins what the sandbox sends, so no fixture change can hide a regression.
    expect(response.body.data).toEqual({
      id,
      payment_method: 'qris',
      channel: 'gudang_voucher',
      status: 'pending',
      currency: 'idr',
      amount: '10000.00',
      fee: '70.00',
      client_reference_id: 'order-1',
      customer_details: { name: 'Budi', email: 'budi@example.com', phone_number: '+62811' },
      items: [{ name: 'Coffee', price: '5000.00', quantity: 2 }],
      description: 'Two coffees',
      expires_at: '2025-06-01T08:15:00.000Z',
      paid_at: null,
      created_at: '2025-06-01T08:00:00.000Z',
      updated_at: '2025-06-01T08:00:00.000Z',
      payment_url: `${box.url}/pay/${id}`,
      qr_code_url: `${box.url}/qr/${id}.svg`,
    });
  });

  it('fills what the caller did not send with null, items with []', async () => {
    const box = await sandbox();
    const { body } = await createCharge(box);
    expect(body.data).toMatchObject({
      channel: null,
      client_reference_id: null,
      customer_details: null,
      items: [],
      description: null,
      currency: 'idr',
    });
    expect(body.data).not.toHaveProperty('payment_method_options');
    expect(body.data.created_at).toMatch(ISO_UTC);
    expect(body.data.updated_at).toBe(body.data.created_at);
  });

  it('creates a virtual_account charge with a flat fee, a 24-hour expiry and generated account details', async () => {
    const box = await sandbox({ now: fixedClock });
    const { status, body } = await createCharge(box, {
      payment_method: 'virtual_account',
      amount: '250000.5',
      customer_details: { name: 'Siti' },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      amount: '250000.50',
      fee: '4000.00',
      expires_at: '2025-06-02T08:00:00.000Z',
      customer_details: { name: 'Siti', email: null, phone_number: null },
    });
    expect(body.data.payment_method_options.virtual_account.account_name).toBe('Siti');
    expect(body.data.payment_method_options.virtual_account.account_number).toMatch(/^[1-9]\d{15}$/);
    expect(body.data.payment_url).toBe(`${box.url}/pay/${body.data.id}`);
    expect(body.data).not.toHaveProperty('qr_code_url');
  });

  it('uses the given virtual account name and number, and "Customer" without a customer name', async () => {
    const box = await sandbox();
    const given = await createCharge(box, {
      payment_method: 'virtual_account',
      amount: 1,
      payment_method_options: { virtual_account: { account_name: 'PT Maju', account_number: '8800123' } },
    });
    expect(given.body.data.payment_method_options).toEqual({
      virtual_account: { account_name: 'PT Maju', account_number: '8800123' },
    });
    const defaulted = await createCharge(box, {
      payment_method: 'virtual_account',
      amount: 1,
      payment_method_options: { virtual_account: { account_number: null } },
    });
    expect(defaulted.body.data.payment_method_options.virtual_account.account_name).toBe('Customer');
    expect(defaulted.body.data.payment_method_options.virtual_account.account_number).toMatch(/^\d{16}$/);
  });

  it.each([
    [10000, '70.00'],
    [5, '0.04'], // 0.035 rounds half up
    [333.33, '2.33'],
    [50.5, '0.35'],
    [1, '0.01'], // 0.007
    [0.01, '0.00'],
  ])('charges a qris fee of 0.7%% rounded to the cent: %s -> %s', async (amount, fee) => {
    const box = await sandbox();
    expect((await createCharge(box, { payment_method: 'qris', amount })).body.data.fee).toBe(fee);
  });

  it.each([
    [10000, '10000.00'],
    [10000.5, '10000.50'],
    ['10000.5', '10000.50'],
    ['0.01', '0.01'],
    ['1.500', '1.50'],
    [1e21, '1000000000000000000000.00'],
    ['123456789012345678901234.99', '123456789012345678901234.99'],
  ])('accepts amount %j and serialises it as %j', async (amount, expected) => {
    const box = await sandbox();
    const { status, body } = await createCharge(box, { payment_method: 'qris', amount });
    expect(status).toBe(200);
    expect(body.data.amount).toBe(expected);
  });

  it('keeps a custom expiry, normalised to UTC', async () => {
    const box = await sandbox({ now: fixedClock });
    const { body } = await createCharge(box, { ...validCharge, expires_at: '2025-06-01T17:30:00+07:00' });
    expect(body.data.expires_at).toBe('2025-06-01T10:30:00.000Z');
  });

  it('stores any three-letter currency in lower case', async () => {
    const box = await sandbox();
    expect((await createCharge(box, { ...validCharge, currency: 'USD' })).body.data.currency).toBe('usd');
  });

  it('treats null optional fields as not sent', async () => {
    const box = await sandbox();
    const { status, body } = await createCharge(box, {
      ...validCharge,
      currency: null,
      channel: null,
      description: null,
      items: null,
      customer_details: { email: null },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ currency: 'idr', channel: null, items: [], customer_details: { email: null } });
  });

  it('counts lengths in code points: 50 emoji fit, 51 do not', async () => {
    const box = await sandbox();
    const ok = await createCharge(box, { ...validCharge, client_reference_id: '😀'.repeat(50) });
    expect(ok.status).toBe(200);
    const tooLong = await createCharge(box, { ...validCharge, client_reference_id: '😀'.repeat(51) });
    expect(tooLong.body.data).toEqual({ client_reference_id: ['Client reference ID must be at most 50 characters'] });
    expect((await createCharge(box, { ...validCharge, description: 'x'.repeat(255) })).status).toBe(200);
  });
});

describe('charge validation', () => {
  // The sandbox's own messages: it checks independently of the SDK, whose table is in test/e2e/charges.test.ts.
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['payment_method missing', { amount: 1 }, 'payment_method', 'Payment method is required'],
    [
      'payment_method unknown',
      { payment_method: 'card', amount: 1 },
      'payment_method',
      'Payment method must be qris or virtual_account',
    ],
    [
      'payment_method not a string',
      { payment_method: 5, amount: 1 },
      'payment_method',
      'Payment method must be qris or virtual_account',
    ],
    [
      'payment_method in upper case',
      { payment_method: 'QRIS', amount: 1 },
      'payment_method',
      'Payment method must be qris or virtual_account',
    ],
    ['amount missing', { payment_method: 'qris' }, 'amount', 'Amount is required'],
    ['amount null', { payment_method: 'qris', amount: null }, 'amount', 'Amount is required'],
    ['amount zero', { payment_method: 'qris', amount: 0 }, 'amount', 'Amount must be greater than 0'],
    ['amount negative', { payment_method: 'qris', amount: -10 }, 'amount', 'Amount must be greater than 0'],
    ['amount negative string', { payment_method: 'qris', amount: '-0.01' }, 'amount', 'Amount must be greater than 0'],
    [
      'amount three decimals',
      { payment_method: 'qris', amount: 10.005 },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount three decimals string',
      { payment_method: 'qris', amount: '10.005' },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount tiny',
      { payment_method: 'qris', amount: 1e-7 },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount word',
      { payment_method: 'qris', amount: 'ten' },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount empty string',
      { payment_method: 'qris', amount: '' },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount exponent string',
      { payment_method: 'qris', amount: '1e3' },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount boolean',
      { payment_method: 'qris', amount: true },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    [
      'amount object',
      { payment_method: 'qris', amount: { value: 1 } },
      'amount',
      'Amount must be a number with at most two decimal places',
    ],
    ['currency two letters', { ...validCharge, currency: 'id' }, 'currency', 'Currency must be a three-letter code'],
    ['currency digits', { ...validCharge, currency: '123' }, 'currency', 'Currency must be a three-letter code'],
    ['currency non-ASCII', { ...validCharge, currency: 'ïdr' }, 'currency', 'Currency must be a three-letter code'],
    ['currency number', { ...validCharge, currency: 360 }, 'currency', 'Currency must be a three-letter code'],
    [
      'email invalid',
      { ...validCharge, customer_details: { email: 'not-an-email' } },
      'customer_details.email',
      'Invalid email format',
    ],
    [
      'email with space',
      { ...validCharge, customer_details: { email: 'a b@example.com' } },
      'customer_details.email',
      'Invalid email format',
    ],
    [
      'email not a string',
      { ...validCharge, customer_details: { email: 42 } },
      'customer_details.email',
      'Invalid email format',
    ],
    [
      'customer name',
      { ...validCharge, customer_details: { name: 1 } },
      'customer_details.name',
      'Name must be a string',
    ],
    [
      'customer phone',
      { ...validCharge, customer_details: { phone_number: 62811 } },
      'customer_details.phone_number',
      'Phone number must be a string',
    ],
    [
      'customer_details not an object',
      { ...validCharge, customer_details: 'Budi' },
      'customer_details',
      'Customer details must be an object',
    ],
    ['channel', { ...validCharge, channel: 7 }, 'channel', 'Channel must be a string'],
    ['description type', { ...validCharge, description: ['x'] }, 'description', 'Description must be a string'],
    [
      'description length',
      { ...validCharge, description: 'x'.repeat(256) },
      'description',
      'Description must be at most 255 characters',
    ],
    [
      'client_reference_id type',
      { ...validCharge, client_reference_id: 12 },
      'client_reference_id',
      'Client reference ID must be a string',
    ],
    [
      'client_reference_id length',
      { ...validCharge, client_reference_id: 'x'.repeat(51) },
      'client_reference_id',
      'Client reference ID must be at most 50 characters',
    ],
    ['items not an array', { ...validCharge, items: {} }, 'items', 'Items must be an array'],
    ['item not an object', { ...validCharge, items: ['x'] }, 'items.0', 'Item must be an object'],
    ['item name missing', { ...validCharge, items: [{ price: 1, quantity: 1 }] }, 'items.0.name', 'Name is required'],
    [
      'item name empty',
      { ...validCharge, items: [{ name: '', price: 1, quantity: 1 }] },
      'items.0.name',
      'Name is required',
    ],
    [
      'item name not a string',
      { ...validCharge, items: [{ name: 3, price: 1, quantity: 1 }] },
      'items.0.name',
      'Name must be a string',
    ],
    [
      'item price zero',
      { ...validCharge, items: [{ name: 'a', price: 0, quantity: 1 }] },
      'items.0.price',
      'Price must be greater than 0',
    ],
    [
      'item price missing',
      { ...validCharge, items: [{ name: 'a', quantity: 1 }] },
      'items.0.price',
      'Price is required',
    ],
    [
      'item price three decimals',
      { ...validCharge, items: [{ name: 'a', price: '1.001', quantity: 1 }] },
      'items.0.price',
      'Price must be a number with at most two decimal places',
    ],
    [
      'item quantity zero',
      { ...validCharge, items: [{ name: 'a', price: 1, quantity: 0 }] },
      'items.0.quantity',
      'Quantity must be a positive integer',
    ],
    [
      'item quantity fraction',
      { ...validCharge, items: [{ name: 'a', price: 1, quantity: 1.5 }] },
      'items.0.quantity',
      'Quantity must be a positive integer',
    ],
    [
      'item quantity string',
      { ...validCharge, items: [{ name: 'a', price: 1, quantity: '2' }] },
      'items.0.quantity',
      'Quantity must be a positive integer',
    ],
    [
      'item quantity missing',
      { ...validCharge, items: [{ name: 'a', price: 1 }] },
      'items.0.quantity',
      'Quantity is required',
    ],
    [
      'second item',
      {
        ...validCharge,
        items: [
          { name: 'a', price: 1, quantity: 1 },
          { name: 'b', price: -1, quantity: 1 },
        ],
      },
      'items.1.price',
      'Price must be greater than 0',
    ],
    [
      'expires_at not ISO',
      { ...validCharge, expires_at: 'tomorrow' },
      'expires_at',
      'Expires at must be an ISO 8601 datetime',
    ],
    [
      'expires_at date only',
      { ...validCharge, expires_at: '2030-01-01' },
      'expires_at',
      'Expires at must be an ISO 8601 datetime',
    ],
    [
      'expires_at without offset',
      { ...validCharge, expires_at: '2030-01-01T00:00:00' },
      'expires_at',
      'Expires at must be an ISO 8601 datetime',
    ],
    [
      'expires_at impossible day',
      { ...validCharge, expires_at: '2030-02-30T00:00:00Z' },
      'expires_at',
      'Expires at must be an ISO 8601 datetime',
    ],
    [
      'expires_at number',
      { ...validCharge, expires_at: 1893456000000 },
      'expires_at',
      'Expires at must be an ISO 8601 datetime',
    ],
    [
      'payment_method_options not an object',
      { ...validCharge, payment_method_options: 'x' },
      'payment_method_options',
      'Payment method options must be an object',
    ],
    [
      'virtual_account options not an object',
      { ...validCharge, payment_method_options: { virtual_account: 1 } },
      'payment_method_options.virtual_account',
      'Virtual account options must be an object',
    ],
    [
      'account_name not a string',
      {
        payment_method: 'virtual_account',
        amount: 1,
        payment_method_options: { virtual_account: { account_name: 5 } },
      },
      'payment_method_options.virtual_account.account_name',
      'Account name must be a string',
    ],
    [
      'account_number not a string',
      {
        payment_method: 'virtual_account',
        amount: 1,
        payment_method_options: { virtual_account: { account_number: 123 } },
      },
      'payment_method_options.virtual_account.account_number',
      'Account number must be a string or null',
    ],
  ];

  it.each(cases)('%s -> %s: %s', async (_name, body, field, message) => {
    const box = await sandbox();
    const response = await createCharge(box, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { [field]: [message] } });
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(0);
    expect(box.events).toHaveLength(0);
  });

  it('collects every failure in one envelope', async () => {
    const box = await sandbox();
    const response = await createCharge(box, {
      amount: -1,
      currency: 'rupiah',
      customer_details: { email: 'x' },
      items: [{ price: 0, quantity: 0 }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 'fail',
      data: {
        payment_method: ['Payment method is required'],
        amount: ['Amount must be greater than 0'],
        currency: ['Currency must be a three-letter code'],
        'customer_details.email': ['Invalid email format'],
        'items.0.name': ['Name is required'],
        'items.0.price': ['Price must be greater than 0'],
        'items.0.quantity': ['Quantity must be a positive integer'],
      },
    });
  });

  it('reads an empty body as {} and reports the required fields', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: '' });
    expect(response.body).toEqual({
      status: 'fail',
      data: { payment_method: ['Payment method is required'], amount: ['Amount is required'] },
    });
  });

  it('rejects a body that is not JSON', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: '{"payment_method":' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { message: 'Request body must be valid JSON' } });
  });

  it('rejects a body that is not UTF-8', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect(response.body).toEqual({ status: 'fail', data: { message: 'Request body must be valid JSON' } });
  });

  it.each([['[]'], ['"qris"'], ['null'], ['42']])('rejects the JSON value %s as not an object', async (raw) => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { message: 'Request body must be a JSON object' } });
  });

  it('rejects a body that is not declared as JSON with 415', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', {
      raw: JSON.stringify(validCharge),
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ status: 'error', message: 'Content-Type must be application/json' });
  });

  it('accepts a body of exactly 1 MiB and refuses one byte more with 413', async () => {
    const box = await sandbox();
    const json = JSON.stringify(validCharge);
    const exact = json + ' '.repeat(1024 * 1024 - json.length);
    expect((await call(box, 'POST', '/v1/payments/charges', { raw: exact })).status).toBe(200);
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: exact + ' ' });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ status: 'error', message: 'Request body must be at most 1 MiB' });
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(1);
  });
});

describe('GET /v1/payments/charges/{id}', () => {
  it('retrieves a charge without payment_url and qr_code_url', async () => {
    const box = await sandbox();
    const created = (await createCharge(box)).body.data;
    const response = await call(box, 'GET', `/v1/payments/charges/${created.id}`);
    expect(response.status).toBe(200);
    const { payment_url: _url, qr_code_url: _qr, ...expected } = created;
    expect(response.body).toEqual({ status: 'success', data: expected });
    expect(response.body.data).not.toHaveProperty('payment_url');
    expect(response.body.data).not.toHaveProperty('qr_code_url');
  });

  it.each([['ch_000000000000000000000000'], ['..%2Fx'], ['..%2F..%2Fv1%2Fpayouts'], ['%ZZ']])(
    'answers 404 Charge not found for %s',
    async (id) => {
      const box = await sandbox();
      await createCharge(box);
      const response = await call(box, 'GET', `/v1/payments/charges/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ status: 'fail', data: { message: 'Charge not found' } });
    },
  );

  it.each([['..'], ['.'], ['%2E%2E'], ['..%2F..%2Fpayouts']])(
    'never resolves dot segments: the raw path /v1/payments/charges/%s is not another resource',
    async (id) => {
      const box = await sandbox();
      // fetch would normalise dot segments before sending, so this goes out raw.
      const response = await rawGet(box, `/v1/payments/charges/${id}`);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.text)).toEqual({ status: 'fail', data: { message: 'Charge not found' } });
    },
  );

  it('percent-decodes the id exactly once', async () => {
    const box = await sandbox();
    const { id } = (await createCharge(box)).body.data;
    const encoded = [...id].map((char: string) => `%${char.charCodeAt(0).toString(16)}`).join('');
    expect((await call(box, 'GET', `/v1/payments/charges/${encoded}`)).body.data.id).toBe(id);
    const twice = encoded.replaceAll('%', '%25');
    expect((await call(box, 'GET', `/v1/payments/charges/${twice}`)).status).toBe(404);
  });
});
