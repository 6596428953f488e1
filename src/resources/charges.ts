import { describeValue } from '../core/describe-value.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { listEnvelope, type ListParams, pathSegment, Resource, validate } from '../core/resource.js';
import {
  currencyParam,
  datetimeParam,
  intParam,
  jsonObjectParam,
  looseObject,
  maybe,
  money,
  moneyParam,
  openEnum,
  textParam,
  z,
} from '../core/schema.js';

const paymentMethods = ['qris', 'virtual_account'] as const;

// Responses: lenient. Fields the merchant may not have sent can be absent or null.
const customerDetails = looseObject({
  /** The customer's full name. */
  name: maybe(z.string()),
  /** The customer's email address. */
  email: maybe(z.string()),
  /** The customer's phone number. */
  phone_number: maybe(z.string()),
});

const item = looseObject({
  /** What was bought. */
  name: z.string(),
  /** Unit price, a string with two decimals, e.g. `"12500.00"`. */
  price: money,
  /** How many were bought. */
  quantity: z.number(),
});

export const chargeSchema = looseObject({
  /** Unique identifier of the charge. */
  id: z.string(),
  /** `qris` or `virtual_account` (or a method added later). */
  payment_method: openEnum(paymentMethods),
  /** Payment channel code, e.g. `mandiri`. */
  channel: maybe(z.string()),
  /** `pending` until paid; then `success` (with `paid_at` set) or `failed` (failed or expired). */
  status: openEnum(['pending', 'success', 'failed'] as const),
  /** Three-letter currency code, lower case, e.g. `idr`. */
  currency: z.string(),
  /** The amount, a string with exactly two decimals, e.g. `"25000.00"`. */
  amount: money,
  /** The transaction fee, a string with exactly two decimals. */
  fee: money,
  /** Your reference for the charge, e.g. an order number. */
  client_reference_id: maybe(z.string()),
  /** Customer information, as sent when the charge was created. */
  customer_details: maybe(customerDetails),
  /** The items paid for. */
  items: maybe(z.array(item)),
  /** Description of the payment. */
  description: maybe(z.string()),
  /** When the charge expires unpaid (ISO 8601 UTC). */
  expires_at: z.string(),
  /** When the charge was paid (ISO 8601 UTC); `null` while unpaid. */
  paid_at: z._default(z.nullable(z.string()), null),
  /** When the charge was created (ISO 8601 UTC). */
  created_at: z.string(),
  /** When the charge last changed (ISO 8601 UTC). */
  updated_at: z.string(),
});

const createdChargeSchema = z.extend(chargeSchema, {
  /** A customer-facing payment page. Only in the create response. */
  payment_url: z.string(),
  /** Address of a QR code image, for `qris` charges. Only in the create response. */
  qr_code_url: z.optional(z.string()),
});

/**
 * A payment charge, as `retrieve` and `list` return it. Money is a string with
 * two decimals; fields added by the service later are kept.
 */
export interface Charge extends z.output<typeof chargeSchema> {}

/**
 * A charge just created: a {@link Charge} plus the customer's `payment_url`, and
 * `qr_code_url` for `qris`. Neither URL can be read back later with `retrieve`.
 */
export interface CreatedCharge extends z.output<typeof createdChargeSchema> {}

// Requests: strict, with the service's messages, and transformed to the wire form.
const chargeCreateParams = z.strictObject({
  /** `qris` or `virtual_account`. Required. */
  payment_method: z.enum(paymentMethods, {
    error: (issue) =>
      issue.input === undefined
        ? 'Payment method is required'
        : `Payment method must be qris or virtual_account (got ${describeValue(issue.input)})`,
  }),
  /** Greater than 0, at most two decimals: `25000`, `'150000.50'`. Sent as a JSON number. Required. */
  amount: moneyParam('Amount'),
  /** Payment channel code, e.g. `mandiri` for a virtual account. */
  channel: z.optional(textParam('Channel')),
  /** Three letters, sent lower case. The service defaults to `idr`. */
  currency: z.optional(currencyParam()),
  /** Customer information. */
  customer_details: z.optional(
    z.strictObject({
      /** Full name; also the default virtual account name. */
      name: z.optional(textParam('Name')),
      /** Must look like an email address. */
      email: z.optional(
        z
          .string({ error: 'Invalid email format' })
          .check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email format')),
      ),
      /** Phone number. */
      phone_number: z.optional(textParam('Phone number')),
    }),
  ),
  /** Your reference, e.g. an order number; at most 50 characters. */
  client_reference_id: z.optional(textParam('Client reference ID', 50)),
  /**
   * When the charge expires: a `Date` or an ISO 8601 string with a zone, sent
   * as ISO 8601 UTC. When omitted, the service applies a default per method.
   */
  expires_at: z.optional(datetimeParam('Expires at')),
  /** The items paid for. */
  items: z.optional(
    z.array(
      z.strictObject({
        /** What is bought. */
        name: textParam('Name'),
        /** Unit price, with the same rules as `amount`. */
        price: moneyParam('Price'),
        /** A positive integer. */
        quantity: intParam('Quantity must be a positive integer', 1),
      }),
      { error: (issue) => `Items must be an array (got ${describeValue(issue.input)})` },
    ),
  ),
  /** Description of the payment; at most 255 characters. */
  description: z.optional(textParam('Description', 255)),
  /** Method-specific options, keyed by payment method. */
  payment_method_options: z.optional(
    z.catchall(
      z.strictObject({
        /** Options of a `virtual_account` charge. */
        virtual_account: z.optional(
          z.strictObject({
            /** Name shown on the virtual account; defaults to the customer's name. */
            account_name: z.optional(textParam('Account name')),
            /** A specific account number; `null` or omitted to have one generated. */
            account_number: z.optional(z.nullable(textParam('Account number'))),
          }),
        ),
      }),
      jsonObjectParam,
    ),
  ),
});

/**
 * Parameters of `client.charges.create()`. Money is a number or a decimal string
 * (at most two decimals); `expires_at` a `Date` or an ISO 8601 string. Unknown
 * fields are refused with a {@link RequestValidationError}.
 *
 * @useDeclaredType
 */
export type ChargeCreateParams = z.input<typeof chargeCreateParams>;

const chargeList = listEnvelope(chargeSchema);

/** Payment charges: QRIS and virtual account. */
export class Charges extends Resource {
  /**
   * Creates a charge and returns the customer's payment instructions. `params`
   * are checked first: a bad one rejects with `RequestValidationError` and
   * nothing is sent.
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
  create(params: ChargeCreateParams, options?: RequestOptions): Promise<CreatedCharge> {
    return this.submit('v1/payments/charges', () => validate(chargeCreateParams, params), createdChargeSchema, options);
  }

  /**
   * Retrieves a charge by id. Rejects with `NotFoundError` when there is none.
   * The result has no `payment_url` or `qr_code_url`.
   *
   * @example
   * ```ts
   * const charge = await client.charges.retrieve('ch_123');
   * if (charge.status === 'success') console.log('paid at', charge.paid_at);
   * ```
   */
  retrieve(id: string, options?: RequestOptions): Promise<Charge> {
    return this.fetchOne(() => `v1/payments/charges/${pathSegment('id', id)}`, chargeSchema, options);
  }

  /**
   * Lists charges, newest first. `await` the result for one {@link Page}, or
   * `for await` over it for every charge across pages.
   *
   * @example
   * ```ts
   * for await (const charge of client.charges.list({ pagesize: 100 })) {
   *   if (charge.status === 'pending') console.log(charge.id);
   * }
   * ```
   */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Charge> {
    return this.paginate('v1/payments/charges', chargeList, params, options);
  }
}
