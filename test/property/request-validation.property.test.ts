/**
 * Request validation, property-based: requests generated from the service
 * spec's rules are always sent, in their wire form, and the sandbox's own
 * rules (written independently, server side) accept that wire form; a
 * request that breaks exactly one rule is always refused with
 * `RequestValidationError` naming exactly that field, and nothing is sent.
 *
 * Valid amounts stay within what a JSON number carries exactly (15
 * significant digits, or whole amounts up to 2^53 - 1): beyond that the SDK
 * refuses on purpose rather than send a rounded amount.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { parseCents } from '../../src/testing/service/money.js';
import { checkCharge, checkTransfer } from '../../src/testing/service/rules.js';
import { codePointLength, formatCents, listResponse, successResponse, wireClient } from '../helpers/wire.js';
import { createdChargeJson, transferJson } from '../helpers/fixtures.js';

/** Runs per property; raise with LUNAS_PROPERTY_RUNS for a deeper search by hand. */
const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 120);
const MISSING = Symbol('missing');
type Value = unknown;

const { client, sent } = wireClient((request) => {
  // The page asked for: answering another one is a response the SDK refuses.
  if (request.method === 'GET') return listResponse([], Number(request.url.searchParams.get('page') ?? 1));
  return successResponse(request.url.pathname === '/v1/transfers' ? transferJson() : createdChargeJson());
});

// ---------------------------------------------------------------- generators

/** A money value and the cents it stands for. */
interface Money {
  value: number | string;
  cents: bigint;
}

/** Valid money: every form a merchant may pass, within what a JSON number carries exactly. */
const validMoney: fc.Arbitrary<Money> = fc
  .tuple(
    fc.oneof(
      fc.bigInt({ min: 1n, max: 100_00n }),
      fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }),
      fc.bigInt({ min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) }).map((whole) => whole * 100n),
    ),
    fc.constantFrom('number', 'two decimals', 'shortest', 'leading zeros'),
  )
  .map(([cents, form]) => {
    const text = formatCents(cents);
    switch (form) {
      case 'number':
        return { cents, value: Number(text) };
      case 'two decimals':
        return { cents, value: text };
      case 'leading zeros':
        return { cents, value: `00${text}` };
      default:
        return { cents, value: text.replace(/\.00$/, '').replace(/(\.\d)0$/, '$1') };
    }
  });

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Money that breaks a rule: not above 0, a third decimal, not finite, not a number, too large to send exactly, absent. */
const invalidMoney: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom(0, -0, '0', '0.00', '-0', '000.00', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.bigInt({ min: 1n, max: 10n ** 12n }).map((cents) => `-${formatCents(cents)}`),
  fc.bigInt({ min: 1n, max: 10n ** 12n }).map((cents) => -Number(formatCents(cents))),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 1, max: 9 }), fc.boolean())
    .map(([cents, digit, asNumber]) => {
      const text = `${formatCents(cents)}${digit}`;
      return asNumber ? Number(text) : text;
    }),
  fc
    .tuple(fc.bigInt({ min: 10n ** 16n, max: 10n ** 22n }), fc.integer({ min: 1, max: 99 }))
    .map(([whole, fraction]) => `${whole}.${String(fraction).padStart(2, '0')}`),
  fc.string({ maxLength: 12 }).filter((text) => !DECIMAL.test(text)),
  fc.constantFrom('1e3', '+5', ' 5', '5 ', '5.', '.5', '1,000.00', '0x10', 'Infinity'),
  fc.constantFrom<Value>(true, false, null, {}, [], [5], { amount: 5 }, MISSING),
);

/** Strings of any code points, lone surrogates included. */
const anyText = (constraints: { minLength?: number; maxLength?: number }) =>
  fc.string({
    ...constraints,
    unit: fc.oneof(
      { weight: 30, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\u0000', '\r\n') },
    ),
  });

/** Text of at most `max` code points. */
const textUpTo = (max: number) => anyText({ maxLength: max }).filter((text) => codePointLength(text) <= max);
/** Text longer than `max` code points. */
const textOver = (max: number) =>
  anyText({ minLength: max + 1, maxLength: max + 30 }).filter((text) => codePointLength(text) > max);

const notAString: fc.Arbitrary<Value> = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constantFrom<Value>(null, {}, [], ['x'], 1.5),
);

const KNOWN_KEYS = new Set([
  'payment_method',
  'amount',
  'channel',
  'currency',
  'customer_details',
  'client_reference_id',
  'expires_at',
  'items',
  'description',
  'payment_method_options',
  'destination_account_id',
  'page',
  'pagesize',
]);
/** Names every object inherits: an unknown field with one of them has its own test below. */
const INHERITED = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__proto__',
  'toLocaleString',
];
/** A field name the schema does not know. */
const unknownKey = fc.oneof(
  fc.string({ maxLength: 20 }).filter((key) => !KNOWN_KEYS.has(key) && !(key in Object.prototype)),
  fc.constantFrom('source_account_id', 'status', 'id', 'page_size', 'Amount', 'amount ', ''),
);

/** An ISO 8601 datetime with a zone, as a merchant may write it, and the instant in UTC it names. */
const isoDatetime: fc.Arbitrary<{ text: string; utc: string }> = fc
  .record({
    year: fc.integer({ min: 1971, max: 9998 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.option(fc.integer({ min: 0, max: 59 })),
    millis: fc.option(fc.integer({ min: 0, max: 999 })),
    offset: fc.option(fc.integer({ min: -14 * 60, max: 14 * 60 })),
    colon: fc.boolean(),
    lower: fc.boolean(),
  })
  .filter(({ year, month, day }) => day <= new Date(Date.UTC(year, month, 0)).getUTCDate())
  .map(({ year, month, day, hour, minute, second, millis, offset, colon, lower }) => {
    const two = (n: number) => String(n).padStart(2, '0');
    let text = `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`;
    if (second !== null) text += `:${two(second)}${millis === null ? '' : `.${String(millis).padStart(3, '0')}`}`;
    let zone = 'Z';
    if (offset !== null) {
      const abs = Math.abs(offset);
      zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}${colon ? ':' : ''}${two(abs % 60)}`;
    }
    text += zone;
    if (lower) text = text.toLowerCase();
    const utc =
      Date.UTC(year, month - 1, day, hour, minute, second ?? 0, second === null ? 0 : (millis ?? 0)) -
      (offset ?? 0) * 60_000;
    return { text, utc: new Date(utc).toISOString() };
  });

const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/i;
const invalidDatetime: fc.Arbitrary<Value> = fc.oneof(
  fc.string({ maxLength: 30 }).filter((text) => !ISO_SHAPE.test(text)),
  fc.constantFrom<Value>(
    '2023-02-29T00:00:00Z', // not a leap year
    '2024-02-30T10:00:00Z',
    '2024-04-31T10:00:00Z',
    '2024-13-01T10:00:00Z',
    '2024-00-10T10:00:00Z',
    '2024-01-32T10:00:00Z',
    '2024-01-01T10:00:00', // no zone
    '2024-01-01', // no time
    '2024-01-01T10:60:00Z',
    '2024-01-01T10:00:00+25:00',
    '2024-01-01 10:00:00Z',
    new Date(Number.NaN),
    1_700_000_000_000,
    null,
    true,
    {},
  ),
);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invalidEmail: fc.Arbitrary<Value> = fc.oneof(
  fc.string({ maxLength: 30 }).filter((text) => !EMAIL.test(text)),
  fc.constantFrom<Value>(
    'siti@example',
    '@example.com',
    'siti@',
    'si ti@example.com',
    'siti@exa mple.com',
    'a@b@c.d',
    5,
    null,
  ),
);

/** A case: parameters, and either the wire form to expect or the one field that must be reported. */
interface Case {
  params: Record<string, unknown>;
  /** The JSON body (or query) the SDK must send. */
  wire?: Record<string, unknown>;
  /** The dotted field the refusal must name. */
  field?: string;
  /** Amounts to check to the cent: dotted path in the wire body -> cents. */
  money?: [string, bigint][];
}

const idrInAnyCase = fc.mixedCase(fc.constant('idr'));

const validTransfer: fc.Arbitrary<Case> = fc
  .record(
    {
      destination_account_id: anyText({ minLength: 1, maxLength: 40 }),
      amount: validMoney,
      currency: idrInAnyCase,
      client_reference_id: textUpTo(50),
      description: textUpTo(255),
    },
    { requiredKeys: ['destination_account_id', 'amount', 'currency'], noNullPrototype: true },
  )
  .map(({ amount, ...rest }) => {
    const params = { ...rest, amount: amount.value };
    const wire = { ...rest, amount: Number(formatCents(amount.cents)), currency: 'idr' };
    return { params, wire, money: [['amount', amount.cents]] };
  });

const item = fc
  .record({
    name: anyText({ minLength: 1, maxLength: 20 }),
    price: validMoney,
    quantity: fc.integer({ min: 1, max: 2 ** 31 }),
  })
  .map(({ price, ...rest }) => ({
    params: { ...rest, price: price.value },
    wire: { ...rest, price: Number(formatCents(price.cents)) },
    cents: price.cents,
  }));

const validCharge: fc.Arbitrary<Case> = fc
  .record(
    {
      payment_method: fc.constantFrom('qris', 'virtual_account'),
      amount: validMoney,
      channel: anyText({ maxLength: 20 }),
      currency: fc.mixedCase(fc.stringMatching(/^[a-z]{3}$/)),
      customer_details: fc.record(
        { name: anyText({ maxLength: 30 }), email: fc.emailAddress(), phone_number: anyText({ maxLength: 20 }) },
        { requiredKeys: [], noNullPrototype: true },
      ),
      client_reference_id: textUpTo(50),
      expires_at: fc.oneof(
        isoDatetime,
        fc
          .date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('9998-12-31T00:00:00Z'), noInvalidDate: true })
          .map((date) => ({ text: date, utc: date.toISOString() })),
      ),
      items: fc.array(item, { maxLength: 4 }),
      description: textUpTo(255),
      payment_method_options: fc.record(
        {
          virtual_account: fc.record(
            { account_name: anyText({ maxLength: 30 }), account_number: fc.option(fc.stringMatching(/^\d{10,16}$/)) },
            { requiredKeys: [], noNullPrototype: true },
          ),
          qris: fc.dictionary(
            fc.string({ maxLength: 8 }).filter((key) => key !== '__proto__'),
            fc.jsonValue({ maxDepth: 2 }),
            {
              maxKeys: 3,
              noNullPrototype: true,
            },
          ),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
    },
    { requiredKeys: ['payment_method', 'amount'], noNullPrototype: true },
  )
  .map(({ amount, currency, expires_at, items, ...rest }) => {
    const params: Record<string, unknown> = { ...rest, amount: amount.value };
    const wire: Record<string, unknown> = { ...rest, amount: Number(formatCents(amount.cents)) };
    const money: [string, bigint][] = [['amount', amount.cents]];
    if (currency !== undefined) {
      params.currency = currency;
      wire.currency = currency.toLowerCase();
    }
    if (expires_at !== undefined) {
      params.expires_at = expires_at.text;
      wire.expires_at = expires_at.utc;
    }
    if (items !== undefined) {
      params.items = items.map((each) => each.params);
      wire.items = items.map((each) => each.wire);
      items.forEach((each, index) => money.push([`items.${index}.price`, each.cents]));
    }
    return { params, wire, money };
  });

/** Sets (or with MISSING, deletes) a dotted field in a deep copy; an own `__proto__` key stays a plain key. */
function withField(params: Record<string, unknown>, path: string, value: Value): Record<string, unknown> {
  const copy = structuredClone(params) as Record<string, unknown>;
  const parts = path.split('.');
  let target = copy;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    if (typeof next !== 'object' || next === null) target[part] = {};
    target = target[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value === MISSING) delete target[last];
  else addField(target, last, value);
  return copy;
}

/** A valid case with one field replaced by a value that breaks that field's rule. */
function violation(valid: fc.Arbitrary<Case>, rules: [string, fc.Arbitrary<Value>][]): fc.Arbitrary<Case> {
  return fc.oneof(
    ...rules.map(([path, bad]) =>
      fc.tuple(valid, bad).map(([base, value]) => ({ params: withField(base.params, path, value), field: path })),
    ),
  );
}

/** A valid case with one unknown field added, at the top or inside an object the schema closes. */
function unknownField(valid: fc.Arbitrary<Case>, parents: string[]): fc.Arbitrary<Case> {
  return fc
    .tuple(valid, fc.constantFrom(...parents), unknownKey, fc.jsonValue({ maxDepth: 1 }))
    .map(([base, parent, key, value]) => {
      const params =
        parent === '' || getPath(base.params, parent)
          ? structuredClone(base.params)
          : withField(base.params, parent, {});
      addField(parent === '' ? params : (getPath(params, parent) as Record<string, unknown>), key, value);
      return { params, field: parent === '' ? key : `${parent}.${key}` };
    });
}

/** Adds an own, enumerable field, even one named `__proto__`. */
function addField(target: Record<string, unknown>, key: string, value: Value): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function getPath(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (at, part) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined),
      value,
    );
}

// ---------------------------------------------------------------- checks

async function expectSent(call: Promise<unknown>, check: () => void): Promise<void> {
  sent.length = 0;
  await call;
  expect(sent).toHaveLength(1);
  check();
}

async function expectRefused(call: () => Promise<unknown>, field: string): Promise<void> {
  sent.length = 0;
  let outcome: unknown;
  try {
    await call();
    outcome = 'resolved';
  } catch (error) {
    outcome = error;
  }
  expect(outcome).toBeInstanceOf(RequestValidationError);
  expect(Object.keys((outcome as RequestValidationError).fields)).toEqual([field]);
  expect(sent).toHaveLength(0);
}

function expectExactMoney(body: unknown, money: [string, bigint][] | undefined): void {
  for (const [path, cents] of money ?? []) {
    const amount = getPath(body, path);
    expect(typeof amount).toBe('number');
    expect(parseCents(amount)).toBe(cents);
  }
}

const everyDestinationActive = { sourceAccountId: 'acc_merchant', isActive: () => true };

describe('transfers.create validation', () => {
  it('sends every valid request, in the wire form, and the service rules accept it', async () => {
    await fc.assert(
      fc.asyncProperty(validTransfer, async ({ params, wire, money }) => {
        await expectSent(client.transfers.create(params as never), () => {
          const body = JSON.parse(sent[0]!.body) as Record<string, unknown>;
          expect(body).toEqual(JSON.parse(JSON.stringify(wire)));
          expectExactMoney(body, money);
          expect(checkTransfer(body, everyDestinationActive)).toMatchObject({ ok: true });
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a request breaking exactly one rule, naming that field, and sends nothing', async () => {
    const broken = fc.oneof(
      violation(validTransfer, [
        ['amount', invalidMoney],
        ['destination_account_id', fc.constantFrom<Value>('', MISSING, null, 5, true, {}, [])],
        [
          'currency',
          fc.oneof(
            fc.constantFrom<Value>('', MISSING, null, 5, {}),
            fc.string().filter((text) => text.toLowerCase() !== 'idr'),
          ),
        ],
        ['client_reference_id', fc.oneof(textOver(50), notAString)],
        ['description', fc.oneof(textOver(255), notAString)],
      ]),
      unknownField(validTransfer, ['']),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ params, field }) => {
        await expectRefused(() => client.transfers.create(params as never), field!);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});

describe('charges.create validation', () => {
  it('sends every valid request, in the wire form, and the service rules accept it', async () => {
    await fc.assert(
      fc.asyncProperty(validCharge, async ({ params, wire, money }) => {
        await expectSent(client.charges.create(params as never), () => {
          const body = JSON.parse(sent[0]!.body) as Record<string, unknown>;
          expect(body).toEqual(JSON.parse(JSON.stringify(wire)));
          expectExactMoney(body, money);
          expect(checkCharge(body)).toMatchObject({ ok: true });
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a request breaking exactly one rule, naming that field, and sends nothing', async () => {
    const withItem = validCharge.map((base) =>
      Array.isArray(base.params.items) && base.params.items.length > 0
        ? base
        : { ...base, params: { ...base.params, items: [{ name: 'Tea', price: 5000, quantity: 1 }] } },
    );
    const broken = fc.oneof(
      violation(validCharge, [
        [
          'payment_method',
          fc
            .oneof(fc.constantFrom<Value>(MISSING, null, 5, 'QRIS', 'card', ''), fc.string())
            .filter((value) => value !== 'qris' && value !== 'virtual_account'),
        ],
        ['amount', invalidMoney],
        ['channel', notAString],
        [
          'currency',
          fc.oneof(
            fc.string().filter((text) => !/^[A-Za-z]{3}$/.test(text)),
            notAString,
          ),
        ],
        ['customer_details', fc.constantFrom<Value>('Siti', 5, null, [], true)],
        ['customer_details.email', invalidEmail],
        ['customer_details.name', notAString],
        ['customer_details.phone_number', notAString],
        ['client_reference_id', fc.oneof(textOver(50), notAString)],
        ['expires_at', invalidDatetime],
        ['description', fc.oneof(textOver(255), notAString)],
        ['items', fc.constantFrom<Value>('tea', 5, {}, null, true)],
        ['payment_method_options', fc.constantFrom<Value>('va', 5, null, [], true)],
        ['payment_method_options.virtual_account', fc.constantFrom<Value>('va', 5, null, [], true)],
        ['payment_method_options.virtual_account.account_name', notAString],
        ['payment_method_options.virtual_account.account_number', fc.constantFrom<Value>(5, true, {}, [], 1.5)],
        ['payment_method_options.qris', fc.constantFrom<Value>('x', 5, null, [], true)],
      ]),
      violation(withItem, [
        ['items.0', fc.constantFrom<Value>('tea', 5, null, [], true)],
        ['items.0.name', fc.constantFrom<Value>(MISSING, null, 5, true, {})],
        ['items.0.price', invalidMoney],
        [
          'items.0.quantity',
          fc.constantFrom<Value>(MISSING, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2', null),
        ],
      ]),
      unknownField(withItem, ['', 'customer_details', 'items.0', 'payment_method_options.virtual_account']),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ params, field }) => {
        await expectRefused(() => client.charges.create(params as never), field!);
      }),
      { numRuns: RUNS * 3 },
    );
  });
});

describe('list params validation', () => {
  const lists = ['charges', 'transfers', 'payouts', 'paymentMethods'] as const;
  const validList = fc.record(
    { page: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), pagesize: fc.integer({ min: 1, max: 100 }) },
    { requiredKeys: [], noNullPrototype: true },
  );

  it('sends page and pagesize as given, for every list', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), validList, async (name, params) => {
        await expectSent(client[name].list(params), () => {
          const query = Object.fromEntries(sent[0]!.url.searchParams);
          expect(query).toEqual({
            page: String(params.page ?? 1),
            ...(params.pagesize === undefined ? {} : { pagesize: String(params.pagesize) }),
          });
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a bad page, pagesize or unknown field, naming it, and sends nothing', async () => {
    const badInt = (max?: number) =>
      fc.oneof(
        fc.constantFrom<Value>(0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2', null, true),
        fc.integer({ max: 0 }),
        ...(max === undefined ? [] : [fc.integer({ min: max + 1 })]),
      );
    const broken = fc.oneof(
      violation(
        validList.map((params) => ({ params })),
        [
          ['page', badInt()],
          ['pagesize', badInt(100)],
        ],
      ),
      unknownField(
        validList.map((params) => ({ params })),
        [''],
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), broken, async (name, { params, field }) => {
        await expectRefused(() => client[name].list(params as never), field!);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('an unknown field named like a member every object inherits', () => {
  const calls: [string, (params: Record<string, unknown>) => Promise<unknown>, Record<string, unknown>][] = [
    [
      'transfers.create',
      (params) => client.transfers.create(params as never),
      { destination_account_id: 'acc_partner', amount: 10, currency: 'idr' },
    ],
    ['charges.create', (params) => client.charges.create(params as never), { payment_method: 'qris', amount: 10 }],
    ['charges.list', async (params) => client.charges.list(params), { pagesize: 10 }],
    ['transfers.list', async (params) => client.transfers.list(params), {}],
    ['payouts.list', async (params) => client.payouts.list(params), {}],
    ['paymentMethods.list', async (params) => client.paymentMethods.list(params), {}],
  ];

  // A params object built by JSON.parse, or spread from one, can carry any own key.
  it.each(INHERITED)('%s is refused with RequestValidationError naming it, never a TypeError', async (key) => {
    for (const [, call, valid] of calls) {
      const params = { ...valid };
      addField(params, key, 1);
      await expectRefused(() => call(params), key);
    }
  });
});
