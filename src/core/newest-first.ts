/**
 * The {@link PagePromise} of a list the service documents as newest first
 * (charges, transfers): the one kind of list that can be walked back to a
 * point in time.
 */
import { PagePromise } from './page-promise.js';
import type { SinceWalk } from './since-walk.js';

/**
 * What `list()` returns for a list ordered newest first by `created_at`
 * (charges, transfers): a {@link PagePromise}, which can also be walked back
 * to a point in time with {@link NewestFirstPagePromise.since}. Lists whose
 * items document no `created_at` (payouts, payment methods) return a plain
 * `PagePromise`, without `since`.
 * @category Pagination
 */
export class NewestFirstPagePromise<T> extends PagePromise<T> {
  /**
   * The items created at or after `time`, newest first: the walk ends at the
   * first item created before it, and requests no page beyond the one holding
   * that item. `time` is a `Date` or an ISO 8601 datetime with a zone
   * (`2026-12-01T00:00:00Z`); anything else rejects with
   * `RequestValidationError` when the walk starts, before sending. The
   * service's clock sets `created_at`: see the pagination guide for the
   * caveats (clocks apart, equal timestamps, items created during the walk).
   *
   * @example
   * ```ts
   * const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
   * for await (const charge of client.charges.list({ pagesize: 100 }).since(since)) {
   *   console.log(charge.id, charge.created_at);
   * }
   * const recent = await client.transfers.list({ pagesize: 100 }).since(since).toArray({ limit: 1000 });
   * ```
   * @throws {@link RequestValidationError} when `time` is not a valid `Date` or an ISO 8601 date-time
   *   with a zone; nothing is sent. `since` itself never throws: the walk rejects when iterated.
   * @throws {@link LunasError} any page's error, as the list method's pages: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when an item's `created_at` does not parse as a time, or the pages held
   *   nothing new for more than the 10,000 items a walk remembers.
   */
  override since(time: Date | string): SinceWalk<T> {
    return super.since(time);
  }
}
