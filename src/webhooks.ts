/**
 * Webhook events. The service names the events but shows neither their
 * payload nor a signature scheme; lunas reads the shape its sandbox sends
 * (`{ id, type, created_at, data }`) and stays tolerant of additions.
 * Nothing here proves an event came from the service: before acting on one,
 * retrieve the charge by `data.id` and trust what the API says.
 */
import { describeValue } from './core/describe-value.js';
import { brandErrorClasses, LunasError, type ResponseIssue } from './core/errors.js';
import { checkRequestOptions, type RequestOptions } from './core/request-options.js';
import { dottedPath, jsonObject, looseObject, z } from './core/schema.js';
import { type Charge, type Charges, chargeSchema } from './resources/charges.js';

/** The event types the service documents. */
export const CHARGE_EVENT_TYPES = [
  'payment_charge.created',
  'payment_charge.update',
  'payment_charge.succeeded',
  'payment_charge.failed',
] as const;

/** One of the documented charge event types. */
export type ChargeEventType = (typeof CHARGE_EVENT_TYPES)[number];

// Built on first use, so an application that never parses events does not
// pay for these schemas in its bundle or at start-up. Exported for the type
// tests, which tie ChargeEvent and UnknownEvent to them.
export function buildEventSchemas() {
  const eventFields = {
    /** Unique id of the event. */
    id: z.string(),
    /** When the event happened (ISO 8601). */
    created_at: z.string(),
  };
  return {
    charge: looseObject({
      ...eventFields,
      /** One of {@link CHARGE_EVENT_TYPES}. */
      type: z.enum(CHARGE_EVENT_TYPES),
      /** The charge as it stood when the event was sent; confirm with `client.charges.retrieve(data.id)`. */
      data: chargeSchema,
    }),
    other: looseObject({ ...eventFields, type: z.string(), data: jsonObject }),
  };
}

let eventSchemas: ReturnType<typeof buildEventSchemas> | undefined;

/**
 * A charge event; `data` is the charge as it stood when the event was sent.
 * The shape is the one the sandbox sends, since the service does not show one.
 * Fields added later are kept on the object, as on a {@link Charge}.
 */
export interface ChargeEvent {
  /** Unique id of the event. */
  id: string;
  /** One of {@link CHARGE_EVENT_TYPES}. */
  type: ChargeEventType;
  /** When the event happened (ISO 8601). */
  created_at: string;
  /** The charge as it stood when the event was sent; confirm with `client.charges.retrieve(data.id)`. */
  data: Charge;
}

/**
 * An event of a type this version of lunas does not know yet, kept whole.
 * Use {@link isChargeEvent} to tell the two kinds of {@link LunasEvent} apart.
 */
export interface UnknownEvent {
  /** Unique id of the event. */
  id: string;
  /** The event type, e.g. a future `transfer.created`. */
  type: string;
  /** When the event happened (ISO 8601). */
  created_at: string;
  /** The event's object, unvalidated beyond being a JSON object. */
  data: Record<string, unknown>;
}

/** Any event the service may send. */
export type LunasEvent = ChargeEvent | UnknownEvent;

/**
 * Whether an event is one of the documented charge events, whose `data` is a
 * validated charge (see `Charge`).
 *
 * @example
 * ```ts
 * const event = parseEvent(body);
 * if (isChargeEvent(event) && event.type === 'payment_charge.succeeded') fulfil(event.data.id);
 * ```
 */
export function isChargeEvent(event: LunasEvent): event is ChargeEvent {
  return (CHARGE_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** A webhook body that is not a well-formed event. */
export class EventValidationError extends LunasError {
  /** Every mismatch found. */
  readonly issues: ResponseIssue[];

  constructor(issues: ResponseIssue[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more in issues)` : '';
    super(`Invalid webhook event${first ? ` at ${first.path || 'the top level'}: ${first.message}${more}` : ''}`);
    this.issues = issues;
  }
}
brandErrorClasses({ EventValidationError });

/**
 * Parses and validates a webhook body: the raw text (or bytes) as received,
 * or an already parsed object.
 *
 * @example
 * ```ts
 * app.post('/webhooks/lunas', express.text({ type: '*\/*' }), (req, res) => {
 *   const event = parseEvent(req.body);
 *   if (isChargeEvent(event) && event.type === 'payment_charge.succeeded') markPaid(event.data.id);
 *   res.sendStatus(204);
 * });
 * ```
 * @throws {EventValidationError} when the body is not JSON or not an event.
 */
export function parseEvent(body: string | Uint8Array | object): LunasEvent {
  let value: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    try {
      value = JSON.parse(text);
    } catch {
      throw new EventValidationError([
        { path: '', message: 'the body is not JSON; pass the raw request body (text or bytes) as received' },
      ]);
    }
  }
  const type = (value as { type?: unknown } | null)?.type;
  const known = typeof type === 'string' && (CHARGE_EVENT_TYPES as readonly string[]).includes(type);
  eventSchemas ??= buildEventSchemas();
  // `reportInput` keeps each bad value on its issue, so the message can say what came.
  const result = (known ? eventSchemas.charge : eventSchemas.other).safeParse(value, { reportInput: true });
  if (!result.success) {
    throw new EventValidationError(
      result.error.issues.map((issue) => ({ path: dottedPath(issue.path), message: describeIssue(issue) })),
    );
  }
  return result.data as LunasEvent;
}

/**
 * What {@link Webhooks.confirm} found: a charge event with the charge as the
 * API reports it now, or an event of a type this version does not know.
 */
export type WebhookConfirmation =
  | {
      /** The event as received: a hint of what changed, not proof. */
      event: ChargeEvent;
      /** The charge read back from the API: act on this, not on `event.data`. */
      charge: Charge;
    }
  | {
      /** An event of a type this version of lunas does not know, kept whole. */
      event: UnknownEvent;
      /** Nothing was read back for an unknown event. */
      charge: undefined;
    };

/**
 * Webhook events. The service documents no signature, so an event proves
 * nothing by itself: {@link Webhooks.confirm} reads the charge back from the
 * API, which is the one source to act on.
 */
export class Webhooks {
  readonly #charges: Charges;

  /** @internal Created by {@link Client}. */
  constructor(charges: Charges) {
    this.#charges = charges;
  }

  /**
   * Parses a webhook body (as {@link parseEvent} does) and, for a charge
   * event, retrieves the charge it names. Act on `charge`: it is what the API
   * says now, whatever the event claimed. Rejects with `EventValidationError`
   * for a body that is not an event, and as `charges.retrieve` does when the
   * charge cannot be read (a `NotFoundError` means the event named a charge
   * that does not exist: answer 4xx, do not act). `options` are checked first,
   * by name and value, whatever the event: a bad one rejects with
   * `RequestValidationError`.
   *
   * @example
   * ```ts
   * const { event, charge } = await client.webhooks.confirm(rawBody);
   * if (charge?.status === 'success') await fulfilOrder(charge.client_reference_id);
   * ```
   */
  async confirm(body: string | Uint8Array | object, options?: RequestOptions): Promise<WebhookConfirmation> {
    // Checked even when no charge is read, so a misspelt option never goes unnoticed.
    const checked = checkRequestOptions(options);
    const event = parseEvent(body);
    if (!isChargeEvent(event)) return { event, charge: undefined };
    const charge = await this.#charges.retrieve(event.data.id, checked);
    return { event, charge };
  }
}
/** `expected a string (missing)`, `expected one of qris, virtual_account (got "card")`. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const got = issue.input === undefined ? 'missing' : `got ${describeValue(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${withArticle(issue.expected)} (${got})`;
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map(String).join(', ')} (${got})`;
    case 'invalid_union':
      return `does not match any accepted type (${got})`;
    default:
      return `${issue.message} (${got})`;
  }
}

function withArticle(expected: string): string {
  const noun = expected === 'int' ? 'integer' : expected;
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}
