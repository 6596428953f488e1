import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  CHARGE_EVENT_TYPES,
  EventValidationError,
  getResponseInfo,
  isChargeEvent,
  type LunasEvent,
  LunasError,
  NotFoundError,
  parseEvent,
  RequestValidationError,
  type WebhookBody,
} from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { CHARGE_PATH, countRequests, jsonReply, route } from '../helpers/requests.js';
import { CHARGE_ID, chargeJson, success } from '../helpers/fixtures.js';
import { rejection, thrown } from '../helpers/rejection.js';
import { bodyForms } from '../helpers/webhook-bodies.js';

/** The least the contract requires of a charge event: `type` and `data.id`. */
function slim(type: string = 'payment_charge.succeeded', id: string = CHARGE_ID): Record<string, unknown> {
  return { type, data: { id } };
}

/** The sandbox's own shape, one valid shape among many. */
function full(type: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'evt_1',
    type,
    created_at: '2026-11-23T03:00:00Z',
    data: chargeJson({ amount: 10000 }),
    ...overrides,
  };
}

describe('parseEvent', () => {
  it('knows the four documented event types', () => {
    expect([...CHARGE_EVENT_TYPES].sort()).toEqual([
      'payment_charge.created',
      'payment_charge.failed',
      'payment_charge.succeeded',
      'payment_charge.update',
    ]);
  });

  describe.each(bodyForms)('from %s', (_form, encode) => {
    it.each([...CHARGE_EVENT_TYPES])('parses a slim %s event: only type and data.id', (type) => {
      const parsed = parseEvent(encode(slim(type)));
      expect(parsed).toEqual(slim(type));
      expect(isChargeEvent(parsed) && parsed.data.id).toBe(CHARGE_ID);
    });

    it('keeps the sandbox shape as it came: nothing rewritten, nothing dropped', () => {
      const body = full('payment_charge.succeeded', { livemode: false, delivery: { attempt: 2 } });
      expect(parseEvent(encode(body))).toEqual(body);
    });

    it('accepts optional fields of any shape: the contract requires none of them', () => {
      const body = {
        id: 7,
        created_at: null,
        type: 'payment_charge.update',
        data: { id: 'ch_1', amount: { value: 10000, currency: 'IDR' }, status: 3, items: 'none' },
      };
      expect(parseEvent(encode(body))).toEqual(body);
    });

    it('an unknown event type needs only its type: data is optional and any JSON', () => {
      for (const body of [{ type: 'payout.paid' }, { type: 'payout.paid', data: 'po_1', extra: [1, { deep: true }] }]) {
        const parsed = parseEvent(encode(body));
        expect(parsed).toEqual(body);
        expect(isChargeEvent(parsed)).toBe(false);
      }
    });
  });

  it('a BOM before the JSON text is allowed, in text as in bytes', () => {
    const text = `\uFEFF${JSON.stringify(slim())}`;
    expect(parseEvent(text)).toEqual(slim());
    expect(parseEvent(Buffer.from(text))).toEqual(slim());
    // One only, in bytes as in text: the decoder must not drop one before the text check drops another.
    for (const body of [`\uFEFF${text}`, Buffer.from(`\uFEFF${text}`)]) {
      expect(() => parseEvent(body)).toThrow('Invalid webhook event at the top level: the body is not JSON');
    }
  });

  it('a parsed object without a prototype (some JSON parsers make those) is accepted', () => {
    const body = Object.assign(Object.create(null) as object, slim());
    expect(parseEvent(body)).toEqual(slim());
  });

  it('isChargeEvent tells documented charge events from unknown ones, and answers false for non-events', () => {
    for (const type of CHARGE_EVENT_TYPES) expect(isChargeEvent(parseEvent(slim(type)))).toBe(true);
    for (const type of ['payment_charge.refunded', 'transfer.created', 'PAYMENT_CHARGE.CREATED', '']) {
      expect(isChargeEvent(parseEvent({ type }))).toBe(false);
    }
    // Plain JavaScript may pass anything; a guard answers rather than throw a TypeError.
    for (const value of [null, undefined, 'payment_charge.created', 42]) {
      expect(isChargeEvent(value as unknown as LunasEvent)).toBe(false);
    }
  });

  it('does not change the object it is given', () => {
    const input = full('payment_charge.created');
    const copy = structuredClone(input);
    parseEvent(input);
    expect(input).toEqual(copy);
  });

  it.each([
    ['text that is not JSON', 'not json', 'the body is not JSON'],
    ['an empty string', '', 'the body is not JSON'],
    ['bytes that are not JSON', new TextEncoder().encode('<xml/>'), 'the body is not JSON'],
    ['JSON null', 'null', 'expected an object (got null)'],
    ['a JSON array', '[]', 'expected an object (got an array)'],
    ['a JSON number', '42', 'expected an object (got 42)'],
    ['null', null, 'expected an object (got null)'],
    ['nothing', undefined, 'expected an object (missing)'],
    ['an array object', [slim()], 'expected an object (got an array)'],
  ])('rejects %s with EventValidationError', (_label, body, detail) => {
    const error = thrown(() => parseEvent(body as WebhookBody));
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error).toBeInstanceOf(LunasError);
    expect((error as Error).message).toContain(`Invalid webhook event at the top level: ${detail}`);
  });

  it('refuses bytes that are not UTF-8 rather than replace them in silence', () => {
    // A valid event whose id holds a byte that is not UTF-8: replacing it would name another charge.
    const bytes = Buffer.concat([
      Buffer.from('{"type":"payment_charge.succeeded","data":{"id":"ch_'),
      Buffer.from([0xff]),
      Buffer.from('"}}'),
    ]);
    expect(() => parseEvent(bytes)).toThrow(
      'Invalid webhook event at the top level: the body is not UTF-8 text; pass the raw request body (text or bytes) as received',
    );
    expect(() => parseEvent(new Uint8Array([0xc3]))).toThrow(EventValidationError);
  });

  class OrderEvent {
    type = 'payment_charge.succeeded';
    data = { id: CHARGE_ID };
  }

  it.each([
    ['a Request', () => new Request('https://merchant.test/webhooks', { method: 'POST', body: '{}' }), 'Request'],
    ['a Response', () => new Response(JSON.stringify(slim())), 'Response'],
    ['a Blob', () => new Blob([JSON.stringify(slim())]), 'Blob'],
    ['a web stream', () => new Response(JSON.stringify(slim())).body!, 'ReadableStream'],
    ['a Node stream (the node:http request)', () => Readable.from([JSON.stringify(slim())]), 'Readable'],
    ['a FormData', () => new FormData(), 'FormData'],
    ['URLSearchParams', () => new URLSearchParams('type=payment_charge.succeeded'), 'URLSearchParams'],
    ['a class instance', () => new OrderEvent(), 'OrderEvent'],
    ['a Map', () => new Map(Object.entries(slim())), 'Map'],
  ])('refuses %s, saying to pass await request.text()', (_label, make, kind) => {
    const error = thrown(() => parseEvent(make() as WebhookBody));
    expect(error).toBeInstanceOf(EventValidationError);
    expect((error as Error).message).toBe(
      `Invalid webhook event at the top level: got an instance of ${kind}, not the body; pass the body as received, e.g. await request.text()`,
    );
  });

  it('a hostile object (throwing getter, Proxy) is an EventValidationError, never a TypeError', () => {
    const getter = Object.defineProperty({}, 'type', {
      enumerable: true,
      get() {
        throw new TypeError('boom');
      },
    });
    const proxy = new Proxy(slim(), {
      getPrototypeOf() {
        throw new TypeError('boom');
      },
    });
    for (const body of [getter, proxy]) {
      expect(() => parseEvent(body)).toThrow(
        'Invalid webhook event at the top level: the body could not be read; pass the raw request body (text or bytes) as received',
      );
    }
  });

  it.each([
    ['a missing type', { data: { id: CHARGE_ID } }, 'type: expected a string (missing)'],
    ['a numeric type', { type: 3, data: { id: CHARGE_ID } }, 'type: expected a string (got 3)'],
    ['a charge event without data', { type: 'payment_charge.created' }, 'data: expected an object (missing)'],
    [
      'a charge event whose data is its id',
      { type: 'payment_charge.created', data: 'ch_1' },
      'data: expected an object (got "ch_1")',
    ],
    [
      'a charge event without data.id',
      { type: 'payment_charge.failed', data: {} },
      'data.id: expected a string (missing)',
    ],
    ['a numeric data.id', { type: 'payment_charge.failed', data: { id: 12 } }, 'data.id: expected a string (got 12)'],
  ])('rejects an event with %s, saying where and what came', (_label, body, detail) => {
    const error = thrown(() => parseEvent(body as WebhookBody)) as EventValidationError;
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error.message).toBe(`Invalid webhook event at ${detail}`);
    expect(error.issues[0]?.path).toBe(detail.split(':')[0]);
  });

  it.each([
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['a lone surrogate', 'ch_\uD83D'],
    ['a lone low surrogate', '\uDE00ch'],
  ])('a charge id that cannot name a charge (%s) is an EventValidationError at data.id', (_label, id) => {
    for (const type of CHARGE_EVENT_TYPES) {
      const error = thrown(() => parseEvent(slim(type, id))) as EventValidationError;
      expect(error).toBeInstanceOf(EventValidationError);
      expect(error.issues.map((issue) => issue.path)).toEqual(['data.id']);
      expect(error.message).toMatch(/^Invalid webhook event at data\.id: cannot name a charge \(got ".*"\)$/);
    }
    // An unknown event's data is not read: no id is required of it.
    expect(parseEvent({ type: 'payout.paid', data: { id } }).type).toBe('payout.paid');
  });

  it('an error message does not carry the whole body', () => {
    const body = JSON.stringify({ type: 'payment_charge.created', data: { id: '..' }, secret_note: 'do-not-log-this' });
    const error = thrown(() => parseEvent(body)) as EventValidationError;
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error.message).not.toContain('do-not-log-this');
  });
});

describe('client.webhooks.confirm', () => {
  it('confirms a slim event ({ type, data: { id } }) by reading the charge back', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'success' }))));
    const { event, charge } = await makeClient().webhooks.confirm(JSON.stringify(slim()));
    expect(event).toEqual(slim());
    expect(charge?.status).toBe('success');
    expect(charge?.amount).toBe('10000.00');
    expect(seen).toHaveLength(1);
  });

  it('returns the charge the API reports, not what the event claims', async () => {
    // The event says succeeded; the API says the charge is still pending.
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'pending' }))));
    const claims = full('payment_charge.succeeded', { data: chargeJson({ status: 'success' }) });
    const { event, charge } = await makeClient().webhooks.confirm(JSON.stringify(claims));

    expect(event.type).toBe('payment_charge.succeeded');
    expect(event.data).toMatchObject({ status: 'success' });
    expect(charge?.status).toBe('pending');
    expect(charge?.paid_at).toBeNull();
    expect(seen[0]!.url.pathname).toBe(CHARGE_PATH);
  });

  it.each(bodyForms)('accepts the body as %s', async (_form, encode) => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'success' }))));
    const { charge } = await makeClient().webhooks.confirm(encode(slim()));
    expect(charge?.id).toBe(CHARGE_ID);
  });

  it('the charge carries its response info, and the call its request options', async () => {
    const seen = route('GET', CHARGE_PATH, () =>
      jsonReply(200, success(chargeJson()), { 'x-request-id': 'req_confirm' }),
    );
    const { charge } = await makeClient().webhooks.confirm(slim(), { headers: { 'x-trace-id': 't-9' } });
    expect(getResponseInfo(charge!)?.requestId).toBe('req_confirm');
    expect(seen[0]!.headers.get('x-trace-id')).toBe('t-9');
  });

  it('an event of an unknown type: the event, charge undefined, and no request', async () => {
    const requests = countRequests();
    const result = await makeClient().webhooks.confirm({ type: 'payout.paid', data: { id: 'po_1' } });
    expect(result.charge).toBeUndefined();
    expect(result.event).toEqual({ type: 'payout.paid', data: { id: 'po_1' } });
    expect(requests.count()).toBe(0);
  });

  it.each([
    ['not JSON', 'not json'],
    ['a charge event without data.id', { type: 'payment_charge.succeeded', data: {} }],
    ['an id of ".."', slim('payment_charge.succeeded', '..')],
    ['an id of "."', slim('payment_charge.update', '.')],
    ['an empty id', slim('payment_charge.failed', '')],
    ['an id with a lone surrogate', slim('payment_charge.created', '\uD800')],
    ['a Request', new Request('https://merchant.test/webhooks', { method: 'POST', body: '{}' })],
  ])('%s: EventValidationError (answer 400), and nothing is sent', async (_label, body) => {
    const requests = countRequests();
    const error = await rejection(makeClient().webhooks.confirm(body as WebhookBody));
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error).not.toBeInstanceOf(RequestValidationError);
    expect(requests.count()).toBe(0);
  });

  it('bad request options reject as charges.retrieve does, before sending', async () => {
    const requests = countRequests();
    const error = await rejection(makeClient().webhooks.confirm(slim(), { timeout: -1 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(requests.count()).toBe(0);
  });

  it('an event naming a charge the API does not know rejects with NotFoundError', async () => {
    route('GET', '/v1/payments/charges/ch_forged', () =>
      jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }),
    );
    await expect(makeClient().webhooks.confirm(slim('payment_charge.succeeded', 'ch_forged'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('the charge id is encoded as one path segment', async () => {
    const seen = route('GET', '/v1/payments/charges/ch_1%2F..%2Fpayouts', () =>
      jsonReply(200, success(chargeJson({ id: 'ch_1/../payouts' }))),
    );
    const { charge } = await makeClient().webhooks.confirm(slim('payment_charge.update', 'ch_1/../payouts'));
    expect(charge?.id).toBe('ch_1/../payouts');
    expect(seen).toHaveLength(1);
  });
});
