/**
 * core/checks/schemas.ts, the schemas' pieces both ways. Requests: every rule
 * of the charge and transfer parameters refused before sending, with a
 * message naming the value and the fix; money in requests (a string whose '.'
 * groups thousands, an amount a JSON number cannot write exactly). Responses:
 * money normalised and checked. And typedAs and paramsTypedAs, which refuse to
 * compile an interface that disagrees with its schema.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it, expectTypeOf } from 'vitest';
import {
  type ChargeCreateParams,
  RequestValidationError,
  type TransferCreateParams,
  ResponseValidationError,
  Client,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { ISO_UTC } from '../../../helpers/formats.js';
import { BASE_URL, chargeJson, createdChargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { countRequests } from '../../../helpers/requests.js';
import { expectRefused, expectSent } from '../../../helpers/refusals.js';
import { rejection } from '../../../helpers/rejection.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';
import {
  jsonObject,
  looseObject,
  maybe,
  money,
  moneyParam,
  openEnum,
  paramsTypedAs,
  textParam,
  typedAs,
  z,
} from '../../../../src/core/checks/schemas.js';

const base: ChargeCreateParams = { payment_method: 'qris', amount: 10000 };
const charge = (patch: Record<string, unknown>, omit: string[] = []) => {
  const params: Record<string, unknown> = { ...base, ...patch };
  for (const key of omit) delete params[key];
  return (client: Client) => client.charges.create(params as unknown as ChargeCreateParams);
};
const createdCharge = createdChargeJson();

const transferBase: TransferCreateParams = { destination_account_id: 'acc_partner', amount: 1000, currency: 'idr' };
const transfer = (patch: Record<string, unknown>, omit: string[] = []) => {
  const params: Record<string, unknown> = { ...transferBase, ...patch };
  for (const key of omit) delete params[key];
  return (client: Client) => client.transfers.create(params as unknown as TransferCreateParams);
};

describe('charge create: payment_method', () => {
  it('missing: "Payment method is required"', async () => {
    await expectRefused(charge({}, ['payment_method']), { payment_method: 'Payment method is required' });
  });

  it.each(['card', 'QRIS', '', 5, null])('invalid (%j)', async (value) => {
    await expectRefused(charge({ payment_method: value }), { payment_method: 'any' });
  });
});

describe('charge create: amount', () => {
  it('missing', async () => {
    await expectRefused(charge({}, ['amount']), { amount: 'any' });
  });

  it.each([0, '0', '0.00', -1, '-5', -0.01, -0])(
    'not greater than 0 (%j): "Amount must be greater than 0"',
    async (amount) => {
      await expectRefused(charge({ amount }), { amount: 'Amount must be greater than 0' });
    },
  );

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['"abc"', 'abc'],
    ['""', ''],
    ['"1.234"', '1.234'],
    ['1.234', 1.234],
    ['0.001', 0.001],
    ['0.1 + 0.2 (float artefact)', 0.1 + 0.2],
    ['"10.999"', '10.999'],
    ['"1e3"', '1e3'],
    ['" 10"', ' 10'],
    ['"1,000"', '1,000'],
    ['"0x10"', '0x10'],
    ['true', true],
    ['null', null],
    ['an object', { value: 1 }],
    ['too large to send exactly ("12345678901234567.89")', '12345678901234567.89'],
    ['too large to send exactly (2^53 + 1 as a string)', '9007199254740993'],
  ])('invalid: %s', async (_label, amount) => {
    await expectRefused(charge({ amount }), { amount: 'any' });
  });

  it.each([
    [1, 1],
    ['1', 1],
    ['0.01', 0.01],
    [0.5, 0.5],
    ['10000.50', 10000.5],
    ['007.10', 7.1],
    [99999999.99, 99999999.99],
    ['9007199254740991', 9007199254740991],
  ])('accepts %j and sends the JSON number %j', async (amount, sent) => {
    const body = await expectSent('/v1/payments/charges', charge({ amount }), createdCharge);
    expect(body).toEqual({ payment_method: 'qris', amount: sent });
  });
});

describe('charge create: currency', () => {
  it.each(['ID', 'IDRR', 'ID1', '', 'ÎDR', ' idr', 5, null])('not three ASCII letters (%j)', async (currency) => {
    await expectRefused(charge({ currency }), { currency: 'any' });
  });

  it.each([
    ['IDR', 'idr'],
    ['idr', 'idr'],
    ['Usd', 'usd'],
  ])('%j is sent as %j', async (currency, sent) => {
    const body = await expectSent('/v1/payments/charges', charge({ currency }), createdCharge);
    expect(body).toEqual({ payment_method: 'qris', amount: 10000, currency: sent });
  });
});

describe('charge create: customer_details', () => {
  it.each(['not-an-email', 'a@b', 'a b@c.d', '@example.com', 'siti@', ''])(
    'email %j: "Invalid email format" at customer_details.email',
    async (email) => {
      await expectRefused(charge({ customer_details: { email } }), {
        'customer_details.email': 'Invalid email format',
      });
    },
  );

  it('email of the wrong type', async () => {
    await expectRefused(charge({ customer_details: { email: 5 } }), { 'customer_details.email': 'any' });
  });

  it('name and phone of the wrong type', async () => {
    await expectRefused(charge({ customer_details: { name: 1, phone_number: 2 } }), {
      'customer_details.name': 'any',
      'customer_details.phone_number': 'any',
    });
  });

  it('customer_details that is not an object', async () => {
    await expectRefused(charge({ customer_details: 'Siti' }), { customer_details: 'any' });
  });

  it('accepts a valid email and sends it unchanged', async () => {
    const details = { name: 'Siti', email: 'siti.n+shop@example.co.id', phone_number: '+628123' };
    const body = await expectSent('/v1/payments/charges', charge({ customer_details: details }), createdCharge);
    expect(body).toEqual({ payment_method: 'qris', amount: 10000, customer_details: details });
  });
});

describe('charge create: client_reference_id and description (limits in code points)', () => {
  it('client_reference_id of 51 characters is refused', async () => {
    await expectRefused(charge({ client_reference_id: 'x'.repeat(51) }), { client_reference_id: 'any' });
  });

  it('client_reference_id of 51 emoji is refused', async () => {
    await expectRefused(charge({ client_reference_id: '😀'.repeat(51) }), { client_reference_id: 'any' });
  });

  it('client_reference_id of 50 characters is sent', async () => {
    const id = 'x'.repeat(50);
    const body = await expectSent('/v1/payments/charges', charge({ client_reference_id: id }), createdCharge);
    expect(body).toMatchObject({ client_reference_id: id });
  });

  it('client_reference_id of 50 emoji (100 UTF-16 units) is sent: code points, not UTF-16 units', async () => {
    const id = '😀'.repeat(50);
    const body = await expectSent('/v1/payments/charges', charge({ client_reference_id: id }), createdCharge);
    expect(body).toMatchObject({ client_reference_id: id });
  });

  it('description of 256 characters is refused', async () => {
    await expectRefused(charge({ description: 'd'.repeat(256) }), { description: 'any' });
  });

  it('description of 255 emoji is sent', async () => {
    const description = '🍵'.repeat(255);
    const body = await expectSent('/v1/payments/charges', charge({ description }), createdCharge);
    expect(body).toMatchObject({ description });
  });

  it.each([
    ['client_reference_id', 5],
    ['description', { text: 'x' }],
    ['channel', 7],
  ])('%s of the wrong type (%j)', async (key, value) => {
    await expectRefused(charge({ [key]: value }), { [key]: 'any' });
  });
});

describe('charge create: items', () => {
  const item = { name: 'Tea', price: 5000, quantity: 2 };

  it.each([0, -1, 'abc', '1.234', Number.NaN, null])('items.0.price %j', async (price) => {
    await expectRefused(charge({ items: [{ ...item, price }] }), { 'items.0.price': 'any' });
  });

  it.each([0, 1.5, -1, '2', null, Number.NaN])('items.0.quantity %j', async (quantity) => {
    await expectRefused(charge({ items: [{ ...item, quantity }] }), { 'items.0.quantity': 'any' });
  });

  it('reports the index of the bad item (items.1.quantity)', async () => {
    await expectRefused(charge({ items: [item, { ...item, quantity: 0 }] }), { 'items.1.quantity': 'any' });
  });

  it('an item without a name', async () => {
    await expectRefused(charge({ items: [{ price: 1, quantity: 1 }] }), { 'items.0.name': 'any' });
  });

  it('items that are not an array', async () => {
    await expectRefused(charge({ items: item }), { items: 'any' });
  });

  it('price 0 says it must be greater than 0', async () => {
    const error = await expectRefused(charge({ items: [{ ...item, price: 0 }] }), { 'items.0.price': 'any' });
    expect(error.fields['items.0.price']!.join(' ')).toMatch(/greater than 0/);
  });
});

describe('charge create: expires_at', () => {
  it.each([
    ['an invalid Date', new Date('nope')],
    ['a non-date string', 'tomorrow'],
    ['an empty string', ''],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 25', '2026-11-23T25:00:00Z'],
    ['a number', 1795400000000],
    ['null', null],
    ['an object', { at: '2026-11-23T03:00:00Z' }],
    ['a Date after year 9999 (no four-digit ISO form)', new Date(Date.UTC(10000, 0, 1))],
    ['a Date before year 0', new Date(Date.parse('0000-01-01T00:00:00Z') - 1)],
  ])('%s', async (_label, expires_at) => {
    await expectRefused(charge({ expires_at }), { expires_at: 'any' });
  });

  it('30 February (a date that does not exist) is refused, not silently moved to March', async () => {
    await expectRefused(charge({ expires_at: '2026-02-30T10:00:00Z' }), { expires_at: 'any' });
  });

  it.each([
    ['a Date', new Date(Date.UTC(2026, 10, 23, 3, 0, 0)), Date.UTC(2026, 10, 23, 3, 0, 0)],
    ['a Z string', '2026-11-23T03:00:00Z', Date.UTC(2026, 10, 23, 3, 0, 0)],
    ['a +07:00 string', '2026-11-23T10:00:00+07:00', Date.UTC(2026, 10, 23, 3, 0, 0)],
    ['a -05:30 string with milliseconds', '2026-11-22T21:30:00.250-05:30', Date.UTC(2026, 10, 23, 3, 0, 0, 250)],
  ])('%s is sent as ISO 8601 UTC', async (_label, expires_at, ms) => {
    const body = (await expectSent('/v1/payments/charges', charge({ expires_at }), createdCharge)) as {
      expires_at: string;
    };
    expect(body.expires_at).toMatch(ISO_UTC);
    expect(Date.parse(body.expires_at)).toBe(ms);
  });
});

describe('charge create: unknown fields', () => {
  it('at the top level', async () => {
    await expectRefused(charge({ amout: 5 }), { amout: 'Unknown field: did you mean "amount"?' });
  });

  it.each([
    ['payment_methd', 'payment_method'],
    ['clientReferenceId', 'client_reference_id'],
    ['expiresAt', 'expires_at'],
  ])('%s: did you mean %j?', async (name, closest) => {
    await expectRefused(charge({ [name]: 'x' }), { [name]: `Unknown field: did you mean "${closest}"?` });
  });

  it('a name close to none: the known fields listed', async () => {
    await expectRefused(charge({ colour: 'red' }), {
      colour:
        'Unknown field; known fields: payment_method, amount, channel, currency, customer_details, ' +
        'client_reference_id, expires_at, items, description, payment_method_options',
    });
  });

  it('inside customer_details', async () => {
    await expectRefused(charge({ customer_details: { email: 'a@b.co', mail: 'x' } }), {
      'customer_details.mail': 'Unknown field: did you mean "email"?',
    });
  });

  it('inside items[]', async () => {
    await expectRefused(charge({ items: [{ name: 'Tea', price: 1, quantity: 1, sku: 'x' }] }), {
      'items.0.sku': 'Unknown field; known fields: name, price, quantity',
    });
  });

  it('inside items[]: pric, did you mean price?', async () => {
    await expectRefused(
      charge({
        items: [
          { name: 'Tea', price: 1, quantity: 1 },
          { name: 'Kopi', pric: 2 },
        ],
      }),
      {
        'items.1.pric': 'Unknown field: did you mean "price"?',
        'items.1.price': 'any',
        'items.1.quantity': 'any',
      },
    );
  });

  it('inside payment_method_options.virtual_account', async () => {
    await expectRefused(
      charge({ payment_method: 'virtual_account', payment_method_options: { virtual_account: { bank: 'bca' } } }),
      { 'payment_method_options.virtual_account.bank': 'Unknown field; known fields: account_name, account_number' },
    );
  });

  it('wire-only response fields are not accepted in a request (status)', async () => {
    await expectRefused(charge({ status: 'success' }), { status: /^Unknown field; known fields: / });
  });

  it('payment_method_options.virtual_account fields of the wrong type', async () => {
    await expectRefused(
      charge({ payment_method: 'virtual_account', payment_method_options: { virtual_account: { account_name: 5 } } }),
      { 'payment_method_options.virtual_account.account_name': 'any' },
    );
  });
});

describe('charge create: everything wrong at once', () => {
  it('collects every failure in one error', async () => {
    const error = await expectRefused(
      (client) =>
        client.charges.create({
          amount: 0,
          currency: 'rupiah',
          customer_details: { email: 'nope' },
          client_reference_id: 'r'.repeat(51),
          description: 'd'.repeat(256),
          items: [{ name: 'Tea', price: '1.234', quantity: 1.5 }],
          expires_at: 'soon',
          colour: 'red',
        } as unknown as ChargeCreateParams),
      {
        payment_method: 'Payment method is required',
        amount: 'Amount must be greater than 0',
        currency: 'any',
        'customer_details.email': 'Invalid email format',
        client_reference_id: 'any',
        description: 'any',
        'items.0.price': 'any',
        'items.0.quantity': 'any',
        expires_at: 'any',
        colour: /^Unknown field; known fields: /,
      },
    );
    expect(error.message).toContain('payment_method');
    expect(error.message).toContain('customer_details.email');
  });

  it('refuses params that are not an object', async () => {
    const counter = countRequests();
    for (const params of [undefined, null, 'qris', 5]) {
      const error = await makeClient()
        .charges.create(params as unknown as ChargeCreateParams)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
    }
    expect(counter.count()).toBe(0);
  });
});

describe('transfer create', () => {
  it('currency missing: "Currency is required"', async () => {
    await expectRefused(transfer({}, ['currency']), { currency: 'Currency is required' });
  });

  it.each(['usd', 'USD', 'sgd'])('currency %j: "Currency is not supported", with the value', async (currency) => {
    await expectRefused(transfer({ currency }), {
      currency: `Currency is not supported; only idr is, for now (got "${currency.toLowerCase()}")`,
    });
  });

  it.each(['ID', 'rupiah', 5])('currency not three letters (%j)', async (currency) => {
    await expectRefused(transfer({ currency }), { currency: 'any' });
  });

  it('currency "IDR" is sent as "idr"', async () => {
    const body = await expectSent('/v1/transfers', transfer({ currency: 'IDR' }), transferJson());
    expect(body).toEqual({ destination_account_id: 'acc_partner', amount: 1000, currency: 'idr' });
  });

  it('destination_account_id missing', async () => {
    await expectRefused(transfer({}, ['destination_account_id']), { destination_account_id: 'any' });
  });

  it.each(['', 5, null])('destination_account_id invalid (%j)', async (destination_account_id) => {
    await expectRefused(transfer({ destination_account_id }), { destination_account_id: 'any' });
  });

  it.each([0, '0.00', -10])('amount %j: "Amount must be greater than 0"', async (amount) => {
    await expectRefused(transfer({ amount }), { amount: 'Amount must be greater than 0' });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 'abc', '1.234', '12345678901234567.89'])(
    'amount %j',
    async (amount) => {
      await expectRefused(transfer({ amount }), { amount: 'any' });
    },
  );

  it('amount missing', async () => {
    await expectRefused(transfer({}, ['amount']), { amount: 'any' });
  });

  it('unknown fields, including source_account_id (never sent: it is the caller)', async () => {
    await expectRefused(transfer({ source_account_id: 'acc_merchant', memo: 'x' }), {
      source_account_id: /^Unknown field; known fields: /,
      memo: /^Unknown field; known fields: /,
    });
  });

  it.each([
    ['ammount', 'amount'],
    ['destination_account', 'destination_account_id'],
    ['Currency', 'currency'],
  ])('%s: did you mean %j?', async (name, closest) => {
    await expectRefused(transfer({ [name]: 'x' }), { [name]: `Unknown field: did you mean "${closest}"?` });
  });

  it('description of 256 characters', async () => {
    await expectRefused(transfer({ description: 'd'.repeat(256) }), { description: 'any' });
  });

  it('collects every failure at once', async () => {
    await expectRefused((client) => client.transfers.create({} as TransferCreateParams), {
      destination_account_id: 'any',
      amount: 'any',
      currency: 'Currency is required',
    });
  });
});

describe('text that is not valid Unicode', () => {
  it('text parameters may hold one: JSON carries it as an escape, and the service reads it back unchanged', async () => {
    const description = 'Tea \ud83c';
    const body = await expectSent('/v1/payments/charges', charge({ description }), createdCharge);
    expect(body).toMatchObject({ description });
  });
});

describe('values JSON cannot carry', () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;

  it.each([
    ['a BigInt', { limit: 10n }, 'Do not know how to serialize a BigInt'],
    ['a circular reference', circular, 'Converting circular structure to JSON'],
  ])(
    'payment_method_options holding %s is a RequestValidationError, not a connection error retried',
    async (_name, options, reason) => {
      await expectRefused(charge({ payment_method_options: { card: options } }), {
        'payment_method_options.card': `Must be JSON data: ${reason}; pass numbers, strings, arrays and objects`,
      });
    },
  );
});

describe('arguments a JavaScript caller may pass', () => {
  const chargeParams = { payment_method: 'qris', amount: 10000 } as const;

  it('null options count as no options, for every kind of method', async () => {
    const posts: string[] = [];
    server.use(
      http.post(`${BASE_URL}/v1/payments/charges`, ({ request }) => {
        posts.push(request.headers.get('idempotency-key') ?? '');
        return HttpResponse.json(success(createdCharge));
      }),
      http.get(`${BASE_URL}/v1/payments/charges/ch_123`, () => HttpResponse.json(success(chargeJson()))),
      http.get(`${BASE_URL}/v1/payouts`, () =>
        HttpResponse.json({ status: 'success', data: [], page: 1, page_size: 10, total_items: 0 }),
      ),
    );
    const client = makeClient();
    const none = null as unknown as undefined;
    expect((await client.charges.create(chargeParams, none)).id).toBe('ch_123');
    expect((await client.charges.retrieve('ch_123', none)).id).toBe('ch_123');
    expect((await client.payouts.list(none, none)).data).toEqual([]);
    expect(posts).toHaveLength(1);
    expect(posts[0]).not.toBe('');
  });

  it.each([
    ['a string', 'sk_live_misplaced_key', 'a string'],
    ['a number', 5000, 'a number'],
    ['an array', [], 'an array'],
  ])('options that are %s are refused before sending', async (_name, options, shown) => {
    const given = options as unknown as undefined;
    const message = `Options must be an object (got ${shown})`;
    const error = await expectRefused((c) => c.charges.create(chargeParams, given), { options: message });
    expect(JSON.stringify(error)).not.toContain('sk_live');
    await expectRefused((c) => c.charges.retrieve('ch_123', given), { options: message });
    await expectRefused((c) => c.transfers.list({}, given), { options: message });
  });

  it('create(null) is refused as params: they are required', async () => {
    await expectRefused((c) => c.charges.create(null as unknown as ChargeCreateParams), {
      params: 'Parameters must be an object (got null)',
    });
    await expectRefused((c) => c.transfers.create(null as unknown as TransferCreateParams), {
      params: 'Parameters must be an object (got null)',
    });
  });

  it('list params that are a string are refused as params', async () => {
    await expectRefused((c) => c.charges.list('page=2' as never), {
      params: 'Parameters must be an object (got "page=2")',
    });
  });

  it('an idempotency key that is not a string is refused, not turned into text', async () => {
    const key = { toString: () => 'key-from-an-object' } as unknown as string;
    await expectRefused((c) => c.charges.create(chargeParams, { idempotencyKey: key }), { idempotencyKey: 'any' });
  });
});

describe('messages name the value given and how to fix it', () => {
  it.each([
    [
      '"10,000"',
      '10,000',
      'Amount must be a number with at most two decimal places (got "10,000"; write 10000 or "10000.00")',
    ],
    [
      '1.1 * 3',
      1.1 * 3,
      'Amount must be a number with at most two decimal places (got 3.3000000000000003; round it to cents, e.g. Math.round(amount * 100) / 100)',
    ],
    [
      '"1.234"',
      '1.234',
      `Amount must have at most two digits after the '.' (got "1.234"): in Indonesia '.' groups thousands, so it may ` +
        `mean one thousand two hundred thirty-four; write 1234 for one thousand two hundred thirty-four, or round it ` +
        `to cents, e.g. 1.23`,
    ],
    [
      '"1,5" (a decimal comma is not read as thousands)',
      '1,5',
      'Amount must be a number with at most two decimal places (got "1,5"; write digits with an optional dot and two decimals, e.g. 10000 or "10000.00")',
    ],
    ['Infinity', Number.POSITIVE_INFINITY, 'Amount must be a number with at most two decimal places (got Infinity)'],
    [
      'true',
      true,
      'Amount must be a number with at most two decimal places (got true; pass a number or a decimal string)',
    ],
  ])('amount %s', async (_name, amount, message) => {
    await expectRefused(charge({ amount }), { amount: message });
  });

  it('keeps the service\'s own "Amount must be greater than 0" word for word', async () => {
    await expectRefused(charge({ amount: 0 }), { amount: 'Amount must be greater than 0' });
  });

  it('cuts a long value to 40 characters', async () => {
    const error = await expectRefused(charge({ amount: '9'.repeat(30) + 'x'.repeat(30) }), { amount: 'any' });
    expect(error.fields.amount![0]).toContain(`(got "${'9'.repeat(30)}${'x'.repeat(10)}…"`);
  });

  it('payment_method, items and destination_account_id echo what was given', async () => {
    await expectRefused(charge({ payment_method: 'card', items: 'tea' }), {
      payment_method: 'Payment method must be qris or virtual_account (got "card")',
      items: 'Items must be an array (got "tea")',
    });
    await expectRefused(transfer({ destination_account_id: 42 }), {
      destination_account_id: 'Destination account must be a string (got 42)',
    });
  });

  it('expires_at without a time says a time and a zone are needed', async () => {
    await expectRefused(charge({ expires_at: '2026-12-01' }), {
      expires_at:
        'Expires at must be a Date or an ISO 8601 datetime with a time and a zone, e.g. 2026-12-01T00:00:00Z (got "2026-12-01")',
    });
  });

  it('expires_at on 30 February says the date does not exist', async () => {
    await expectRefused(charge({ expires_at: '2026-02-30T10:00:00Z' }), {
      expires_at: 'Expires at is not a real date and time (got "2026-02-30T10:00:00Z")',
    });
  });

  it('currency, quantity and lengths echo what was given', async () => {
    await expectRefused(
      charge({
        currency: 'rupiah',
        items: [{ name: 'Tea', price: 1, quantity: 1.5 }],
        description: 'd'.repeat(300),
      }),
      {
        currency: 'Currency must be a three-letter code such as idr (got "rupiah")',
        'items.0.quantity': 'Quantity must be a positive integer (got 1.5)',
        description: 'Description must be at most 255 characters (got 300); shorten it',
      },
    );
  });

  it('page and pagesize echo what was given', async () => {
    await expectRefused((c) => c.charges.list({ page: 0, pagesize: 500 }), {
      page: 'Page must be an integer of at least 1 (got 0)',
      pagesize: 'Page size must be an integer from 1 to 100 (got 500)',
    });
  });

  it('never echoes a header value, which may be a credential', async () => {
    const secret = 'Basic dXNlcjpodW50ZXIy\r\n';
    const error = await expectRefused((c) => c.charges.retrieve('ch_123', { headers: { 'x-proxy-auth': secret } }), {
      'headers.x-proxy-auth': 'any',
    });
    expect(JSON.stringify(error)).not.toContain('dXNlcjpodW50ZXIy');
    expect(error.message).not.toContain('dXNlcjpodW50ZXIy');
  });
});

const { client, sent } = wireClient((request) =>
  successResponse(request.url.pathname === '/v1/transfers' ? transferJson() : createdChargeJson()),
);

async function refusal(call: Promise<unknown>): Promise<Record<string, string[]>> {
  sent.length = 0;
  const error = await rejection(call, RequestValidationError);
  expect(sent).toHaveLength(0);
  return error.fields;
}

/** The body text sent by `call`, which must be sent once. */
async function bodySent(call: Promise<unknown>): Promise<string> {
  sent.length = 0;
  await call;
  expect(sent).toHaveLength(1);
  return sent[0]!.body;
}

const transferOf = (amount: unknown) =>
  client.transfers.create({ destination_account_id: 'acc_partner', amount: amount as string, currency: 'idr' });
const chargeWithPrice = (price: unknown) =>
  client.charges.create({
    payment_method: 'qris',
    amount: 10_000,
    items: [{ name: 'Tea', price: price as string, quantity: 1 }],
  });

describe('a string with more than two digits after the point is refused, zeros included', () => {
  it.each([
    [
      '10.000',
      `Amount must have at most two digits after the '.' (got "10.000"): in Indonesia '.' groups thousands, ` +
        `so it may mean ten thousand; write 10000 for ten thousand, or 10.00 for ten`,
    ],
    [
      '1.500',
      `Amount must have at most two digits after the '.' (got "1.500"): in Indonesia '.' groups thousands, ` +
        `so it may mean one thousand five hundred; write 1500 for one thousand five hundred, or 1.50 for one point five`,
    ],
    [
      '25.050',
      `Amount must have at most two digits after the '.' (got "25.050"): in Indonesia '.' groups thousands, ` +
        `so it may mean twenty-five thousand fifty; write 25050 for twenty-five thousand fifty, ` +
        `or 25.05 for twenty-five point zero five`,
    ],
    [
      '1.234',
      `Amount must have at most two digits after the '.' (got "1.234"): in Indonesia '.' groups thousands, ` +
        `so it may mean one thousand two hundred thirty-four; write 1234 for one thousand two hundred thirty-four, ` +
        `or round it to cents, e.g. 1.23`,
    ],
    [
      '10.0000',
      `Amount must have at most two digits after the '.' (got "10.0000"): lunas never guesses whether a '.' ` +
        `groups thousands, as it does in Indonesia; write 10.00 for ten`,
    ],
    [
      '7.12345',
      `Amount must have at most two digits after the '.' (got "7.12345"): lunas never guesses whether a '.' ` +
        `groups thousands, as it does in Indonesia; round it to cents, e.g. 7.12`,
    ],
  ])('amount %j', async (amount, message) => {
    expect(await refusal(transferOf(amount))).toEqual({ amount: [message] });
  });

  it('an item price "1.500" is refused at items.0.price, with the same fix', async () => {
    const fields = await refusal(chargeWithPrice('1.500'));
    expect(Object.keys(fields)).toEqual(['items.0.price']);
    expect(fields['items.0.price']![0]).toMatch(/^Price must have at most two digits after the '\.'/);
    expect(fields['items.0.price']![0]).toContain(
      'write 1500 for one thousand five hundred, or 1.50 for one point five',
    );
  });

  it('a charge amount "10.000" is refused too', async () => {
    const fields = await refusal(client.charges.create({ payment_method: 'qris', amount: '10.000' }));
    expect(fields.amount![0]).toContain('write 10000 for ten thousand, or 10.00 for ten');
  });

  it('Indonesian grouping with a decimal comma is answered with the plain form', async () => {
    expect((await refusal(transferOf('1.500.000,50'))).amount![0]).toContain('write 1500000.5 or "1500000.50"');
    expect((await refusal(transferOf('1.500.000'))).amount![0]).toContain('write 1500000 or "1500000.00"');
  });

  it('zero or below is still "Amount must be greater than 0", whatever its decimals', async () => {
    expect(await refusal(transferOf('0.000'))).toEqual({ amount: ['Amount must be greater than 0'] });
    expect(await refusal(transferOf('-1.500'))).toEqual({ amount: ['Amount must be greater than 0'] });
  });

  it('a number is not a string: 10.000 in JavaScript is 10, and is sent as 10', async () => {
    const body = await bodySent(transferOf(Number('10.000')));
    expect(body).toContain('"amount":10,');
  });

  it.each(['10.00', '10.5', '10', '0010.50'])('%j, two digits or fewer, is sent', async (amount) => {
    expect(JSON.parse(await bodySent(transferOf(amount))).amount).toBe(Number(amount));
  });
});

describe('an amount a JSON number cannot write exactly is refused, never changed', () => {
  const limits =
    'every whole amount up to 9007199254740991 and every amount with cents up to 9999999999999.99 is sent exactly';

  it.each([
    [36028797018963968, '36028797018963968', '36028797018963970'],
    ['36028797018963968', '"36028797018963968"', '36028797018963970'],
    ['9007199254740993', '"9007199254740993"', '9007199254740992'],
    ['90071992547409.93', '"90071992547409.93"', '90071992547409.94'],
    ['99999999999999.99', '"99999999999999.99"', '99999999999999.98'],
    [2 ** 70, '1180591620717411303424', '1.1805916207174113e+21'],
    ['1000000000000000000000', '"1000000000000000000000"', '1e+21'],
  ])('amount %j', async (amount, shown, wouldBe) => {
    expect(await refusal(transferOf(amount))).toEqual({
      amount: [
        `Amount cannot be sent exactly as a JSON number (got ${shown}, which it would write as ${wouldBe}); ${limits}`,
      ],
    });
  });

  it('an item price is held to the same rule', async () => {
    const fields = await refusal(chargeWithPrice(36028797018963968));
    expect(fields).toEqual({
      'items.0.price': [
        `Price cannot be sent exactly as a JSON number (got 36028797018963968, which it would write as 36028797018963970); ${limits}`,
      ],
    });
  });

  it.each([
    [9007199254740991, '9007199254740991'],
    ['9007199254740991', '9007199254740991'],
    ['9999999999999.99', '9999999999999.99'],
    [18014398509481984, '18014398509481984'],
    ['100000000000000000000', '100000000000000000000'],
    [90071992547409.94, '90071992547409.94'],
  ])('%j is sent as the literal %s', async (amount, literal) => {
    expect(await bodySent(transferOf(amount))).toContain(`"amount":${literal},`);
  });
});

describe('money in responses', () => {
  function serveCharge(data: Record<string, unknown>) {
    server.use(http.get(`${BASE_URL}/v1/payments/charges/:id`, () => HttpResponse.json(success(data))));
  }

  it.each([
    [10000, '10000.00'],
    ['10000', '10000.00'],
    [10000.5, '10000.50'],
    ['10000.50', '10000.50'],
    ['007.1', '7.10'],
    [2 ** 46 - 1, '70368744177663.00'],
    ['12345678901234567.89', '12345678901234567.89'],
    ['10000.000', '10000.00'],
  ])('amount %j -> %j (a string with two decimals)', async (amount, expected) => {
    serveCharge(chargeJson({ amount }));
    const charge = await makeClient().charges.retrieve('ch_123');
    expect(charge.amount).toBe(expected);
    expect(typeof charge.amount).toBe('string');
  });

  it('normalises fee and items[].price the same way', async () => {
    serveCharge(
      chargeJson({
        fee: 70,
        items: [
          { name: 'Tea', price: 5000, quantity: 1 },
          { name: 'Cake', price: '12.5', quantity: 2 },
          { name: 'Water', price: 0.5, quantity: 3 },
        ],
      }),
    );
    const charge = await makeClient().charges.retrieve('ch_123');
    expect(charge.fee).toBe('70.00');
    expect(charge.items!.map((item) => item.price)).toEqual(['5000.00', '12.50', '0.50']);
  });

  it.each([
    ['amount', '10000.123', 'data.amount'],
    ['amount', 10000.123, 'data.amount'],
    ['amount', 'abc', 'data.amount'],
    ['amount', true, 'data.amount'],
    ['amount', null, 'data.amount'],
    ['amount', '', 'data.amount'],
    ['amount', '1e3', 'data.amount'],
    ['amount', { value: '1.00' }, 'data.amount'],
    ['amount', 1e21, 'data.amount'],
    ['amount', 2 ** 46, 'data.amount'],
    ['fee', '0.001', 'data.fee'],
    ['fee', false, 'data.fee'],
  ])('%s = %j -> ResponseValidationError at %s with the raw body', async (key, value, path) => {
    const text = JSON.stringify(success(chargeJson({ [key]: value })), null, 2);
    server.use(
      http.get(
        `${BASE_URL}/v1/payments/charges/:id`,
        () => new HttpResponse(text, { headers: { 'content-type': 'application/json', 'x-request-id': 'req_money' } }),
      ),
    );
    const error = await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const validation = error as ResponseValidationError;
    expect(validation.path).toBe(path);
    expect(validation.body).toBe(text);
    expect(validation.status).toBe(200);
    expect(validation.requestId).toBe('req_money');
    expect(validation.issues.map((issue) => issue.path)).toContain(path);
  });

  it('items[].price with three non-zero decimals -> ResponseValidationError at data.items.0.price', async () => {
    const text = JSON.stringify(success(chargeJson({ items: [{ name: 'Tea', price: '1.999', quantity: 1 }] })));
    server.use(
      http.get(
        `${BASE_URL}/v1/payments/charges/:id`,
        () => new HttpResponse(text, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const error = await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.items.0.price');
    expect((error as ResponseValidationError).body).toBe(text);
  });

  it('reports every bad money field, the first one as path', async () => {
    serveCharge(chargeJson({ amount: 'abc', fee: 'def' }));
    const error = (await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['data.amount', 'data.fee']);
    expect(['data.amount', 'data.fee']).toContain(error.path);
  });
});

// Fixtures for the compile-time tie. Each `@ts-expect-error` below is a
// disagreement typedAs or paramsTypedAs must refuse: an unused directive
// fails `npm run typecheck`, so a rule that stops catching its case is seen.
// The resources' own interfaces are tied where their schemas are typed
// (src/resources, src/webhooks.ts): src does not compile when one drifts.

/** A response interface in the resources' style, with its lenient schema. */
interface OrderLine {
  sku: string;
  price: string;
}
interface Order {
  id: string;
  status: 'open' | 'paid';
  kind: 'retail' | 'wholesale';
  total: string;
  note?: string | null | undefined;
  paid_at: string | null;
  lines: OrderLine[];
  buyer?: { name?: string | null | undefined } | null | undefined;
  hint?: unknown;
}
const orderWire = looseObject({
  id: z.string(),
  status: openEnum(),
  kind: z.enum(['retail', 'wholesale']),
  total: money,
  note: maybe(z.string()),
  paid_at: z.nullable(z.string()),
  lines: z.array(looseObject({ sku: z.string(), price: money })),
  buyer: maybe(looseObject({ name: maybe(z.string()) })),
  hint: z.optional(z.unknown()),
});
const orderJson = {
  id: 'o_1',
  status: 'refunded',
  kind: 'retail',
  total: 10,
  paid_at: null,
  lines: [{ sku: 'tea', price: '5000' }],
  gift: true,
};

/** A request interface, with its strict schema. */
interface RefundParams {
  charge_id: string;
  amount: number | string;
  reason?: string | undefined;
}
const refundParams = z.strictObject({
  charge_id: textParam('Charge ID'),
  amount: moneyParam('Amount'),
  reason: z.optional(textParam('Reason', 255)),
});

type Retyped<T, K extends keyof T, To> = Omit<T, K> & { [P in K]: To };

describe('typedAs and paramsTypedAs: an interface that disagrees with its schema does not compile', () => {
  it('an agreeing response interface compiles; nothing changes at run time', () => {
    const orderSchema = typedAs<Order>()(orderWire);
    expectTypeOf<z.output<typeof orderSchema>>().toEqualTypeOf<Order>();
    // The schema is the same object, still lenient: an unknown status passes, an unknown field is kept.
    expect(orderSchema).toBe(orderWire);
    expect(orderSchema.parse(orderJson)).toMatchObject({ status: 'refunded', total: '10.00', gift: true });
  });

  it('a field on one side only, a field retyped (money included), nested objects and array items', () => {
    // @ts-expect-error: a field the schema does not have
    typedAs<Order & { refunded_at: string }>()(orderWire);
    // @ts-expect-error: a field of the schema missing from the interface
    typedAs<Omit<Order, 'total'>>()(orderWire);
    // @ts-expect-error: money is a string in a response, never a number
    typedAs<Retyped<Order, 'total', number>>()(orderWire);
    // @ts-expect-error: an array item's field retyped
    typedAs<Retyped<Order, 'lines', { sku: string; price: number }[]>>()(orderWire);
    // @ts-expect-error: an array item with a field the schema does not have
    typedAs<Retyped<Order, 'lines', (OrderLine & { tax: string })[]>>()(orderWire);
    // @ts-expect-error: a nested object's field retyped
    typedAs<Retyped<Order, 'buyer', { name?: number | null | undefined } | null | undefined>>()(orderWire);
    // @ts-expect-error: an unchecked field claimed to be a string
    typedAs<Retyped<Order, 'hint', string | undefined>>()(orderWire);
    expect(typeof typedAs<Order>()).toBe('function');
  });

  it('optional and nullable: the same on both sides', () => {
    // @ts-expect-error: a required field made optional
    typedAs<Omit<Order, 'paid_at'> & { paid_at?: string | null }>()(orderWire);
    // @ts-expect-error: an optional field made required
    typedAs<Omit<Order, 'note'> & { note: string | null | undefined }>()(orderWire);
    // @ts-expect-error: a nullable field no longer nullable
    typedAs<Omit<Order, 'note'> & { note?: string | undefined }>()(orderWire);
    // @ts-expect-error: null allowed where the schema refuses it
    typedAs<Retyped<Order, 'id', string | null>>()(orderWire);
    expect(orderWire.safeParse({ ...orderJson, id: null }).success).toBe(false);
  });

  it('open enums: a union of strings for the schema’s string, and nothing wider or of another type', () => {
    // The known values narrow the open enum's string; the plain string agrees too.
    expectTypeOf(typedAs<Retyped<Order, 'status', string>>()(orderWire)).not.toBeNever();
    // @ts-expect-error: a union that is not only strings
    typedAs<Retyped<Order, 'status', 'open' | 0>>()(orderWire);
    // @ts-expect-error: wider than a closed enum of the schema
    typedAs<Retyped<Order, 'kind', string>>()(orderWire);
    // @ts-expect-error: a closed enum's values are not its to change
    typedAs<Retyped<Order, 'kind', 'retail'>>()(orderWire);
    expect(orderWire.safeParse({ ...orderJson, kind: 'other' }).success).toBe(false);
  });

  it('the interface is closed: an index signature on it is refused; a JSON record keeps its own', () => {
    // @ts-expect-error: an open interface would let a merchant's typo compile
    typedAs<Order & { [field: string]: unknown }>()(orderWire);
    interface Anything {
      [field: string]: unknown;
    }
    expectTypeOf(typedAs<Anything>()(jsonObject)).not.toBeNever();
    // @ts-expect-error: a record has no named field
    typedAs<{ id: string }>()(jsonObject);
  });

  it('the compile error names each field that disagrees, with why', () => {
    const tie = typedAs<Omit<Order, 'note' | 'lines'> & { note: string; lines: { sku: string; price: number }[] }>();
    type Expected = Parameters<typeof tie<typeof orderWire>>[0];
    expectTypeOf<keyof Expected>().toEqualTypeOf<'note' | 'lines[].price'>();
    expectTypeOf<Expected['lines[].price']['why']>().toEqualTypeOf<'the types differ'>();
    expectTypeOf<Expected['lines[].price']['interface']>().toEqualTypeOf<number>();
    expectTypeOf<Expected['lines[].price']['schema']>().toEqualTypeOf<string>();
    expectTypeOf<Expected['note']['why']>().toEqualTypeOf<'optional in the schema only'>();
    // When the two agree, the parameter is the schema's own type.
    const agreeing = typedAs<Order>();
    expectTypeOf<Parameters<typeof agreeing<typeof orderWire>>[0]>().toEqualTypeOf<typeof orderWire>();
    expect([typeof tie, typeof agreeing]).toEqual(['function', 'function']);
  });

  it('request parameters: the interface is exactly what the strict schema accepts', () => {
    const refundSchema = paramsTypedAs<RefundParams>()(refundParams);
    expect(refundSchema).toBe(refundParams);
    // The schema keeps its own type: validate gives the body sent (money as a number).
    expectTypeOf<z.output<typeof refundSchema>['amount']>().toEqualTypeOf<number>();
    expect(refundSchema.parse({ charge_id: 'ch_1', amount: '25000.50' })).toEqual({
      charge_id: 'ch_1',
      amount: 25000.5,
    });
    // @ts-expect-error: money accepted as a number only, where the schema takes a string too
    paramsTypedAs<Retyped<RefundParams, 'amount', number>>()(refundParams);
    // @ts-expect-error: an optional parameter made required
    paramsTypedAs<Retyped<RefundParams, 'reason', string>>()(refundParams);
    // @ts-expect-error: a parameter the schema would refuse as unknown
    paramsTypedAs<RefundParams & { note?: string | undefined }>()(refundParams);
    // @ts-expect-error: no open enum in a request: a union is narrower than the text the schema takes
    paramsTypedAs<Retyped<RefundParams, 'charge_id', 'ch_1' | 'ch_2'>>()(refundParams);
  });
});
