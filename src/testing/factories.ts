/**
 * Typed factories for merchants' mocks (msw handlers, fakes of their own):
 * the service's objects and envelopes exactly as it sends them, valid by
 * default, with overrides. Overrides are checked by name: a misspelt field
 * (`stauts`) would otherwise leave the default in place and a test passing
 * for the wrong reason. To mimic a field the service adds later, spread the
 * result: `{ ...fakeCharge(), new_field: 1 }`.
 */
import { chargeFee, DEFAULT_ACCOUNT_NAME, DEFAULT_EXPIRY_MS } from './charges.js';
import { newVirtualAccountNumber } from './ids.js';
import { checkOptionNames } from './option-names.js';
import { formatCents, parseCents } from './money.js';
import type { ChargeRecord, ChargeStatus, PaymentMethodType, TransferRecord } from './types.js';

/** The customer details of a charge: each field optional. */
type CustomerOverrides = Partial<NonNullable<ChargeRecord['customer_details']>>;

/** What {@link fakeCharge} takes: any field of the charge, nested objects merged into the defaults. @category Testing */
export interface ChargeOverrides extends Partial<
  Omit<ChargeRecord, 'amount' | 'fee' | 'customer_details' | 'payment_method_options'>
> {
  /** A number or a decimal string with at most two decimals; served as `"10000.00"`. */
  amount?: number | string;
  /** As `amount`. Default: what the service charges (0.7 % for `qris`, `"4000.00"` for `virtual_account`). */
  fee?: number | string;
  /** Merged into the default customer; `null` for a charge sent without one. */
  customer_details?: CustomerOverrides | null;
  /** Merged into the default virtual account of a `virtual_account` charge. */
  payment_method_options?: {
    /** The virtual account's `account_name` and `account_number`. */
    virtual_account?: Partial<NonNullable<ChargeRecord['payment_method_options']>['virtual_account']>;
  };
}

/** What {@link fakeTransfer} takes: any field of the transfer. @category Testing */
export interface TransferOverrides extends Partial<Omit<TransferRecord, 'amount'>> {
  /** A number or a decimal string with at most two decimals; served as `"2500.00"`. */
  amount?: number | string;
}

const CHARGE_FIELDS = [
  'id',
  'payment_method',
  'channel',
  'status',
  'currency',
  'amount',
  'fee',
  'client_reference_id',
  'customer_details',
  'items',
  'description',
  'payment_method_options',
  'expires_at',
  'paid_at',
  'created_at',
  'updated_at',
  'payment_url',
  'qr_code_url',
] as const satisfies readonly (keyof ChargeRecord)[];

const TRANSFER_FIELDS = [
  'id',
  'source_account_id',
  'destination_account_id',
  'source_account_name',
  'destination_account_name',
  'status',
  'currency',
  'amount',
  'description',
  'client_reference_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof TransferRecord)[];

/**
 * A charge as `GET /v1/payments/charges/{id}` sends it: by default a pending
 * `qris` charge of Rp 10,000 created now, with a fresh id. `payment_method:
 * 'virtual_account'` brings a virtual account and its fee; `status:
 * 'success'` sets `paid_at`. An unknown field name, or a value of the wrong
 * kind, throws a `TypeError`.
 *
 * @example
 * ```ts
 * import { fakeCharge, successEnvelope } from 'lunas-sdk/testing';
 *
 * http.get('https://api.lunas.test/v1/payments/charges/:id', ({ params }) =>
 *   HttpResponse.json(successEnvelope(fakeCharge({ id: String(params.id), status: 'success' }))),
 * );
 * ```
 * @throws `TypeError` for an unknown field name or a value of the wrong kind.
 * @category Testing
 */
export function fakeCharge(overrides: ChargeOverrides = {}): ChargeRecord {
  const given = checkOverrides(overrides, CHARGE_FIELDS, 'charge');
  const method = (given.payment_method ?? 'qris') as PaymentMethodType;
  if (method !== 'qris' && method !== 'virtual_account') throw fieldError('payment_method', 'qris or virtual_account');
  const status = (text(given, 'status') ?? 'pending') as ChargeStatus;
  const created = text(given, 'created_at') ?? new Date().toISOString();
  const amount = money(given, 'amount') ?? 1_000_000n;
  const customer =
    given.customer_details === null ? {} : nested(given, 'customer_details', ['name', 'email', 'phone_number']);
  const charge: ChargeRecord = {
    id: text(given, 'id') ?? randomId('ch_'),
    payment_method: method,
    channel: nullableText(given, 'channel', null),
    status,
    currency: text(given, 'currency') ?? 'idr',
    amount: formatCents(amount),
    fee: formatCents(money(given, 'fee') ?? chargeFee(method, amount)),
    client_reference_id: nullableText(given, 'client_reference_id', 'order-1001'),
    customer_details:
      given.customer_details === null
        ? null
        : {
            name: nullableText(customer, 'name', 'Siti Rahayu', 'customer_details.'),
            email: nullableText(customer, 'email', 'siti@example.com', 'customer_details.'),
            phone_number: nullableText(customer, 'phone_number', '+6281234567890', 'customer_details.'),
          },
    items: (given.items as ChargeRecord['items'] | undefined) ?? [
      { name: 'Kopi susu', price: formatCents(amount), quantity: 1 },
    ],
    description: nullableText(given, 'description', null),
    expires_at: text(given, 'expires_at') ?? new Date(Date.parse(created) + DEFAULT_EXPIRY_MS[method]).toISOString(),
    paid_at: nullableText(given, 'paid_at', status === 'success' ? created : null),
    created_at: created,
    updated_at: text(given, 'updated_at') ?? created,
  };
  if (given.items !== undefined && !Array.isArray(given.items)) throw fieldError('items', 'an array');
  const options = nested(given, 'payment_method_options', ['virtual_account']);
  if (method === 'virtual_account' || options.virtual_account !== undefined) {
    const label = 'payment_method_options.virtual_account';
    const account = nested(options, 'virtual_account', ['account_name', 'account_number'], label);
    charge.payment_method_options = {
      virtual_account: {
        account_name:
          text(account, 'account_name', `${label}.`) ?? charge.customer_details?.name ?? DEFAULT_ACCOUNT_NAME,
        account_number: text(account, 'account_number', `${label}.`) ?? newVirtualAccountNumber(),
      },
    };
  }
  for (const name of ['payment_url', 'qr_code_url'] as const) {
    const url = text(given, name);
    if (url !== undefined) charge[name] = url;
  }
  return charge;
}

/**
 * A transfer as `POST /v1/transfers` and the list send it: by default Rp
 * 25,000 from `acc_merchant` to `acc_partner`, succeeded, created now.
 * Unknown field names and values of the wrong kind throw a `TypeError`.
 * @throws `TypeError` for an unknown field name or a value of the wrong kind.
 * @category Testing
 */
export function fakeTransfer(overrides: TransferOverrides = {}): TransferRecord {
  const given = checkOverrides(overrides, TRANSFER_FIELDS, 'transfer');
  const status = given.status ?? 'succeeded';
  if (status !== 'succeeded' && status !== 'failed') throw fieldError('status', 'succeeded or failed');
  const created = text(given, 'created_at') ?? new Date().toISOString();
  return {
    id: text(given, 'id') ?? randomId('tr_'),
    source_account_id: text(given, 'source_account_id') ?? 'acc_merchant',
    destination_account_id: text(given, 'destination_account_id') ?? 'acc_partner',
    source_account_name: text(given, 'source_account_name') ?? 'Merchant',
    destination_account_name: text(given, 'destination_account_name') ?? 'Partner',
    status,
    currency: text(given, 'currency') ?? 'idr',
    amount: formatCents(money(given, 'amount') ?? 2_500_000n),
    description: nullableText(given, 'description', null),
    client_reference_id: nullableText(given, 'client_reference_id', null),
    created_at: created,
    updated_at: text(given, 'updated_at') ?? created,
  };
}

/** Own enumerable names only, each a known field; the values read once. */
function checkOverrides<K extends string>(given: unknown, known: readonly K[], what: string): { [P in K]?: unknown } {
  return checkOptionNames(given, known, `The ${what} overrides must be an object of fields`, `${what} field`);
}

const fieldMessage = (name: string, expected: string): string => `The ${name} override must be ${expected}`;

function fieldError(name: string, expected: string): TypeError {
  return new TypeError(fieldMessage(name, expected));
}

function text(given: Record<string, unknown>, name: string, prefix = ''): string | undefined {
  const value = given[name];
  if (value !== undefined && typeof value !== 'string') throw fieldError(prefix + name, 'a string');
  return value;
}

function nullableText(
  given: Record<string, unknown>,
  name: string,
  fallback: string | null,
  prefix = '',
): string | null {
  const value = given[name];
  if (value === undefined) return fallback;
  if (value !== null && typeof value !== 'string') throw fieldError(prefix + name, 'a string or null');
  return value;
}

function money(given: Record<string, unknown>, name: string): bigint | undefined {
  const value = given[name];
  if (value === undefined) return undefined;
  const cents = parseCents(value);
  if (cents === undefined || cents < 0n) throw fieldError(name, 'an amount such as 10000 or "10000.00"');
  return cents;
}

/** A nested object override, its names checked; `{}` when not given. */
function nested(
  given: Record<string, unknown>,
  name: string,
  known: readonly string[],
  label = name,
): Record<string, unknown> {
  const value = given[name];
  if (value === undefined) return {};
  return checkOptionNames(value, known, fieldMessage(label, 'an object'), `${label} field`);
}

function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
