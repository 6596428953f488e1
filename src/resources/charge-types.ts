// The public types of charges, written for people; the schemas in charges.ts
// are the runtime truth. In a file of their own only to keep each file short:
// charges.ts re-exports them, so import them from there.

/**
 * How a customer pays a charge.
 * @category Resources
 */
export type PaymentMethodType = 'qris' | 'virtual_account';

/**
 * Where a charge stands: `pending` until paid, then `success` (with
 * `paid_at` set) or `failed` (payment failed, or the charge expired).
 *
 * The service may add a status later. lunas then returns it as it came, so a
 * `switch` over a status needs a `default` branch that treats a value it does
 * not know as "not paid" (see the Charges guide).
 * @category Resources
 */
export type ChargeStatus = 'pending' | 'success' | 'failed';

/**
 * Customer information, as sent when the charge was created.
 * @category Resources
 */
export interface CustomerDetails {
  /** The customer's full name. */
  name?: string | null | undefined;
  /** The customer's email address. */
  email?: string | null | undefined;
  /** The customer's phone number. */
  phone_number?: string | null | undefined;
}

/**
 * One line of a charge: what was bought, at what unit price, how many.
 * @category Resources
 */
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
 * @category Resources
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
 * The virtual account a customer pays into, in a created charge's
 * `payment_method_options`. The service documents these fields for the
 * request only, so either may be absent or `null` in a response.
 * @category Resources
 */
export interface VirtualAccountDetails {
  /** The name shown on the virtual account: the one sent, else the customer's name. */
  account_name?: string | null | undefined;
  /** The number the customer pays into: the one sent, else one the service generated. */
  account_number?: string | null | undefined;
}

/**
 * Method-specific details of a created charge, keyed by payment method: what
 * the customer needs to pay beside `payment_url`.
 * @category Resources
 */
export interface CreatedChargePaymentMethodOptions {
  /** The virtual account of a `virtual_account` charge: show its `account_number` to the customer. */
  virtual_account?: VirtualAccountDetails | null | undefined;
  /**
   * A `qris` charge's options. The service does not document their shape, so
   * this is `unknown`: check a field's type before you use it.
   */
  qris?: unknown;
}

/**
 * A charge just created: a {@link Charge} plus what the customer needs to pay:
 * `payment_url`, `qr_code_url` for `qris`, and `payment_method_options` (the
 * account number of a `virtual_account` charge). None of them is promised by
 * `retrieve`, so store what you need again.
 * @category Resources
 */
export interface CreatedCharge extends Charge {
  /** A customer-facing payment page. */
  payment_url: string;
  /** Address of a QR code image, for `qris` charges. */
  qr_code_url?: string | undefined;
  /**
   * Method-specific details, e.g. `payment_method_options.virtual_account.account_number`,
   * the number a customer transfers to. Absent or `null` when the service sends none: the
   * service documents the field for the request, not the response.
   */
  payment_method_options?: CreatedChargePaymentMethodOptions | null | undefined;
}

/**
 * Parameters of `client.charges.create()`. Field names are the wire names.
 * Money is a number or a decimal string (greater than 0, at most two decimals),
 * sent as a JSON number. A field not listed here is refused with a
 * {@link RequestValidationError}, and nothing is sent.
 * @category Resources
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
