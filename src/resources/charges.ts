import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { listEnvelope, type ListParams, pathSegment, Resource, validate } from '../core/resource.js';
import {
  currencyParam,
  datetimeParam,
  jsonObject,
  maybe,
  money,
  moneyParam,
  openEnum,
  textParam,
  z,
} from '../core/schema.js';

const paymentMethods = ['qris', 'virtual_account'] as const;

// Responses: lenient. Fields the merchant may not have sent can be absent or null.
const customerDetails = z.looseObject({
  name: maybe(z.string()),
  email: maybe(z.string()),
  phone_number: maybe(z.string()),
});

const item = z.looseObject({ name: z.string(), price: money, quantity: z.number() });

export const chargeSchema = z.looseObject({
  id: z.string(),
  payment_method: openEnum(paymentMethods),
  channel: maybe(z.string()),
  status: openEnum(['pending', 'success', 'failed'] as const),
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

const createdChargeSchema = z.extend(chargeSchema, {
  payment_url: z.string(),
  qr_code_url: z.optional(z.string()),
});

/** A payment charge, as `retrieve` and `list` return it. Unknown fields are kept. */
export type Charge = z.output<typeof chargeSchema>;

/** A charge just created: a {@link Charge} plus the customer's `payment_url`, and `qr_code_url` for `qris`. */
export type CreatedCharge = z.output<typeof createdChargeSchema>;

// Requests: strict, with the service's messages, and transformed to the wire form.
const chargeCreateParams = z.strictObject({
  payment_method: z.enum(paymentMethods, {
    error: (issue) =>
      issue.input === undefined ? 'Payment method is required' : 'Payment method must be qris or virtual_account',
  }),
  amount: moneyParam('Amount'),
  channel: z.optional(textParam('Channel')),
  currency: z.optional(currencyParam()),
  customer_details: z.optional(
    z.strictObject({
      name: z.optional(textParam('Name')),
      email: z.optional(
        z.string({ error: 'Invalid email format' }).check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email format')),
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
        quantity: z.int({ error: 'Quantity must be a positive integer' }).check(z.gte(1, 'Quantity must be a positive integer')),
      }),
      { error: 'Items must be an array' },
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
      jsonObject,
    ),
  ),
});

/**
 * Parameters of {@link Charges.create}. Money is a number or a decimal string
 * (at most two decimals); `expires_at` a `Date` or an ISO 8601 string.
 */
export type ChargeCreateParams = z.input<typeof chargeCreateParams>;

const chargeList = listEnvelope(chargeSchema);

/** Payment charges: QRIS and virtual account. */
export class Charges extends Resource {
  /**
   * Creates a charge and returns the customer's payment instructions.
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

  /** Retrieves a charge by id. Throws `NotFoundError` when there is none. */
  retrieve(id: string, options?: RequestOptions): Promise<Charge> {
    return this.fetchOne(() => `v1/payments/charges/${pathSegment('id', id)}`, chargeSchema, options);
  }

  /** Lists charges, newest first. `for await` over the result walks every page. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Charge> {
    return this.paginate('v1/payments/charges', chargeList, params, options);
  }
}
