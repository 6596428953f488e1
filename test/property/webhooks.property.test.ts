/**
 * Webhook events, property-based. The contract requires of an event only a
 * string `type`, and of a charge event a `data.id` that can name a charge;
 * everything else is optional and kept as it came. So: any such event, with
 * any JSON beside the required fields, parses to itself from every accepted
 * body kind; any other value is an `EventValidationError` and never anything
 * else; and `confirm` either refuses an id before sending or sends exactly
 * one request for it, never a `RequestValidationError`.
 *
 * The oracle below is written from the contract, not from the parser: it
 * checks UTF-8 with Buffer and ids with `encodeURIComponent`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHARGE_EVENT_TYPES,
  EventValidationError,
  RequestValidationError,
  parseEvent,
  type WebhookBody,
} from '../../src/index.js';
import { successResponse, wireClient } from '../helpers/wire.js';
import { chargeJson } from '../helpers/fixtures.js';
import { bodyForms } from '../helpers/webhook-bodies.js';

/** Runs per property; raise with LUNAS_PROPERTY_RUNS for a deeper search by hand. */
const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 120);
const chargeTypes: readonly string[] = CHARGE_EVENT_TYPES;

// ------------------------------------------------------------------- oracle

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An id a charge can have: not empty, not a dot segment, and expressible in a URL. */
function canNameACharge(id: string): boolean {
  if (id === '' || /^\.\.?$/.test(id)) return false;
  try {
    encodeURIComponent(id); // throws URIError on a lone surrogate
    return true;
  } catch {
    return false;
  }
}

/** Whether a parsed value is an event by the contract. */
function isEvent(value: unknown): boolean {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  if (!chargeTypes.includes(value.type)) return true;
  return isRecord(value.data) && typeof value.data.id === 'string' && canNameACharge(value.data.id);
}

/** Whether a body, in any form, holds an event: decoded and parsed independently of the SDK. */
function holdsEvent(body: unknown): boolean {
  let value = body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const bytes = Buffer.from(
      body instanceof ArrayBuffer
        ? new Uint8Array(body)
        : new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    );
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) return false; // not UTF-8: replaced characters do not round-trip
    value = text;
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value.startsWith('\uFEFF') ? value.slice(1) : value);
    } catch {
      return false;
    }
  } else if (isRecord(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false; // a Request, a Map, a class instance
  }
  return isEvent(value);
}

// --------------------------------------------------------------- generators

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnitString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

/** Ids that can name a charge: short, long, any script, path-like. */
const chargeId = fc
  .oneof(
    fc.string({ minLength: 1 }),
    fc.string({ unit: 'grapheme', minLength: 1 }),
    codeUnitString,
    fc.constantFrom('ch_0123456789abcdef01234567', 'ch_1/../payouts', '...', '%2e%2e', ' . ', 'ch?x#y'),
  )
  .filter(canNameACharge);

/** Ids that cannot. */
const badChargeId = fc.oneof(
  fc.constantFrom('', '.', '..'),
  fc
    .tuple(fc.string(), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string())
    .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`),
);

// zod leaves out a key named __proto__ from the objects it builds, on purpose:
// a parsed body never chooses the prototype of what lunas returns.
const fieldName = fc
  .oneof(fc.string(), fc.constantFrom('id', 'created_at', 'amount', 'status'))
  .filter((key) => key !== '__proto__');
const extras = fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

/** An event with the required fields and any JSON beside them, as JSON data (round-tripped). */
const event = fc
  .oneof(
    fc
      .record({ type: fc.constantFrom(...CHARGE_EVENT_TYPES), id: chargeId, top: extras, data: extras })
      .map(({ type, id, top, data }) => ({ ...top, type, data: { ...data, id } })),
    fc
      .record({ type: fc.string(), top: extras, data: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }) })
      .filter(({ type }) => !chargeTypes.includes(type))
      .map(({ type, top, data }) => ({ ...top, type, ...(data === undefined ? {} : { data }) })),
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

/** Values that are not events, or only nearly: anything, JSON, near-events, text and bytes. */
const anyBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  fc.jsonValue(),
  fc.record(
    {
      type: fc.oneof(fc.constantFrom(...CHARGE_EVENT_TYPES), fc.string(), fc.anything()),
      data: fc.oneof(fc.record({ id: fc.oneof(chargeId, badChargeId, fc.anything()) }), fc.anything()),
    },
    { requiredKeys: [] },
  ),
  // An event's fields on a class instance: not what JSON.parse makes, so not a body.
  event.map((value) => Object.assign(Object.create({ inherited: true }) as object, value)),
  fc.string(),
  codeUnitString,
  event.map((value) => JSON.stringify(value)).chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
  fc.uint8Array(),
  event.chain((value) => {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return fc
      .record({ at: fc.nat(bytes.length - 1), byte: fc.integer({ min: 0x80, max: 0xff }) })
      .map(({ at, byte }) => {
        const changed = bytes.slice();
        changed[at] = byte;
        return changed;
      });
  }),
);

// -------------------------------------------------------------------- tests

describe('parseEvent, property-based', () => {
  it('an event with only the required fields plus any JSON parses, keeping every field as it came', () => {
    fc.assert(
      fc.property(event, (value) => {
        expect(parseEvent(JSON.stringify(value))).toStrictEqual(value);
        expect(parseEvent(structuredClone(value))).toStrictEqual(value);
      }),
      { numRuns: RUNS },
    );
  });

  it('every accepted body kind (string, Buffer, Uint8Array, ArrayBuffer, DataView, object, bytes from another realm) parses to the same event', () => {
    fc.assert(
      fc.property(event, fc.boolean(), (value, bom) => {
        for (const [kind, encode] of bodyForms) {
          expect(parseEvent(encode(value, bom)), kind).toStrictEqual(value);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('any other value is an EventValidationError, and nothing else ever comes out', () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        let outcome: unknown;
        try {
          parseEvent(body as WebhookBody);
          outcome = 'event';
        } catch (error) {
          outcome = error;
        }
        if (holdsEvent(body)) expect(outcome).toBe('event');
        else expect(outcome).toBeInstanceOf(EventValidationError);
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

describe('client.webhooks.confirm, property-based', () => {
  const { client, sent } = wireClient((request) =>
    successResponse(chargeJson({ id: decodeURIComponent(request.url.pathname.split('/').pop()!) })),
  );

  it('any id: refused before sending (EventValidationError) or read back with exactly one request, never a RequestValidationError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CHARGE_EVENT_TYPES),
        fc.oneof(chargeId, badChargeId, codeUnitString),
        async (type, id) => {
          sent.length = 0;
          const body = JSON.stringify({ type, data: { id } });
          let outcome: unknown;
          try {
            outcome = (await client.webhooks.confirm(body)).charge;
          } catch (error) {
            outcome = error;
          }
          expect(outcome).not.toBeInstanceOf(RequestValidationError);
          if (canNameACharge(id)) {
            expect(outcome).toMatchObject({ id });
            expect(sent.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
              `GET /v1/payments/charges/${encodeURIComponent(id)}`,
            ]);
          } else {
            expect(outcome).toBeInstanceOf(EventValidationError);
            expect(sent).toEqual([]);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
