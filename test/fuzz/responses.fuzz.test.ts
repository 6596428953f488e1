/**
 * Response fuzz: every endpoint method is answered, at 200, 400, 404 and 500,
 * with hostile bodies (a catalogue of known troublemakers) and random ones
 * (fast-check). Whatever arrives:
 * - the call settles, within a deadline, and a rejection is a `LunasError`
 *   subclass, never a TypeError, SyntaxError or RangeError;
 * - an error status always yields the class for that status;
 * - a value is returned only for a 2xx carrying a valid success envelope
 *   (judged by an independent checker below, not the SDK's schemas), and for
 *   every such envelope;
 * - nothing leaks into Object.prototype.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIError,
  BadRequestError,
  type Client,
  InternalServerError,
  LunasError,
  NotFoundError,
  Page,
  ResponseBodyError,
  ResponseValidationError,
} from '../../src/index.js';
import { normalizeMoney } from '../../src/shared/money.js';
import { wireClient } from '../helpers/wire.js';
import { chargeJson, createdChargeJson, transferJson } from '../helpers/fixtures.js';

const RUNS = Number(process.env.LUNAS_FUZZ_RUNS ?? 80);
const DEADLINE_MS = 10_000;
const STATUSES = [200, 400, 404, 500] as const;
const CLASS_FOR: Record<(typeof STATUSES)[number], typeof APIError> = {
  200: APIError,
  400: BadRequestError,
  404: NotFoundError,
  500: InternalServerError,
};

type Kind = 'charge' | 'createdCharge' | 'transfer' | 'chargeList' | 'transferList' | 'objectList';

interface Method {
  name: string;
  kind: Kind;
  call: (client: Client) => Promise<unknown>;
}

const METHODS: Method[] = [
  {
    name: 'charges.create',
    kind: 'createdCharge',
    call: (c) => c.charges.create({ payment_method: 'qris', amount: 10_000 }),
  },
  { name: 'charges.retrieve', kind: 'charge', call: (c) => c.charges.retrieve('ch_0123456789abcdef01234567') },
  { name: 'charges.list', kind: 'chargeList', call: async (c) => c.charges.list({ pagesize: 2 }) },
  {
    name: 'transfers.create',
    kind: 'transfer',
    call: (c) => c.transfers.create({ destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' }),
  },
  { name: 'transfers.list', kind: 'transferList', call: async (c) => c.transfers.list({ pagesize: 2 }) },
  { name: 'payouts.list', kind: 'objectList', call: async (c) => c.payouts.list({ pagesize: 2 }) },
  { name: 'paymentMethods.list', kind: 'objectList', call: async (c) => c.paymentMethods.list({ pagesize: 2 }) },
];

// ------------------------------------------------------------ the independent checker

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// A JSON number from 2^46 on cannot be trusted to the cent (two amounts a cent apart parse
// to the same number), so the SDK refuses it: the money rule of the contract, not a choice here.
const isMoney = (value: unknown) =>
  (typeof value === 'string' || (typeof value === 'number' && Math.abs(value) < 2 ** 46)) &&
  normalizeMoney(value) !== undefined;
const isString = (value: unknown) => typeof value === 'string';
const optional = (check: (value: unknown) => boolean) => (value: unknown) =>
  value === undefined || value === null || check(value);

function has(object: Json, rules: Record<string, (value: unknown) => boolean>): boolean {
  return Object.entries(rules).every(([field, rule]) => rule(Object.hasOwn(object, field) ? object[field] : undefined));
}

const customer = (value: unknown) =>
  isObject(value) &&
  has(value, { name: optional(isString), email: optional(isString), phone_number: optional(isString) });
const item = (value: unknown) =>
  isObject(value) && has(value, { name: isString, price: isMoney, quantity: (q) => typeof q === 'number' });

const chargeRules = {
  id: isString,
  payment_method: isString,
  channel: optional(isString),
  status: isString,
  currency: isString,
  amount: isMoney,
  fee: isMoney,
  client_reference_id: optional(isString),
  customer_details: optional(customer),
  items: optional((value) => Array.isArray(value) && value.every(item)),
  description: optional(isString),
  expires_at: isString,
  paid_at: optional(isString),
  created_at: isString,
  updated_at: isString,
};
const isCharge = (value: unknown) => isObject(value) && has(value, chargeRules);
const virtualAccount = (value: unknown) =>
  isObject(value) && has(value, { account_name: optional(isString), account_number: optional(isString) });
const isCreatedCharge = (value: unknown) =>
  isCharge(value) &&
  has(value as Json, {
    payment_url: isString,
    qr_code_url: (url) => url === undefined || isString(url),
    payment_method_options: optional(
      (options) => isObject(options) && has(options, { virtual_account: optional(virtualAccount) }),
    ),
  });
const isTransfer = (value: unknown) =>
  isObject(value) &&
  has(value, {
    id: isString,
    source_account_id: isString,
    destination_account_id: isString,
    source_account_name: optional(isString),
    destination_account_name: optional(isString),
    status: isString,
    currency: isString,
    amount: isMoney,
    description: optional(isString),
    client_reference_id: optional(isString),
    created_at: isString,
    updated_at: isString,
  });

const ITEM_CHECK: Record<Kind, (value: unknown) => boolean> = {
  charge: isCharge,
  createdCharge: isCreatedCharge,
  transfer: isTransfer,
  chargeList: isCharge,
  transferList: isTransfer,
  objectList: isObject,
};

const isListKind = (kind: Kind) => kind.endsWith('List');

/** Whether `body` (parsed JSON) is a success envelope the method may return a value for. */
function isValidSuccess(kind: Kind, body: unknown): boolean {
  if (!isObject(body) || body.status !== 'success') return false;
  if (!isListKind(kind)) return ITEM_CHECK[kind](body.data);
  return (
    Array.isArray(body.data) &&
    body.data.every(ITEM_CHECK[kind]) &&
    [body.page, body.page_size, body.total_items].every((n) => Number.isSafeInteger(n)) &&
    // The answer to page 1 (what the fuzzed list asks for), with a page size a walk can advance by.
    body.page === 1 &&
    (body.page_size as number) >= 1
  );
}

function validData(kind: Kind): unknown {
  switch (kind) {
    case 'charge':
      return chargeJson();
    case 'createdCharge':
      // With the virtual account a buyer pays into, so mutations reach its fields too.
      return createdChargeJson({
        payment_method_options: { virtual_account: { account_name: 'Siti', account_number: '8808123456789012' } },
      });
    case 'transfer':
      return transferJson();
    case 'chargeList':
      return [chargeJson(), chargeJson({ id: 'ch_2' })];
    case 'transferList':
      return [transferJson(), transferJson({ id: 'tr_2' })];
    case 'objectList':
      return [
        { id: 'po_1', amount: '1.00' },
        { id: 'po_2', nested: { deep: [1, 2] } },
      ];
  }
}

function validEnvelope(kind: Kind): Json {
  const data = validData(kind);
  return isListKind(kind)
    ? { status: 'success', data, page: 1, page_size: 2, total_items: 2 }
    : { status: 'success', data };
}

// ------------------------------------------------------------ bodies

/** A body as the fake server sends it. */
interface Body {
  label: string;
  /** Text, raw bytes, or a stream factory. */
  payload: string | Uint8Array<ArrayBuffer> | (() => ReadableStream<Uint8Array>);
  headers?: Record<string, string>;
}

const DEPTH = 100_000;
/** 2 MiB: far beyond any real field, and enough to expose work that grows faster than the body. */
const GIGANTIC = 'x'.repeat(2 * 1024 * 1024);
const encoder = new TextEncoder();

/** Replaces the value of the first `"field":` in the JSON text with a raw literal. */
function withLiteral(json: Json, field: string, literal: string): string {
  const text = JSON.stringify(json);
  const marker = `"${field}":`;
  const at = text.indexOf(marker);
  if (at === -1) throw new Error(`no ${field} in the body`);
  const start = at + marker.length;
  return text.slice(0, start) + literal + text.slice(findValueEnd(text, start));
}

/** Where the JSON value starting at `start` ends: the index of the comma or bracket after it. */
function findValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      if (depth === 0) return i;
      depth--;
    } else if (ch === ',' && depth === 0) return i;
  }
  return text.length;
}

/** The first object in the envelope that has an `id` (the resource, or the first list item). */
function resourceOf(envelope: Json): Json {
  return (Array.isArray(envelope.data) ? envelope.data[0] : envelope.data) as Json;
}

function hostileBodies(kind: Kind): Body[] {
  const valid = validEnvelope(kind);
  const text = JSON.stringify(valid);
  const numericField = isListKind(kind) ? 'total_items' : 'amount';
  const withResource = (change: (resource: Json) => void): string => {
    const copy = structuredClone(valid);
    change(resourceOf(copy));
    return JSON.stringify(copy);
  };
  const bodies: Body[] = [
    { label: 'valid envelope', payload: text },
    { label: 'empty', payload: '' },
    { label: 'null', payload: 'null' },
    { label: 'true', payload: 'true' },
    { label: 'a number', payload: '0' },
    { label: 'a JSON string', payload: '"success"' },
    { label: 'an array', payload: '[]' },
    { label: 'an array holding the envelope', payload: `[${text}]` },
    { label: 'plain text', payload: 'OK' },
    {
      label: 'an HTML page',
      payload: '<html><body><h1>502 Bad Gateway</h1></body></html>',
      headers: { 'content-type': 'text/html' },
    },
    { label: 'truncated after one byte', payload: text.slice(0, 1) },
    { label: 'truncated in the middle', payload: text.slice(0, Math.floor(text.length / 2)) },
    { label: 'truncated before the last brace', payload: text.slice(0, -1) },
    { label: 'status missing', payload: JSON.stringify({ ...valid, status: undefined }) },
    { label: 'status "ok"', payload: JSON.stringify({ ...valid, status: 'ok' }) },
    { label: 'status "SUCCESS"', payload: JSON.stringify({ ...valid, status: 'SUCCESS' }) },
    { label: 'data missing', payload: JSON.stringify({ ...valid, data: undefined }) },
    { label: 'data null', payload: JSON.stringify({ ...valid, data: null }) },
    { label: 'data a string', payload: JSON.stringify({ ...valid, data: 'x' }) },
    { label: 'data wrapped in another array', payload: JSON.stringify({ ...valid, data: [valid.data] }) },
    {
      label: 'a fail envelope',
      payload: JSON.stringify({ status: 'fail', data: { amount: ['Amount must be greater than 0'] } }),
    },
    { label: 'an error envelope', payload: JSON.stringify({ status: 'error', message: 'boom' }) },
    {
      label: 'a fail envelope whose messages are not strings',
      payload: JSON.stringify({ status: 'fail', data: { a: [1, null, { b: 2 }], b: 7, message: 5 } }),
    },
    { label: 'id of the wrong type', payload: withResource((resource) => (resource.id = 5)) },
    { label: 'a required field missing', payload: withResource((resource) => delete resource.created_at) },
    { label: 'money true', payload: withResource((resource) => (resource.amount = true)) },
    { label: 'money an object', payload: withResource((resource) => (resource.amount = { value: 1 })) },
    { label: 'money with a third decimal', payload: withResource((resource) => (resource.amount = '1.005')) },
    { label: `${numericField} 1e400`, payload: withLiteral(valid, numericField, '1e400') },
    { label: `${numericField} -1e400`, payload: withLiteral(valid, numericField, '-1e400') },
    { label: `${numericField} 1e-400`, payload: withLiteral(valid, numericField, '1e-400') },
    { label: `${numericField} 1.5`, payload: withLiteral(valid, numericField, '1.5') },
    { label: 'page a string', payload: JSON.stringify({ ...valid, page: '1' }) },
    { label: `nested ${DEPTH} levels deep as the body`, payload: '['.repeat(DEPTH) + ']'.repeat(DEPTH) },
    {
      label: `nested ${DEPTH} levels deep as an unknown field`,
      payload: text.replace(/\}$/, `,"deep":${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}`),
    },
    {
      label: `nested ${DEPTH} levels deep with an escape, inside data`,
      payload: withLiteral(valid, 'data', `${'['.repeat(DEPTH)}"\\u0041"${']'.repeat(DEPTH)}`),
    },
    {
      label: `an error envelope whose message is nested ${DEPTH} levels deep`,
      payload: `{"status":"error","message":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
    },
    { label: 'NUL escapes inside strings', payload: withResource((resource) => (resource.id = 'ch_\u0000\u0000')) },
    { label: 'a raw NUL byte between tokens', payload: `${text.slice(0, 1)}\u0000${text.slice(1)}` },
    {
      label: 'lone surrogate escapes inside strings',
      payload: withResource((resource) => (resource.id = '\ud800x\udfff')),
    },
    {
      label: 'bytes that are not UTF-8 inside a string',
      payload: (() => {
        const [before, after] = withResource((resource) => (resource.id = 'SPLIT')).split('SPLIT') as [string, string];
        return new Uint8Array([...encoder.encode(before), 0xed, 0xa0, 0x80, 0xff, 0xfe, ...encoder.encode(after)]);
      })(),
    },
    {
      label: 'a UTF-8 byte order mark before the envelope',
      payload: new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)]),
    },
    { label: 'no content type', payload: encoder.encode(text) },
    { label: 'a wrong content type', payload: text, headers: { 'content-type': 'image/png' } },
    {
      label: 'keys named __proto__ and constructor',
      payload: text
        .replace(/^\{/, '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')
        .replace(/"data":(\[?)\{/, '"data":$1{"__proto__":{"polluted":1},'),
    },
    { label: 'a gigantic string in an unknown field', payload: text.replace(/\}$/, `,"note":"${GIGANTIC}"}`) },
    { label: 'a gigantic error message', payload: JSON.stringify({ status: 'error', message: GIGANTIC }) },
  ];
  if (kind === 'objectList')
    bodies.push({
      label: 'list items that are not objects',
      payload: JSON.stringify({ ...valid, data: [1, 'x', null] }),
    });
  return bodies;
}

// ------------------------------------------------------------ running one call

interface Outcome {
  value?: unknown;
  error?: unknown;
  hung?: boolean;
}

function clientAnswering(body: Body, status: number, options: { timeout?: number; maxRetries?: number } = {}): Client {
  return wireClient(
    () => {
      const payload = typeof body.payload === 'function' ? body.payload() : body.payload;
      return new Response(payload, { status, headers: { 'retry-after-ms': '0', ...body.headers } });
    },
    { timeout: 2_000, ...options },
  ).client;
}

async function run(method: Method, client: Client, deadlineMs = DEADLINE_MS): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ hung: true }), deadlineMs);
  });
  try {
    return await Promise.race([
      method.call(client).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const judged = new WeakMap<Body, unknown>();

/** Parses a body the way a correct client would judge it, independently of the SDK (once per body). */
function judge(body: Body): unknown {
  if (typeof body.payload === 'function') return undefined;
  if (judged.has(body)) return judged.get(body);
  const text = typeof body.payload === 'string' ? body.payload : new TextDecoder().decode(body.payload);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  judged.set(body, parsed);
  return parsed;
}

function checkOutcome(method: Method, status: (typeof STATUSES)[number], body: Body, outcome: Outcome): void {
  const where = `${method.name}, status ${status}, ${body.label}`;
  expect(outcome.hung, `${where}: the call did not settle`).toBeUndefined();
  expect(Object.keys(Object.prototype), `${where}: Object.prototype changed`).toEqual([]);
  expect(({} as Json).polluted, where).toBeUndefined();

  const parsed = judge(body);
  const valid = status === 200 && isValidSuccess(method.kind, parsed);
  if ('value' in outcome) {
    expect(valid, `${where}: returned a value for an invalid response`).toBe(true);
    const envelope = parsed as Json;
    if (isListKind(method.kind)) {
      expect(outcome.value, where).toBeInstanceOf(Page);
      const page = outcome.value as Page<Json>;
      expect(
        page.data.map((each) => each.id),
        where,
      ).toEqual((envelope.data as Json[]).map((each) => each.id));
      expect([page.page, page.page_size, page.total_items], where).toEqual([
        envelope.page,
        envelope.page_size,
        envelope.total_items,
      ]);
    } else {
      expect((outcome.value as Json).id, where).toBe((envelope.data as Json).id);
    }
    return;
  }
  const { error } = outcome;
  expect(valid, `${where}: refused a valid success envelope with ${String(error)}`).toBe(false);
  expect(error, `${where}: ${String(error)}`).toBeInstanceOf(LunasError);
  // Rendering the error the ways a merchant logs it must not throw either.
  expect(() => [String(error), inspect(error, { depth: 5 }), (error as Error).stack], where).not.toThrow();
  if (status === 200) {
    if (error instanceof APIError) {
      // Only a 200 carrying a fail or error envelope is an APIError.
      expect(isObject(parsed) && (parsed.status === 'fail' || parsed.status === 'error'), where).toBe(true);
    } else {
      expect(error, where).toBeInstanceOf(ResponseValidationError);
    }
    return;
  }
  expect(error, where).toBeInstanceOf(CLASS_FOR[status]);
  expect((error as APIError).status, where).toBe(status);
  if (typeof body.payload === 'string' && parsed === undefined)
    expect((error as APIError).body, where).toBe(body.payload);
}

// ------------------------------------------------------------ the suites

describe.each(METHODS)('$name answered with hostile bodies', (method) => {
  const bodies = hostileBodies(method.kind);

  // The heavy bodies (100 000 levels deep, 2 MiB) cost most of this file's time. A success is
  // decoded with each method's own schema, so they go to every method at 200; an error status
  // is decoded the same way whatever the method, so there they go to charges.retrieve alone.
  const heavy = (body: Body) => /levels deep|gigantic/.test(body.label);
  const sendsHeavy = (status: number) => status === 200 || method.name === 'charges.retrieve';

  it.each(STATUSES)(
    'at %i: only LunasErrors, the class for the status, and a value only for a valid envelope',
    async (status) => {
      const problems: string[] = [];
      for (const body of bodies.filter((each) => sendsHeavy(status) || !heavy(each))) {
        const outcome = await run(method, clientAnswering(body, status));
        try {
          checkOutcome(method, status, body, outcome);
        } catch (error) {
          problems.push((error as Error).message.slice(0, 300));
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it.each([200, 400] as const)(
    'at %i: a fail envelope whose field messages nest 100 000 levels deep is still the class for the status',
    async (status) => {
      const body: Body = {
        label: `a fail envelope nested ${DEPTH} levels deep`,
        payload: `{"status":"fail","data":{"amount":${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}}}`,
      };
      checkOutcome(method, status, body, await run(method, clientAnswering(body, status)));
    },
  );

  it('a 500 with a hostile body is retried and still ends in InternalServerError', async () => {
    // A sample of the kinds of body: the retry loop reads only the status.
    const sample =
      /^(empty|null|plain text|an HTML page|truncated in the middle|a fail envelope|an error envelope|data null)$/;
    for (const body of bodies.filter((each) => sample.test(each.label))) {
      const { client, sent } = wireClient(
        () =>
          new Response(typeof body.payload === 'function' ? body.payload() : body.payload, {
            status: 500,
            headers: { 'retry-after-ms': '0', ...body.headers },
          }),
        { maxRetries: 2 },
      );
      const outcome = await run(method, client);
      expect(outcome.error, body.label).toBeInstanceOf(InternalServerError);
      expect(sent, body.label).toHaveLength(3);
    }
  });
});

describe('bodies that never finish', () => {
  const stream = (text: string, end: 'error' | 'stall') => () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text.slice(0, 20)));
        if (end === 'error') controller.error(new Error('connection reset'));
      },
    });

  it('a body that breaks off mid-stream is a ResponseBodyError (unreadable), for every method', async () => {
    const outcomes = await Promise.all(
      METHODS.map((method) => {
        const body: Body = {
          label: 'a stream that errors',
          payload: stream(JSON.stringify(validEnvelope(method.kind)), 'error'),
        };
        return run(method, clientAnswering(body, 200));
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.error).toBeInstanceOf(ResponseBodyError);
      expect(outcome.error).toMatchObject({ reason: 'unreadable', status: 200 });
    }
  });

  // The fetch option here ignores the abort signal, as a hand-written or wrapped fetch may: the
  // per-attempt timeout must hold all the same.
  it('a body that stalls after the headers times out, for every method, even when fetch ignores the abort signal', async () => {
    const outcomes = await Promise.all(
      METHODS.map((method) => {
        const body: Body = {
          label: 'a stream that stalls',
          payload: stream(JSON.stringify(validEnvelope(method.kind)), 'stall'),
        };
        return run(method, clientAnswering(body, 200, { timeout: 100 }), 2_000);
      }),
    );
    for (const [index, outcome] of outcomes.entries()) {
      expect(outcome.hung, `${METHODS[index]!.name} never settled`).toBeUndefined();
      expect(outcome.error, METHODS[index]!.name).toBeInstanceOf(APIConnectionTimeoutError);
    }
  });
});

/** A valid envelope changed at one random place: a value replaced, a field removed, or the text cut. */
function mutated(kind: Kind): fc.Arbitrary<string> {
  const valid = validEnvelope(kind);
  const paths: string[][] = [];
  const collect = (value: unknown, path: string[]) => {
    paths.push(path);
    if (typeof value === 'object' && value !== null)
      for (const [key, child] of Object.entries(value)) collect(child, [...path, key]);
  };
  collect(valid, []);
  const replacement = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>(null, '', 0, -1, 1.5, '1.005', 'NaN', [], {}, true, '\u0000', '\ud800', '10000.00', 10000),
    fc.constant(undefined),
  );
  return fc.oneof(
    fc.tuple(fc.constantFrom(...paths.filter((path) => path.length > 0)), replacement).map(([path, value]) => {
      const copy = structuredClone(valid) as Json;
      let target: Json = copy;
      for (const key of path.slice(0, -1)) target = target[key] as Json;
      const last = path[path.length - 1]!;
      if (value === undefined) delete target[last];
      else target[last] = value;
      return JSON.stringify(copy);
    }),
    fc.nat({ max: JSON.stringify(valid).length }).map((cut) => JSON.stringify(valid).slice(0, cut)),
  );
}

describe('random bodies', () => {
  it.each(METHODS)(
    '$name: whatever the body and status, a LunasError or a value for a valid envelope only',
    async (method) => {
      const body = fc.oneof(
        { weight: 3, arbitrary: mutated(method.kind) },
        { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
      );
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom(...STATUSES), async (payload, status) => {
          const generated: Body = { label: JSON.stringify(payload).slice(0, 200), payload };
          checkOutcome(method, status, generated, await run(method, clientAnswering(generated, status)));
        }),
        { numRuns: RUNS },
      );
    },
  );
});
