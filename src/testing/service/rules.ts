/**
 * The service's request rules, written for the server side. Every rule is
 * applied here, independently of the SDK, so the sandbox catches whatever a
 * faulty client lets through.
 */
import type { JsonBody } from './json.js';
import { LATEST_EXPIRES_AT } from './clock.js';
import { parseCents } from './money.js';
import type { PaymentMethodType } from '../types.js';

/** Dotted field name -> messages, the shape of the `fail` envelope. */
type FieldErrors = Record<string, string[]>;

/**
 * The literal a JSON number of the body was sent as, so money is read from its
 * digits and not from a double; a body built in code has none.
 */
type NumberText = JsonBody['numberText'];
const noLiterals: NumberText = () => undefined;

type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export interface ChargeInput {
  paymentMethod: PaymentMethodType;
  channel: string | null;
  amount: bigint;
  currency: string;
  customer: { name: string | null; email: string | null; phoneNumber: string | null } | null;
  clientReferenceId: string | null;
  description: string | null;
  items: { name: string; price: bigint; quantity: number }[];
  expiresAt: Date | null;
  virtualAccount: { accountName: string | null; accountNumber: string | null };
}

export interface TransferInput {
  destinationAccountId: string;
  amount: bigint;
  currency: string;
  clientReferenceId: string | null;
  description: string | null;
}

/** What transfer validation needs to know about accounts. */
export interface AccountLookup {
  sourceAccountId: string;
  isActive(accountId: string): boolean | undefined;
}

/** The longest `client_reference_id` and `description`, in code points (the factories check them too). */
export const CLIENT_REFERENCE_ID_MAX = 50;
export const DESCRIPTION_MAX = 255;

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))$/i;

class Collector {
  readonly errors: FieldErrors = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  result<T>(value: () => T): Checked<T> {
    return Object.keys(this.errors).length > 0 ? { ok: false, errors: this.errors } : { ok: true, value: value() };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const absent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** Lengths count Unicode code points, so an emoji is one character. */
export const codePoints = (text: string): number => [...text].length;

function optionalString(out: Collector, field: string, label: string, value: unknown, max?: number): string | null {
  if (absent(value)) return null;
  if (typeof value !== 'string') {
    out.add(field, `${label} must be a string`);
    return null;
  }
  if (max !== undefined && codePoints(value) > max) {
    out.add(field, `${label} must be at most ${max} characters`);
  }
  return value;
}

function money(out: Collector, field: string, label: string, value: unknown, literal: string | undefined): bigint {
  if (absent(value)) {
    out.add(field, `${label} is required`);
    return 0n;
  }
  const cents = parseCents(value, literal);
  if (cents === undefined) {
    out.add(field, `${label} must be a number with at most two decimal places`);
    return 0n;
  }
  if (cents <= 0n) out.add(field, `${label} must be greater than 0`);
  return cents;
}

/** Parses an ISO 8601 datetime with an explicit offset, rejecting impossible dates. */
export function parseIsoDatetime(text: string): Date | undefined {
  const m = ISO_DATETIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function items(out: Collector, value: unknown, numberText: NumberText): ChargeInput['items'] {
  if (absent(value)) return [];
  if (!Array.isArray(value)) {
    out.add('items', 'Items must be an array');
    return [];
  }
  return value.map((item: unknown, index) => {
    const at = `items.${index}`;
    if (!isPlainObject(item)) {
      out.add(at, 'Item must be an object');
      return { name: '', price: 0n, quantity: 0 };
    }
    let name = '';
    if (absent(item.name) || item.name === '') out.add(`${at}.name`, 'Name is required');
    else if (typeof item.name !== 'string') out.add(`${at}.name`, 'Name must be a string');
    else name = item.name;
    const price = money(out, `${at}.price`, 'Price', item.price, numberText(item, 'price'));
    let quantity = 0;
    if (absent(item.quantity)) out.add(`${at}.quantity`, 'Quantity is required');
    else if (!Number.isSafeInteger(item.quantity) || (item.quantity as number) < 1) {
      out.add(`${at}.quantity`, 'Quantity must be a positive integer');
    } else quantity = item.quantity as number;
    return { name, price, quantity };
  });
}

function customer(out: Collector, value: unknown): ChargeInput['customer'] {
  if (absent(value)) return null;
  if (!isPlainObject(value)) {
    out.add('customer_details', 'Customer details must be an object');
    return null;
  }
  let email: string | null = null;
  if (!absent(value.email)) {
    if (typeof value.email === 'string' && EMAIL.test(value.email)) email = value.email;
    else out.add('customer_details.email', 'Invalid email format');
  }
  return {
    name: optionalString(out, 'customer_details.name', 'Name', value.name),
    email,
    phoneNumber: optionalString(out, 'customer_details.phone_number', 'Phone number', value.phone_number),
  };
}

function virtualAccount(out: Collector, value: unknown): ChargeInput['virtualAccount'] {
  const none = { accountName: null, accountNumber: null };
  if (absent(value)) return none;
  if (!isPlainObject(value)) {
    out.add('payment_method_options', 'Payment method options must be an object');
    return none;
  }
  const options = value.virtual_account;
  if (absent(options)) return none;
  const field = 'payment_method_options.virtual_account';
  if (!isPlainObject(options)) {
    out.add(field, 'Virtual account options must be an object');
    return none;
  }
  const accountName = optionalString(out, `${field}.account_name`, 'Account name', options.account_name);
  let accountNumber: string | null = null;
  if (!absent(options.account_number)) {
    if (typeof options.account_number === 'string') accountNumber = options.account_number;
    else out.add(`${field}.account_number`, 'Account number must be a string or null');
  }
  return { accountName, accountNumber };
}

/**
 * A charge's own `expires_at`: a datetime after the sandbox's `now` (a charge
 * born expired would read `pending` in its create response and `failed` a
 * moment later) and within year 9999 (its timestamps keep four digits).
 */
function expiry(out: Collector, value: unknown, now: Date | undefined): Date | null {
  if (absent(value)) return null;
  const expiresAt = typeof value === 'string' ? parseIsoDatetime(value) : undefined;
  if (!expiresAt) out.add('expires_at', 'Expires at must be an ISO 8601 datetime');
  else if (expiresAt.getTime() > LATEST_EXPIRES_AT) {
    out.add('expires_at', `Expires at must be at most ${new Date(LATEST_EXPIRES_AT).toISOString()}`);
  } else if (now !== undefined && expiresAt <= now) {
    out.add('expires_at', `Expires at must be after the sandbox's current time, ${now.toISOString()}`);
  } else return expiresAt;
  return null;
}

/**
 * Validates a `POST /v1/payments/charges` body, collecting every failure;
 * `now`, the sandbox's time, is what `expires_at` must come after (the
 * property tests check bodies with no sandbox, so no time).
 */
export function checkCharge(body: Record<string, unknown>, numberText = noLiterals, now?: Date): Checked<ChargeInput> {
  const out = new Collector();

  let paymentMethod: PaymentMethodType = 'qris';
  if (absent(body.payment_method)) out.add('payment_method', 'Payment method is required');
  else if (body.payment_method !== 'qris' && body.payment_method !== 'virtual_account') {
    out.add('payment_method', 'Payment method must be qris or virtual_account');
  } else paymentMethod = body.payment_method;

  const amount = money(out, 'amount', 'Amount', body.amount, numberText(body, 'amount'));

  let currency = 'idr';
  if (!absent(body.currency)) {
    if (typeof body.currency === 'string' && /^[A-Za-z]{3}$/.test(body.currency))
      currency = body.currency.toLowerCase();
    else out.add('currency', 'Currency must be a three-letter code');
  }

  const expiresAt = expiry(out, body.expires_at, now);

  const channel = optionalString(out, 'channel', 'Channel', body.channel);
  const { clientReferenceId, description } = merchantTexts(out, body);
  const customerDetails = customer(out, body.customer_details);
  const chargeItems = items(out, body.items, numberText);
  const va = virtualAccount(out, body.payment_method_options);

  return out.result(() => ({
    paymentMethod,
    channel,
    amount,
    currency,
    customer: customerDetails,
    clientReferenceId,
    description,
    items: chargeItems,
    expiresAt,
    virtualAccount: va,
  }));
}

/** The merchant's own `client_reference_id` and `description`, with the same limits on charges and transfers. */
function merchantTexts(out: Collector, body: Record<string, unknown>) {
  return {
    clientReferenceId: optionalString(
      out,
      'client_reference_id',
      'Client reference ID',
      body.client_reference_id,
      CLIENT_REFERENCE_ID_MAX,
    ),
    description: optionalString(out, 'description', 'Description', body.description, DESCRIPTION_MAX),
  };
}

/** Validates a `POST /v1/transfers` body, destination account included. */
export function checkTransfer(
  body: Record<string, unknown>,
  accounts: AccountLookup,
  numberText = noLiterals,
): Checked<TransferInput> {
  const out = new Collector();
  const field = 'destination_account_id';
  const destination = body.destination_account_id;
  if (absent(destination) || destination === '') out.add(field, 'Destination account is required');
  else if (typeof destination !== 'string') out.add(field, 'Destination account must be a string');
  else {
    const active = accounts.isActive(destination);
    if (active === undefined) out.add(field, 'Destination account not found');
    else if (destination === accounts.sourceAccountId) {
      out.add(field, 'Destination account must differ from the source account');
    } else if (!active) out.add(field, 'Destination account is not active');
  }

  const amount = money(out, 'amount', 'Amount', body.amount, numberText(body, 'amount'));

  let currency = 'idr';
  if (absent(body.currency) || body.currency === '') out.add('currency', 'Currency is required');
  else if (typeof body.currency !== 'string' || body.currency.toLowerCase() !== 'idr') {
    out.add('currency', 'Currency is not supported');
  } else currency = body.currency.toLowerCase();

  const { clientReferenceId, description } = merchantTexts(out, body);

  return out.result(() => ({
    destinationAccountId: destination as string,
    amount,
    currency,
    clientReferenceId,
    description,
  }));
}
