import { describeValue } from '../core/report/describe-value.js';
import type { ListParams } from '../core/lists/list-spec.js';
import type { NewestFirstPagePromise } from '../core/lists/page.js';
import type { RequestOptions } from '../core/checks/options.js';
import { path, Resource } from '../core/call/request.js';
import {
  money,
  moneyParam,
  currencyParam,
  datetimeParam,
  intParam,
  jsonObjectParam,
  textParam,
  looseObject,
  maybe,
  openEnum,
  paramsTypedAs,
  typedAs,
  z,
} from '../core/checks/schemas.js';
import type { Charge, ChargeCreateParams, CreatedCharge } from './charge-types.js';

// The public types are written for people, in charge-types.ts (a file of
// their own to keep this one short); the schemas below are the runtime truth.
// typedAs and paramsTypedAs make any disagreement between the two a compile error.
export type * from './charge-types.js';

/** The known payment methods: the request's enum, and {@link PaymentMethodType}'s values. */
const paymentMethodTypes = ['qris', 'virtual_account'] as const;

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

/** The charge as the wire has it (output typed by zod), which the create response extends. */
const chargeWireSchema = looseObject({
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

// What the customer needs to pay a created charge, beside its URLs. The
// service documents these fields for the request only, so each may be absent
// or null; a qris charge's options are undocumented, so taken as they come.
const createdPaymentMethodOptions = looseObject({
  virtual_account: maybe(
    looseObject({
      account_name: maybe(z.string()),
      account_number: maybe(z.string()),
    }),
  ),
  qris: z.optional(z.unknown()),
});

const chargeSchema = typedAs<Charge>()(chargeWireSchema);
const createdChargeSchema = typedAs<CreatedCharge>()(
  z.extend(chargeWireSchema, {
    payment_url: z.string(),
    qr_code_url: z.optional(z.string()),
    payment_method_options: maybe(createdPaymentMethodOptions),
  }),
);

// Requests: strict, with the service's messages, and transformed to the wire form.
// Field docs: see ChargeCreateParams.
/** @internal What `charges.create` checks; lunas-sdk/mcp derives its tool's input schema from it. */
export const chargeCreateParams = paramsTypedAs<ChargeCreateParams>()(
  z.strictObject({
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
  }),
);

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
   * @throws {@link RequestValidationError} when `params` are invalid, or a field holds the
   *   client's API key (the payment page shows the description); nothing is sent.
   * @throws {@link LunasError} every call's errors: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
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
    return this.api.post(
      path`/v1/payments/charges`,
      { operation: 'charges.create', body, schema: createdChargeSchema },
      options,
    );
  }

  /**
   * Retrieves a charge by id. Rejects with `NotFoundError` when there is none.
   * The result has no `payment_url` or `qr_code_url`.
   *
   * @throws {@link RequestValidationError} when `id` cannot name a charge (not a non-empty
   *   string, `.`, `..`, half a surrogate pair) or holds the client's API key; nothing is sent.
   * @throws {@link NotFoundError} when there is no charge with that id.
   * @throws {@link LunasError} every call's errors: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
   *
   * @example
   * ```ts
   * const charge = await client.charges.retrieve('ch_123');
   * if (charge.status === 'success') console.log('paid at', charge.paid_at);
   * ```
   */
  async retrieve(id: string, options?: RequestOptions): Promise<Charge> {
    return this.api.get(
      path`/v1/payments/charges/${id}`,
      { operation: 'charges.retrieve', schema: chargeSchema },
      options,
    );
  }

  /**
   * Lists charges, newest first. `await` the result for one {@link Page},
   * `for await` over it for every charge across pages, or over
   * `.since(time)` for the charges created since a time. Created, not paid:
   * to count the charges paid in a period, walk back by the longest a charge
   * can stay pending and filter on `paid_at`, as the
   * [Charges guide](../../docs/charges.md#counting-what-was-paid-in-a-period) shows.
   *
   * @throws {@link RequestValidationError} when `params` (`page`, `pagesize`) are invalid; nothing
   *   is sent. Like every error of a list, it rejects the returned {@link PagePromise} when that is
   *   awaited or walked: `list` itself never throws.
   * @throws {@link LunasError} when a walk stops because the pages held nothing new for more than
   *   the 10,000 items it remembers (a service re-sending pages already read).
   * @throws {@link LunasError} every call's errors, for each page fetched: see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise).
   *
   * @example
   * ```ts
   * for await (const charge of client.charges.list({ pagesize: 100 })) {
   *   if (charge.status === 'pending') console.log(charge.id);
   * }
   * ```
   */
  list(params?: ListParams, options?: RequestOptions): NewestFirstPagePromise<Charge> {
    return this.api.list(
      path`/v1/payments/charges`,
      { operation: 'charges.list', items: chargeList, order: 'newest-first', params },
      options,
    );
  }
}
