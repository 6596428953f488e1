/** Wire shapes the sandbox serves and the records it keeps. */

/** An account of the platform, as configured with {@link SandboxOptions.accounts}. */
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

/** Payment method accepted by `POST /v1/payments/charges`. */
export type PaymentMethodType = 'qris' | 'virtual_account';

/** Status of a charge. */
export type ChargeStatus = 'pending' | 'success' | 'failed';

/** One item of a charge, as served (money as a two-decimal string). */
export interface ChargeItemRecord {
  name: string;
  price: string;
  quantity: number;
}

/**
 * A charge as `GET /v1/payments/charges/{id}` serves it. Fields the caller did
 * not send are `null` (`items` is `[]`). The create response adds
 * `payment_url` and, for `qris`, `qr_code_url`.
 */
export interface ChargeRecord {
  id: string;
  payment_method: PaymentMethodType;
  channel: string | null;
  status: ChargeStatus;
  currency: string;
  amount: string;
  fee: string;
  client_reference_id: string | null;
  customer_details: {
    name: string | null;
    email: string | null;
    phone_number: string | null;
  } | null;
  items: ChargeItemRecord[];
  description: string | null;
  /** Present for `virtual_account` charges only. */
  payment_method_options?: {
    virtual_account: { account_name: string; account_number: string };
  };
  expires_at: string;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
  /** Create response only. */
  payment_url?: string;
  /** Create response of a `qris` charge only. */
  qr_code_url?: string;
}

/** A transfer as the service serves it (spec 2.3). */
export interface TransferRecord {
  id: string;
  source_account_id: string;
  destination_account_id: string;
  source_account_name: string;
  destination_account_name: string;
  status: 'succeeded' | 'failed';
  currency: string;
  amount: string;
  description: string | null;
  client_reference_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The body of `POST /v1/payments/charges`, as a well-behaved client sends it. */
export interface ChargeCreateBody {
  payment_method: PaymentMethodType | (string & {});
  amount: number | string;
  currency?: string;
  channel?: string;
  customer_details?: { name?: string; email?: string; phone_number?: string };
  client_reference_id?: string;
  description?: string;
  /** ISO 8601 datetime. */
  expires_at?: string;
  items?: { name: string; price: number | string; quantity: number }[];
  payment_method_options?: {
    virtual_account?: { account_name?: string; account_number?: string | null };
    [method: string]: unknown;
  };
}

/** Event types the sandbox records (spec section 6). */
export type SandboxEventType =
  | 'payment_charge.created'
  | 'payment_charge.update'
  | 'payment_charge.succeeded'
  | 'payment_charge.failed';

/**
 * An event, exactly as it is POSTed to {@link SandboxOptions.webhookUrl}.
 * `data` is a snapshot of the charge at the time of the event.
 */
export interface SandboxEvent {
  /** `evt_` followed by 24 hex digits. */
  id: string;
  type: SandboxEventType;
  /** ISO 8601 UTC, from the sandbox clock. */
  created_at: string;
  data: ChargeRecord;
}

/** One HTTP request the sandbox received, whatever became of it. */
export interface RecordedRequest {
  method: string;
  /** Raw path, without the query string and without percent-decoding. */
  path: string;
  /** Query parameters; the first value of a repeated name. */
  query: Record<string, string>;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey?: string;
  /** Whether the request carried the valid API key. */
  authorized: boolean;
  /** Wall-clock arrival time (not the `now` option, so retry gaps can be measured). */
  at: Date;
}
