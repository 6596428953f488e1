/** Wire shapes the sandbox serves and the records it keeps. */

/**
 * An account of the platform, as configured with {@link SandboxOptions.accounts}.
 * @category Testing
 */
export interface SandboxAccount {
  /** Account identifier, used as `destination_account_id`. */
  id: string;
  /** Display name, echoed as `source_account_name` / `destination_account_name`. */
  name: string;
  /** Opening balance, a decimal string with at most two decimals, e.g. `"1000000.00"`. */
  balance: string;
  /** An inactive account cannot receive transfers. Default `true`. */
  active?: boolean;
}

/**
 * An account as {@link Sandbox.accounts}, {@link Sandbox.addAccount} and
 * {@link Sandbox.fund} hand it out: a copy, so editing it changes nothing.
 * @category Testing
 */
export interface AccountRecord {
  /** Account identifier, used as `destination_account_id`. */
  id: string;
  /** Display name, echoed as `source_account_name` / `destination_account_name`. */
  name: string;
  /** The balance now, a two-decimal string like the wire's, e.g. `"1000000.00"`. */
  balance: string;
  /** Whether it can send and receive transfers. */
  active: boolean;
}

/**
 * An account to add to a running sandbox with {@link Sandbox.addAccount}.
 * @category Testing
 */
export interface NewAccount {
  /** A non-empty identifier no account of the sandbox has yet. */
  id: string;
  /** Display name, echoed as `source_account_name` / `destination_account_name`. */
  name: string;
  /**
   * The opening balance, as a request takes money: a number or a decimal
   * string, at least 0, at most two decimals (`250000`, `'250000.50'`). Default `'0.00'`.
   */
  balance?: number | string;
  /** An inactive account can neither send nor receive transfers. Default `true`. */
  active?: boolean;
}

/**
 * Payment method accepted by `POST /v1/payments/charges`.
 * @category Testing
 */
export type PaymentMethodType = 'qris' | 'virtual_account';

/**
 * Status of a charge.
 * @category Testing
 */
export type ChargeStatus = 'pending' | 'success' | 'failed';

/**
 * One item of a charge, as served (money as a two-decimal string).
 * @category Testing
 */
export interface ChargeItemRecord {
  /** What is bought. */
  name: string;
  /** Unit price, e.g. `"12500.00"`. */
  price: string;
  /** How many. */
  quantity: number;
}

/**
 * A charge as `GET /v1/payments/charges/{id}` serves it. Fields the caller did
 * not send are `null` (`items` is `[]`). The create response adds
 * `payment_url` and, for `qris`, `qr_code_url`.
 * @category Testing
 */
export interface ChargeRecord {
  /** `ch_` followed by 24 hex digits. */
  id: string;
  /** `qris` or `virtual_account`. */
  payment_method: PaymentMethodType;
  /** The channel sent, or `null`. */
  channel: string | null;
  /** `pending`, then `success` or `failed`. */
  status: ChargeStatus;
  /** Lower-case currency code; `idr` unless another was sent. */
  currency: string;
  /** Two-decimal string, e.g. `"10000.00"`. */
  amount: string;
  /** Two-decimal string: 0.7 % for `qris`, `"4000.00"` for `virtual_account`. */
  fee: string;
  /** The reference sent, or `null`. */
  client_reference_id: string | null;
  /** The customer details sent (each field `null` when not sent), or `null`. */
  customer_details: {
    /** Customer name, or `null`. */
    name: string | null;
    /** Customer email, or `null`. */
    email: string | null;
    /** Customer phone number, or `null`. */
    phone_number: string | null;
  } | null;
  /** The items sent; `[]` when none. */
  items: ChargeItemRecord[];
  /** The description sent, or `null`. */
  description: string | null;
  /** Present for `virtual_account` charges only. */
  payment_method_options?: {
    /** The virtual account the customer pays into. */
    virtual_account: {
      /** The name sent, else the customer's name, else `"Customer"`. */
      account_name: string;
      /** The number sent, else a generated 16-digit number. */
      account_number: string;
    };
  };
  /** ISO 8601 UTC; by default 15 minutes (`qris`) or 24 hours (`virtual_account`) after creation. */
  expires_at: string;
  /** ISO 8601 UTC once paid, else `null`. */
  paid_at: string | null;
  /** ISO 8601 UTC, from the sandbox clock. */
  created_at: string;
  /** ISO 8601 UTC, from the sandbox clock. */
  updated_at: string;
  /** Create response only. */
  payment_url?: string;
  /** Create response of a `qris` charge only. */
  qr_code_url?: string;
}

/**
 * A transfer as the service serves it (spec 2.3).
 * @category Testing
 */
export interface TransferRecord {
  /** `tr_` followed by 24 hex digits. */
  id: string;
  /** The sandbox's own account ({@link SandboxOptions.account}). */
  source_account_id: string;
  /** The account credited. */
  destination_account_id: string;
  /** Name of the source account. */
  source_account_name: string;
  /** Name of the destination account. */
  destination_account_name: string;
  /** Always `succeeded` in the sandbox: failed transfers are not stored. */
  status: 'succeeded' | 'failed';
  /** `idr`. */
  currency: string;
  /** Two-decimal string, e.g. `"2500.00"`. */
  amount: string;
  /** The description sent, or `null`. */
  description: string | null;
  /** The reference sent, or `null`. */
  client_reference_id: string | null;
  /** ISO 8601 UTC, from the sandbox clock. */
  created_at: string;
  /** ISO 8601 UTC, from the sandbox clock. */
  updated_at: string;
}

/**
 * The body of `POST /v1/payments/charges`, as a well-behaved client sends it.
 * @category Testing
 */
export interface ChargeCreateBody {
  /** `qris` or `virtual_account`; anything else is refused. */
  payment_method: PaymentMethodType | (string & {});
  /** A JSON number or decimal string, greater than 0, at most two decimals. */
  amount: number | string;
  /** Three letters; default `idr`. */
  currency?: string;
  /** Payment channel code; any string. */
  channel?: string;
  /** Customer information. */
  customer_details?: {
    /** Full name. */
    name?: string;
    /** Must look like `local@domain.tld`. */
    email?: string;
    /** Phone number. */
    phone_number?: string;
  };
  /** At most 50 characters. */
  client_reference_id?: string;
  /** At most 255 characters. */
  description?: string;
  /** ISO 8601 datetime. */
  expires_at?: string;
  /** The items paid for. */
  items?: {
    /** What is bought. */
    name: string;
    /** Unit price, with the same rules as `amount`. */
    price: number | string;
    /** A positive integer. */
    quantity: number;
  }[];
  /** Method-specific options; only `virtual_account` is checked. */
  payment_method_options?: {
    /** Options of a `virtual_account` charge. */
    virtual_account?: {
      /** Name on the account; defaults to the customer's name. */
      account_name?: string;
      /** A specific number; `null` or omitted for a generated one. */
      account_number?: string | null;
    };
    [method: string]: unknown;
  };
}

/**
 * Event types the sandbox records (spec section 6).
 * @category Testing
 */
export type SandboxEventType =
  'payment_charge.created' | 'payment_charge.update' | 'payment_charge.succeeded' | 'payment_charge.failed';

/**
 * An event, exactly as it is POSTed to {@link SandboxOptions.webhookUrl}.
 * `data` is a snapshot of the charge at the time of the event.
 * @category Testing
 */
export interface SandboxEvent {
  /** `evt_` followed by 24 hex digits. */
  id: string;
  /** What happened to the charge. */
  type: SandboxEventType;
  /** ISO 8601 UTC, from the sandbox clock. */
  created_at: string;
  /** The charge as retrieve serves it, at the time of the event. */
  data: ChargeRecord;
}

/**
 * One HTTP request the sandbox received, whatever became of it.
 * @category Testing
 */
export interface RecordedRequest {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** Raw path, without the query string and without percent-decoding. */
  path: string;
  /** Query parameters; the first value of a repeated name. */
  query: Record<string, string>;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey?: string;
  /**
   * The W3C trace context's `traceparent` header, when sent (`lunas-sdk/otel`
   * sends the active span's on every attempt), as a service's logs would join it.
   */
  traceparent?: string;
  /** The W3C trace context's `tracestate` header, when sent. */
  tracestate?: string;
  /** Whether the request carried the valid API key. */
  authorized: boolean;
  /** Wall-clock arrival time (not the `now` option, so retry gaps can be measured). */
  at: Date;
}
