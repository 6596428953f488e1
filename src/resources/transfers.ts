import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { listEnvelope, type ListParams, Resource, validate } from '../core/resource.js';
import { currencyParam, maybe, money, moneyParam, openEnum, textParam, z } from '../core/schema.js';

const transferSchema = z.looseObject({
  id: z.string(),
  source_account_id: z.string(),
  destination_account_id: z.string(),
  source_account_name: maybe(z.string()),
  destination_account_name: maybe(z.string()),
  status: openEnum(['succeeded', 'failed'] as const),
  currency: z.string(),
  amount: money,
  description: maybe(z.string()),
  client_reference_id: maybe(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A transfer between two accounts of the platform. Unknown fields are kept. */
export type Transfer = z.output<typeof transferSchema>;

const transferCreateParams = z.strictObject({
  destination_account_id: z
    .string({ error: (issue) => (issue.input === undefined ? 'Destination account is required' : 'Destination account must be a string') })
    .check(z.minLength(1, 'Destination account is required')),
  amount: moneyParam('Amount'),
  currency: z.pipe(
    currencyParam('Currency is required'),
    z.literal('idr', { error: 'Currency is not supported' }),
  ),
  client_reference_id: z.optional(textParam('Client reference ID', 50)),
  description: z.optional(textParam('Description', 255)),
});

/**
 * Parameters of {@link Transfers.create}. `currency` is required; the service
 * supports only `idr` today.
 */
export type TransferCreateParams = z.input<typeof transferCreateParams>;

const transferList = listEnvelope(transferSchema);

/** Instant transfers from the caller's account to another account of the platform. */
export class Transfers extends Resource {
  /**
   * Moves money from your account to `destination_account_id`. Retried on
   * timeouts and 5xx with the same Idempotency-Key, so it happens at most once;
   * pass your own `idempotencyKey` (one per business operation) to keep that
   * guarantee across restarts too.
   *
   * @example
   * ```ts
   * const transfer = await client.transfers.create(
   *   { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' },
   *   { idempotencyKey: 'payout-invoice-2024-118' },
   * );
   * ```
   */
  create(params: TransferCreateParams, options?: RequestOptions): Promise<Transfer> {
    return this.submit('v1/transfers', () => validate(transferCreateParams, params), transferSchema, options);
  }

  /** Lists transfers, newest first. `for await` over the result walks every page. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Transfer> {
    return this.paginate('v1/transfers', transferList, params, options);
  }
}
