/**
 * The value checks of the options a client and a call share (`timeout`,
 * `maxRetries`, headers) and those of a call alone (`idempotencyKey`,
 * `signal`), one rule each. Problems are keyed like
 * `RequestValidationError.fields`: the client throws its first, a call all.
 * Messages never quote a value: a header or a key may be a credential.
 */
import type { FieldErrors } from './errors.js';

/** Largest delay `setTimeout` honours. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

// RFC 9110 token characters for names; visible ASCII, space and tab for values.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const reservedHeaders = new Set(['authorization', 'idempotency-key', 'content-length', 'host']);
/** Connection-level headers fetch refuses to send: accepted, they would fail every attempt as a connection error. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);

/** Problems with a headers record, keyed `<prefix>.<name>`; empty when it is fine. */
function headerProblems(headers: unknown, prefix: string): FieldErrors {
  const problems: FieldErrors = {};
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

function timeoutProblem(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMEOUT_MS
    ? undefined
    : `Timeout must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`;
}

function maxRetriesProblem(value: unknown): string | undefined {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10
    ? undefined
    : 'Max retries must be an integer from 0 to 10';
}

function idempotencyKeyProblem(value: unknown): string | undefined {
  return typeof value === 'string' && IDEMPOTENCY_KEY.test(value)
    ? undefined
    : 'Idempotency key must be 1 to 255 visible ASCII characters';
}

function signalProblem(value: unknown): string | undefined {
  return value instanceof AbortSignal ? undefined : 'Signal must be an AbortSignal';
}

const problemOf = {
  timeout: timeoutProblem,
  maxRetries: maxRetriesProblem,
  idempotencyKey: idempotencyKeyProblem,
  signal: signalProblem,
};

/** The options {@link optionValueProblems} checks: a headers record under either name. */
type CheckedOptions = { [K in keyof typeof problemOf | 'headers' | 'defaultHeaders']?: unknown };

/**
 * The problems of the options given (an `undefined` value is not given), in
 * the order of `options`' keys, so each caller decides which it reports first.
 */
export function optionValueProblems(options: CheckedOptions): FieldErrors {
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(options) as [keyof CheckedOptions, unknown][]) {
    if (value === undefined) continue;
    if (name === 'headers' || name === 'defaultHeaders') Object.assign(problems, headerProblems(value, name));
    else {
      const message = problemOf[name](value);
      if (message !== undefined) problems[name] = [message];
    }
  }
  return problems;
}
