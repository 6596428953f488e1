/**
 * Typed factories for merchants' mocks (msw handlers, fakes of their own):
 * the service's objects and envelopes exactly as it sends them, valid by
 * default, with overrides. Overrides are checked by name: a misspelt field
 * (`stauts`) would otherwise leave the default in place and a test passing
 * for the wrong reason; and by value, as strictly as the sandbox checks a
 * request (factory-checks.ts). To mimic a field the service adds later,
 * spread the result: `{ ...fakeCharge(), new_field: 1 }`.
 */
import { chargeFee, DEFAULT_ACCOUNT_NAME, DEFAULT_EXPIRY_MS } from '../service/charges.js';
import {
  currency,
  datetime,
  email,
  fieldError,
  type Fields,
  items,
  merchantTexts,
  money,
  nested,
  nullableText,
  oneOf,
  text,
  url,
} from './factory-checks.js';
import { newVirtualAccountNumber } from '../service/ids.js';
import { checkOptionNames } from '../option-names.js';
import { formatCents } from '../service/money.js';
import type { ChargeRecord, ChargeStatus, PaymentMethodType, TransferRecord } from '../types.js';

/** The customer details of a charge: each field optional. */
type CustomerOverrides = Partial<NonNullable<ChargeRecord['customer_details']>>;

/** What {@link fakeCharge} takes: any field of the charge, nested objects merged into the defaults. @category Testing */
export interface ChargeOverrides extends Partial<
  Omit<ChargeRecord, 'amount' | 'fee' | 'customer_details' | 'items' | 'payment_method_options'>
> {
  /** Greater than 0: a number or a decimal string with at most two decimals; served as `"10000.00"`. */
  amount?: number | string;
  /** As `amount`. Default: what the service charges (0.7 % for `qris`, `"4000.00"` for `virtual_account`). */
  fee?: number | string;
  /** Merged into the default customer; `null` for a charge sent without one. */
  customer_details?: CustomerOverrides | null;
  /** The items bought. Default: one item at the charge's amount. */
  items?: {
    /** What is bought; not empty. */
    name: string;
    /** Unit price, as `amount`; served as `"12500.00"`. */
    price: number | string;
    /** An integer of at least 1. */
    quantity: number;
  }[];
  /** Merged into the default virtual account of a `virtual_account` charge. */
  payment_method_options?: {
    /** The virtual account's `account_name` and `account_number`. */
    virtual_account?: Partial<NonNullable<ChargeRecord['payment_method_options']>['virtual_account']>;
  };
}

/** What {@link fakeTransfer} takes: any field of the transfer. @category Testing */
export interface TransferOverrides extends Partial<Omit<TransferRecord, 'amount'>> {
  /** Greater than 0: a number or a decimal string with at most two decimals; served as `"2500.00"`. */
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
 * `qris` charge of Rp 10.000 created now, with a fresh id. `payment_method:
 * 'virtual_account'` brings a virtual account and its fee; `status:
 * 'success'` sets `paid_at`. Each override is checked as the sandbox checks
 * a request (`status` one of `pending`, `success`, `failed`; `currency` three
 * letters; money above 0; times ISO 8601 with a zone, served in UTC); an
 * unknown field name or a value the service could not send throws a
 * `TypeError` naming the field and what it takes.
 *
 * @example
 * ```ts
 * import { fakeCharge, successEnvelope } from 'lunas-sdk/testing';
 *
 * http.get('https://api.lunas.test/v1/payments/charges/:id', ({ params }) =>
 *   HttpResponse.json(successEnvelope(fakeCharge({ id: String(params.id), status: 'success' }))),
 * );
 * ```
 * @throws `TypeError` for an unknown field name or a value the service could not send.
 * @category Testing
 */
export function fakeCharge(overrides: ChargeOverrides = {}): ChargeRecord {
  const given = checkOverrides(overrides, CHARGE_FIELDS, 'charge');
  const method = oneOf<PaymentMethodType>(given, 'payment_method', ['qris', 'virtual_account'], 'qris');
  const status = oneOf<ChargeStatus>(given, 'status', ['pending', 'success', 'failed'], 'pending');
  const created = datetime(given, 'created_at', new Date().toISOString());
  const amount = money(given, 'amount', 1_000_000n);
  const customer =
    given.customer_details === null ? {} : nested(given, 'customer_details', ['name', 'email', 'phone_number']);
  const charge: ChargeRecord = {
    id: text(given, 'id', randomId('ch_'), true),
    payment_method: method,
    channel: nullableText(given, 'channel', null),
    status,
    currency: currency(given),
    amount: formatCents(amount),
    fee: formatCents(money(given, 'fee', chargeFee(method, amount), 0n)),
    ...merchantTexts(given, 'order-1001'),
    customer_details:
      given.customer_details === null
        ? null
        : {
            name: nullableText(customer, 'name', 'Siti Rahayu', undefined, 'customer_details.'),
            email: email(customer, 'siti@example.com', 'customer_details.'),
            phone_number: nullableText(customer, 'phone_number', '+6281234567890', undefined, 'customer_details.'),
          },
    items: items(given, [{ name: 'Kopi susu', price: formatCents(amount), quantity: 1 }]),
    expires_at: datetime(given, 'expires_at', new Date(Date.parse(created) + DEFAULT_EXPIRY_MS[method]).toISOString()),
    paid_at: paidAt(given, status, created),
    created_at: created,
    updated_at: datetime(given, 'updated_at', created),
  };
  const options = nested(given, 'payment_method_options', ['virtual_account']);
  if (method === 'virtual_account' || options.virtual_account !== undefined) {
    const label = 'payment_method_options.virtual_account';
    const account = nested(options, 'virtual_account', ['account_name', 'account_number'], label);
    const name = charge.customer_details?.name ?? DEFAULT_ACCOUNT_NAME;
    charge.payment_method_options = {
      virtual_account: {
        account_name: text(account, 'account_name', name, false, `${label}.`),
        account_number: text(account, 'account_number', newVirtualAccountNumber(), true, `${label}.`),
      },
    };
  }
  for (const name of ['payment_url', 'qr_code_url'] as const) {
    const address = url(given, name);
    if (address !== undefined) charge[name] = address;
  }
  return charge;
}

/**
 * Where {@link fakeCreatedCharge}'s addresses point by default: the address
 * `createSandbox` serves at, which never resolves (`.invalid`), so a test
 * that fetches one fails rather than reaching a host.
 */
const FAKE_PAYMENT_ORIGIN = 'https://sandbox.lunas.invalid';

/**
 * A charge as `POST /v1/payments/charges` answers its creation, which
 * `client.charges.create` resolves to: {@link fakeCharge} (pending; the same
 * overrides, checked the same way) plus what the customer needs to pay:
 * `payment_url`, and for a `qris` charge `qr_code_url`; a `virtual_account`
 * charge carries its account number in
 * `payment_method_options.virtual_account` and no `qr_code_url`, as the
 * service sends them. The addresses default to the charge's pages at
 * `https://sandbox.lunas.invalid` (`/pay/{id}`, `/qr/{id}.svg`), an address
 * that never resolves; give `payment_url` or `qr_code_url` to choose them.
 * `status` other than `pending`, or a `qr_code_url` on a `virtual_account`
 * charge, throws: the service creates neither.
 *
 * @example
 * ```ts
 * import { fakeCreatedCharge, successEnvelope } from 'lunas-sdk/testing';
 *
 * http.post('https://api.lunas.test/v1/payments/charges', () =>
 *   HttpResponse.json(successEnvelope(fakeCreatedCharge({ amount: 25_000 }))),
 * );
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
 * charge.qr_code_url; // 'https://sandbox.lunas.invalid/qr/ch_….svg'
 * ```
 * @throws `TypeError` for an unknown field name or a value the service could not send on create.
 * @category Testing
 */
export function fakeCreatedCharge(overrides: ChargeOverrides = {}): ChargeRecord & {
  /** The customer's payment page: always on a create response. */
  payment_url: string;
} {
  const given = checkOverrides(overrides, CHARGE_FIELDS, 'charge');
  if (given.status !== undefined && given.status !== 'pending') {
    throw fieldError('status', 'pending on a charge just created (pay it later with a fakeCharge)', given.status);
  }
  const charge = fakeCharge(given as ChargeOverrides);
  const id = encodeURIComponent(charge.id);
  if (charge.payment_method === 'qris') {
    charge.qr_code_url ??= `${FAKE_PAYMENT_ORIGIN}/qr/${id}.svg`;
  } else if (charge.qr_code_url !== undefined) {
    throw fieldError(
      'qr_code_url',
      'absent on a virtual_account charge: only a qris charge has a QR code',
      charge.qr_code_url,
    );
  }
  // The addresses after the charge's own fields, as the sandbox's create route adds them.
  const { payment_url, qr_code_url, ...rest } = charge;
  return {
    ...rest,
    payment_url: payment_url ?? `${FAKE_PAYMENT_ORIGIN}/pay/${id}`,
    ...(qr_code_url === undefined ? {} : { qr_code_url }),
  };
}

/** `paid_at`: a time on a charge with status `success` (its creation by default), `null` on any other. */
function paidAt(given: Fields, status: ChargeStatus, created: string): string | null {
  const value = given.paid_at;
  if (status !== 'success') {
    if (value !== undefined && value !== null) {
      throw fieldError('paid_at', `null for a ${status} charge: only a charge with status success was paid`, value);
    }
    return null;
  }
  if (value === null) throw fieldError('paid_at', 'a time for a charge with status success', value);
  return datetime(given, 'paid_at', created);
}

/**
 * A transfer as `POST /v1/transfers` and the list send it: by default Rp
 * 25.000 from `acc_merchant` to `acc_partner`, succeeded, created now. Each
 * override is checked as the sandbox checks a request (`status` one of
 * `succeeded`, `failed`; `currency` idr; money above 0; times ISO 8601 with
 * a zone, served in UTC); an unknown field name or a value the service could
 * not send throws a `TypeError` naming the field and what it takes.
 * @throws `TypeError` for an unknown field name or a value the service could not send.
 * @category Testing
 */
export function fakeTransfer(overrides: TransferOverrides = {}): TransferRecord {
  const given = checkOverrides(overrides, TRANSFER_FIELDS, 'transfer');
  // A charge's statuses are other words (`success`): the likeliest mix-up, named.
  const status = oneOf(
    given,
    'status',
    ['succeeded', 'failed'],
    'succeeded',
    "; pending and success are a charge's statuses",
  );
  const transferCurrency = given.currency ?? 'idr';
  if (typeof transferCurrency !== 'string' || transferCurrency.toLowerCase() !== 'idr') {
    throw fieldError('currency', 'idr, the only currency transfers support', transferCurrency);
  }
  const created = datetime(given, 'created_at', new Date().toISOString());
  return {
    id: text(given, 'id', randomId('tr_'), true),
    source_account_id: text(given, 'source_account_id', 'acc_merchant', true),
    destination_account_id: text(given, 'destination_account_id', 'acc_partner', true),
    source_account_name: text(given, 'source_account_name', 'Merchant'),
    destination_account_name: text(given, 'destination_account_name', 'Partner'),
    status,
    currency: 'idr',
    amount: formatCents(money(given, 'amount', 2_500_000n)),
    ...merchantTexts(given, null),
    created_at: created,
    updated_at: datetime(given, 'updated_at', created),
  };
}

/** Own enumerable names only, each a known field; the values read once. */
function checkOverrides<K extends string>(given: unknown, known: readonly K[], what: string): Fields {
  return checkOptionNames(given, known, `The ${what} overrides must be an object of fields`, `${what} field`);
}

function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
