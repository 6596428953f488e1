/**
 * The shapes of generated values tests match: idempotency keys, timestamps,
 * request ids.
 */

/** UUID version 4, as RFC 9562 lays it out (what `crypto.randomUUID()` returns). */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** ISO 8601 UTC with milliseconds and a trailing Z, as `Date.prototype.toISOString` and the sandbox write it. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A sandbox request id: `req_` and 24 hex digits. */
export const REQUEST_ID = /^req_[0-9a-f]{24}$/;
