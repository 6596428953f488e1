import { describeValue } from '../core/describe-value.js';
import type { NewestFirstPagePromise } from '../core/newest-first.js';
import type { RequestOptions } from '../core/options.js';
import type { ListParams } from '../core/api.js';
import { path } from '../core/path.js';
import { Resource } from '../core/resource.js';
import { money, moneyParam } from '../core/money.js';
import { currencyParam, datetimeParam, intParam, jsonObjectParam, textParam } from '../core/params.js';
import { looseObject, maybe, openEnum, typedAs, z } from '../core/schema.js';
import type { Charge, ChargeCreateParams, CreatedCharge } from './charge-types.js';

// The public types are written for people, in charge-types.ts (a file of
// their own to keep this one short); the schemas below are the runtime truth.
// test/unit/types.test.ts proves the two agree field by field.
export type * from './charge-types.js';

/** The known payment methods: the request's enum, and {@link PaymentMethodType}'s values. */
export const paymentMethodTypes = ['qris', 'virtual_account'] as const;
/** The known charge statuses: {@link ChargeStatus}'s values. */
export const chargeStatuses = ['pending', 'success', 'failed'] as const;

// Responses: lenient. Unknown fields are kept, a status or method added later
// passes, fields the merchant may not have sent can be absent or null.
const customerDetails = looseObject({
  name: maybe(z.string()),
  email: maybe(z.string()),
  phone_number: maybe(z.string()),
});

const item = looseObject({
  name: z.string(),
  price: money,
  quantity: z.number(),
});

/** The charge as the wire has it (output typed by zod). Exported for the type tests. */
export const chargeWireSchema = looseObject({
  id: z.string(),
  payment_method: openEnum(),
  channel: maybe(z.string()),
  status: openEnum(),
  currency: z.string(),
  amount: money,
  fee: money,
  client_reference_id: maybe(z.string()),
  customer_details: maybe(customerDetails),
  items: maybe(z.array(item)),
  description: maybe(z.string()),
  expires_at: z.string(),
  paid_at: z._default(z.nullable(z.string()), null),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The create response as the wire has it. Exported for the type tests. */
export const createdChargeWireSchema = z.extend(chargeWireSchema, {
  payment_url: z.string(),
  qr_code_url: z.optional(z.string()),
});

/** Parses a charge; typed as the closed {@link Charge}. */
export const chargeSchema = typedAs<Charge>(chargeWireSchema);
const createdChargeSchema = typedAs<CreatedCharge>(createdChargeWireSchema);

// Requests: strict, with the service's messages, and transformed to the wire form.
// Field docs: see ChargeCreateParams.
/** The create parameters' schema. Exported for the type tests. */
export const chargeCreateParams = z.strictObject({
  payment_method: z.enum(paymentMethodTypes, {
    error: (issue) =>
      issue.input === undefined
        ? 'Payment method is required'
        : `Payment method must be qris or virtual_account (got ${describeValue(issue.input)})`,
  }),
  amount: moneyParam('Amount'),
  channel: z.optional(textParam('Channel')),
  currency: z.optional(currencyParam()),
  customer_details: z.optional(
    z.strictObject({
      name: z.optional(textParam('Name')),
      email: z.optional(
        z
          .string({ error: 'Invalid email format' })
          .check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email format')),
      ),
      phone_number: z.optional(textParam('Phone number')),
    }),
  ),
  client_reference_id: z.optional(textParam('Client reference ID', 50)),
  expires_at: z.optional(datetimeParam('Expires at')),
  items: z.optional(
    z.array(
      z.strictObject({
        name: textParam('Name'),
        price: moneyParam('Price'),
        /** A positive integer. */
        quantity: intParam('Quantity must be a positive integer', 1),
      }),
      { error: (issue) => `Items must be an array (got ${describeValue(issue.input)})` },
    ),
  ),
  description: z.optional(textParam('Description', 255)),
  payment_method_options: z.optional(
    z.catchall(
      z.strictObject({
        virtual_account: z.optional(
          z.strictObject({
            account_name: z.optional(textParam('Account name')),
            account_number: z.optional(z.nullable(textParam('Account number'))),
          }),
        ),
      }),
      jsonObjectParam,
    ),
  ),
});

const chargeList = z.array(chargeSchema);

/**
 * Payment charges: QRIS and virtual account.
 *
 * @see [Charges](../../docs/charges.md), the guide
 * @category Resources
 */
export class Charges extends Resource {
  /**
   * Creates a charge and returns the customer's payment instructions. `params`
   * are checked first, before anything is sent.
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
   * const charge = await client.charges.create({
   *   payment_method: 'qris',
   *   amount: 25_000,
   *   client_reference_id: 'order-1042',
   * });
   * console.log(charge.qr_code_url);
   * ```
   */
  async create(params: ChargeCreateParams, options?: RequestOptions): Promise<CreatedCharge> {
    const body = this.api.validate(chargeCreateParams, params);
    return this.api.post(path`/v1/payments/charges`, { body, schema: createdChargeSchema }, options);
  }

  /**
   * Retrieves a charge by id. Rejects with `NotFoundError` when there is none.
   * The result has no `payment_url` or `qr_code_url`.
   *
   * @throws {@link RequestValidationError} when `id` cannot name a charge (not a non-empty
   *   string, `.`, `..`, half a surrogate pair) or `options` are invalid; nothing is sent.
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
   * const charge = await client.charges.retrieve('ch_123');
   * if (charge.status === 'success') console.log('paid at', charge.paid_at);
   * ```
   */
  async retrieve(id: string, options?: RequestOptions): Promise<Charge> {
    return this.api.get(path`/v1/payments/charges/${id}`, { schema: chargeSchema }, options);
  }

  /**
   * Lists charges, newest first. `await` the result for one {@link Page},
   * `for await` over it for every charge across pages, or over
   * `.since(time)` for the charges created since a time.
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
   *
   * @example
   * ```ts
   * for await (const charge of client.charges.list({ pagesize: 100 })) {
   *   if (charge.status === 'pending') console.log(charge.id);
   * }
   * ```
   */
  list(params?: ListParams, options?: RequestOptions): NewestFirstPagePromise<Charge> {
    return this.api.list(path`/v1/payments/charges`, { items: chargeList, order: 'newest-first', params }, options);
  }
}
