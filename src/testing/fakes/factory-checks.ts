/**
 * The factories' check of each override: the sandbox's own request rules
 * (rules.ts, money.ts) applied to what a merchant's mock may set, so a fake
 * is an object the sandbox could have served. A refusal is a `TypeError`
 * naming the field, what it takes, and what it got: a fake that the service
 * could never send would let a test pass against a wire that does not exist.
 * Each check returns the value as the sandbox serves it (money as
 * `"10000.00"`, times in UTC, currency in lower case).
 */
import { shown } from '../describe-value.js';
import { checkOptionNames } from '../option-names.js';
import { formatCents, parseCents } from '../service/money.js';
import { CLIENT_REFERENCE_ID_MAX, codePoints, DESCRIPTION_MAX, EMAIL, parseIsoDatetime } from '../service/rules.js';
import type { ChargeItemRecord } from '../types.js';

/** An override object, its names already checked: every known name an own key. */
export type Fields = Record<string, unknown>;

/** `The status override must be pending, success or failed (got "paid")`. */
export function fieldError(field: string, expected: string, value: unknown, hint = ''): TypeError {
  return new TypeError(`The ${field} override must be ${expected} (got ${shown(value)})${hint}`);
}

/** `a, b or c`. */
const either = (names: readonly string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : String(names[0]);

/** One of `allowed`; `fallback` when not given. `hint` ends the message (a likely mix-up, named). */
export function oneOf<T extends string>(given: Fields, name: string, allowed: readonly T[], fallback: T, hint = ''): T {
  const value = given[name];
  if (value === undefined) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) throw fieldError(name, either(allowed), value, hint);
  return value as T;
}

/** A string (non-empty when `nonEmpty`, an id or an account); `fallback` when not given. */
export function text(given: Fields, field: string, fallback: string, nonEmpty = false, prefix = ''): string {
  const value = given[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || (nonEmpty && value === '')) {
    throw fieldError(prefix + field, nonEmpty ? 'a non-empty string' : 'a string', value);
  }
  return value;
}

/** A string of at most `max` characters (code points, as the sandbox counts), or `null`. */
export function nullableText(
  given: Fields,
  field: string,
  fallback: string | null,
  max?: number,
  prefix = '',
): string | null {
  const value = given[field];
  if (value === undefined) return fallback;
  const limit = max === undefined ? '' : ` of at most ${max} characters`;
  if (value !== null && (typeof value !== 'string' || (max !== undefined && codePoints(value) > max))) {
    throw fieldError(prefix + field, `a string${limit} or null`, value);
  }
  return value;
}

/** `client_reference_id` and `description`, with the sandbox's limits on charges and transfers alike. */
export function merchantTexts(given: Fields, reference: string | null) {
  return {
    client_reference_id: nullableText(given, 'client_reference_id', reference, CLIENT_REFERENCE_ID_MAX),
    description: nullableText(given, 'description', null, DESCRIPTION_MAX),
  };
}

const MONEY = 'an amount greater than 0 with at most two decimals, such as 10000 or "10000.00"';

/** An amount by the sandbox's money rules, above 0 (or at least 0, a fee); `fallback` cents when not given. */
export function money(given: Fields, field: string, fallback: bigint, least: 0n | 1n = 1n, prefix = ''): bigint {
  const value = given[field];
  if (value === undefined) return fallback;
  const cents = parseCents(value);
  if (cents === undefined || cents < least) {
    throw fieldError(prefix + field, least === 0n ? MONEY.replace('greater than 0', 'of at least 0') : MONEY, value);
  }
  return cents;
}

/** An ISO 8601 datetime with a zone, as the sandbox reads `expires_at`; served in UTC, as the service writes times. */
export function datetime(given: Fields, field: string, fallback: string): string {
  const value = given[field];
  if (value === undefined) return fallback;
  const time = typeof value === 'string' ? parseIsoDatetime(value) : undefined;
  if (!time) {
    throw fieldError(field, 'an ISO 8601 datetime with a zone, such as "2026-11-23T03:00:00Z"', value);
  }
  return time.toISOString();
}

/** Three letters, served in lower case, as the sandbox reads a charge's `currency`. */
export function currency(given: Fields): string {
  const value = given.currency ?? 'idr';
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) {
    throw fieldError('currency', 'a three-letter currency code such as idr', value);
  }
  return value.toLowerCase();
}

/** An email as the sandbox checks `customer_details.email`, or `null`. */
export function email(given: Fields, fallback: string, prefix: string): string | null {
  const value = given.email;
  if (value === undefined) return fallback;
  if (value !== null && (typeof value !== 'string' || !EMAIL.test(value))) {
    throw fieldError(`${prefix}email`, 'an email address such as "siti@example.com", or null', value);
  }
  return value;
}

/** An absolute URL (the create response's `payment_url`, `qr_code_url`), or `undefined` when not given. */
export function url(given: Fields, field: string): string | undefined {
  const value = given[field];
  if (value !== undefined && (typeof value !== 'string' || !URL.canParse(value))) {
    throw fieldError(field, 'an absolute URL', value);
  }
  return value;
}

/** A nested object override, its names checked; `{}` when not given. */
export function nested(given: Fields, name: string, known: readonly string[], label = name): Fields {
  const value = given[name];
  if (value === undefined) return {};
  return checkOptionNames(
    value,
    known,
    `The ${label} override must be an object (got ${shown(value)})`,
    `${label} field`,
  );
}

/** The items, each as the sandbox checks one in a request: a name, a price above 0, a quantity of at least 1. */
export function items(given: Fields, fallback: ChargeItemRecord[]): ChargeItemRecord[] {
  const value = given.items;
  if (value === undefined) return fallback;
  if (!Array.isArray(value)) throw fieldError('items', 'an array of { name, price, quantity }', value);
  return value.map((_, index) => {
    const at = `items.${index}`;
    const item = nested(value as unknown as Fields, String(index), ['name', 'price', 'quantity'], at);
    const { name, quantity } = item;
    if (typeof name !== 'string' || name === '') throw fieldError(`${at}.name`, 'a non-empty string', name);
    if (item.price === undefined) throw fieldError(`${at}.price`, MONEY, undefined);
    if (!Number.isSafeInteger(quantity) || (quantity as number) < 1) {
      throw fieldError(`${at}.quantity`, 'an integer of at least 1', quantity);
    }
    return { name, price: formatCents(money(item, 'price', 0n, 1n, `${at}.`)), quantity: quantity as number };
  });
}
