/**
 * Webhook events. The service names four charge events but shows neither
 * their payload nor a signature scheme, so lunas requires only what the
 * contract promises (a JSON object with a string `type`; `data.id` for a
 * charge event) and keeps everything else as it came. Nothing here proves an
 * event came from the service: `confirm` reads the charge back by `data.id`.
 */
import { type API, idProblem } from './core/call/request.js';
import { describeIssueWithInput } from './core/report/describe-value.js';
import { brandErrorClasses, LunasError, type ResponseIssue } from './core/report/errors.js';
import type { RequestOptions } from './core/checks/options.js';
import { dottedPath, looseObject, typedAs, z } from './core/checks/schemas.js';
import type { Charge, Charges } from './resources/charges.js';

/** The event types the service documents. @category Events */
export const CHARGE_EVENT_TYPES = [
  'payment_charge.created',
  'payment_charge.update',
  'payment_charge.succeeded',
  'payment_charge.failed',
] as const;

/** One of the documented charge event types. @category Events */
export type ChargeEventType = (typeof CHARGE_EVENT_TYPES)[number];

/**
 * The event schemas, built on first use so that an application that never
 * parses events does not pay for them at start-up.
 */
function buildEventSchemas() {
  // Optional and unchecked: the service shows no payload, so a field the
  // contract does not require never refuses an event, and its type claims
  // nothing that was not checked.
  const hints = { id: z.optional(z.unknown()), created_at: z.optional(z.unknown()) };
  const data = looseObject({
    // The same ids `charges.retrieve` refuses before sending: here they make
    // the event itself invalid (answer 400), not the merchant's request.
    id: z.string().check(
      z.refine((id) => idProblem(id) === undefined, {
        error: 'cannot name a charge',
      }),
    ),
  });
  return {
    charge: typedAs<ChargeEvent>()(looseObject({ ...hints, type: z.enum(CHARGE_EVENT_TYPES), data })),
    other: typedAs<UnknownEvent>()(looseObject({ ...hints, type: z.string(), data: z.optional(z.unknown()) })),
  };
}

/**
 * The event schemas, built by the first event parsed and reused after: built
 * per call they cost many times what parsing an event does, and built at
 * import time every application would pay for them, events or not.
 */
const eventSchemas = builtOnce(buildEventSchemas);

/** `build`'s value, built on the first call; the cache lives in the closure, not the module. */
function builtOnce<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/**
 * What a charge event says about its charge: only `id` is promised. The
 * rest (a `status`, an `amount`, ...) is kept on the object as the service
 * sent it, unchecked, and is a hint at most: read it with `'status' in
 * event.data`, and act on the charge `client.webhooks.confirm` reads back. @category Events
 */
export interface ChargeEventData {
  /** The id of the charge the event is about: a non-empty string, never `.` or `..`. */
  id: string;
}

/**
 * A charge event: one of {@link CHARGE_EVENT_TYPES}, naming a charge by
 * `data.id`. Every other field is kept as it came. @category Events
 */
export interface ChargeEvent {
  /** One of {@link CHARGE_EVENT_TYPES}. */
  type: ChargeEventType;
  /** The charge the event is about; confirm it with `client.webhooks.confirm`. */
  data: ChargeEventData;
  /** The event's id, when the service sends one, as it came (unchecked: test `typeof event.id === 'string'`). */
  id?: unknown;
  /** When the event happened, when the service says, as it came (unchecked). */
  created_at?: unknown;
}

/**
 * An event of a type this version of lunas does not know yet, kept whole.
 * Use {@link isChargeEvent} to tell the two kinds of {@link LunasEvent} apart.
 * @category Events
 */
export interface UnknownEvent {
  /** The event type, e.g. a future `transfer.created`. */
  type: string;
  /** The event's object, when there is one, as it came (unchecked). */
  data?: unknown;
  /** The event's id, when the service sends one, as it came (unchecked). */
  id?: unknown;
  /** When the event happened, when the service says, as it came (unchecked). */
  created_at?: unknown;
}

/** Any event the service may send. @category Events */
export type LunasEvent = ChargeEvent | UnknownEvent;

/**
 * A webhook body as received: its text, its bytes (`Uint8Array` or Node
 * `Buffer`, `ArrayBuffer`, `DataView`), or the object `JSON.parse` made of it.
 * A `Request`, `Response`, `Blob`, stream or form is not a body: pass
 * `await request.text()`. Most of those do not compile here; all are refused
 * at run time. @category Webhooks
 */
export type WebhookBody =
  | string
  | ArrayBuffer
  | ArrayBufferView
  | { readonly [field: string]: unknown }
  | (object & {
      // Methods of a Request, Response or Blob, a web or Node stream, and a
      // form: a value of a declared type that has one of them is not a body.
      /** Absent from a body: a `Request`, `Response` or `Blob` has it. */
      readonly arrayBuffer?: never;
      /** Absent from a body: a web stream has it. */
      readonly getReader?: never;
      /** Absent from a body: a Node stream (an Express `req`) has it. */
      readonly pipe?: never;
      /** Absent from a body: a `FormData` or `URLSearchParams` has it. */
      readonly append?: never;
    });

/**
 * Whether an event is one of the documented charge events, which name their
 * charge by `data.id`. Act on the charge `client.webhooks.confirm` reads
 * back, never on the event alone.
 *
 * @example
 * ```ts
 * const event = parseEvent(body);
 * if (isChargeEvent(event)) log.info({ type: event.type, charge: event.data.id }, 'webhook received');
 * ```
 * @category Webhooks
 */
export function isChargeEvent(event: LunasEvent): event is ChargeEvent {
  // `?.` because JavaScript callers may pass anything; a guard answers false rather than throw.
  return (CHARGE_EVENT_TYPES as readonly unknown[]).includes((event as Partial<LunasEvent> | null)?.type);
}

/** A webhook body that is not a well-formed event: answer it with 400. @category Errors */
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

const AS_RECEIVED = 'pass the raw request body (text or bytes) as received';

/** An `EventValidationError` about the body as a whole. */
function invalidBody(message: string): EventValidationError {
  return new EventValidationError([{ path: '', message }]);
}

/**
 * Parses and validates a webhook body. It proves nothing about where the
 * event came from: use it to log or route an event, and
 * `client.webhooks.confirm` to act on one ([Webhooks](../docs/webhooks.md), the guide).
 *
 * @example
 * ```ts
 * const event = parseEvent(rawBody); // throws EventValidationError: answer 400
 * log.info({ type: event.type, id: event.id }, 'webhook received'); // to act, confirm it
 * ```
 * @throws {@link EventValidationError} when the body is not an event: not UTF-8, not
 * JSON, not an object with a string `type`, a charge event without a usable
 * `data.id`, or not a body at all (a `Request`, a stream). @category Webhooks
 */
export function parseEvent(body: WebhookBody): LunasEvent {
  try {
    return readEvent(body);
  } catch (error) {
    // A hostile object (a Proxy, a throwing getter) still gives the error to answer 400 with.
    throw error instanceof EventValidationError ? error : invalidBody(`the body could not be read; ${AS_RECEIVED}`);
  }
}

function readEvent(body: unknown): LunasEvent {
  let value = body;
  if (isArrayBuffer(body) || ArrayBuffer.isView(body)) {
    try {
      // Fatal: replacing bad bytes in silence could turn one charge id into another.
      // A BOM is kept for the text's own check below, so bytes and text agree.
      value = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      throw invalidBody(`the body is not UTF-8 text; ${AS_RECEIVED}`);
    }
  }
  if (typeof value === 'string') {
    try {
      // One BOM is allowed before JSON text.
      value = JSON.parse(value.replace(/^\uFEFF/, ''));
    } catch {
      throw invalidBody(`the body is not JSON; ${AS_RECEIVED}`);
    }
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isPlainObject(value)) {
    // JSON.parse makes plain objects only: this is a Request, a stream, a form...
    const kind = (value.constructor as { name?: unknown } | undefined)?.name;
    throw invalidBody(
      `got ${typeof kind === 'string' && kind ? `an instance of ${kind}` : 'an object'}, not the body; ` +
        'pass the body as received, e.g. await request.text()',
    );
  }
  const type = (value as { type?: unknown } | null | undefined)?.type;
  const schemas = eventSchemas();
  const schema = (CHARGE_EVENT_TYPES as readonly unknown[]).includes(type) ? schemas.charge : schemas.other;
  // `reportInput` keeps each bad value on its issue, so the message can say what came.
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) {
    throw new EventValidationError(
      result.error.issues.map((issue) => ({ path: dottedPath(issue.path), message: describeIssueWithInput(issue) })),
    );
  }
  return result.data;
}

// A body may come from another realm's constructors (a `vm` context, Jest's
// environment), where `instanceof` and prototype identity fail: both checks
// below recognise a value whatever realm made it.

const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!;

/** An `ArrayBuffer`: its `byteLength` getter accepts only a real one, from any realm. */
function isArrayBuffer(value: unknown): value is ArrayBuffer {
  try {
    arrayBufferByteLength.call(value);
    return true;
  } catch {
    return false;
  }
}

/** A plain object: its prototype is `null` or an `Object.prototype`. */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/**
 * What {@link Webhooks.confirm} found: a charge event with the charge as the
 * API reports it now, or an event of a type this version does not know. @category Webhooks
 */
export type WebhookConfirmation =
  | {
      /** The event as received: a hint of what changed, not proof. */
      event: ChargeEvent;
      /** The charge read back from the API: act on this. */
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
 * API, which is the one source to act on ([Webhooks](../docs/webhooks.md), the guide). @category Webhooks
 */
export class Webhooks {
  readonly #charges: Charges;
  readonly #api: API;

  /** @internal Created by {@link Client}. */
  constructor(charges: Charges, api: API) {
    this.#charges = charges;
    this.#api = api;
  }

  /**
   * Parses a webhook body (as {@link parseEvent} does) and, for a charge
   * event, retrieves the charge it names. Act on `charge`: it is what the API
   * says now, whatever the event claimed. `options` are checked first, by name
   * and value, whatever the event.
   *
   * @throws {@link EventValidationError} (answer 400) when the body is not an event, as for
   *   {@link parseEvent}; nothing is sent.
   * @throws {@link NotFoundError} when the event names a charge that does not exist (answer 4xx, do
   *   not act).
   * @throws {@link LunasError} every call's errors, those of reading the charge back: see
   *   [the table](../docs/errors-and-retries.md#every-error-a-call-can-raise).
   * @example
   * ```ts
   * const { charge } = await client.webhooks.confirm(await request.text());
   * if (charge?.status === 'success') await markOrderPaid(charge.client_reference_id, charge.id);
   * ```
   */
  async confirm(body: WebhookBody, options?: RequestOptions): Promise<WebhookConfirmation> {
    // Checked even when no charge is read, so a misspelt option never goes unnoticed.
    const checked = this.#api.checkOptions(options);
    const event = parseEvent(body);
    if (!isChargeEvent(event)) return { event, charge: undefined };
    return { event, charge: await this.#charges.retrieve(event.data.id, checked) };
  }
}
