import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  type ChargeCreateParams,
  type Client,
  LunasError,
  RequestValidationError,
  type TransferCreateParams,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { ISO_UTC } from '../../../helpers/formats.js';
import { BASE_URL, chargeJson, createdChargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { countRequests } from '../../../helpers/requests.js';

/** What a field's messages must contain: an exact message, a pattern, or just "some message". */
type Expected = string | RegExp | 'any';

/**
 * Runs `call` (which may throw or reject), expects RequestValidationError with
 * exactly the `expected` field names, each message list matching, and no request.
 */
async function expectRefused(call: (client: Client) => unknown, expected: Record<string, Expected>) {
  const counter = countRequests();
  let error: unknown;
  try {
    await call(makeClient());
  } catch (e) {
    error = e;
  }
  expect(error, 'expected the call to be refused').toBeInstanceOf(RequestValidationError);
  expect(error).toBeInstanceOf(LunasError);
  const fields = (error as RequestValidationError).fields;
  expect(Object.keys(fields).sort()).toEqual(Object.keys(expected).sort());
  for (const [field, want] of Object.entries(expected)) {
    const messages = fields[field]!;
    expect(Array.isArray(messages) && messages.length > 0, `messages for ${field}`).toBe(true);
    expect(messages.every((m) => typeof m === 'string' && m.length > 0)).toBe(true);
    if (want instanceof RegExp)
      expect(
        messages.some((m) => want.test(m)),
        `${field}: ${messages.join(' | ')}`,
      ).toBe(true);
    else if (want !== 'any') expect(messages).toContain(want);
  }
  expect(counter.count(), `requests sent: ${counter.urls.join(', ')}`).toBe(0);
  return error as RequestValidationError;
}

/** Expects the call to reach the network; returns the JSON body sent. */
async function expectSent(path: string, call: (client: Client) => Promise<unknown>, data: unknown): Promise<unknown> {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${BASE_URL}${path}`, async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(success(data) as Record<string, unknown>);
    }),
  );
  await call(makeClient());
  expect(bodies).toHaveLength(1);
  return bodies[0];
}

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

describe('list params', () => {
  const lists = [
    ['charges', (c: Client, p: unknown) => c.charges.list(p as never)],
    ['transfers', (c: Client, p: unknown) => c.transfers.list(p as never)],
    ['payouts', (c: Client, p: unknown) => c.payouts.list(p as never)],
    ['paymentMethods', (c: Client, p: unknown) => c.paymentMethods.list(p as never)],
  ] as const;

  describe.each(lists)('%s.list', (_name, list) => {
    it.each([0, -1, 1.5, Number.NaN, '2', null])('page %j', async (page) => {
      await expectRefused((c) => list(c, { page }), { page: 'any' });
    });

    it.each([0, 101, 1.5, -5, '10', Number.POSITIVE_INFINITY])('pagesize %j', async (pagesize) => {
      await expectRefused((c) => list(c, { pagesize }), { pagesize: 'any' });
    });

    it('page_size (the response spelling): did you mean pagesize?', async () => {
      await expectRefused((c) => list(c, { page_size: 10 }), { page_size: 'Unknown field: did you mean "pagesize"?' });
    });

    it.each(['pageSize', 'PAGESIZE', 'page-size'])('%s: did you mean pagesize?', async (name) => {
      await expectRefused((c) => list(c, { [name]: 10 }), { [name]: 'Unknown field: did you mean "pagesize"?' });
    });

    it('limit: the known fields listed', async () => {
      await expectRefused((c) => list(c, { limit: 10 }), { limit: 'Unknown field; known fields: page, pagesize' });
    });

    it('both bad at once', async () => {
      await expectRefused((c) => list(c, { page: 0, pagesize: 0 }), { page: 'any', pagesize: 'any' });
    });

    it('refuses when iterated with for await too, before sending', async () => {
      await expectRefused(
        async (c) => {
          for await (const _ of list(c, { pagesize: 101 })) {
            /* nothing */
          }
        },
        { pagesize: 'any' },
      );
    });
  });

  it.each([
    [1, 1],
    [1, 100],
    [250, 37],
  ])('accepts page %j with pagesize %j and sends them', async (page, pagesize) => {
    const urls: URL[] = [];
    server.use(
      http.get(`${BASE_URL}/v1/payouts`, ({ request }) => {
        urls.push(new URL(request.url));
        return HttpResponse.json({ status: 'success', data: [], page, page_size: pagesize, total_items: 0 });
      }),
    );
    await makeClient().payouts.list({ page, pagesize });
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ page: String(page), pagesize: String(pagesize) });
  });
});

describe('path ids', () => {
  it.each([
    ['', 'empty'],
    ['.', 'dot'],
    ['..', 'dot-dot'],
  ])('retrieve(%j) is refused before sending (%s)', async (id) => {
    await expectRefused((c) => c.charges.retrieve(id), { id: 'any' });
  });
});

describe('path ids that are not valid Unicode text', () => {
  it.each([
    ['a lone high surrogate', '\ud83d'],
    ['a lone low surrogate', '\ude00'],
    ['an emoji cut in half', `ch_${'😀'.slice(0, 1)}`],
  ])('retrieve with %s is refused as id, not a URIError, and nothing is sent', async (_name, id) => {
    await expectRefused((c) => c.charges.retrieve(id), {
      id: 'ID must be valid Unicode text: it holds half of a UTF-16 surrogate pair, often text cut inside an emoji',
    });
  });

  it('a whole emoji is fine and percent-encoded', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${BASE_URL}/v1/payments/charges/:id`, ({ request }) => {
        urls.push(new URL(request.url).pathname);
        return HttpResponse.json(success(chargeJson()));
      }),
    );
    await makeClient().charges.retrieve('ch_😀');
    expect(urls).toEqual(['/v1/payments/charges/ch_%F0%9F%98%80']);
  });

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
