import { describe, expect, it } from 'vitest';
import {
  CHARGE_EVENT_TYPES,
  type Charge,
  EventValidationError,
  getResponseInfo,
  isChargeEvent,
  LunasError,
  type LunasEvent,
  NotFoundError,
  parseEvent,
  RequestValidationError,
} from '../../src/index.js';
import { chargeJson, makeClient, success } from '../helpers/msw.js';
import { countRequests } from '../helpers/pages.js';
import { CHARGE_ID, CHARGE_PATH, jsonReply, route } from '../helpers/requests.js';

function event(type: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'evt_1',
    type,
    created_at: '2026-11-23T03:00:00Z',
    data: chargeJson({ amount: 10000 }),
    ...overrides,
  };
}

const forms = [
  ['text', (value: unknown) => JSON.stringify(value)],
  ['bytes (Uint8Array)', (value: unknown) => new TextEncoder().encode(JSON.stringify(value))],
  ['bytes (Buffer)', (value: unknown) => Buffer.from(JSON.stringify(value))],
  ['an object', (value: unknown) => structuredClone(value) as object],
] as const;

describe('parseEvent', () => {
  it('knows the four documented event types', () => {
    expect([...CHARGE_EVENT_TYPES].sort()).toEqual([
      'payment_charge.created',
      'payment_charge.failed',
      'payment_charge.succeeded',
      'payment_charge.update',
    ]);
  });

  describe.each(forms)('from %s', (_form, encode) => {
    it.each([...CHARGE_EVENT_TYPES])('parses %s with data as a Charge (money normalised)', (type) => {
      const parsed = parseEvent(encode(event(type)));
      expect(parsed.type).toBe(type);
      expect(parsed.id).toBe('evt_1');
      expect(parsed.created_at).toBe('2026-11-23T03:00:00Z');
      expect(parsed.data).toEqual(chargeJson({ amount: '10000.00' }));
    });

    it('keeps unknown fields on the event and inside its charge', () => {
      const parsed = parseEvent(
        encode(
          event('payment_charge.succeeded', {
            livemode: false,
            delivery: { attempt: 2 },
            data: chargeJson({ status: 'success', paid_at: '2026-11-23T03:05:00Z', risk: { score: 1 } }),
          }),
        ),
      );
      expect(parsed).toMatchObject({ livemode: false, delivery: { attempt: 2 } });
      expect(parsed.data).toMatchObject({ risk: { score: 1 }, paid_at: '2026-11-23T03:05:00Z' });
    });

    it('tolerates an unknown event type, keeping data as an object', () => {
      const data = { id: 'po_1', anything: [1, { deep: true }] };
      const parsed = parseEvent(encode(event('payout.paid', { data, extra: 1 })));
      expect(parsed.type).toBe('payout.paid');
      expect(parsed.data).toEqual(data);
      expect(parsed).toMatchObject({ extra: 1 });
    });
  });

  it('accepts an unknown status inside a charge event', () => {
    const parsed = parseEvent(event('payment_charge.update', { data: chargeJson({ status: 'refunded' }) }));
    expect(parsed.type === 'payment_charge.update' && parsed.data.status).toBe('refunded');
  });

  // The type-level half of narrowing is in types.test.ts ('webhook events narrow by type').
  it('a charge event type selects the charge schema at run time, an unknown type does not', () => {
    const parsed: LunasEvent = parseEvent(JSON.stringify(event('payment_charge.succeeded')));
    expect(parsed.type).toBe('payment_charge.succeeded');
    expect((parsed.data as Charge).amount).toBe('10000.00');
    // The same data under an unknown type is kept as sent: no charge normalisation.
    const other = parseEvent(JSON.stringify(event('payment_charge.refunded')));
    expect((other.data as Record<string, unknown>).amount).toBe(10000);
  });

  it('isChargeEvent tells documented charge events from unknown ones', () => {
    for (const type of CHARGE_EVENT_TYPES) expect(isChargeEvent(parseEvent(event(type)))).toBe(true);
    for (const type of ['payment_charge.refunded', 'transfer.created', 'PAYMENT_CHARGE.CREATED', '']) {
      expect(isChargeEvent(parseEvent(event(type, { data: { id: 'x' } })))).toBe(false);
    }
  });

  it('does not change the object it is given', () => {
    const input = event('payment_charge.created');
    const copy = structuredClone(input);
    parseEvent(input);
    expect(input).toEqual(copy);
  });

  it.each([
    ['text that is not JSON', 'not json'],
    ['an empty string', ''],
    ['bytes that are not JSON', new TextEncoder().encode('<xml/>')],
    ['JSON null', 'null'],
    ['a JSON array', '[]'],
    ['a JSON number', '42'],
    ['null', null],
    ['an array object', [event('payment_charge.created')]],
  ])('rejects %s with EventValidationError', (_label, body) => {
    let error: unknown;
    try {
      parseEvent(body as string);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error).toBeInstanceOf(LunasError);
  });

  it.each([
    ['a missing id', (e: Record<string, unknown>) => delete e.id, 'id'],
    ['a numeric id', (e: Record<string, unknown>) => (e.id = 1), 'id'],
    ['a missing type', (e: Record<string, unknown>) => delete e.type, 'type'],
    ['a numeric type', (e: Record<string, unknown>) => (e.type = 3), 'type'],
    ['a missing created_at', (e: Record<string, unknown>) => delete e.created_at, 'created_at'],
    ['data missing', (e: Record<string, unknown>) => delete e.data, 'data'],
    ['data that is a string', (e: Record<string, unknown>) => (e.data = 'ch_1'), 'data'],
    [
      'a charge with a bad amount',
      (e: Record<string, unknown>) => (e.data = chargeJson({ amount: '1.234' })),
      'data.amount',
    ],
    [
      'a charge without an id',
      (e: Record<string, unknown>) => delete (e.data as Record<string, unknown>).id,
      'data.id',
    ],
  ])('rejects an event with %s, naming the path', (_label, mutate, path) => {
    for (const type of ['payment_charge.succeeded', 'something.new']) {
      const body = event(type);
      mutate(body);
      if (type === 'something.new' && path.startsWith('data.')) continue; // unknown types keep data as any object
      let error: unknown;
      try {
        parseEvent(JSON.stringify(body));
      } catch (e) {
        error = e;
      }
      expect(error, `${type}`).toBeInstanceOf(EventValidationError);
      expect((error as EventValidationError).issues.map((issue) => issue.path)).toContain(path);
      expect((error as EventValidationError).message).toMatch(/Invalid webhook event/);
    }
  });

  it.each([
    ['a missing id', (e: Record<string, unknown>) => delete e.id, 'id: expected a string (missing)'],
    ['a numeric id', (e: Record<string, unknown>) => (e.id = 7), 'id: expected a string (got 7)'],
    [
      'data that is a string',
      (e: Record<string, unknown>) => (e.data = 'ch_1'),
      'data: expected an object (got "ch_1")',
    ],
    [
      'a charge with a bad amount',
      (e: Record<string, unknown>) => (e.data = chargeJson({ amount: '1.234' })),
      'data.amount: expected a decimal amount with at most two fractional digits (got "1.234")',
    ],
  ])('says what is wrong with %s, not "Invalid input"', (_label, mutate, detail) => {
    const body = event('payment_charge.succeeded');
    mutate(body);
    expect(() => parseEvent(body)).toThrow(`Invalid webhook event at ${detail}`);
    expect(() => parseEvent(body)).not.toThrow(/Invalid input/);
  });

  it('says how many more issues there are, and what to pass when the body is not JSON', () => {
    const body = event('payment_charge.succeeded');
    delete body.id;
    delete body.created_at;
    expect(() => parseEvent(body)).toThrow(
      'Invalid webhook event at id: expected a string (missing) (and 1 more in issues)',
    );
    expect(() => parseEvent('{"id":')).toThrow(
      'Invalid webhook event at the top level: the body is not JSON; pass the raw request body (text or bytes) as received',
    );
  });

  it('an error message does not carry the whole body', () => {
    const body = JSON.stringify(event('payment_charge.created', { id: 7, secret_note: 'do-not-log-this' }));
    const error = (() => {
      try {
        parseEvent(body);
      } catch (e) {
        return e as EventValidationError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(EventValidationError);
    expect(error!.message).not.toContain('do-not-log-this');
  });
});

describe('client.webhooks.confirm', () => {
  const succeeded = () =>
    event('payment_charge.succeeded', {
      data: chargeJson({ status: 'success', paid_at: '2026-11-23T03:05:00Z' }),
    });

  it('returns the charge the API reports, not the one the event claims', async () => {
    // The event says succeeded; the API says the charge is still pending.
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'pending' }))));
    const { event: parsed, charge } = await makeClient().webhooks.confirm(JSON.stringify(succeeded()));

    expect(parsed.type).toBe('payment_charge.succeeded');
    expect(parsed.data.status).toBe('success');
    expect(charge?.status).toBe('pending');
    expect(charge?.paid_at).toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.pathname).toBe(CHARGE_PATH);
  });

  it.each(forms)('accepts the body as %s', async (_form, encode) => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson({ status: 'success' }))));
    const { charge } = await makeClient().webhooks.confirm(encode(succeeded()));
    expect(charge?.id).toBe(CHARGE_ID);
  });

  it('the charge carries its response info, and the call its request options', async () => {
    const seen = route('GET', CHARGE_PATH, () =>
      jsonReply(200, success(chargeJson()), { 'x-request-id': 'req_confirm' }),
    );
    const { charge } = await makeClient().webhooks.confirm(succeeded(), { headers: { 'x-trace-id': 't-9' } });
    expect(getResponseInfo(charge!)?.requestId).toBe('req_confirm');
    expect(seen[0]!.headers.get('x-trace-id')).toBe('t-9');
  });

  it('an event of an unknown type: the event, charge undefined, and no request', async () => {
    const requests = countRequests();
    const result = await makeClient().webhooks.confirm(event('payout.paid', { data: { id: 'po_1' } }));
    expect(result.charge).toBeUndefined();
    expect(result.event.type).toBe('payout.paid');
    expect(result.event.data).toEqual({ id: 'po_1' });
    expect(requests.count()).toBe(0);
  });

  it('a body that is not an event rejects with EventValidationError, and nothing is sent', async () => {
    const requests = countRequests();
    await expect(makeClient().webhooks.confirm('not json')).rejects.toBeInstanceOf(EventValidationError);
    await expect(
      makeClient().webhooks.confirm(event('payment_charge.succeeded', { data: 'ch_1' })),
    ).rejects.toBeInstanceOf(EventValidationError);
    expect(requests.count()).toBe(0);
  });

  it('an event naming a charge the API does not know rejects with NotFoundError', async () => {
    route('GET', '/v1/payments/charges/ch_forged', () =>
      jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }),
    );
    const forged = event('payment_charge.succeeded', { data: chargeJson({ id: 'ch_forged', status: 'success' }) });
    await expect(makeClient().webhooks.confirm(forged)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('an event whose charge id cannot be a path segment is refused before sending', async () => {
    const requests = countRequests();
    const dotted = event('payment_charge.succeeded', { data: chargeJson({ id: '..' }) });
    await expect(makeClient().webhooks.confirm(dotted)).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests.count()).toBe(0);
  });

  it('the charge id is encoded as one path segment', async () => {
    const seen = route('GET', '/v1/payments/charges/ch_1%2F..%2Fpayouts', () =>
      jsonReply(200, success(chargeJson({ id: 'ch_1/../payouts' }))),
    );
    const tricky = event('payment_charge.update', { data: chargeJson({ id: 'ch_1/../payouts' }) });
    const { charge } = await makeClient().webhooks.confirm(tricky);
    expect(charge?.id).toBe('ch_1/../payouts');
    expect(seen).toHaveLength(1);
  });
});
