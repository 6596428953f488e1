/**
 * The error hierarchy. Every error the SDK throws is a {@link LunasError}, so one
 * `instanceof` check separates lunas failures from bugs in the caller's code.
 *
 * `instanceof` also works across copies of lunas-sdk. A process can hold two
 * (its ESM and CJS builds, or two installed versions), so a lunas error class
 * is recognised by a brand shared by every copy, a name stored under
 * `Symbol.for('lunas-sdk.error-class')`, not by class identity alone.
 */

import { requestedWait } from './retry-after.js';

/** The key of each lunas error class's brand: `Symbol.for` gives every copy of lunas-sdk the same symbol. */
const ERROR_BRAND = Symbol.for('lunas-sdk.error-class');

/** Gives each class its brand and its `name`: the name it is exported under. */
export function brandErrorClasses(classes: Record<string, abstract new (...args: never[]) => LunasError>): void {
  for (const [brand, errorClass] of Object.entries(classes)) {
    Object.defineProperty(errorClass, ERROR_BRAND, { value: brand });
    // The name as a literal, on the prototype: a minifier renames the classes themselves.
    Object.defineProperty(errorClass.prototype, 'name', { value: brand, writable: true, configurable: true });
  }
}

function ownBrand(candidate: unknown): unknown {
  return typeof candidate === 'function' ? Object.getOwnPropertyDescriptor(candidate, ERROR_BRAND)?.value : undefined;
}

/**
 * The ordinary check, or, for a branded class, whether some class in the
 * value's prototype chain carries the same brand (the same class in another copy).
 */
function isInstanceOrBranded(errorClass: object, value: unknown): boolean {
  try {
    if (Function.prototype[Symbol.hasInstance].call(errorClass, value)) return true;
    const brand = ownBrand(errorClass);
    if (typeof brand !== 'string' || typeof value !== 'object' || value === null) return false;
    for (let link: unknown = Object.getPrototypeOf(value); link !== null; link = Object.getPrototypeOf(link)) {
      if (ownBrand(Object.getOwnPropertyDescriptor(link, 'constructor')?.value) === brand) return true;
    }
    return false;
  } catch {
    // A revoked Proxy, or one whose traps throw: a foreign value, and the check must not throw on it.
    return false;
  }
}

/** Field name (dotted for nested fields, e.g. `customer_details.email`) to messages. @category Errors */
export type FieldErrors = Record<string, string[]>;

/**
 * The base class of every error thrown by lunas. `instanceof` on any lunas
 * error class also recognises an error from another copy of lunas-sdk in the
 * same process (its ESM and CommonJS builds loaded side by side).
 *
 * Every call's errors, each as its class, with when it is raised and whether
 * it is retried: [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise).
 * A method's own documentation names only what is specific to it.
 *
 * @see [Errors and retries](../../../docs/errors-and-retries.md), the guide
 *
 * @example
 * ```ts
 * try {
 *   await client.transfers.create(params);
 * } catch (error) {
 *   if (error instanceof LunasError) console.error(error.message);
 *   else throw error;
 * }
 * ```
 * @category Errors
 */
export class LunasError extends Error {
  /**
   * The Idempotency-Key sent with the failed POST, when there was one. Retrying
   * the same operation with this key can never perform it twice.
   */
  idempotencyKey: string | undefined;

  /**
   * Whether the request may have been carried out although no answer says
   * how: `true` when a request was sent and the call ended without the
   * service saying it refused it (no response, a timeout, a 5xx, 408, 409 or
   * 429, an answer whose body could not be read or checked, the caller's
   * abort after sending). `false` when lunas knows it was not carried out:
   * nothing was sent (a `RequestValidationError`, an abort before sending),
   * or the service refused it with another 4xx.
   *
   * After a POST whose outcome is unknown, call again with the same
   * `idempotencyKey`, never a new one: the service answers with what the
   * first request did, or does it now, so the money moves once.
   * [Payouts at scale](../../../docs/payouts-at-scale.md#an-unknown-outcome).
   */
  outcomeUnknown = false;

  constructor(message: string, options?: { cause?: unknown; idempotencyKey?: string | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.idempotencyKey = options?.idempotencyKey;
  }

  /**
   * `instanceof` that also recognises an error thrown by another copy of
   * lunas-sdk in the same process, such as its ESM and CommonJS builds loaded
   * side by side: each lunas class carries a brand shared by every copy.
   * A class of your own that extends a lunas error keeps the ordinary check.
   * Hidden from the reference (the class comment says it in a sentence): a
   * static method named by a symbol reads as noise on every error's page.
   *
   * @hidden
   */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return isInstanceOrBranded(this, value);
  }

  /**
   * A plain, key-free summary, so `JSON.stringify(error)` shows what went
   * wrong; `headers`, on the errors that carry them, as a plain record (a
   * `Headers` object serialises as `{}`).
   */
  toJSON(): Record<string, unknown> {
    const { cause: _cause, ...fields } = { ...this } as Record<string, unknown>;
    if (fields.headers instanceof Headers) fields.headers = headersRecord(fields.headers);
    return { name: this.name, message: this.message, ...fields };
  }
}

/**
 * What an {@link APIError} knows about the response that carried it.
 * @category Errors
 */
export interface APIErrorInit {
  /** The HTTP status of the response. */
  status: number;
  /** The error message: the request, the status and the service's own message. */
  message: string;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  body: unknown;
  /** The response headers. */
  headers: Headers;
  /** The Idempotency-Key sent with the request, for a POST. */
  idempotencyKey?: string | undefined;
}

/**
 * The service answered with an error status. Subclasses narrow it by status;
 * `status`, `body`, `headers` and `requestId` are always available.
 *
 * @example
 * ```ts
 * try {
 *   await client.charges.retrieve(id);
 * } catch (error) {
 *   if (error instanceof APIError) console.error(error.status, error.requestId, error.body);
 *   throw error;
 * }
 * ```
 * @category Errors
 */
export class APIError extends LunasError {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  readonly body: unknown;
  /** The response headers. */
  readonly headers: Headers;
  /** The `x-request-id` response header, when the service sent one: quote it to support. */
  readonly requestId: string | undefined;
  /**
   * How long the service asked you to wait before sending again, in
   * milliseconds: its `retry-after-ms` header, else `Retry-After` (seconds,
   * or an HTTP date counted from when the error was made; a past date is
   * `0`). `undefined` when it sent neither, or neither could be read. Usually
   * on a {@link RateLimitError} (429) or a 503. Not capped: the SDK's own
   * retries wait at most 60 s, but a queue pausing its workers can honour a
   * longer wait.
   */
  readonly retryAfterMs: number | undefined;

  constructor(init: APIErrorInit) {
    super(init.message, { idempotencyKey: init.idempotencyKey });
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = init.headers.get('x-request-id') ?? undefined;
    this.retryAfterMs = requestedWait(init.headers);
  }
}

/** 400: the service rejected the request. `fields` maps field names to its messages. @category Errors */
export class BadRequestError extends APIError {
  /** The `fail` envelope's field map; empty when the body carried only a `message`. */
  readonly fields: FieldErrors;

  constructor(init: APIErrorInit & { fields: FieldErrors }) {
    super(init);
    this.fields = init.fields;
  }
}

/** 401: the API key is missing, invalid or revoked. @category Errors */
export class AuthenticationError extends APIError {}
/** 403: not allowed, for example a transfer beyond the available balance. @category Errors */
export class PermissionDeniedError extends APIError {}
/** 404: the resource does not exist. @category Errors */
export class NotFoundError extends APIError {}
/** 409: the request conflicts with another one; retried automatically. @category Errors */
export class ConflictError extends APIError {}
/** 422: the request was understood but cannot be processed. @category Errors */
export class UnprocessableEntityError extends APIError {}
/**
 * 429: too many requests; retried automatically, honouring `Retry-After`.
 * `retryAfterMs` says how long the service asked to wait, for a queue that
 * pauses all its workers ([Payouts at scale](../../../docs/payouts-at-scale.md#rate-limits-across-workers)).
 * @category Errors
 */
export class RateLimitError extends APIError {}
/** 500 and above: the service failed; retried automatically. @category Errors */
export class InternalServerError extends APIError {}

/** No response arrived: DNS, refused or dropped connection, TLS failure. @category Errors */
export class APIConnectionError extends LunasError {}

/** No response arrived within the per-attempt `timeout`. @category Errors */
export class APIConnectionTimeoutError extends APIConnectionError {}

/**
 * Why a {@link ResponseBodyError}'s body was not used: `'too-large'`, past
 * the most lunas reads of one body; `'unreadable'`, the body broke off or
 * could not be decoded (a connection cut mid-body, bad gzip).
 * @category Errors
 */
export type ResponseBodyProblem = 'too-large' | 'unreadable';

/**
 * A response arrived, but its body could not be used. `reason` says why:
 * `'too-large'` when it held more than `limit` bytes (counted after
 * decompression; lunas stops reading there, and never retries it), or
 * `'unreadable'` when it broke off or could not be decoded (retried like a
 * connection failure: a POST's retry carries the same Idempotency-Key, so it
 * cannot perform the operation twice).
 *
 * @example
 * ```ts
 * try {
 *   await client.charges.list({ pagesize: 100 });
 * } catch (error) {
 *   if (error instanceof ResponseBodyError && error.reason === 'too-large') {
 *     console.error(`a body over ${error.limit} bytes`, error.status, error.requestId);
 *   }
 *   throw error;
 * }
 * ```
 * @category Errors
 */
export class ResponseBodyError extends LunasError {
  /** Why the body was not used. */
  readonly reason: ResponseBodyProblem;
  /** The HTTP status of the response. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The `x-request-id` response header, when the service sent one: quote it to support. */
  readonly requestId: string | undefined;
  /** The most bytes of a body lunas reads (after decompression): 8 MiB. */
  readonly limit: number;

  constructor(init: {
    message: string;
    reason: ResponseBodyProblem;
    status: number;
    headers: Headers;
    limit: number;
    cause?: unknown;
    idempotencyKey?: string | undefined;
  }) {
    super(init.message, { cause: init.cause, idempotencyKey: init.idempotencyKey });
    this.reason = init.reason;
    this.status = init.status;
    this.headers = init.headers;
    this.requestId = init.headers.get('x-request-id') ?? undefined;
    this.limit = init.limit;
  }
}

/** The caller's `AbortSignal` aborted the call; never retried. @category Errors */
export class APIUserAbortError extends LunasError {}

/**
 * The request was refused before anything was sent. `fields` maps dotted field
 * names to messages, the same shape as the service's `fail` envelope.
 *
 * @example
 * ```ts
 * try {
 *   await client.charges.create({ payment_method: 'qris', amount: 0 });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.log(error.fields);
 *   // { amount: ['Amount must be greater than 0'] }
 * }
 * ```
 * @category Errors
 */
export class RequestValidationError extends LunasError {
  /** Dotted field name to messages. */
  readonly fields: FieldErrors;

  constructor(fields: FieldErrors) {
    super(`Invalid request: ${describeFields(fields)}`);
    this.fields = fields;
  }
}

/** One mismatch between a response and its schema. @category Errors */
export interface ResponseIssue {
  /** Dotted path inside the response body, e.g. `data.amount`. */
  path: string;
  /** What is wrong there, e.g. `missing (expected string)`, `expected string (got null)`. */
  message: string;
}

/**
 * A response did not have the shape the service documents, so no value is
 * returned from it. `path` names the first failing field and `body` holds the
 * raw text, for a bug report.
 * @category Errors
 */
export class ResponseValidationError extends LunasError {
  /** Dotted path of the first mismatch (`''` when the body as a whole is wrong). */
  readonly path: string;
  /** Every mismatch found. */
  readonly issues: ResponseIssue[];
  /** The raw response text. */
  readonly body: string;
  /** The HTTP status of the response. */
  readonly status: number;
  /** The `x-request-id` response header, when sent. */
  readonly requestId: string | undefined;
  /** The response headers. */
  readonly headers: Headers;

  constructor(init: {
    summary: string;
    issues: ResponseIssue[];
    body: string;
    status: number;
    headers: Headers;
    idempotencyKey?: string | undefined;
  }) {
    super(init.summary, { idempotencyKey: init.idempotencyKey });
    this.issues = init.issues;
    this.path = init.issues[0]?.path ?? '';
    this.body = init.body;
    this.status = init.status;
    this.headers = init.headers;
    this.requestId = init.headers.get('x-request-id') ?? undefined;
  }
}

/**
 * Headers as a plain record, names lower-cased (as `Headers` keeps them); a
 * name sent twice (`set-cookie`) keeps both values, joined by a comma.
 */
function headersRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = Object.hasOwn(record, name) ? `${record[name]}, ${value}` : value;
  });
  return record;
}

/**
 * Adds `messages` to `field` as an own property, so that a field named
 * `__proto__` or `constructor` stays a field instead of reaching what every
 * object inherits.
 */
export function addFieldMessages(fields: FieldErrors, field: string, messages: string[]): void {
  if (Object.hasOwn(fields, field)) fields[field]!.push(...messages);
  else Object.defineProperty(fields, field, { value: messages, enumerable: true, writable: true, configurable: true });
}

/** `amount: Amount must be greater than 0; currency: Currency is required` */
export function describeFields(fields: FieldErrors): string {
  const parts = Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'no details given';
}

type APIErrorClass = new (init: APIErrorInit & { fields: FieldErrors }) => APIError;

const classByStatus: Record<number, APIErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error class the contract assigns to an HTTP status. */
export function errorClassFor(status: number): APIErrorClass {
  return classByStatus[status] ?? (status >= 500 ? InternalServerError : APIError);
}

brandErrorClasses({
  LunasError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  RequestValidationError,
  ResponseValidationError,
  ResponseBodyError,
});
