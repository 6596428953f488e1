import { describeValue } from '../core/report/describe-value.js';
import type { ListParams } from '../core/lists/list-spec.js';
import type { NewestFirstPagePromise } from '../core/lists/page.js';
import { path, Resource } from '../core/call/request.js';
import type { RequestOptions } from '../core/checks/options.js';
import {
  money,
  moneyParam,
  currencyParam,
  textParam,
  looseObject,
  maybe,
  openEnum,
  paramsTypedAs,
  typedAs,
  z,
} from '../core/checks/schemas.js';

// The public types below are written for people; the schemas after them are
// the runtime truth. typedAs and paramsTypedAs make any disagreement between
// the two a compile error.

/**
 * Where a transfer stands: `succeeded` (the funds are available at once) or
 * `failed`. Transfers say `succeeded`, charges say `success`.
 *
 * The service may add a status later. lunas then returns it as it came, so a
 * `switch` over a status needs a `default` branch for a value it does not know.
 * @category Resources
 */
export type TransferStatus = 'succeeded' | 'failed';

/**
 * A transfer between two accounts of the platform. Money is a string with
 * exactly two decimals; timestamps are ISO 8601 strings as the service sent them.
 *
 * Fields the service adds later are kept on the object at run time but are not
 * in this type; read one with `'field' in transfer` (see the Charges guide).
 * @category Resources
 */
export interface Transfer {
  /** Unique identifier of the transfer. */
  id: string;
  /** Your account, the one the money left. */
  source_account_id: string;
  /** The account the money went to. */
  destination_account_id: string;
  /** Name of the source account; absent or `null` when the service does not send it. */
  source_account_name?: string | null | undefined;
  /** Name of the destination account; absent or `null` when the service does not send it. */
  destination_account_name?: string | null | undefined;
  /** `succeeded` (the funds are available at once) or `failed`. */
  status: TransferStatus;
  /** Three-letter currency code, lower case: `idr`. */
  currency: string;
  /** The amount, a string with exactly two decimals, e.g. `"125000.00"`. */
  amount: string;
  /** Description of the transfer; absent or `null` when none was sent. */
  description?: string | null | undefined;
  /** Your reference, for reconciliation; absent or `null` when none was sent. */
  client_reference_id?: string | null | undefined;
  /** When the transfer was created (ISO 8601 UTC). */
  created_at: string;
  /** When the transfer last changed (ISO 8601 UTC). */
  updated_at: string;
}

/**
 * Parameters of `client.transfers.create()`. Field names are the wire names.
 * The source is always your own account. A field not listed here is refused
 * with a {@link RequestValidationError}, and nothing is sent.
 * @category Resources
 */
export interface TransferCreateParams {
  /** An active account of the platform. Required. */
  destination_account_id: string;
  /** Greater than 0, at most two decimals: `125000`, `'125000.00'`. Sent as a JSON number. Required. */
  amount: number | string;
  /** Required; `idr` (in any case) is the only currency the service supports. */
  currency: string;
  /** Your reference, for reconciliation (e.g. the invoice number); at most 50 characters. */
  client_reference_id?: string | undefined;
  /** Description of the transfer; at most 255 characters. */
  description?: string | undefined;
}

// Response: lenient. Unknown fields are kept and a status added later passes.
const transferSchema = typedAs<Transfer>()(
  looseObject({
    id: z.string(),
    source_account_id: z.string(),
    destination_account_id: z.string(),
    source_account_name: maybe(z.string()),
    destination_account_name: maybe(z.string()),
    status: openEnum(),
    currency: z.string(),
    amount: money,
    description: maybe(z.string()),
    client_reference_id: maybe(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

// Request: strict, with the service's messages. Field docs: see TransferCreateParams.
/** @internal What `transfers.create` checks; lunas-sdk/mcp derives its tool's input schema from it. */
export const transferCreateParams = paramsTypedAs<TransferCreateParams>()(
  z.strictObject({
    destination_account_id: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'Destination account is required'
            : `Destination account must be a string (got ${describeValue(issue.input)})`,
      })
      .check(z.minLength(1, 'Destination account is required')),
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
    description: z.optional(textParam('Description', 255)),
  }),
);

const transferList = z.array(transferSchema);

/**
 * Instant transfers from the caller's account to another account of the platform.
 *
 * @see [Transfers and idempotency](../../docs/transfers-and-idempotency.md), the guide
 * @category Resources
 */
export class Transfers extends Resource {
  /**
   * Moves money from your account to `destination_account_id`. Retried on
   * timeouts and 5xx with the same Idempotency-Key, so it happens at most once;
   * pass your own `idempotencyKey` (one per business operation) to keep that
   * guarantee across restarts too.
   *
   * @throws {@link RequestValidationError} when `params` are invalid, or a field holds the
   *   client's API key; nothing is sent.
   * @throws {@link PermissionDeniedError} (403) when your balance is less than the amount.
   * @throws {@link BadRequestError} (400) when the destination account is not active, with
   *   `fields.destination_account_id`.
   * @throws {@link LunasError} every call's errors: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
   *
   * @example
   * ```ts
   * const transfer = await client.transfers.create(
   *   { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' },
   *   { idempotencyKey: 'payout-invoice-2024-118' },
   * );
   * ```
   */
  async create(params: TransferCreateParams, options?: RequestOptions): Promise<Transfer> {
    const body = this.api.validate(transferCreateParams, params);
    return this.api.post(path`/v1/transfers`, { operation: 'transfers.create', body, schema: transferSchema }, options);
  }

  /**
   * Lists transfers, newest first. `await` the result for one
   * {@link Page}, `for await` over it for every transfer across pages, or
   * over `.since(time)` for the transfers created since a time.
   *
   * @throws {@link RequestValidationError} when `params` (`page`, `pagesize`) are invalid; nothing
   *   is sent. Like every error of a list, it rejects the returned {@link PagePromise} when that is
   *   awaited or walked: `list` itself never throws.
   * @throws {@link LunasError} when a walk stops because the pages held nothing new for more than
   *   the 10,000 items it remembers (a service re-sending pages already read).
   * @throws {@link LunasError} every call's errors, for each page fetched: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
   */
  list(params?: ListParams, options?: RequestOptions): NewestFirstPagePromise<Transfer> {
    return this.api.list(
      path`/v1/transfers`,
      { operation: 'transfers.list', items: transferList, order: 'newest-first', params },
      options,
    );
  }
}
