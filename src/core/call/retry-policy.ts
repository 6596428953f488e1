/**
 * The retry policy of the contract: what is retried (connection failures,
 * timeouts, a body that broke off, 408, 409, 429 and 5xx), how long to wait
 * before the next attempt (the service's `retry-after-ms` or `Retry-After` up
 * to 60 s, else exponential backoff with jitter), and what the final error
 * says about the attempts made.
 */
import { APIConnectionError, APIError, type LunasError, ResponseBodyError } from '../report/errors.js';
import { onAbort } from './attempt.js';

/** The longest server-requested wait the SDK honours; longer requests fall back to backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * Connection failures, timeouts, a body that broke off, 408, 409, 429 and
 * 5xx. Everything else is final: a redirect (3xx), and a body past the cap,
 * which a retry would only read again.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true; // includes timeouts
  if (error instanceof ResponseBodyError) return error.reason === 'unreadable';
  if (error instanceof APIError) {
    const { status } = error;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

/**
 * The wait the service asked for, in ms: `retry-after-ms`, else `Retry-After`
 * as seconds or an HTTP date. Undefined when absent, unreadable or above 60 s.
 */
export function serverRequestedDelay(headers: Headers, now: number = Date.now()): number | undefined {
  const inMs = headers.get('retry-after-ms');
  const fromMs = inMs === null ? undefined : parseNonNegative(inMs);
  const retryAfter = headers.get('retry-after');
  const delay = fromMs ?? (retryAfter === null ? undefined : parseRetryAfter(retryAfter, now));
  return delay !== undefined && delay <= MAX_RETRY_AFTER_MS ? delay : undefined;
}

// IMF-fixdate, RFC 850 and asctime: the three forms of an HTTP date (RFC 9110).
// Date.parse alone would also read values such as "-1" or "3,5" as dates.
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

function parseRetryAfter(value: string, now: number): number | undefined {
  const seconds = parseNonNegative(value);
  if (seconds !== undefined) return seconds * 1000;
  const trimmed = value.trim();
  const date = HTTP_DATE.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNonNegative(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/**
 * Exponential backoff for retry number `retry` (1 for the first retry): 0.5 s
 * doubling to at most 8 s, less up to 25% jitter so clients that failed
 * together do not retry together.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, retry - 1), MAX_BACKOFF_MS);
  return base * (1 - 0.25 * random());
}

/** The wait before retry number `retry`, given the failed attempt's response headers. */
export function retryDelay(retry: number, headers: Headers | undefined): number {
  return (headers && serverRequestedDelay(headers)) ?? backoffDelay(retry);
}

/** Resolves after `ms`, or as soon as `signal` aborts: the next attempt then ends unsent. */
export function waitToRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const stopListening = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          resolve();
        })
      : undefined;
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
  });
}

/** Adds the attempt count to a final error, and the safe way to retry a POST. */
export function withAttempts(error: LunasError, attempts: number): LunasError {
  if (attempts > 1) error.message += ` (after ${attempts} attempts)`;
  if (error.idempotencyKey !== undefined && isRetryable(error)) {
    error.message += `; retry with idempotencyKey "${error.idempotencyKey}" to avoid a duplicate`;
  }
  return error;
}
