import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ListParams } from '../core/api.js';
import { Resource } from '../core/resource.js';
import { jsonObject, z } from '../core/schema.js';

/**
 * A payout to an external bank account. The service does not specify its
 * fields, so it is typed as a JSON object with every field kept.
 *
 * @useDeclaredType
 */
export type Payout = z.output<typeof payoutSchema>;

const payoutSchema = jsonObject;
const payoutList = z.array(payoutSchema);

/** Payouts to external bank accounts (read only). */
export class Payouts extends Resource {
  /** Lists payouts, newest first. `for await` over the result walks every page. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Payout> {
    return this.api.list('/v1/payouts', payoutList, params, options);
  }
}
