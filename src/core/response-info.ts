/**
 * The HTTP exchange behind each value a method returned, kept beside the
 * value (a WeakMap) so results stay plain data that prints and serialises as
 * the service sent it.
 */

/**
 * What lunas knows about the HTTP exchange behind a result: see {@link getResponseInfo}.
 * @category Client
 */
export interface ResponseInfo {
  /** HTTP status of the final attempt. */
  readonly status: number;
  /** Response headers of the final attempt. */
  readonly headers: Headers;
  /** The `x-request-id` header, when the service sent one. */
  readonly requestId: string | undefined;
  /** Number of attempts made, 1 when there was no retry. */
  readonly attempts: number;
  /** The Idempotency-Key sent, for POST calls. */
  readonly idempotencyKey: string | undefined;
}

const responses = new WeakMap<object, ResponseInfo>();

/**
 * The HTTP exchange behind a value a method returned (a resource, a
 * {@link Page}, or an object from `client.get`/`client.post`): status,
 * headers, `x-request-id`, attempts, Idempotency-Key. Undefined for values
 * lunas did not return, and for raw results that are not objects.
 *
 * @example
 * ```ts
 * const transfer = await client.transfers.create(params);
 * console.log(getResponseInfo(transfer)?.requestId);
 * ```
 * @category Client
 */
export function getResponseInfo(value: object): ResponseInfo | undefined {
  return responses.get(value);
}

/** Records the exchange behind `value` (when it is an object) and returns it. */
export function remember<T>(value: T, info: ResponseInfo): T {
  if (typeof value === 'object' && value !== null) responses.set(value, info);
  return value;
}
