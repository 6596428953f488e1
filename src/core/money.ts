/**
 * Money, one rule both ways: a response's amount is normalised to a
 * two-decimal string without floating point, and a request's is checked to
 * survive the trip as a JSON number, with a message saying how to write it.
 */
import * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import type { Schema } from './schema.js';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const CANONICAL = /^-?(?:0|[1-9]\d*)\.\d\d$/;

/**
 * Money as a string with exactly two fractional digits: `10000` and `"10000"`
 * both become `"10000.00"`. Undefined when the value is not a finite decimal or
 * would lose a non-zero digit beyond the cents.
 */
export function normalizeMoney(value: number | string): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // BigInt prints large integers without an exponent; String() gives the
    // shortest round-tripping form of the rest (and an exponent, refused, for
    // values far below a cent).
    text = Number.isInteger(value) ? BigInt(value).toString() : String(value);
  } else {
    // The usual answer ("10000.00") is already normal: skip the rewrite.
    if (CANONICAL.test(value)) return value;
    text = value;
  }
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  return `${sign}${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/**
 * From 2^46 (about 70 trillion) on, two amounts a cent apart can parse to the
 * same JSON number: a number that large cannot be trusted to the cent.
 */
const MAX_EXACT_MONEY_NUMBER = 2 ** 46;

/** Money in a response: a JSON number or string, normalised to two decimals. */
export const money = z.transform((value: unknown, ctx) => {
  // One step instead of union + pipe: it runs for every amount on every page.
  if (typeof value === 'number' && Math.abs(value) >= MAX_EXACT_MONEY_NUMBER) {
    ctx.issues.push({ code: 'custom', input: value, message: 'a JSON number this large cannot carry cents exactly' });
    return z.NEVER;
  }
  const normalized = typeof value === 'number' || typeof value === 'string' ? normalizeMoney(value) : undefined;
  if (normalized === undefined) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'expected a decimal amount with at most two fractional digits',
    });
    return z.NEVER;
  }
  return normalized;
}) as Schema<string, number | string>;

/**
 * Money in a request: a number or decimal string, finite, above 0, at most two
 * fractional digits; sent as a JSON number, so it must survive that exactly.
 * Messages name the value given and how to write it.
 */
export function moneyParam(label: string): Schema<number, number | string> {
  const invalid = (value: unknown) =>
    `${label} must be a number with at most two decimal places (got ${describeValue(value)}${moneyHint(value)})`;
  return z.pipe(
    z.union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined ? `${label} is required` : invalid(issue.input)),
    }),
    z.transform((value, ctx) => {
      const normalized = normalizeMoney(value);
      const fail = (message: string) => {
        ctx.issues.push({ code: 'custom', input: value, message });
        return z.NEVER;
      };
      if (normalized === undefined) return fail(invalid(value));
      // The service's own message, word for word.
      if (normalized.startsWith('-') || /^0\.00$/.test(normalized)) return fail(`${label} must be greater than 0`);
      const sent = Number(normalized);
      if (normalizeMoney(sent) !== normalized) {
        return fail(`${label} is too large to send exactly as a JSON number (got ${describeValue(value)})`);
      }
      return sent;
    }),
  );
}

const THOUSANDS_SEPARATED = /^\d{1,3}(?:([,_ ])\d{3})(?:\1\d{3})*(?:\.\d+)?$/;

/** How to write a money value that was refused: `; write 10000 or "10000.00"`, or `''`. */
function moneyHint(value: unknown): string {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? '; round it to cents, e.g. Math.round(amount * 100) / 100' : '';
  }
  if (typeof value !== 'string') return '; pass a number or a decimal string';
  const trimmed = value.trim();
  // "10,000" or "10 000": thousands separators, never a decimal comma ("1,5" is not 15).
  const separator = THOUSANDS_SEPARATED.exec(trimmed)?.[1];
  const candidate = separator === undefined ? trimmed : trimmed.replaceAll(separator, '');
  const normalized = normalizeMoney(candidate);
  if (normalized !== undefined) return `; write ${Number(normalized)} or "${normalized}"`;
  if (DECIMAL.test(candidate)) return '; round it to two decimal places';
  return '; write digits with an optional dot and two decimals, e.g. 10000 or "10000.00"';
}
