import { describe, expect, it } from 'vitest';
import {
  CHARGE_EVENT_TYPES,
  type Charge,
  EventValidationError,
  isChargeEvent,
  LunasError,
  type LunasEvent,
  parseEvent,
} from '../../src/index.js';
import { chargeJson } from '../helpers/msw.js';

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
