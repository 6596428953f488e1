/**
 * The cap on one response body, shared by the attempt that enforces it and
 * by the Node.js transport, which stops reading at it instead of buffering
 * whatever a broken or hostile server sends.
 */

/**
 * The most bytes of one response body an attempt reads, counted after
 * decompression: 8 MiB, some 80 times a page of 100 items (about 100 KB).
 * Past it the read stops (the connection is closed) and the call rejects with
 * a `ResponseBodyError` whose `reason` is `'too-large'`.
 */
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/** The `name` of the error a body read rejects with past the cap, whichever reader read it. */
const BODY_TOO_LARGE = 'LunasBodyTooLarge';

/** The error a body read rejects with past the cap. */
export function bodyTooLarge(limit: number = MAX_RESPONSE_BODY_BYTES): Error {
  const error = new Error(`the body is larger than ${limit} bytes`);
  error.name = BODY_TOO_LARGE;
  return error;
}

/** Whether `error` says the body passed the cap; never throws, whatever `error` is. */
export function isBodyTooLarge(error: unknown): boolean {
  try {
    return (error as { name?: unknown }).name === BODY_TOO_LARGE;
  } catch {
    return false;
  }
}
