/**
 * Options checked by name, property-based, for every kind of options (client,
 * withOptions, resource methods, raw GET and POST, toArray, webhooks.confirm,
 * and the sandbox's own copy of the check in startSandbox):
 * a name one edit away from a known one (insert, delete, substitute,
 * transpose, case change, snake_case, kebab-case) is always refused, and the
 * message suggests the intended name whenever it is the nearest; any other
 * unknown name is refused too, in one short line, with nothing sent; and
 * valid options are accepted and honoured in every form a JavaScript caller
 * may build them: plain, `null`-prototype, with inherited extras, with symbol
 * or non-enumerable extras, and with `Object.prototype` polluted (restored
 * after each run). Request fields (list params, create bodies, items[]) get
 * the same suggestion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Client, type ClientOptions, LunasError, RequestValidationError } from '../../src/index.js';
import { startSandbox, type SandboxOptions } from '../../src/testing/index.js';
import { listResponse, successResponse, wireClient } from '../helpers/wire.js';
import { API_KEY, BASE_URL, chargeJson, transferJson } from '../helpers/fixtures.js';
import { thrown } from '../helpers/rejection.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 150);

const CLIENT = [
  'apiKey',
  'baseURL',
  'timeout',
  'maxRetries',
  'fetch',
  'defaultHeaders',
  'logger',
  'logLevel',
  'dangerouslyAllowBrowser',
];
const REQUEST = ['idempotencyKey', 'timeout', 'maxRetries', 'signal', 'headers'];
const SANDBOX = ['apiKey', 'port', 'accounts', 'account', 'payouts', 'paymentMethods', 'webhookUrl', 'now'];

const EVENT = { id: 'evt_2', type: 'payout.paid', created_at: '2026-11-23T03:00:00Z', data: { id: 'po_1' } };
const TRANSFER = { destination_account_id: 'acc_partner', amount: 10, currency: 'idr' };

const { client, sent } = wireClient((request) => {
  if (request.method === 'GET' && request.url.pathname.endsWith('/charges')) return listResponse([chargeJson()]);
  return successResponse(request.method === 'GET' ? chargeJson() : transferJson());
});

/** Where options are given per call: the names each accepts, and a call with them. */
const CALLS: { label: string; known: string[]; call: (options: object) => Promise<unknown> }[] = [
  { label: 'charges.retrieve', known: REQUEST, call: (o) => client.charges.retrieve('ch_1', o) },
  { label: 'transfers.create', known: REQUEST, call: (o) => client.transfers.create(TRANSFER, o) },
  { label: 'charges.list', known: REQUEST, call: (o) => client.charges.list(undefined, o) },
  { label: 'webhooks.confirm', known: REQUEST, call: (o) => client.webhooks.confirm(EVENT, o) },
  { label: 'client.get', known: [...REQUEST, 'query', 'schema'], call: (o) => client.get('/v1/payouts', o) },
  { label: 'client.post', known: [...REQUEST, 'body', 'schema'], call: (o) => client.post('/v1/transfers', o) },
  { label: 'toArray', known: ['limit'], call: (o) => client.charges.list().toArray({ limit: 1, ...o }) },
];

// ---------------------------------------------------------------- valid options, every form
// First in the file: after thousands of generated property names, V8 makes
// each change to Object.prototype slow, and the polluted runs with it.

type Form = 'plain' | 'null prototype' | 'inherited extras' | 'symbol and non-enumerable extras' | 'polluted prototype';
const FORMS: Form[] = [
  'plain',
  'null prototype',
  'inherited extras',
  'symbol and non-enumerable extras',
  'polluted prototype',
];

/** Extras that must be neither refused nor read: unknown names, and known names with values that would fail. */
const EXTRAS: Record<string, unknown> = {
  timeOut: 1,
  maxRetry: 0,
  idempotency_key: 'extra-key',
  idempotencyKey: 'extra-key',
  maxRetries: 'many',
  timeout: -1,
  headers: 'none',
  query: 'none',
  body: 'never-sent',
  limit: 'none',
  logger: 'console',
  logLevel: 'loud',
  apiKey: 'sk_extra',
  baseURL: 'ftp://extra',
};

/**
 * What goes on `Object.prototype`: not `headers`, `body`, `signal` or
 * `timeout`, which `fetch` (its `RequestInit` reads inherited members) or ky
 * read for themselves, so polluting them breaks every library's requests.
 */
const POLLUTION = Object.fromEntries(
  Object.entries(EXTRAS).filter(([name]) => !['headers', 'body', 'signal', 'timeout'].includes(name)),
);

/** `values` in the given form, and a cleanup that restores `Object.prototype`. */
function inForm(values: Record<string, unknown>, form: Form): { options: object; restore: () => void } {
  let restore = () => {};
  switch (form) {
    case 'plain':
      return { options: { ...values }, restore };
    case 'null prototype':
      return { options: Object.assign(Object.create(null) as object, values), restore };
    case 'inherited extras':
      return { options: Object.assign(Object.create(EXTRAS) as object, values), restore };
    case 'symbol and non-enumerable extras': {
      const options: Record<string | symbol, unknown> = { ...values, [Symbol('extra')]: 1 };
      for (const [name, value] of Object.entries(EXTRAS))
        if (!(name in values)) Object.defineProperty(options, name, { value, enumerable: false });
      return { options, restore };
    }
    case 'polluted prototype': {
      const polluted = Object.prototype as Record<string, unknown>;
      const added = Object.keys(POLLUTION).filter((name) => !Object.hasOwn(polluted, name));
      for (const name of added) polluted[name] = POLLUTION[name];
      restore = () => {
        for (const name of added) delete polluted[name];
      };
      return { options: { ...values }, restore };
    }
  }
}

const requestValues = fc.record(
  {
    idempotencyKey: fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
    timeout: fc.integer({ min: 1_000, max: 60_000 }),
    maxRetries: fc.integer({ min: 0, max: 3 }),
    headers: fc.constant({ 'x-trace': 'trace-1' }),
  },
  { requiredKeys: [] },
);

describe('valid options in every form', () => {
  it('are accepted and honoured per call', async () => {
    let attempts = 0;
    const failing = wireClient(() => {
      attempts++;
      return new Response('{}', { status: 503, headers: { 'retry-after-ms': '0' } });
    });
    await fc.assert(
      fc.asyncProperty(requestValues, fc.constantFrom(...FORMS), async (values, form) => {
        attempts = 0;
        failing.sent.length = 0;
        // Read before Object.prototype may be polluted: `values` is a plain object too.
        const { idempotencyKey, maxRetries = 0, headers } = { ...values };
        const { options, restore } = inForm({ ...values, body: TRANSFER }, form);
        try {
          await expect(failing.client.post('/v1/transfers', options)).rejects.toMatchObject({
            status: 503,
          });
        } finally {
          restore();
        }
        expect(attempts).toBe(maxRetries + 1);
        expect(new Set(failing.sent.map((request) => request.headers.get('idempotency-key'))).size).toBe(1);
        for (const request of failing.sent) {
          if (idempotencyKey !== undefined) expect(request.headers.get('idempotency-key')).toBe(idempotencyKey);
          else expect(request.headers.get('idempotency-key')).not.toBe('extra-key');
          expect(request.headers.get('x-trace')).toBe(headers ? 'trace-1' : null);
          expect(JSON.parse(request.body)).toEqual(TRANSFER);
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('are accepted and honoured by the client and withOptions', () => {
    fc.assert(
      fc.property(
        fc.record(
          { timeout: fc.integer({ min: 1, max: 60_000 }), maxRetries: fc.integer({ min: 0, max: 10 }) },
          { requiredKeys: [] },
        ),
        fc.constantFrom(...FORMS),
        (values, form) => {
          const { timeout = 30_000, maxRetries = 2 } = { ...values };
          const { options, restore } = inForm({ apiKey: API_KEY, baseURL: BASE_URL, ...values }, form);
          try {
            const made = new Client(options as ClientOptions);
            expect(made.timeout).toBe(timeout);
            expect(made.maxRetries).toBe(maxRetries);
            expect(made.baseURL).toBe(BASE_URL);
            const derived = made.withOptions(inForm(values, 'null prototype').options as ClientOptions);
            expect([derived.timeout, derived.maxRetries]).toEqual([made.timeout, made.maxRetries]);
          } finally {
            restore();
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------- near misses

/** Optimal string alignment distance, written independently of the SDK's: the test's oracle for "nearest". */
function reference(a: string, b: string, memo = new Map<string, number>()): number {
  if (a === '' || b === '') return a.length + b.length;
  const key = `${a.length},${b.length}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const cost = a.at(-1) === b.at(-1) ? 0 : 1;
  let best = Math.min(
    reference(a.slice(0, -1), b, memo) + 1,
    reference(a, b.slice(0, -1), memo) + 1,
    reference(a.slice(0, -1), b.slice(0, -1), memo) + cost,
  );
  if (a.length > 1 && b.length > 1 && a.at(-1) === b.at(-2) && a.at(-2) === b.at(-1))
    best = Math.min(best, reference(a.slice(0, -2), b.slice(0, -2), memo) + 1);
  memo.set(key, best);
  return best;
}

const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** Whether `intended` is strictly nearer to `typo` than every other known name. */
function unambiguous(typo: string, intended: string, known: string[]): boolean {
  const distance = reference(fold(typo), fold(intended));
  return known.every((other) => other === intended || reference(fold(typo), fold(other)) > distance);
}

const TYPED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split('');

/** One edit of `name`, as a hurried typist or another language's habits make it. */
function nearMiss(name: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: name.length - 1 });
  const char = fc.constantFrom(...TYPED);
  return fc.oneof(
    fc.tuple(fc.nat({ max: name.length }), char).map(([i, c]) => name.slice(0, i) + c + name.slice(i)),
    at.map((i) => name.slice(0, i) + name.slice(i + 1)),
    fc.tuple(at, char).map(([i, c]) => name.slice(0, i) + c + name.slice(i + 1)),
    fc.nat({ max: name.length - 2 }).map((i) => name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)),
    at.map((i) => name.slice(0, i) + swapCase(name[i]!) + name.slice(i + 1)),
    fc.constantFrom(
      name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      name.toLowerCase(),
      name.toUpperCase(),
      name[0]!.toUpperCase() + name.slice(1),
    ),
  );
}

function swapCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}

/** A known name and a near miss of it that is not itself known. */
function typoOf(known: string[]): fc.Arbitrary<{ intended: string; typo: string }> {
  return fc
    .constantFrom(...known)
    .chain((intended) => nearMiss(intended).map((typo) => ({ intended, typo })))
    .filter(({ typo }) => !known.includes(typo));
}

/** The names a message suggests: `did you mean "a" or "b"?`. */
function suggested(message: string): string[] {
  const hint = /did you mean (.*)\?$/.exec(message)?.[1] ?? '';
  return [...hint.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
}

function constructionError(options: object): LunasError {
  return thrown(() => new Client({ apiKey: API_KEY, baseURL: BASE_URL, ...options }), LunasError);
}

/** The per-call refusal: a rejection (never a synchronous throw), and nothing sent. */
async function callError(
  call: (options: object) => Promise<unknown>,
  options: object,
): Promise<RequestValidationError> {
  sent.length = 0;
  let pending: Promise<unknown> | undefined;
  expect(() => (pending = call(options))).not.toThrow();
  const error = await pending!.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(sent).toHaveLength(0);
  return error as RequestValidationError;
}

describe('a name one edit from a known one', () => {
  it('is refused at construction and by withOptions, suggesting the intended option when it is the nearest', () => {
    const base = new Client({ apiKey: API_KEY, baseURL: BASE_URL, fetch: () => Promise.reject() });
    fc.assert(
      fc.property(typoOf(CLIENT), ({ intended, typo }) => {
        for (const message of [
          constructionError({ [typo]: undefined }).message,
          thrown(() => base.withOptions({ [typo]: 1 } as ClientOptions), LunasError).message,
        ]) {
          expect(message.startsWith(`Unknown option ${JSON.stringify(typo)}`)).toBe(true);
          const names = suggested(message);
          expect(names.length).toBeGreaterThan(0);
          if (unambiguous(typo, intended, CLIENT)) expect(names).toEqual([intended]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it.each(CALLS)(
    'is refused by $label before anything is sent, suggesting the intended option',
    async ({ known, call }) => {
      await fc.assert(
        fc.asyncProperty(typoOf(known), async ({ intended, typo }) => {
          const error = await callError(call, { [typo]: undefined });
          const messages = error.fields[typo];
          expect(messages).toHaveLength(1);
          expect(messages![0]!.startsWith(`Unknown option ${JSON.stringify(typo)}`)).toBe(true);
          const names = suggested(messages![0]!);
          expect(names.length).toBeGreaterThan(0);
          if (unambiguous(typo, intended, known)) expect(names).toEqual([intended]);
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    },
  );
});

/** Where request fields are checked by name: the fields each object knows, and a call adding `typo` there. */
const CHARGE = { payment_method: 'qris', amount: 10 } as const;
const ITEM = { name: 'Kopi', price: 10, quantity: 1 };
const FIELDS: { label: string; known: string[]; field: (typo: string) => string; call: (typo: string) => unknown }[] = [
  { label: 'list params', known: ['page', 'pagesize'], field: (t) => t, call: (t) => client.charges.list({ [t]: 1 }) },
  {
    label: 'transfers.create',
    known: ['destination_account_id', 'amount', 'currency', 'client_reference_id', 'description'],
    field: (t) => t,
    call: (t) => client.transfers.create({ ...TRANSFER, [t]: 'x' }),
  },
  {
    label: 'charges.create',
    known: [
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
    ],
    field: (t) => t,
    call: (t) => client.charges.create({ ...CHARGE, [t]: 'x' } as never),
  },
  {
    label: 'charges.create items[]',
    known: ['name', 'price', 'quantity'],
    field: (t) => `items.1.${t}`,
    call: (t) => client.charges.create({ ...CHARGE, items: [ITEM, { ...ITEM, [t]: 'x' }] }),
  },
];

describe('a request field one edit from a known one', () => {
  it.each(FIELDS)(
    'is refused in $label before anything is sent, suggesting the intended field',
    async ({ known, field, call }) => {
      await fc.assert(
        fc.asyncProperty(typoOf(known), async ({ intended, typo }) => {
          const error = await callError(async () => call(typo), {});
          expect(Object.keys(error.fields)).toEqual([field(typo)]);
          const names = suggested(error.fields[field(typo)]![0]!);
          expect(names.length).toBeGreaterThan(0);
          if (unambiguous(typo, intended, known)) expect(names).toEqual([intended]);
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    },
  );
});

describe('a sandbox option one edit from a known one', () => {
  it('rejects startSandbox with a TypeError before listening, suggesting the intended option', async () => {
    await fc.assert(
      fc.asyncProperty(typoOf(SANDBOX), async ({ intended, typo }) => {
        const error = await startSandbox({ [typo]: undefined } as SandboxOptions).then(
          async (started) => {
            await started.close();
            throw new Error(`started with ${JSON.stringify(typo)}`);
          },
          (reason: unknown) => reason,
        );
        expect(error).toBeInstanceOf(TypeError);
        const message = (error as TypeError).message;
        expect(message.startsWith(`Unknown sandbox option ${JSON.stringify(typo)}`)).toBe(true);
        const names = suggested(message);
        expect(names.length).toBeGreaterThan(0);
        if (unambiguous(typo, intended, SANDBOX)) expect(names).toEqual([intended]);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

// ---------------------------------------------------------------- any unknown name

const ALL_KNOWN = new Set([...CLIENT, ...REQUEST, 'query', 'body', 'schema', 'limit']);
const unknownName = fc
  .oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ minLength: 41, maxLength: 2_000 }),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'then', '', ' ', 'valueOf'),
  )
  .filter((name) => !ALL_KNOWN.has(name));

describe('any unknown name', () => {
  it('is refused at construction in one short line that never holds the value', () => {
    fc.assert(
      fc.property(unknownName, (name) => {
        const secret = 'sk_live_option_value_7f3a';
        const message = constructionError(JSON.parse(JSON.stringify({ [name]: secret })) as object).message;
        expect(message).not.toContain(secret);
        expect(message).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(message.length).toBeLessThan(400);
      }),
      { numRuns: RUNS },
    );
  });

  it('is refused by every call with a rejection keyed by the (shortened) name, nothing sent', async () => {
    await fc.assert(
      fc.asyncProperty(unknownName, fc.constantFrom(...CALLS), async (name, { call }) => {
        // JSON.parse: `__proto__` as an own key, as a parsed config has it.
        const options = JSON.parse(JSON.stringify({ [name]: 'value-never-echoed' })) as object;
        const error = await callError(call, options);
        const shortened = Array.from(name).length > 40 ? `${Array.from(name).slice(0, 40).join('')}…` : name;
        expect(Object.keys(error.fields)).toEqual([JSON.stringify(shortened).slice(1, -1)]);
        expect(error.message).not.toContain('value-never-echoed');
        expect(error.message).not.toMatch(/[\n\r]/);
      }),
      { numRuns: RUNS },
    );
  });
});
