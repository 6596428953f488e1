import { describeValue } from '../core/describe-value.js';
import type { NewestFirstPagePromise } from '../core/newest-first.js';
import { path } from '../core/path.js';
import type { RequestOptions } from '../core/options.js';
import type { ListParams } from '../core/api.js';
import { Resource } from '../core/resource.js';
import { money, moneyParam } from '../core/money.js';
import { currencyParam, textParam } from '../core/params.js';
import { looseObject, maybe, openEnum, typedAs, z } from '../core/schema.js';

// The public types below are written for people; the schemas after them are
// the runtime truth. test/unit/types.test.ts proves the two agree field by field.

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

/** The known transfer statuses: {@link TransferStatus}'s values. */
export const transferStatuses = ['succeeded', 'failed'] as const;

// Response: lenient. Unknown fields are kept and a status added later passes.
/** The transfer as the wire has it (output typed by zod). Exported for the type tests. */
export const transferWireSchema = looseObject({
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
});

const transferSchema = typedAs<Transfer>(transferWireSchema);

// Request: strict, with the service's messages. Field docs: see TransferCreateParams.
/** The create parameters' schema. Exported for the type tests. */
export const transferCreateParams = z.strictObject({
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
});

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
   * @throws {@link RequestValidationError} when `params` or `options` are invalid; nothing is sent.
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
    return this.api.post(path`/v1/transfers`, { body, schema: transferSchema }, options);
  }

  /**
   * Lists transfers, newest first. `await` the result for one
   * {@link Page}, `for await` over it for every transfer across pages, or
   * over `.since(time)` for the transfers created since a time.
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
  list(params?: ListParams, options?: RequestOptions): NewestFirstPagePromise<Transfer> {
    return this.api.list(path`/v1/transfers`, { items: transferList, order: 'newest-first', params }, options);
  }
}
