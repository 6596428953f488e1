/**
 * The wait an answer asks for before the next request: `retry-after-ms`, else
 * `Retry-After` as seconds or an HTTP date. Read here, below the errors, so
 * an {@link APIError} carries it (`retryAfterMs`) and the retry policy
 * (call/retry-policy.ts) waits it, from one parser.
 */

// IMF-fixdate, RFC 850 and asctime: the three forms of an HTTP date (RFC 9110).
// Date.parse alone would also read values such as "-1" or "3,5" as dates.
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * The wait the answer asked for, in ms: `retry-after-ms`, else `Retry-After`
 * (a date in the past is 0). Undefined when neither is there or readable;
 * not bounded (the retry policy bounds what it waits itself).
 */
export function requestedWait(headers: Headers, now: number = Date.now()): number | undefined {
  const inMs = headers.get('retry-after-ms');
  const fromMs = inMs === null ? undefined : parseNonNegative(inMs);
  if (fromMs !== undefined) return fromMs;
  const retryAfter = headers.get('retry-after');
  return retryAfter === null ? undefined : parseRetryAfter(retryAfter, now);
}

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
