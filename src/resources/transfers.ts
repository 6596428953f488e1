import { describeValue } from '../core/describe-value.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { listEnvelope, type ListParams, Resource, validate } from '../core/resource.js';
import { currencyParam, looseObject, maybe, money, moneyParam, openEnum, textParam, z } from '../core/schema.js';

const transferSchema = looseObject({
  /** Unique identifier of the transfer. */
  id: z.string(),
  /** Your account, the one the money left. */
  source_account_id: z.string(),
  /** The account the money went to. */
  destination_account_id: z.string(),
  /** Name of the source account. */
  source_account_name: maybe(z.string()),
  /** Name of the destination account. */
  destination_account_name: maybe(z.string()),
  /** `succeeded` (the funds are available at once) or `failed` (or a status added later). */
  status: openEnum(['succeeded', 'failed'] as const),
  /** Three-letter currency code, lower case: `idr`. */
  currency: z.string(),
  /** The amount, a string with exactly two decimals, e.g. `"125000.00"`. */
  amount: money,
  /** Description of the transfer. */
  description: maybe(z.string()),
  /** Your reference, for reconciliation. */
  client_reference_id: maybe(z.string()),
  /** When the transfer was created (ISO 8601 UTC). */
  created_at: z.string(),
  /** When the transfer last changed (ISO 8601 UTC). */
  updated_at: z.string(),
});

/**
 * A transfer between two accounts of the platform. Money is a string with two
 * decimals; fields added by the service later are kept.
 */
export interface Transfer extends z.output<typeof transferSchema> {}

const transferCreateParams = z.strictObject({
  /** An active account of the platform. Required. */
  destination_account_id: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'Destination account is required'
          : `Destination account must be a string (got ${describeValue(issue.input)})`,
    })
    .check(z.minLength(1, 'Destination account is required')),
  /** Greater than 0, at most two decimals: `125000`, `'125000.00'`. Sent as a JSON number. Required. */
  amount: moneyParam('Amount'),
  /** Required; `idr` (in any case) is the only currency supported. */
  currency: z.pipe(
    currencyParam('Currency is required'),
    z.literal('idr', {
      error: (issue) => `Currency is not supported; only idr is, for now (got ${describeValue(issue.input)})`,
    }),
  ),
  /** Your reference, for reconciliation (e.g. the invoice number); at most 50 characters. */
  client_reference_id: z.optional(textParam('Client reference ID', 50)),
  /** Description of the transfer; at most 255 characters. */
  description: z.optional(textParam('Description', 255)),
});

/**
 * Parameters of `client.transfers.create()`. `currency` is required; the
 * service supports only `idr` today. The source is always your own account.
 *
 * @useDeclaredType
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

  /**
   * Lists transfers, newest first. `await` the result for one
   * {@link Page}, or `for await` over it for every transfer across pages.
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Transfer> {
    return this.paginate('v1/transfers', transferList, params, options);
  }
}
