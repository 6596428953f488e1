import type { PagePromise } from '../core/page-promise.js';
import { path } from '../core/path.js';
import type { RequestOptions } from '../core/options.js';
import type { ListParams } from '../core/api.js';
import { Resource } from '../core/resource.js';
import { jsonObject, typedAs, z } from '../core/schema.js';

/**
 * A payout to an external bank account. The service does not specify its
 * fields, so none is typed: every field is kept, each read as `unknown`.
 *
 * @example
 * ```ts
 * const first = (await client.payouts.list()).data[0];
 * if (first && typeof first.id === 'string') console.log(first.id);
 * ```
 * @category Resources
 */
export interface Payout {
  /** Any field the service sends. */
  [field: string]: unknown;
}

const payoutSchema = typedAs<Payout>(jsonObject);
const payoutList = z.array(payoutSchema);

/**
 * Payouts to external bank accounts (read only).
 * @category Resources
 */
export class Payouts extends Resource {
  /**
   * Lists payouts, in the order the service sends them (it documents none).
   * `for await` over the result walks every page.
   *
   * @throws {@link RequestValidationError} when `params` (`page`, `pagesize`) or `options` are
   *   invalid; nothing is sent. `list` itself never throws: these reject the returned
   *   {@link PagePromise} when it is awaited or walked.
   * @throws {@link APIError} when the service answers with an error, as the class for its
   *   status: {@link BadRequestError} (400), {@link AuthenticationError} (401),
   *   {@link PermissionDeniedError} (403), {@link NotFoundError} (404), {@link ConflictError} (409),
   *   {@link UnprocessableEntityError} (422), {@link RateLimitError} (429), {@link InternalServerError}
   *   (5xx), `APIError` itself for any other; a retried status only after the last attempt.
   * @throws {@link APIConnectionError} when no response arrives after the last attempt, or
   *   {@link APIConnectionTimeoutError} when that attempt timed out.
   * @throws {@link APIUserAbortError} when `options.signal` aborts the call.
   * @throws {@link ResponseValidationError} when the response does not have the documented shape.
   * @throws {@link LunasError} when ky, the HTTP client lunas sends with, cannot be loaded.
   * @throws {@link LunasError} when a walk stops because the pages held nothing new for more
   *   than the 10,000 items it remembers (a service re-sending pages already read).
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Payout> {
    return this.api.list(path`/v1/payouts`, { items: payoutList, order: 'unspecified', params }, options);
  }
}
