import { describeKind } from './describe-value.js';
import { RequestValidationError, type FieldErrors } from './errors.js';
import { readOptions } from './option-names.js';

/**
 * Options accepted by every method as its last argument. Any other name
 * (`idempotency_key`, `maxRetry`) rejects with `RequestValidationError`,
 * naming the closest one, before anything is sent.
 *
 * @example
 * ```ts
 * await client.transfers.create(params, { idempotencyKey: `invoice-${invoice.id}`, timeout: 10_000 });
 * ```
 */
export interface RequestOptions {
  /**
   * The Idempotency-Key of a POST. Defaults to a fresh UUID per call; pass your
   * own (one per business operation, e.g. per invoice) to make retries of the
   * whole operation safe across processes and restarts.
   */
  idempotencyKey?: string | undefined;
  /** Per-attempt timeout in ms; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** Largest delay `setTimeout` honours. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

// RFC 9110 token characters for names; visible ASCII, space and tab for values.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const reservedHeaders = new Set(['authorization', 'idempotency-key', 'content-length', 'host']);
/** Connection-level headers fetch refuses to send: accepted, they would fail every attempt as a connection error. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);

/** Problems with a headers record, keyed `headers.<name>`; empty when it is fine. */
export function headerProblems(headers: unknown, prefix = 'headers'): FieldErrors {
  const problems: FieldErrors = {};
  if (headers === undefined) return problems;
  if (typeof headers !== 'object' || headers === null) return { [prefix]: ['Headers must be an object of strings'] };
  for (const [name, value] of Object.entries(headers)) {
    const key = `${prefix}.${name}`;
    if (!HEADER_NAME.test(name)) problems[key] = ['Header name is not a valid HTTP token'];
    else if (reservedHeaders.has(name.toLowerCase()))
      problems[key] = ['This header is set by the SDK; use the apiKey or idempotencyKey option'];
    else if (name === '__proto__')
      // A record key that JavaScript object handling (ky's merge included) silently drops.
      problems[key] = ['This header name cannot be sent from a headers record'];
    else if (connectionHeaders.has(name.toLowerCase()))
      problems[key] = ['This header belongs to the HTTP connection and cannot be set'];
    else if (typeof value !== 'string' || !HEADER_VALUE.test(value))
      problems[key] = ['Header value must be a string without control characters such as CR or LF'];
  }
  return problems;
}

export function timeoutProblem(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMEOUT_MS
    ? undefined
    : `Timeout must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`;
}

export function maxRetriesProblem(value: unknown): string | undefined {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10
    ? undefined
    : 'Max retries must be an integer from 0 to 10';
}

/** The names of {@link RequestOptions}; the compiler keeps it in step with the interface. */
export const REQUEST_OPTION_NAMES = Object.keys({
  idempotencyKey: 0,
  timeout: 0,
  maxRetries: 0,
  signal: 0,
  headers: 0,
} satisfies Record<keyof RequestOptions, 0>) as (keyof RequestOptions)[];

/**
 * The per-call options as given, checked by name and by value; unknown or
 * malformed ones are refused before anything is sent. `null` counts as no
 * options, like `undefined`: JavaScript callers pass it for "nothing", and it
 * holds nothing that could be lost. `extra` names the options a raw call adds
 * (`query`, `body`, `schema`), returned unchecked for their own checks.
 */
export function checkRequestOptions<E extends string = never>(
  options: unknown,
  extra: readonly E[] = [],
): RequestOptions & { [P in E]?: unknown } {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options))
    throw new RequestValidationError({ options: [`Options must be an object (got ${describeKind(options)})`] });
  const { values, problems } = readOptions(options as object, [...REQUEST_OPTION_NAMES, ...extra]);
  Object.assign(problems, optionValueProblems(values as RequestOptions));
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  return values as RequestOptions & { [P in E]?: unknown };
}

function optionValueProblems(options: RequestOptions): FieldErrors {
  const problems = headerProblems(options.headers);
  const add = (field: string, message: string | undefined) => {
    if (message !== undefined) problems[field] = [message];
  };
  if (options.timeout !== undefined) add('timeout', timeoutProblem(options.timeout));
  if (options.maxRetries !== undefined) add('maxRetries', maxRetriesProblem(options.maxRetries));
  if (
    options.idempotencyKey !== undefined &&
    !(typeof options.idempotencyKey === 'string' && IDEMPOTENCY_KEY.test(options.idempotencyKey))
  )
    add('idempotencyKey', 'Idempotency key must be 1 to 255 visible ASCII characters');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    add('signal', 'Signal must be an AbortSignal');
  return problems;
}
