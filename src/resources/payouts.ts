import type { ListParams } from '../core/lists/list-spec.js';
import type { PagePromise } from '../core/lists/page.js';
import { path, Resource } from '../core/call/request.js';
import type { RequestOptions } from '../core/checks/options.js';
import { jsonObject, typedAs, z } from '../core/checks/schemas.js';

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

const payoutSchema = typedAs<Payout>()(jsonObject);
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
   * @throws {@link RequestValidationError} when `params` (`page`, `pagesize`) are invalid; nothing
   *   is sent. Like every error of a list, it rejects the returned {@link PagePromise} when that is
   *   awaited or walked: `list` itself never throws.
   * @throws {@link LunasError} when a walk stops because the pages held nothing new for more than
   *   the 10,000 items it remembers (a service re-sending pages already read).
   * @throws {@link LunasError} every call's errors, for each page fetched: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Payout> {
    return this.api.list(
      path`/v1/payouts`,
      { operation: 'payouts.list', items: payoutList, order: 'unspecified', params },
      options,
    );
  }
}
