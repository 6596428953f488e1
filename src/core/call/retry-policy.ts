/**
 * The retry policy of the contract: what is retried (connection failures,
 * timeouts, a body that broke off, 408, 409, 429 and 5xx), how long to wait
 * before the next attempt (the service's `retry-after-ms` or `Retry-After` up
 * to 60 s, else exponential backoff with jitter), and what the final error
 * says about the attempts made.
 */
import { APIConnectionError, APIError, type LunasError, ResponseBodyError } from '../report/errors.js';
import { requestedWait } from '../report/retry-after.js';
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
 * The wait the service asked for, in ms (report/retry-after.ts reads it),
 * when it is at most 60 s; undefined otherwise, and backoff waits instead.
 */
export function serverRequestedDelay(headers: Headers, now: number = Date.now()): number | undefined {
  const delay = requestedWait(headers, now);
  return delay !== undefined && delay <= MAX_RETRY_AFTER_MS ? delay : undefined;
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

/**
 * Whether the service said it did not carry the request out: an answer with
 * a status from 400 to 499 other than 408, 409 and 429, which a retry might
 * meet differently.
 */
function refusedByService(error: LunasError): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && !isRetryable(error);
}

/**
 * Adds to a final error, after `attempts` were sent: their count, whether the
 * request may have been carried out (`outcomeUnknown`), and the safe way to
 * retry a POST.
 */
export function withAttempts(error: LunasError, attempts: number): LunasError {
  error.outcomeUnknown = attempts > 0 && !refusedByService(error);
  if (attempts > 1) error.message += ` (after ${attempts} attempts)`;
  if (error.idempotencyKey !== undefined && isRetryable(error)) {
    error.message += `; retry with idempotencyKey "${error.idempotencyKey}" to avoid a duplicate`;
  }
  return error;
}
