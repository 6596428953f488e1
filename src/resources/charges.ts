import { describeValue } from '../core/describe-value.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ListParams } from '../core/api.js';
import { path } from '../core/path.js';
import { Resource } from '../core/resource.js';
import { money, moneyParam } from '../core/money.js';
import { currencyParam, datetimeParam, intParam, jsonObjectParam, textParam } from '../core/params.js';
import { looseObject, maybe, openEnum, typedAs, z } from '../core/schema.js';
import { validate } from '../core/validate.js';

// The public types below are written for people; the schemas after them are
// the runtime truth. test/unit/types.test.ts proves the two agree field by field.

/** How a customer pays a charge. */
export type PaymentMethodType = 'qris' | 'virtual_account';

/**
 * Where a charge stands: `pending` until paid, then `success` (with
 * `paid_at` set) or `failed` (payment failed, or the charge expired).
 *
 * The service may add a status later. lunas then returns it as it came, so a
 * `switch` over a status needs a `default` branch that treats a value it does
 * not know as "not paid" (see the Charges guide).
 */
export type ChargeStatus = 'pending' | 'success' | 'failed';

/** Customer information, as sent when the charge was created. */
export interface CustomerDetails {
  /** The customer's full name. */
  name?: string | null | undefined;
  /** The customer's email address. */
  email?: string | null | undefined;
  /** The customer's phone number. */
  phone_number?: string | null | undefined;
}

/** One line of a charge: what was bought, at what unit price, how many. */
export interface ChargeItem {
  /** What was bought. */
  name: string;
  /** Unit price, a string with exactly two decimals, e.g. `"12500.00"`. */
  price: string;
  /** How many were bought. */
  quantity: number;
}

/**
 * A payment charge, as `retrieve` and `list` return it. Money is a string with
 * exactly two decimals; timestamps are ISO 8601 strings as the service sent them.
 *
 * Fields the service adds later are kept on the object at run time but are not
 * in this type; read one with `'field' in charge` (see the Charges guide).
 */
export interface Charge {
  /** Unique identifier of the charge; pass it to `client.charges.retrieve()`. */
  id: string;
  /** How the customer pays: `qris` or `virtual_account`. */
  payment_method: PaymentMethodType;
  /** Payment channel code, e.g. `mandiri`; absent or `null` when none was sent. */
  channel?: string | null | undefined;
  /** `pending` until paid; then `success` (with `paid_at` set) or `failed` (failed or expired). */
  status: ChargeStatus;
  /** Three-letter currency code, lower case, e.g. `idr`. */
  currency: string;
  /** The amount, a string with exactly two decimals, e.g. `"25000.00"`. */
  amount: string;
  /** The transaction fee, a string with exactly two decimals. */
  fee: string;
  /** Your reference for the charge, e.g. an order number; absent or `null` when none was sent. */
  client_reference_id?: string | null | undefined;
  /** Customer information, as sent when the charge was created; absent or `null` when none was sent. */
  customer_details?: CustomerDetails | null | undefined;
  /** The items paid for; absent or `null` when none were sent. */
  items?: ChargeItem[] | null | undefined;
  /** Description of the payment; absent or `null` when none was sent. */
  description?: string | null | undefined;
  /** When the charge expires unpaid (ISO 8601 UTC). */
  expires_at: string;
  /** When the charge was paid (ISO 8601 UTC); `null` while unpaid. */
  paid_at: string | null;
  /** When the charge was created (ISO 8601 UTC). */
  created_at: string;
  /** When the charge last changed (ISO 8601 UTC). */
  updated_at: string;
}

/**
 * A charge just created: a {@link Charge} plus the customer's `payment_url`, and
 * `qr_code_url` for `qris`. Neither URL can be read back later with `retrieve`,
 * so store them if you need them again.
 */
export interface CreatedCharge extends Charge {
  /** A customer-facing payment page. */
  payment_url: string;
  /** Address of a QR code image, for `qris` charges. */
  qr_code_url?: string | undefined;
}

/**
 * Parameters of `client.charges.create()`. Field names are the wire names.
 * Money is a number or a decimal string (greater than 0, at most two decimals),
 * sent as a JSON number. A field not listed here is refused with a
 * {@link RequestValidationError}, and nothing is sent.
 */
export interface ChargeCreateParams {
  /** `qris` or `virtual_account`. Required. */
  payment_method: PaymentMethodType;
  /** Greater than 0, at most two decimals: `25000`, `'150000.50'`. Required. */
  amount: number | string;
  /** Payment channel code, e.g. `mandiri` for a virtual account. Any string. */
  channel?: string | undefined;
  /** Three letters, sent lower case. The service defaults to `idr`. */
  currency?: string | undefined;
  /** Customer information. */
  customer_details?:
    | {
        /** Full name; also the default virtual account name. */
        name?: string | undefined;
        /** Must look like an email address. */
        email?: string | undefined;
        /** Phone number. */
        phone_number?: string | undefined;
      }
    | undefined;
  /** Your reference, e.g. an order number; at most 50 characters. */
  client_reference_id?: string | undefined;
  /**
   * When the charge expires: a `Date` or an ISO 8601 string with a zone, sent
   * as ISO 8601 UTC. When omitted, the service applies a default per method.
   */
  expires_at?: Date | string | undefined;
  /** The items paid for. */
  items?:
    | {
        /** What is bought. */
        name: string;
        /** Unit price, with the same rules as `amount`. */
        price: number | string;
        /** A positive integer. */
        quantity: number;
      }[]
    | undefined;
  /** Description of the payment; at most 255 characters. */
  description?: string | undefined;
  /**
   * Method-specific options, keyed by payment method: `virtual_account`'s are
   * checked; another method's are passed on as a JSON object.
   */
  payment_method_options?:
    | ({
        /** Options of a `virtual_account` charge. */
        virtual_account?:
          | {
              /** Name shown on the virtual account; defaults to the customer's name. */
              account_name?: string | undefined;
              /** A specific account number; `null` or omitted to have one generated. */
              account_number?: string | null | undefined;
            }
          | undefined;
      } & {
        /** Options of another method, passed on as a JSON object. */
        [method: string]: Record<string, unknown>;
      })
    | undefined;
}

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
  async create(params: ChargeCreateParams, options?: RequestOptions): Promise<CreatedCharge> {
    const body = validate(chargeCreateParams, params);
    return this.api.post(path`/v1/payments/charges`, options, { body, schema: createdChargeSchema });
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
  async retrieve(id: string, options?: RequestOptions): Promise<Charge> {
    return this.api.get(path`/v1/payments/charges/${id}`, options, { schema: chargeSchema });
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
    return this.api.list(path`/v1/payments/charges`, chargeList, 'newest-first', params, options);
  }
}
